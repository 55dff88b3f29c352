import { readFileSync } from 'node:fs'
import { diffDocuments, type Changelog } from '@svc/engine'
import { RecipeError, type Recipe } from '../../errors.js'
import { readCommandInput } from '../../input/read-source.js'

export type DiffOptions = {
  /** The old description: a file path, an http(s) URL, or `-` for standard input. */
  readonly old?: string | undefined
  /** The new description, likewise; at most one of the two may be `-`. */
  readonly new?: string | undefined
  readonly cwd?: string
  readonly stdin?: NodeJS.ReadableStream
}

export type DiffResult = {
  /** Where each document came from: an absolute path, a URL, or `<stdin>`. */
  readonly oldOrigin: string
  readonly newOrigin: string
  readonly changelog: Changelog
}

export const DIFF_RECIPE: Recipe = {
  problem:
    'svc diff needs two API descriptions, the old and the new: file paths, URLs, or - for standard input.',
  usage: 'svc diff <old> <new> [--json] [--fail-on breaking|warning]',
  example: 'svc diff openapi-v1.yaml openapi-v2.yaml --fail-on breaking',
  discover: "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'",
}

/**
 * Reads two API descriptions and returns what changed from the old to the new one. Throws a
 * RecipeError when an input is missing (or both are `-`), a DocumentError when one cannot be read
 * as an API description.
 *
 * @example
 * const { changelog } = await diff({ old: 'v1.yaml', new: 'v2.yaml' })
 * if (changelog.counts.breaking > 0) console.log(changelog.changes[0]?.message)
 */
export async function diff(options: DiffOptions): Promise<DiffResult> {
  if (options.old === '-' && options.new === '-') {
    throw new RecipeError({
      ...DIFF_RECIPE,
      problem: 'Only one of <old> and <new> can be - (standard input).',
    })
  }
  // Both are checked for presence before either is read, so a missing <new> never waits on stdin.
  if (!options.old || !options.new) throw new RecipeError(DIFF_RECIPE)
  const before = await readCommandInput(options.old, DIFF_RECIPE, options)
  const after = await readCommandInput(options.new, DIFF_RECIPE, options)
  // The engine follows relative refs only from an absolute file origin, so stdin or a URL on one
  // side is safe to pair with a reader for the other.
  const readFile =
    before.isFile || after.isFile ? { readFile: (path: string) => readFileSync(path, 'utf8') } : {}
  const changelog = await diffDocuments(
    { text: before.text, origin: before.origin },
    { text: after.text, origin: after.origin },
    readFile,
  )
  return { oldOrigin: before.origin, newOrigin: after.origin, changelog }
}
