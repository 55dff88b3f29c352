import { readFileSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { summarizeIssues } from '@svc/engine'
import { buildBundle } from '../../bundle/build-bundle.js'
import { outOfSyncMessage } from '../../bundle/bundle-header.js'
import { bundleState } from '../../bundle/freshness.js'
import {
  CommandError,
  documentErrorJson,
  EXIT,
  formatDocumentError,
  RecipeError,
  type ExitCode,
} from '../../errors.js'
import { readCommandInput } from '../../input/read-source.js'
import type { Output } from '../../output.js'
import { basePathOf, basePathProblem, readClientConfig } from '../../project/client-config.js'
import { openProject } from '../../project/open-project.js'
import { compositionOf, readRootManifest } from '../../project/root-manifest.js'
import { writeFileSet } from '../../project/write-files.js'
import { writeJsonFile } from '../../project/json-file.js'
import { createProgress } from './progress.js'
import { counts, errorsOf, report } from './report.js'
import { runBundle } from './run-bundle.js'

export type GenerateFlags = { json?: boolean; input?: boolean }

export type GenerateIO = {
  readonly cwd: string
  readonly stdin?: NodeJS.ReadableStream
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean }
}

const RECIPE = {
  usage: 'svc generate <project> [schema] [--json] [--no-input]',
  example: 'svc generate demo ./openapi.yaml',
}

/**
 * `svc generate <project> [schema]`: runs the project's bundle over the schema (the argument,
 * or `source` of client.json) in a worker, writes the files under `basePath` all or nothing,
 * removes files the last run made that this one does not, and writes the manifest. Outside
 * strict mode (`--json`, `--no-input`) a missing or stale bundle is built first; in strict mode
 * it is refused with exit 2. Exit 1 when the document has an error-level issue or any item or
 * file failed; the files that succeeded are still written.
 */
export async function generateAction(
  project: string | undefined,
  schema: string | undefined,
  flags: GenerateFlags,
  output: Output,
  io: GenerateIO,
): Promise<ExitCode> {
  const started = performance.now()
  const strict = Boolean(flags.json) || flags.input === false
  const paths = openProject(project, io.cwd, RECIPE)
  const rootManifest = readRootManifest(paths.rootManifest)
  const config = readClientConfig(paths.clientConfig)
  const composition = compositionOf(rootManifest, paths.dir)
  if (composition.problems.length > 0)
    throw new CommandError(
      `${paths.rootManifest}: the generators are inconsistent:\n  ${composition.problems.join('\n  ')}`,
    )
  if (composition.generators.length === 0)
    throw new RecipeError({
      ...RECIPE,
      problem: `The project '${paths.name}' has no generators.`,
      discover: 'svc install --list',
    })
  const source = schema ?? config.source
  const schemaRecipe = {
    ...RECIPE,
    problem: `svc generate needs a schema: give it as an argument, or set "source" in ${relative(io.cwd, paths.clientConfig)}.`,
    discover: "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'",
  }
  if (source === undefined) throw new RecipeError(schemaRecipe)
  const basePath = basePathOf(config, paths.appRoot, paths.name)
  const problem = basePathProblem(basePath, paths.appRoot)
  if (problem !== undefined)
    throw new CommandError(
      `${problem}; set settings.basePath in ${relative(io.cwd, paths.clientConfig)}`,
    )
  const loaded = await readCommandInput(
    resolveSource(source, schema === undefined, paths.appRoot),
    schemaRecipe,
    { cwd: io.cwd, ...(io.stdin ? { stdin: io.stdin } : {}) },
  )
  const state = bundleState(paths, composition.generators)
  if (state.state !== 'fresh') {
    if (strict)
      throw new RecipeError({
        problem:
          state.state === 'missing'
            ? `The project '${paths.name}' has no bundle.js yet.`
            : outOfSyncMessage(state.stale),
        usage: 'svc bundle <project>',
        example: `svc bundle ${paths.name}`,
        discover: `svc doctor --json (the project-bundle/${paths.name} check)`,
      })
    output.diagnostic(
      state.state === 'missing'
        ? `Bundling ${paths.name} (no bundle.js yet)…`
        : `Bundling ${paths.name} again: ${outOfSyncMessage(state.stale)}`,
    )
    await buildBundle(paths)
  }
  const settings = config.settings
  const progress = createProgress(io.stderr, !flags.json && Boolean(io.stderr.isTTY))
  let answer
  try {
    answer = await runBundle(
      paths.bundle,
      {
        text: loaded.text,
        origin: loaded.origin,
        isFile: loaded.isFile,
        settings: {
          ...(settings.enrichments === undefined ? {} : { enrichments: settings.enrichments }),
          ...(settings.skip === undefined ? {} : { skip: settings.skip }),
          ...(settings.include === undefined ? {} : { include: settings.include }),
        },
        importExtension: settings.importExtension ?? '.ts',
      },
      (message) => progress.update(message),
      (text) => void io.stderr.write(text),
    )
  } finally {
    progress.stop()
  }
  if (answer.type === 'failed') {
    if (answer.name !== 'DocumentError') throw new CommandError(answer.message)
    const located = { ...answer, code: answer.code ?? 'unreadable' }
    output.diagnostic(formatDocumentError(located))
    if (flags.json)
      output.json({
        type: 'error',
        code: 'unreadable_document',
        exitCode: EXIT.failure,
        message: answer.message,
        projectName: paths.name,
        error: documentErrorJson(located),
      })
    return EXIT.failure
  }
  const errors = errorsOf(answer.manifest)
  const summary = summarizeIssues(answer.manifest.parseIssues)
  const shownBasePath = relative(paths.appRoot, basePath) || '.'
  // Files of the last run are removed only when this run is complete and writes to the same
  // folder: a run with errors keeps the last good output of what failed.
  const last = lastRun(paths.manifest)
  const stale = errors.length === 0 && summary.error === 0 && last.basePath === shownBasePath
  const written = writeFileSet(basePath, answer.files, stale ? last.files : [])
  const manifest = {
    ...answer.manifest,
    projectName: paths.name,
    source: loaded.isFile ? inAppRoot(loaded.origin, paths.appRoot) : loaded.origin,
    basePath: shownBasePath,
    files: Object.fromEntries(
      Object.entries(answer.manifest.files).map(([path, size]) => [
        path,
        { ...size, destinationPath: relative(paths.appRoot, resolve(basePath, path)) },
      ]),
    ),
  }
  writeJsonFile(paths.manifest, manifest)
  const destination = (path: string) => relative(paths.appRoot, resolve(basePath, path))
  const totalTimeMs = Math.round(performance.now() - started)
  const lines = Object.values(answer.manifest.files).reduce((sum, file) => sum + file.lines, 0)
  if (flags.json)
    output.json({
      type: 'generated',
      projectName: paths.name,
      basePath: manifest.basePath,
      manifestPath: paths.manifest,
      stats: { files: written.written.length, lines, totalTimeMs },
      files: written.written.map(destination),
      removedFiles: written.removed.map(destination),
      results: counts(answer.manifest),
      errors,
      parseIssues: answer.manifest.parseIssues,
      enrichmentWarnings: answer.manifest.enrichmentWarnings,
    })
  else
    report(output, {
      manifest: answer.manifest,
      errors,
      written,
      basePath,
      cwd: io.cwd,
      source: schema ?? source,
      totalTimeMs,
      lines,
    })
  return summary.error > 0 || errors.length > 0 ? EXIT.failure : EXIT.ok
}

/** A `source` from client.json is relative to the app root; an argument to the working folder. */
function resolveSource(source: string, fromConfig: boolean, appRoot: string): string {
  if (!fromConfig || source === '-' || /^https?:\/\//i.test(source) || isAbsolute(source))
    return source
  return resolve(appRoot, source)
}

/** What the last run wrote, and where: stale-file removal needs both. */
function lastRun(manifestPath: string): { basePath?: string; files: string[] } {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      basePath?: unknown
      files?: Record<string, unknown>
    }
    return {
      ...(typeof manifest.basePath === 'string' ? { basePath: manifest.basePath } : {}),
      files: Object.keys(manifest.files ?? {}),
    }
  } catch {
    return { files: [] }
  }
}

/** A file inside the app root is recorded relative to it, so the manifest names no machine path. */
function inAppRoot(path: string, appRoot: string): string {
  const inside = relative(appRoot, path)
  return inside.startsWith('..') || isAbsolute(inside) ? path : inside
}
