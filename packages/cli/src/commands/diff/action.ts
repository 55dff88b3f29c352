import { DocumentError, type Changelog } from '@svc/engine'
import { documentErrorJson, EXIT, formatDocumentError, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { diff, type DiffOptions } from './index.js'
import { renderDiff } from './render.js'

/** The lowest level that fails the command: `breaking`, or `warning` (breaking or warning). */
export type FailOn = 'breaking' | 'warning'

export type DiffFlags = { json?: boolean; failOn?: FailOn }

/**
 * `svc diff`: the changelog on stdout (text, or exactly one JSON object with `--json`); exit 1
 * when `--fail-on` finds a change at or above its level, or a document cannot be read.
 */
export async function diffAction(
  oldInput: string | undefined,
  newInput: string | undefined,
  flags: DiffFlags,
  output: Output,
  io: Omit<DiffOptions, 'old' | 'new'> = {},
): Promise<ExitCode> {
  try {
    const { changelog } = await diff({ ...io, old: oldInput, new: newInput })
    const { summary, counts, changes } = changelog
    if (flags.json) output.json({ summary, counts, changes })
    else for (const line of renderDiff(changelog, output.color)) output.result(line)
    const failure = flags.failOn ? describeFailure(changelog, flags.failOn) : undefined
    if (failure === undefined) return EXIT.ok
    output.diagnostic(`error: --fail-on ${flags.failOn}: ${failure}.`)
    return EXIT.failure
  } catch (error) {
    if (!(error instanceof DocumentError) || !flags.json) throw error
    output.diagnostic(formatDocumentError(error))
    output.json({
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      changes: [],
      error: documentErrorJson(error),
    })
    return EXIT.failure
  }
}

/** What crossed the threshold (`2 breaking changes and 1 warning`), or undefined when nothing did. */
function describeFailure({ counts }: Changelog, failOn: FailOn): string | undefined {
  const parts: string[] = []
  if (counts.breaking > 0)
    parts.push(`${counts.breaking} breaking ${counts.breaking === 1 ? 'change' : 'changes'}`)
  if (failOn === 'warning' && counts.warning > 0)
    parts.push(`${counts.warning} ${counts.warning === 1 ? 'warning' : 'warnings'}`)
  return parts.length > 0 ? parts.join(' and ') : undefined
}
