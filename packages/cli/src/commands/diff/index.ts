import { readFileSync } from 'node:fs'
import { diffDocuments, DocumentError, type Changelog, type DiffPolicy } from '@svc/engine'
import type { CommandIO } from '../../command-io.js'
import { RecipeError, type Recipe } from '../../errors.js'
import { readCommandInput } from '../../input/read-source.js'

/** The lowest level that fails the command: `breaking`, or `warning` (breaking or warning). */
export type FailOn = 'breaking' | 'warning'

export type DiffOptions = {
  /** The old description: a file path, an http(s) URL, or `-` for standard input. */
  readonly old?: string | undefined
  /** The new description, likewise; at most one of the two may be `-`. */
  readonly new?: string | undefined
  readonly failOn?: FailOn | undefined
  /** Conventions to apply on top of the rules (docs/diff-rules.md, "Policies"). */
  readonly policies?: readonly DiffPolicy[] | undefined
}

export type DiffResult =
  | {
      readonly type: 'diffed'
      /** Where each document came from: an absolute path, a URL, or `<stdin>`. */
      readonly oldOrigin: string
      readonly newOrigin: string
      readonly changelog: Changelog
      /** What crossed the `--fail-on` threshold (`2 breaking changes and 1 warning`), if anything. */
      readonly failure?: { readonly failOn: FailOn; readonly crossed: string }
    }
  | { readonly type: 'unreadable'; readonly error: DocumentError }

export const DIFF_RECIPE: Recipe = {
  problem:
    'svc diff needs two API descriptions, the old and the new: file paths, URLs, or - for standard input.',
  usage: 'svc diff <old> <new> [--json] [--fail-on breaking|warning]',
  example: 'svc diff openapi-v1.yaml openapi-v2.yaml --fail-on breaking',
  discover: "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'",
}

/**
 * Reads two API descriptions and returns what changed from the old to the new one, or why one
 * cannot be read. Throws a RecipeError when an input is missing (or both are `-`).
 *
 * @example
 * const result = await diff({ old: 'v1.yaml', new: 'v2.yaml' }, io)
 * if (result.type === 'diffed') console.log(result.changelog.counts.breaking)
 */
export async function diff(options: DiffOptions, io: CommandIO): Promise<DiffResult> {
  if (options.old === '-' && options.new === '-') {
    throw new RecipeError({
      ...DIFF_RECIPE,
      problem: 'Only one of <old> and <new> can be - (standard input).',
    })
  }
  // Both are checked for presence before either is read, so a missing <new> never waits on stdin.
  if (!options.old || !options.new) throw new RecipeError(DIFF_RECIPE)
  try {
    const source = { cwd: io.cwd, stdin: io.stdin }
    const before = await readCommandInput(options.old, DIFF_RECIPE, source)
    const after = await readCommandInput(options.new, DIFF_RECIPE, source)
    // The engine follows relative refs only from an absolute file origin, so stdin or a URL on one
    // side is safe to pair with a reader for the other.
    const readFile =
      before.isFile || after.isFile
        ? { readFile: (path: string) => readFileSync(path, 'utf8') }
        : {}
    const policies = options.policies?.length ? { policies: new Set(options.policies) } : {}
    const changelog = await diffDocuments(
      { text: before.text, origin: before.origin },
      { text: after.text, origin: after.origin },
      { ...readFile, ...policies },
    )
    const crossed = options.failOn ? describeFailure(changelog, options.failOn) : undefined
    return {
      type: 'diffed',
      oldOrigin: before.origin,
      newOrigin: after.origin,
      changelog,
      ...(crossed === undefined ? {} : { failure: { failOn: options.failOn!, crossed } }),
    }
  } catch (error) {
    if (error instanceof DocumentError) return { type: 'unreadable', error }
    throw error
  }
}

/** What crossed the threshold (`2 breaking changes and 1 warning`), or undefined when nothing did. */
export function describeFailure(
  { counts }: Pick<Changelog, 'counts'>,
  failOn: FailOn,
): string | undefined {
  const parts: string[] = []
  if (counts.breaking > 0)
    parts.push(`${counts.breaking} breaking ${counts.breaking === 1 ? 'change' : 'changes'}`)
  if (failOn === 'warning' && counts.warning > 0)
    parts.push(`${counts.warning} ${counts.warning === 1 ? 'warning' : 'warnings'}`)
  return parts.length > 0 ? parts.join(' and ') : undefined
}
