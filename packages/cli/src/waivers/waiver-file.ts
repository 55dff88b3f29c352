import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { RecipeError } from '../errors.js'
import type { Waiver } from './parse-waivers.js'
import { EXAMPLE, USAGE, WAIVER_FILE, waiverError } from './waiver-error.js'

export { WAIVER_FILE } from './waiver-error.js'
export type { Waiver } from './parse-waivers.js'

export type WaiverFile = {
  /** Its absolute path. */
  readonly path: string
  readonly waivers: readonly Waiver[]
}

/**
 * The waiver file of a command: `--waivers <file>`, else `svc-waivers.yaml` in the working
 * folder or the nearest folder above it, up to the git root (outside git, the working folder
 * only); undefined when there is none. A file that cannot be read, is not YAML, has the wrong
 * shape or names a rule the engine does not have is a RecipeError (exit 2) naming its line.
 */
export async function loadWaivers(
  option: string | undefined,
  cwd: string,
): Promise<WaiverFile | undefined> {
  const path = option === undefined ? findWaiverFile(cwd) : resolve(cwd, option)
  if (path === undefined) return undefined
  const shown = displayPath(path, cwd)
  if (option !== undefined && (!existsSync(path) || !statSync(path).isFile()))
    throw new RecipeError({
      problem: `--waivers ${option}: no such file.`,
      usage: USAGE,
      example: EXAMPLE,
      discover: `ls ${WAIVER_FILE}`,
    })
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw waiverError(`${shown}: cannot be read (${(error as Error).message}).`)
  }
  // Its reader (zod, a closest-name search) is loaded only when there is a file to read.
  const { parseWaivers } = await import('./parse-waivers.js')
  return { path, waivers: await parseWaivers(text, shown) }
}

/** The folders from `cwd` up to the one that holds `.git`; only `cwd` outside a repository. */
function findWaiverFile(cwd: string): string | undefined {
  const folders: string[] = []
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    folders.push(folder)
    if (existsSync(join(folder, '.git'))) break
    if (dirname(folder) === folder) {
      folders.splice(1)
      break
    }
  }
  return folders.map((folder) => join(folder, WAIVER_FILE)).find((file) => isFile(file))
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function displayPath(path: string, cwd: string): string {
  const shown = relative(cwd, path)
  return shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : path
}
