import { readFileSync } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { summarizeIssues } from '@svc/engine'
import type { GenerateMessage } from '@svc/engine/generate'
import { writeJsonFile } from '../../project/json-file.js'
import { writeFileSet } from '../../project/write-files.js'
import type { LoadedRun } from './load-run.js'
import type { GenerateError } from './report.js'

type Answer = Extract<GenerateMessage, { type: 'result' }>

/**
 * Writes a run's files and its manifest; answers the files written and removed, relative to the
 * app root. Files of the last run are removed only when this run is complete and writes to the
 * same folder: a run with errors keeps the last good output of what failed.
 */
export function writeRun(
  run: LoadedRun,
  answer: Answer,
  errors: readonly GenerateError[],
): { files: string[]; removedFiles: string[] } {
  const { paths, basePath, loaded } = run
  const summary = summarizeIssues(answer.manifest.parseIssues)
  const shownBasePath = relative(paths.appRoot, basePath) || '.'
  const last = lastRun(paths.manifest)
  const stale = errors.length === 0 && summary.error === 0 && last.basePath === shownBasePath
  const written = writeFileSet(basePath, answer.files, stale ? last.files : [])
  const destination = (path: string) => relative(paths.appRoot, resolve(basePath, path))
  writeJsonFile(paths.manifest, {
    ...answer.manifest,
    projectName: paths.name,
    source: loaded.isFile ? inAppRoot(loaded.origin, paths.appRoot) : loaded.origin,
    basePath: shownBasePath,
    files: Object.fromEntries(
      Object.entries(answer.manifest.files).map(([path, size]) => [
        path,
        { ...size, destinationPath: destination(path) },
      ]),
    ),
  })
  return {
    files: written.written.map(destination),
    removedFiles: written.removed.map(destination),
  }
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

/**
 * A file is recorded relative to the app root, with `/`, as `source` of client.json is, so the
 * manifest a publish uploads names no machine path; one outside it too (`../specs/api.yaml`),
 * unless no relative path leads there (another drive).
 */
function inAppRoot(path: string, appRoot: string): string {
  const inside = relative(appRoot, path)
  return isAbsolute(inside) ? path : inside.split(sep).join('/')
}
