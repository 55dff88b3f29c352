/** The lowest level that fails the command: `breaking`, or `warning` (breaking or warning). */
export type FailOn = 'breaking' | 'warning'

/** What crossed `--fail-on` (`2 breaking changes and 1 warning`), when something did. */
export type GateFailure = { readonly failOn: FailOn; readonly crossed: string }

type Counts = { readonly breaking: number; readonly warning: number }

/** What crossed the threshold (`2 breaking changes and 1 warning`), or undefined when nothing did. */
export function describeFailure(
  { counts }: { readonly counts: Counts },
  failOn: FailOn,
): string | undefined {
  const parts: string[] = []
  if (counts.breaking > 0)
    parts.push(`${counts.breaking} breaking ${counts.breaking === 1 ? 'change' : 'changes'}`)
  if (failOn === 'warning' && counts.warning > 0)
    parts.push(`${counts.warning} ${counts.warning === 1 ? 'warning' : 'warnings'}`)
  return parts.length > 0 ? parts.join(' and ') : undefined
}
