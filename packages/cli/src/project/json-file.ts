import { CommandError } from '../errors.js'
import { readFileSync } from 'node:fs'
import type { z } from 'zod'
import { writeFileAtomic } from './write-files.js'

/** A project file that is missing, not JSON, or not the expected shape. */
export class ProjectFileError extends CommandError {
  override readonly name = 'ProjectFileError'
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`)
  }
}

/** The bytes of a file of the project, or a `ProjectFileError` saying why there are none. */
export function readProjectFile(path: string): Buffer {
  try {
    return readFileSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new ProjectFileError(
      path,
      code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`,
    )
  }
}

/** Reads and validates a JSON file of the project; every problem names the file and the field. */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S): z.infer<S> {
  const text = readProjectFile(path).toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ProjectFileError(path, `is not JSON: ${(error as Error).message}`)
  }
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const first = parsed.error.issues[0]!
    const field = first.path.length > 0 ? first.path.join('.') : '(root)'
    throw new ProjectFileError(path, `${field} ${first.message}`)
  }
  return parsed.data
}

/** Two-space JSON with a final newline, written atomically. */
export function writeJsonFile(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`)
}
