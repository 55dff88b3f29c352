#!/usr/bin/env node
// Bundles the svc CLI (packages/cli/dist, after tsc -b) with esbuild, so that `svc` starts by
// reading a dozen files instead of a hundred modules. Part of `npm run build`.
//
// Split (the entry and one chunk per lazily imported command), not one file: one 3.3 MB file
// cost more to compile on every start than the module loading it saved; the split build halves
// the start-up. The files sit directly in dist/, where the CLI's import.meta.url-relative paths
// (the docs folder, the node_modules above it) stay what they are for dist/main.js.
// dist/svc-bundle.json records the builds of the packages it was made from: bin/svc.js runs it
// only while they are unchanged, so a `tsc -b` without this step runs dist/main.js, not old code.
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'packages/cli/dist')
const PREFIX = 'svc-bundle'
// esbuild: a native binary with its own platform packages. yaml: CommonJS loaded by a dynamic
// import() for its named exports, which a split bundle would reduce to `default`. Recorded in
// svc-bundle.json: scripts/pack-cli.js makes them dependencies of the released package.
const EXTERNAL = ['esbuild', 'yaml']

for (const name of readdirSync(dist)) if (name.startsWith(PREFIX)) rmSync(join(dist, name))

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: { [PREFIX]: join(dist, 'main.js') },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outdir: dist,
  chunkNames: `${PREFIX}-[name]-[hash]`,
  external: EXTERNAL,
  // CommonJS dependencies (commander, semver, swagger2openapi) require Node's built-ins.
  banner: {
    js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: 'warning',
})

const packages = new Set()
for (const input of Object.keys(metafile.inputs)) {
  const match = /^(packages\/(?:generators\/)?[^/]+)\/dist\//.exec(input)
  if (match) packages.add(match[1])
}
const builtFrom = [...packages].sort().map((pkg) => {
  const file = join(root, pkg, 'dist/.tsbuildinfo')
  return { path: relative(dist, file).split(sep).join('/'), mtimeMs: statSync(file).mtimeMs }
})
writeFileSync(
  join(dist, `${PREFIX}.json`),
  `${JSON.stringify({ builtFrom, external: EXTERNAL }, null, 2)}\n`,
)
