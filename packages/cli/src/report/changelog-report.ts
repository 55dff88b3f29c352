import { RULES } from '@svc/engine'
import type { ChangelogNotes, NotableChange } from './changelog-notes.js'
import type { FailOn, GateFailure } from './gate.js'
import type { Report, ReportIssue } from './report.js'

type Change = NotableChange & { readonly message: string }
type Issue = {
  readonly type: string
  readonly level: ReportIssue['level']
  readonly message: string
  readonly location: string
}

export type ChangelogReportInput = {
  readonly command: string
  readonly subject: string
  readonly changelog: {
    readonly changes: readonly Change[]
    readonly issues?:
      { readonly before: readonly Issue[]; readonly after: readonly Issue[] } | undefined
  }
  readonly notes: ChangelogNotes | undefined
  readonly failOn?: FailOn | undefined
  readonly failure?: GateFailure | undefined
  /** Sentences said before the changes. */
  readonly lines?: readonly string[]
}

/** The {@link Report} of a changelog (`svc diff`, `svc api diff`, `svc api push`), with its notes. */
export function changelogReport(input: ChangelogReportInput): Report {
  const { changelog, notes } = input
  const issues = (side: 'before' | 'after'): ReportIssue[] =>
    (changelog.issues?.[side] ?? []).map((issue, index) => {
      const place = notes?.issues[side][index]
      return {
        level: issue.level,
        type: issue.type,
        message: issue.message,
        location: issue.location,
        side: side === 'before' ? 'old' : 'new',
        ...(place ? { place } : {}),
      }
    })
  return {
    command: input.command,
    subject: input.subject,
    kind: 'changes',
    notes: input.lines ?? [],
    issues: [...issues('before'), ...issues('after')],
    changes: changelog.changes.map((change, index) => {
      const note = notes?.changes[index]
      return {
        level: change.level,
        rule: change.id,
        message: change.message,
        location: change.location,
        ...(change.operation === undefined ? {} : { operation: change.operation }),
        ...(change.operations === undefined ? {} : { operations: change.operations }),
        // A hub's changelog may name a rule this CLI does not know yet.
        documentation:
          (RULES as Partial<typeof RULES>)[change.id as keyof typeof RULES]?.section ===
          'documentation',
        ...(note?.place ? { place: note.place } : {}),
        ...(note?.waived ? { waived: note.waived } : {}),
      }
    }),
    ...(input.failOn === undefined ? {} : { failOn: input.failOn }),
    ...(input.failure === undefined ? {} : { failure: input.failure.crossed }),
    ...(notes?.waivers ? { waivers: notes.waivers } : {}),
  }
}
