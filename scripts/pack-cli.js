#!/usr/bin/env node
// Makes the one tarball that installs the svc CLI anywhere with plain npm:
// packages/hub/downloads/svc-cli-<version>.tgz, which the hub serves at /downloads/svc-cli.tgz
// (docs/install.md). Part of `npm run build`, after scripts/bundle-cli.js.
//
// It stages packages/cli/release/stage/ as the package @svc/cli: the bin, the CLI's esbuild
// bundle (dist/svc-bundle*.js, which starts fast and inlines every module the CLI runs), and, as
// real folders under node_modules/@svc/ listed in bundleDependencies, the workspace packages the
// CLI resolves from disk at run time (see RESOLVED_FROM_DISK). Their registry dependencies, and
// the bundle's externals, become ordinary dependencies at the versions of the workspace lock, so
// npm installs them (esbuild with its platform binary) from the registry. Then `npm pack`, only
// when the staged files changed since the last pack.
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const started = performance.now()
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cliDir = join(root, 'packages/cli')
const release = join(cliDir, 'release')
const stage = join(release, 'stage')
const downloads = join(root, 'packages/hub/downloads')

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))
const cli = readJson(join(cliDir, 'package.json'))
const hub = readJson(join(root, 'packages/hub/package.json'))
const lock = readJson(join(root, 'package-lock.json'))

// The hub serves the CLI of its own version (/downloads/svc-cli.tgz), so the two move together.
if (cli.version !== hub.version)
  fail(`packages/cli is ${cli.version} but packages/hub is ${hub.version}; give them one version`)

/**
 * What the CLI resolves from disk at run time (import.meta.resolve, installedPackage): the engine
 * and the stack server that `svc bundle` puts into a project's bundle.js and server.js, and the
 * official generators that `jsr:@svc/gen-*` imports resolve to, whose src/ `svc clone` copies.
 * Everything else the CLI runs is inlined in its bundle.
 */
const RESOLVED_FROM_DISK = [
  '@svc/engine',
  '@svc/stack-server',
  ...Object.keys(cli.dependencies).filter((name) => name.startsWith('@svc/gen-')),
]

/** The workspace packages by name: the lock's links (`node_modules/@svc/x` → `packages/x`). */
const workspace = new Map()
for (const [key, entry] of Object.entries(lock.packages))
  if (entry.link && key.startsWith('node_modules/'))
    workspace.set(key.slice('node_modules/'.length), entry.resolved)

const bundled = new Set()
const visit = (name) => {
  if (bundled.has(name)) return
  if (!workspace.has(name)) fail(`${name} is not a package of this workspace`)
  bundled.add(name)
  for (const dep of Object.keys(
    readJson(join(root, workspace.get(name), 'package.json')).dependencies ?? {},
  ))
    if (workspace.has(dep)) visit(dep)
}
RESOLVED_FROM_DISK.forEach(visit)

function versionOf(name) {
  return readJson(join(root, workspace.get(name), 'package.json')).version
}

/** The exact version the workspace lock installed of `name` for the package in `dir`. */
function lockedVersion(name, dir) {
  const entry =
    lock.packages[`${dir}/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`]
  if (!entry?.version) fail(`package-lock.json has no version of ${name} (for ${dir})`)
  return entry.version
}

const dependencies = {}
const depend = (name, dir) => {
  const version = lockedVersion(name, dir)
  if (dependencies[name] !== undefined && dependencies[name] !== version)
    fail(`${name} is locked at ${dependencies[name]} and at ${version}; the tarball can hold one`)
  dependencies[name] = version
}
const bundleStamp = readJson(join(cliDir, 'dist/svc-bundle.json'))
for (const name of bundleStamp.external) depend(name, 'packages/cli')
for (const name of bundled) {
  const dir = workspace.get(name)
  for (const dep of Object.keys(readJson(join(root, dir, 'package.json')).dependencies ?? {}))
    if (!workspace.has(dep)) depend(dep, dir)
}

rmSync(stage, { recursive: true, force: true })
mkdirSync(stage, { recursive: true })

const sorted = (object) =>
  Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)))
writeJson(join(stage, 'package.json'), {
  name: cli.name,
  version: cli.version,
  description: cli.description,
  license: cli.license,
  type: 'module',
  engines: cli.engines,
  bin: { svc: 'bin/svc.js' },
  files: ['bin', 'dist'],
  // A bundled package is a dependency too: npm packs and installs the copy in the tarball.
  dependencies: sorted({
    ...dependencies,
    ...Object.fromEntries([...bundled].map((name) => [name, versionOf(name)])),
  }),
  bundleDependencies: [...bundled].sort(),
})
copy(join(cliDir, 'bin/svc.js'), join(stage, 'bin/svc.js'))
for (const name of readdirSync(join(cliDir, 'dist')))
  if (name.startsWith('svc-bundle') && name.endsWith('.js'))
    copy(join(cliDir, 'dist', name), join(stage, 'dist', name))
// bin/svc.js runs the bundle while the packages it was built from are unchanged: here there are
// none to compare, the bundle is the CLI.
writeJson(join(stage, 'dist/svc-bundle.json'), { builtFrom: [], external: bundleStamp.external })

for (const name of bundled) stagePackage(name, workspace.get(name))

checkStage()
const digest = stageDigest()
const tarball = `${cli.name.replace(/^@/, '').replace('/', '-')}-${cli.version}.tgz`
const digestFile = join(release, 'stage.sha256')
const upToDate =
  existsSync(join(downloads, tarball)) &&
  existsSync(digestFile) &&
  readFileSync(digestFile, 'utf8') === digest
if (!upToDate) {
  const out = join(release, 'pack')
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', out], {
    cwd: stage,
    stdio: ['ignore', 'ignore', 'inherit'],
    // Run from `npm run build`, npm says where the workspace is; this npm packs the stage.
    env: {
      ...process.env,
      npm_config_local_prefix: stage,
      npm_config_loglevel: 'error',
      npm_config_update_notifier: 'false',
    },
  })
  mkdirSync(downloads, { recursive: true })
  // Renamed into place: a hub serving the folder never reads half a tarball.
  renameSync(join(out, tarball), join(downloads, tarball))
  rmSync(out, { recursive: true, force: true })
  writeFileSync(digestFile, digest)
}
for (const name of readdirSync(downloads))
  if (/^svc-cli-.+\.tgz$/.test(name) && name !== tarball) rmSync(join(downloads, name))
console.log(
  `[pack-cli] ${relative(root, join(downloads, tarball))} ${upToDate ? 'unchanged' : 'packed'} in ${Math.round(performance.now() - started)} ms`,
)

/**
 * A workspace package as it is installed: its package.json without what points into this
 * workspace (sources, types, scripts), its built JavaScript without source maps nor tests, and
 * for a generator its TypeScript sources (`svc clone` copies them), tests left out.
 */
function stagePackage(name, dir) {
  const from = join(root, dir)
  const to = join(stage, 'node_modules', name)
  const manifest = readJson(join(from, 'package.json'))
  const exports = {}
  for (const [path, conditions] of Object.entries(manifest.exports ?? {}))
    exports[path] = { default: conditions.default }
  writeJson(join(to, 'package.json'), {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    license: manifest.license ?? cli.license,
    type: manifest.type,
    engines: manifest.engines ?? cli.engines,
    exports,
    dependencies: manifest.dependencies,
  })
  const sources = new Set(files(join(from, 'src')).map((path) => path.replace(/\.tsx?$/, '')))
  for (const path of files(join(from, 'dist'))) {
    // Only what a source of today compiles to: an old build's output of a removed module stays out.
    if (!path.endsWith('.js') || isTest(path) || !sources.has(path.replace(/\.js$/, ''))) continue
    const text = readFileSync(join(from, 'dist', path), 'utf8').replace(
      /\n\/\/# sourceMappingURL=\S+\s*$/,
      '\n',
    )
    write(join(to, 'dist', path), text)
  }
  if (name.startsWith('@svc/gen-'))
    for (const path of files(join(from, 'src')))
      if (!isTest(path)) copy(join(from, 'src', path), join(to, 'src', path))
}

function isTest(path) {
  return /(?:^|\/)(?:[^/]+\.test\.[^/]+|test-support\.[^/]+)$/.test(path)
}

/** The files below `dir`, relative, with `/` separators. */
function files(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
}

/** No symlink, nothing named after a test, and no absolute path of this checkout in any file. */
function checkStage() {
  // The checkout's own folders, not its root alone: a root such as /src/ is in ordinary text.
  const checkout = ['packages', 'node_modules'].map((name) => join(root, name) + sep)
  const problems = []
  for (const entry of readdirSync(stage, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name)
    const shown = relative(stage, path)
    if (lstatSync(path).isSymbolicLink()) problems.push(`${shown} is a symbolic link`)
    else if (entry.isFile()) {
      if (isTest(shown.split(sep).join('/')) || shown.endsWith('.map'))
        problems.push(`${shown} is a test or a source map`)
      const text = readFileSync(path, 'utf8')
      if (checkout.some((prefix) => text.includes(prefix))) problems.push(`${shown} names ${root}`)
    }
  }
  if (problems.length > 0)
    fail(`the staged package is not self-contained:\n  ${problems.join('\n  ')}`)
}

/** One digest of every staged file's path and bytes. */
function stageDigest() {
  const hash = createHash('sha256')
  for (const path of files(stage).sort())
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(stage, path)))
      .update('\0')
  return hash.digest('hex')
}

function copy(from, to) {
  mkdirSync(dirname(to), { recursive: true })
  copyFileSync(from, to)
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

function writeJson(path, value) {
  write(path, `${JSON.stringify(value, null, 2)}\n`)
}

function fail(message) {
  console.error(`[pack-cli] ${message}`)
  process.exit(1)
}
