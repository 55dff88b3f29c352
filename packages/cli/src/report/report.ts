import { isAbsolute, relative } from 'node:path'
import type { DocumentError } from '@svc/engine'
import type { WaivedBy, WaiverReport } from '../waivers/apply-waivers.js'

/** The formats a report is written in besides text and JSON (`--format`). */
export const REPORT_FORMATS = ['markdown', 'github', 'junit'] as const
export type ReportFormat = (typeof REPORT_FORMATS)[number]

/** A place in a document: `file` is a local file's absolute path, absent when it is none. */
export type Place = { readonly file?: string; readonly line: number; readonly column: number }

export type ReportChange = {
  readonly level: 'breaking' | 'warning' | 'info'
  readonly rule: string
  readonly message: string
  /** A JSON pointer or a GraphQL schema coordinate, as the changelog has it. */
  readonly location: string
  readonly operation?: string
  /** The operations that reach a change to a shared component. */
  readonly operations?: readonly string[]
  /** A change to descriptions, summaries, examples: shown last, folded. */
  readonly documentation: boolean
  readonly place?: Place
  readonly waived?: WaivedBy
}

export type ReportIssue = {
  readonly level: 'error' | 'warning' | 'debug'
  readonly type: string
  readonly message: string
  readonly location: string
  /** For a diff: the document it is in. */
  readonly side?: 'old' | 'new'
  readonly place?: Place
}

/**
 * What `svc check`, `svc diff`, `svc api diff`, `svc api push` and `svc api refetch` found, in the
 * one shape the CI formats (GitHub annotations, a markdown comment, JUnit XML) are written from.
 */
export type Report = {
  /** `svc diff`, `svc api push` …: names the JUnit suite and starts the summary. */
  readonly command: string
  /** What was compared or checked: `old.yaml → new.yaml`, `acme/payments revision #3`. */
  readonly subject: string
  /** `changes` for a changelog, `issues` for `svc check`. */
  readonly kind: 'changes' | 'issues'
  readonly changes: readonly ReportChange[]
  readonly issues: readonly ReportIssue[]
  /** Sentences said before the changes (`No change: …`, `The first revision …`). */
  readonly notes: readonly string[]
  readonly failOn?: 'breaking' | 'warning'
  /** What failed the command (`2 breaking changes`, `1 error`), as its exit code says. */
  readonly failure?: string
  readonly waivers?: WaiverReport
}

/** A path as a CI shows it: relative to the working folder when it is below it. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path
  const shown = relative(cwd, path)
  return shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : path
}

/** `1 breaking change`, `2 warnings`, `3 info changes`. */
export function countLabel(count: number, level: ReportChange['level']): string {
  if (level === 'warning') return `${count} ${count === 1 ? 'warning' : 'warnings'}`
  return `${count} ${level} ${count === 1 ? 'change' : 'changes'}`
}

/** `waived` or `accepted`: how the change's exemption is named. */
export function exemptionLabel(waived: WaivedBy): string {
  return waived.accepted ? 'accepted' : 'waived'
}

/** `Waived: <reason>`, or `Accepted by alice at <time>: <reason>` for a hub's acceptance. */
export function exemptionText(waived: WaivedBy): string {
  return waived.accepted
    ? `Accepted by ${waived.accepted.by} at ${waived.accepted.at}: ${waived.reason}`
    : `Waived: ${waived.reason}`
}

/** How many changes of each level count (are not waived), and how many are waived. */
export function tally(changes: readonly ReportChange[]) {
  const counts = { breaking: 0, warning: 0, info: 0, waived: 0 }
  for (const change of changes) {
    if (change.waived) counts.waived++
    else counts[change.level]++
  }
  return counts
}

/** Whether a change fails the command's gate, or a JUnit test case (breaking always). */
export function fails(change: ReportChange, failOn: Report['failOn']): boolean {
  if (change.waived) return false
  return change.level === 'breaking' || (failOn === 'warning' && change.level === 'warning')
}

/** `The operation … (GET /pets)`: the message, with where it applies when it does not say. */
export function describeChange(change: ReportChange): string {
  const where = change.operation ?? operationsLabel(change.operations)
  return where && !change.message.includes(where) ? `${change.message} (${where})` : change.message
}

function operationsLabel(operations: readonly string[] | undefined): string | undefined {
  if (!operations || operations.length === 0) return undefined
  const shown = operations.slice(0, 3).join(', ')
  return operations.length > 3 ? `${shown} and ${operations.length - 3} more` : shown
}

/** `svc-waivers.yaml:12: waiver 3 (endpoint-removed, DELETE /pets) expired on 2026-01-01 …` */
export function waiverNotes(
  waivers: WaiverReport | undefined,
): { kind: 'expired' | 'unmatched'; line: number; text: string }[] {
  if (!waivers) return []
  const label = (note: WaiverReport['expired'][number]) =>
    `waiver ${note.entry} (${[note.rule, note.operation, note.location].filter(Boolean).join(', ')})`
  return [
    ...waivers.expired.map((note) => ({
      kind: 'expired' as const,
      line: note.line,
      text: `${label(note)} expired on ${note.expires}; it no longer waives anything.`,
    })),
    ...waivers.unmatched.map((note) => ({
      kind: 'unmatched' as const,
      line: note.line,
      text: `${label(note)} matched no change.`,
    })),
  ]
}

/**
 * A document that cannot be read, as the CI formats show it: one error, at its line if known.
 * `unnamed` is the subject when the error names no file (`the document`, `a document`).
 */
export function unreadableReport(
  error: DocumentError,
  options: { readonly command: string; readonly unnamed: string; readonly cwd: string },
): Report {
  const file = error.file !== undefined && isAbsolute(error.file) ? error.file : undefined
  return {
    command: options.command,
    subject: error.file === undefined ? options.unnamed : displayPath(error.file, options.cwd),
    kind: 'issues',
    changes: [],
    notes: [],
    issues: [
      {
        level: 'error',
        type: error.code,
        message: error.message,
        location: '',
        ...(error.line !== undefined && error.column !== undefined
          ? { place: { line: error.line, column: error.column, ...(file ? { file } : {}) } }
          : {}),
      },
    ],
    failure: `${options.unnamed} cannot be read`,
  }
}
