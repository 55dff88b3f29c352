import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Metafile, type Plugin } from 'esbuild'
import semver from 'semver'
import { CommandError } from '../errors.js'
import type { ProjectPaths } from '../project/app-root.js'
import { parseJsrSpecifier } from '@svc/project-format'
import { findOfficial, installedPackage } from '../project/official-generators.js'
import { writeFileAtomic } from '../project/write-files.js'
import {
  compositionOf,
  ENGINE_IMPORT,
  readRootManifest,
  readRootManifestAt,
  type GeneratorImport,
} from '../project/root-manifest.js'
import { headerLine } from './bundle-header.js'
import { clonedDigest } from './cloned-digest.js'
import { serverSource, workerSource } from './worker-source.js'

export type BuiltBundle = {
  readonly generators: readonly GeneratorImport[]
  /** The file written: `bundle.js` or `server.js`. */
  readonly path: string
  readonly bytes: number
  readonly ms: number
}

/** Which of a project's two bundles to build. */
export type BundleTarget = 'worker' | 'server'

/**
 * `svc bundle`: writes the entry from the root manifest and bundles it, with the engine and every
 * generator, into one file whose first line records the generator set it was built for. The
 * `worker` target is `worker.ts` → `bundle.js`, which `svc generate` runs; the `server` target is
 * `server.ts` → `server.js`, the self-contained stack server a publish uploads (minified; it runs
 * with `node server.js` and nothing else). Refuses an inconsistent composition, an engine pin the
 * shipped engine does not satisfy, and a bundle that would hold two copies of the engine.
 */
export async function buildBundle(
  paths: ProjectPaths,
  target: BundleTarget = 'worker',
  /** The version being published, when it may not be the manifest's (`svc publish --version`). */
  version?: string,
): Promise<BuiltBundle> {
  const started = performance.now()
  const manifest =
    version === undefined
      ? readRootManifest(paths.rootManifest)
      : readRootManifestAt(paths.rootManifest, version)
  const composition = compositionOf(manifest, paths.dir)
  if (composition.problems.length > 0)
    throw new CommandError(
      `${paths.rootManifest}: the generators are inconsistent:\n  ${composition.problems.join('\n  ')}`,
    )
  const engine = installedPackage(ENGINE_IMPORT)
  checkEnginePin(manifest.imports[ENGINE_IMPORT], engine.version, paths.name)
  const [entry, out] =
    target === 'worker' ? [paths.worker, paths.bundle] : [paths.server, paths.serverBundle]
  writeFileAtomic(
    entry,
    target === 'worker'
      ? workerSource(composition.generators)
      : serverSource(composition.generators, { name: manifest.name, version: manifest.version }),
  )
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: target === 'server',
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    banner: {
      js: headerLine(
        composition.generators,
        engine.version,
        clonedDigest(paths.dir, composition.generators),
      ),
    },
    nodePaths: cliNodePaths(),
    plugins: [resolveSvcPackages(engine.entry)],
  }).catch((error: unknown) => {
    throw new CommandError(
      `bundling ${relative(paths.appRoot, entry)} failed:\n${esbuildErrors(error)}`,
    )
  })
  const copies = engineCopies(result.metafile, paths.dir)
  if (copies.length > 1)
    throw new CommandError(
      `the bundle would hold ${copies.length} copies of @svc/engine (${copies.join(', ')}); a cloned generator must import '@svc/engine/generate', not a copy of it`,
    )
  const text = result.outputFiles[0]!.text
  writeFileAtomic(out, text)
  return {
    generators: composition.generators,
    path: out,
    bytes: Buffer.byteLength(text),
    ms: performance.now() - started,
  }
}

/** The hint of `project-core-pin`: the one line of `deno.json` that fixes a skewed pin. */
export function enginePinFix(version: string): string {
  return `"${ENGINE_IMPORT}": "jsr:${ENGINE_IMPORT}@^${version}"`
}

function checkEnginePin(pin: string | undefined, version: string, project: string): void {
  if (pin === undefined) return
  const range = parseJsrSpecifier(pin)?.range
  if (range !== undefined && semver.satisfies(version, range)) return
  throw new CommandError(
    `deno.json pins ${ENGINE_IMPORT} to '${pin}', which the engine svc ships (${version}) does not satisfy; run 'svc doctor --json': the check project-core-pin/${project} gives the fix (${enginePinFix(version)})`,
  )
}

/**
 * `jsr:@svc/gen-*` specifiers resolve to the generators shipped with the CLI, checked against
 * their range; `@svc/*` imports from cloned code resolve to the same copies, so the bundle holds
 * one engine whatever a clone imports.
 */
function resolveSvcPackages(engineEntry: string): Plugin {
  return {
    name: 'svc-packages',
    setup(plugin) {
      plugin.onResolve({ filter: /^jsr:/ }, ({ path }) => {
        const jsr = parseJsrSpecifier(path)
        const official = jsr && findOfficial(jsr.id)
        if (!jsr || !official || official.id !== jsr.id)
          return {
            errors: [{ text: `${path} is not a generator svc ships; see 'svc install --list'` }],
          }
        const installed = installedPackage(official.id)
        if (!semver.satisfies(installed.version, jsr.range))
          return {
            errors: [
              {
                text: `${path} asks for ${jsr.range}, but svc ships ${official.id} ${installed.version}`,
              },
            ],
          }
        return { path: installed.entry }
      })
      plugin.onResolve({ filter: /^@svc\/engine(\/generate)?$/ }, ({ path }) => ({
        path: path === ENGINE_IMPORT ? engineEntry : fileURLToPath(import.meta.resolve(path)),
      }))
      plugin.onResolve({ filter: /^@svc\/stack-server$/ }, ({ path }) => ({
        path: installedPackage(path).entry,
      }))
      plugin.onResolve({ filter: /^@svc\/gen-[a-z-]+$/ }, ({ path }) =>
        findOfficial(path) ? { path: installedPackage(path).entry } : undefined,
      )
    },
  }
}

/** The `node_modules` folders above the CLI: where a clone's `zod` or `graphql` is found. */
function cliNodePaths(): string[] {
  const paths: string[] = []
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir))
    if (dir.endsWith('node_modules')) paths.push(dir)
    else paths.push(join(dir, 'node_modules'))
  return paths
}

/** The package roots named @svc/engine that inputs of the bundle come from. */
function engineCopies(metafile: Metafile, cwd: string): string[] {
  const roots = new Set<string>()
  const names = new Map<string, string | undefined>()
  const packageName = (dir: string) => {
    if (!names.has(dir)) {
      try {
        names.set(
          dir,
          (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name,
        )
      } catch {
        names.set(dir, undefined)
      }
    }
    return names.get(dir)
  }
  for (const input of Object.keys(metafile.inputs)) {
    for (let dir = dirname(join(process.cwd(), input)); dirname(dir) !== dir; dir = dirname(dir)) {
      const name = packageName(dir)
      if (name === undefined) continue
      if (name === ENGINE_IMPORT) roots.add(relative(cwd, dir))
      break
    }
  }
  return [...roots].sort()
}

function esbuildErrors(error: unknown): string {
  const errors = (
    error as {
      errors?: { text: string; location?: { file: string; line: number; column: number } | null }[]
    }
  ).errors
  if (!Array.isArray(errors)) return error instanceof Error ? error.message : String(error)
  return errors
    .map(
      ({ text, location }) =>
        `  ${location ? `${location.file}:${location.line}:${location.column}: ` : ''}${text}`,
    )
    .join('\n')
}
