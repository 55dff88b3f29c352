import { relative } from 'node:path'
import { DocumentError } from '@svc/engine'
import type { Manifest } from '@svc/engine/generate'
import type { CommandIO } from '../../command-io.js'
import { CommandError } from '../../errors.js'
import { createProgress } from './progress.js'
import { loadRun } from './load-run.js'
import { counts, errorsOf, type GenerateError } from './report.js'
import { runBundle, type BundleRun } from './run-bundle.js'
import { codeCachePath } from './bundle-worker.js'
import { writeRun } from './write-run.js'

export type GenerateOptions = {
  readonly project?: string | undefined
  /** A file path, an http(s) URL, or `-`; `source` of client.json by default. */
  readonly schema?: string | undefined
  readonly json?: boolean | undefined
  readonly input?: boolean | undefined
}

export type GenerateResult =
  | {
      readonly type: 'generated'
      readonly projectName: string
      /** Where the files went, relative to the app root. */
      readonly basePath: string
      readonly manifestPath: string
      readonly stats: {
        readonly files: number
        readonly lines: number
        readonly totalTimeMs: number
      }
      /** The files written and removed, relative to the app root. */
      readonly files: readonly string[]
      readonly removedFiles: readonly string[]
      /** Generator id → item status → how many items. */
      readonly results: Record<string, Record<string, number>>
      readonly errors: readonly GenerateError[]
      readonly parseIssues: Manifest['parseIssues']
      readonly enrichmentWarnings: Manifest['enrichmentWarnings']
      /** The folder the files went to, absolute. */
      readonly outputDir: string
      /** The schema as the user named it, for the `svc check` hint. */
      readonly source: string
    }
  | {
      readonly type: 'unreadable'
      readonly projectName: string
      readonly error: {
        readonly code: string
        readonly message: string
        readonly file?: string | undefined
        readonly line?: number | undefined
        readonly column?: number | undefined
      }
    }

/**
 * `svc generate <project> [schema]`: runs the project's bundle over the schema (the argument,
 * or `source` of client.json) in a worker, writes the files under `basePath` all or nothing,
 * removes files the last run made that this one does not, and writes the manifest. Outside
 * strict mode (`--json`, `--no-input`) a missing or stale bundle is built first; in strict mode
 * it is refused with a recipe error. The files that succeeded are written even when items failed.
 */
export async function generate(options: GenerateOptions, io: CommandIO): Promise<GenerateResult> {
  const started = performance.now()
  const run = await loadRun(options, io)
  const { paths, loaded, settings } = run
  const progress = await createProgress(io.stderr, !options.json && Boolean(io.stderr.isTTY))
  let bundleRun: BundleRun
  try {
    bundleRun = await runBundle(
      {
        bundlePath: paths.bundle,
        cachePath: codeCachePath(paths),
        request: {
          ...('text' in loaded ? { text: loaded.text } : {}),
          origin: loaded.origin,
          isFile: loaded.isFile,
          settings: {
            ...(settings.enrichments === undefined ? {} : { enrichments: settings.enrichments }),
            ...(settings.skip === undefined ? {} : { skip: settings.skip }),
            ...(settings.include === undefined ? {} : { include: settings.include }),
          },
          importExtension: settings.importExtension ?? '.js',
        },
        file: 'text' in loaded ? undefined : loaded.origin,
      },
      (message) => progress.update(message),
      (text) => void io.stderr.write(text),
    )
  } finally {
    progress.stop()
  }
  const { answer, finished } = bundleRun
  if (answer.type === 'read-failed') {
    await finished
    const input = 'input' in loaded ? loaded.input : loaded.origin
    // As readSource words it when it reads the file itself.
    throw new DocumentError('unreadable', `Cannot read ${input}: ${answer.code ?? answer.message}.`)
  }
  if (answer.type === 'failed') {
    await finished
    if (answer.name !== 'DocumentError') throw new CommandError(answer.message)
    const { code, message, file, line, column } = answer
    const error = { code: code ?? 'unreadable', message, file, line, column }
    return { type: 'unreadable', projectName: paths.name, error }
  }
  const errors = errorsOf(answer.manifest)
  const written = writeRun(run, answer, errors)
  await finished
  const lines = Object.values(answer.manifest.files).reduce((sum, file) => sum + file.lines, 0)
  return {
    type: 'generated',
    projectName: paths.name,
    basePath: relative(paths.appRoot, run.basePath) || '.',
    manifestPath: paths.manifest,
    stats: {
      files: written.files.length,
      lines,
      totalTimeMs: Math.round(performance.now() - started),
    },
    files: written.files,
    removedFiles: written.removedFiles,
    results: counts(answer.manifest),
    errors,
    parseIssues: answer.manifest.parseIssues,
    enrichmentWarnings: answer.manifest.enrichmentWarnings,
    outputDir: run.basePath,
    source: run.source,
  }
}
