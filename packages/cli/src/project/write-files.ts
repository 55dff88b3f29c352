import { CommandError } from '../errors.js'
import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/** Writes a whole file or nothing: a temporary file beside it, then a rename. */
export function writeFileAtomic(path: string, content: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = temporaryBeside(path)
  try {
    // The mode is set when the file is created: a secret is never readable by others, even briefly.
    writeFileSync(temporary, content, mode === undefined ? {} : { mode })
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/** Why a set of generated files was not written; nothing of the set was. */
export class WriteFilesError extends CommandError {
  override readonly name = 'WriteFilesError'
  constructor(
    readonly path: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Writes generated files under `baseDir` all or nothing: every file is staged beside its target
 * first, and only when all are staged are they renamed into place. Files of `previous` (the last
 * run's list) that this run no longer makes are removed afterwards.
 * @throws WriteFilesError when a path leaves `baseDir` or a file cannot be staged
 */
export function writeFileSet(
  baseDir: string,
  files: Iterable<readonly [path: string, content: string]>,
  previous: Iterable<string> = [],
): { written: string[]; removed: string[] } {
  const staged: { temporary: string; target: string; path: string }[] = []
  try {
    for (const [path, content] of files) {
      const target = inside(baseDir, path)
      try {
        mkdirSync(dirname(target), { recursive: true })
        const temporary = temporaryBeside(target)
        writeFileSync(temporary, content, { flag: 'wx' })
        staged.push({ temporary, target, path })
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        throw new WriteFilesError(
          target,
          code,
          `cannot write ${target} (${code ?? (error as Error).message}); no file was changed`,
        )
      }
    }
  } catch (error) {
    for (const { temporary } of staged) rmSync(temporary, { force: true })
    throw error
  }
  for (const { temporary, target } of staged) renameSync(temporary, target)
  const written = new Set(staged.map(({ path }) => path))
  const removed: string[] = []
  for (const path of previous) {
    if (written.has(path)) continue
    try {
      rmSync(inside(baseDir, path), { force: true })
      removed.push(path)
    } catch {
      // A stale file outside the folder, or already gone: nothing to remove.
    }
  }
  return { written: [...written], removed }
}

function inside(baseDir: string, path: string): string {
  const target = resolve(baseDir, path)
  const back = relative(resolve(baseDir), target)
  if (back === '' || back.startsWith(`..${sep}`) || back === '..' || resolve(back) === back)
    throw new WriteFilesError(target, undefined, `refusing to write '${path}' outside ${baseDir}`)
  return target
}

function temporaryBeside(path: string): string {
  return join(dirname(path), `.${randomBytes(6).toString('hex')}.svc-tmp`)
}
