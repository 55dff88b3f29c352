import { readFileSync } from 'node:fs'
import {
  diffDocuments,
  DocumentError,
  type Changelog,
  type DiffPolicy,
  type DiffProfile,
} from '@svc/engine'
import type { CommandIO } from '../../command-io.js'
import { RecipeError, type Recipe } from '../../errors.js'
import { readCommandInput, type LoadedSource } from '../../input/read-source.js'
import {
  gateAfterWaivers,
  noteChangelog,
  type ChangelogNotes,
  type NotedSide,
} from '../../report/changelog-notes.js'
import { describeFailure, type FailOn } from '../../report/gate.js'
import { loadWaivers, type WaiverFile } from '../../waivers/waiver-file.js'
import { sdkGeneratorIds } from './sdk-generators.js'

export { describeFailure, type FailOn } from '../../report/gate.js'

export type DiffOptions = {
  /** The old description: a file path, an http(s) URL, or `-` for standard input. */
  readonly old?: string | undefined
  /** The new description, likewise; at most one of the two may be `-`. */
  readonly new?: string | undefined
  readonly failOn?: FailOn | undefined
  /** Conventions to apply on top of the rules (docs/diff-rules.md, "Policies"). */
  readonly policies?: readonly DiffPolicy[] | undefined
  /** `sdk` also judges the code svc's generators emit (docs/diff-rules.md, "SDK profile"). */
  readonly profile?: DiffProfile | undefined
  /** `--generators`: judge the SDK rules for these generators only. */
  readonly generators?: readonly string[] | undefined
  /** `--project`: judge the SDK rules for the generators of this project. */
  readonly project?: string | undefined
  /** Find the line and column of each change (every format but text shows them). */
  readonly positions?: boolean | undefined
  /** `--waivers <file>`; without it `svc-waivers.yaml` is looked for (docs: the waiver file). */
  readonly waivers?: string | undefined
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
      /** `--fail-on`, when given: the formats say whether the gate passed. */
      readonly failOn?: FailOn
      /** Where each change is and what waived it, when positions were asked for or waivers apply. */
      readonly notes?: ChangelogNotes
    }
  | { readonly type: 'unreadable'; readonly error: DocumentError }

export const DIFF_RECIPE: Recipe = {
  problem:
    'svc diff needs two API descriptions, the old and the new: file paths, URLs, or - for standard input.',
  usage:
    'svc diff <old> <new> [--format text|json|markdown|github|junit] [--fail-on breaking|warning] [--profile wire|sdk [--generators <names> | --project <name>]] [--waivers <file>]',
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
  const choosesGenerators = Boolean(options.generators?.length) || options.project !== undefined
  if (choosesGenerators && options.profile !== 'sdk')
    throw new RecipeError({
      ...DIFF_RECIPE,
      problem:
        '--generators and --project choose the generators the SDK rules are judged for: add --profile sdk.',
      example: 'svc diff v1.yaml v2.yaml --profile sdk --generators gen-fetch-client,gen-zod',
    })
  const sdkGenerators = sdkGeneratorIds(options, io.cwd, DIFF_RECIPE)
  // A waiver file that cannot be used stops the command before anything is read.
  const waivers = await loadWaivers(options.waivers, io.cwd)
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
    const profile = options.profile ? { profile: options.profile } : {}
    const generators = sdkGenerators ? { sdkGenerators } : {}
    const changelog = await diffDocuments(
      { text: before.text, origin: before.origin },
      { text: after.text, origin: after.origin },
      { ...readFile, ...policies, ...profile, ...generators },
    )
    return await finishDiff(changelog, {
      before,
      after,
      failOn: options.failOn,
      positions: options.positions ?? false,
      waivers,
    })
  } catch (error) {
    if (error instanceof DocumentError) return { type: 'unreadable', error }
    throw error
  }
}

export type FinishDiffOptions = {
  /** The documents compared; a side the CLI did not read itself (a hub's) is left out. */
  readonly before?: (NotedSide & Pick<LoadedSource, 'origin'>) | undefined
  readonly after: NotedSide & Pick<LoadedSource, 'origin'>
  /** What the old side is called when it is not `before` (`acme/payments revision #3`). */
  readonly oldOrigin?: string | undefined
  readonly failOn?: FailOn | undefined
  /** Find lines and columns: `positions: format !== 'text'`. */
  readonly positions: boolean
  /** The waiver file, read with `loadWaivers` before anything else was done. */
  readonly waivers?: WaiverFile | undefined
}

/**
 * The `diffed` result of a changelog, as every diff command (`svc diff`, `svc api diff`) ends:
 * the place of each change, what the waivers waive, and the `--fail-on` gate over what they
 * leave.
 *
 * @example
 * const waivers = await loadWaivers(options.waivers, io.cwd) // first: a bad file is exit 2
 * return finishDiff(changelog, { after, failOn, positions: true, waivers })
 */
export async function finishDiff(
  changelog: Changelog,
  options: FinishDiffOptions,
): Promise<Extract<DiffResult, { type: 'diffed' }>> {
  const notes = await noteChangelog(changelog, {
    before: options.before,
    after: options.after,
    positions: options.positions,
    waivers: options.waivers,
  })
  const { failOn } = options
  const crossed = failOn ? describeFailure(changelog, failOn) : undefined
  const failure = gateAfterWaivers(
    changelog.changes,
    notes,
    crossed === undefined || failOn === undefined ? undefined : { failOn, crossed },
  )
  return {
    type: 'diffed',
    oldOrigin: options.oldOrigin ?? options.before?.origin ?? '',
    newOrigin: options.after.origin,
    changelog,
    ...(failure === undefined ? {} : { failure }),
    ...(failOn === undefined ? {} : { failOn }),
    ...(notes === undefined ? {} : { notes }),
  }
}
