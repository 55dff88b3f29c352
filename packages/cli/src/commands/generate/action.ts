import { readFileSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { summarizeIssues, type ParseIssue } from '@svc/engine'
import type { Manifest } from '@svc/engine/generate'
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
import { readClientConfig } from '../../project/client-config.js'
import { openProject } from '../../project/open-project.js'
import { compositionOf, readRootManifest } from '../../project/root-manifest.js'
import { writeFileSet } from '../../project/write-files.js'
import { writeJsonFile } from '../../project/json-file.js'
import { createProgress } from './progress.js'
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

/** One failed item or file, as `--json` lists it and the text report prints it. */
export type GenerateError = {
  readonly generator: string | null
  readonly item: string
  readonly cause: string
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
  const loaded = await readCommandInput(
    resolveSource(source, schema === undefined, paths.appRoot),
    schemaRecipe,
    { cwd: io.cwd, ...(io.stdin ? { stdin: io.stdin } : {}) },
  )
  const settings = config.settings
  const basePath = resolve(paths.appRoot, settings.basePath ?? `generated/${paths.name}`)
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
        projectName: paths.name,
        error: documentErrorJson(located),
      })
    return EXIT.failure
  }
  const previous = previousFiles(paths.manifest)
  const written = writeFileSet(basePath, answer.files, previous)
  const manifest = {
    ...answer.manifest,
    projectName: paths.name,
    source: loaded.origin,
    basePath: relative(paths.appRoot, basePath) || '.',
    files: Object.fromEntries(
      Object.entries(answer.manifest.files).map(([path, size]) => [
        path,
        { ...size, destinationPath: relative(paths.appRoot, resolve(basePath, path)) },
      ]),
    ),
  }
  writeJsonFile(paths.manifest, manifest)
  const errors = errorsOf(answer.manifest)
  const summary = summarizeIssues(answer.manifest.parseIssues)
  const totalTimeMs = Math.round(performance.now() - started)
  const lines = Object.values(answer.manifest.files).reduce((sum, file) => sum + file.lines, 0)
  if (flags.json)
    output.json({
      type: 'generated',
      projectName: paths.name,
      basePath: manifest.basePath,
      manifestPath: paths.manifest,
      stats: { files: written.written.length, lines, totalTimeMs },
      files: written.written.map((path) => manifest.files[path]!.destinationPath),
      removedFiles: written.removed,
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

function previousFiles(manifestPath: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      files?: Record<string, unknown>
    }
    return Object.keys(manifest.files ?? {})
  } catch {
    return []
  }
}

function errorsOf(manifest: Manifest): GenerateError[] {
  const errors: GenerateError[] = []
  for (const [generator, items] of Object.entries(manifest.results))
    for (const [item, result] of Object.entries(items))
      if (result.status === 'error') errors.push({ generator, item, cause: result.cause ?? '' })
  for (const [path, result] of Object.entries(manifest.render))
    if (result.status === 'error')
      errors.push({ generator: null, item: path, cause: result.cause ?? '' })
  return errors
}

/** Generator id → status → how many items. */
function counts(manifest: Manifest): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(manifest.results).map(([generator, items]) => {
      const tally: Record<string, number> = {}
      for (const { status } of Object.values(items)) tally[status] = (tally[status] ?? 0) + 1
      return [generator, tally]
    }),
  )
}

function report(
  output: Output,
  run: {
    manifest: Manifest
    errors: readonly GenerateError[]
    written: { written: string[]; removed: string[] }
    basePath: string
    cwd: string
    /** The schema as the user named it, for the `svc check` hint. */
    source: string
    totalTimeMs: number
    lines: number
  },
): void {
  const { color } = output
  const where = relative(run.cwd, run.basePath) || '.'
  // Errors one by one; warnings as a count, since `svc check` lists them grouped.
  const issues = run.manifest.parseIssues
  for (const issue of issues.filter((i) => i.level === 'error'))
    output.diagnostic(issueLine(issue, color))
  const warnings = issues.filter((i) => i.level === 'warning').length
  if (warnings > 0)
    output.diagnostic(
      `${color.yellow('warning')}: the document has ${warnings} parse warning${warnings === 1 ? '' : 's'}; svc check ${run.source} lists them`,
    )
  for (const warning of run.manifest.enrichmentWarnings)
    output.diagnostic(
      `${warning.level === 'warning' ? color.yellow('warning') : color.dim('info')}: ${warning.message}`,
    )
  for (const error of run.errors)
    output.diagnostic(
      `${color.red('error')}: ${error.generator ?? 'render'} ${error.item}: ${error.cause}`,
    )
  for (const [generator, tally] of Object.entries(counts(run.manifest)))
    output.result(
      `${generator}: ${Object.entries(tally)
        .map(([status, count]) => `${count} ${status}`)
        .join(', ')}`,
    )
  if (run.written.written.length === 0)
    output.diagnostic(
      `${color.yellow('warning')}: no file was generated: the generators made no code for this document.`,
    )
  output.result(
    `Wrote ${run.written.written.length} file${run.written.written.length === 1 ? '' : 's'} (${run.lines} lines) to ${where} in ${run.totalTimeMs} ms${run.written.removed.length > 0 ? `; removed ${run.written.removed.length} no longer generated` : ''}.`,
  )
}

function issueLine(issue: ParseIssue, color: Output['color']): string {
  return `${color.red('error')} ${issue.type}: ${issue.message} (${issue.location})`
}
