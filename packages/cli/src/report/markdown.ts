import { groupChanges, readablePath, type ChangeGroup, type ChangeGroupKind } from '@svc/engine'
import {
  countLabel,
  displayPath,
  exemptionLabel,
  exemptionText,
  fails,
  tally,
  waiverNotes,
  type Place,
  type Report,
  type ReportChange,
  type ReportIssue,
} from './report.js'

/** GitHub refuses a comment longer than this many characters. */
export const COMMENT_LIMIT = 65_536

/** A section with more rows than this is folded in `<details>`. */
const FOLD_ROWS = 10

const LEVEL_RANK = { breaking: 0, warning: 1, info: 2 } as const
const TABLE = { table: true }

type Section = {
  readonly heading: string
  /** The rows of its table, most harmful first. */
  readonly rows: readonly string[]
  readonly header: string
  readonly fold: boolean
}

/**
 * `--format markdown`: a pull-request comment. A title, the counts, the gate; then the changes
 * grouped by endpoint (method and path), the endpoints with breaking changes first, then by
 * component, then other places, then documentation, each change with its readable path below
 * its group's title; each group a table, folded in `<details>`
 * when it is long. Text from the documents is escaped, so any message stays one table cell; a
 * comment that would pass GitHub's 65,536 characters stops at a group's row with a note.
 */
export function markdownReport(report: Report, cwd: string): string {
  const head = [`## ${escapeText(`${report.command}: ${report.subject}`)}`, '']
  for (const note of report.notes) head.push(escapeText(note), '')
  head.push(...(report.kind === 'issues' ? issueSummary(report) : changeSummary(report)), '')
  const sections =
    report.kind === 'issues' ? issueSections(report.issues, cwd) : changeSections(report, cwd)
  const issues = report.kind === 'changes' ? parseErrorSections(report.issues, cwd) : []
  const tail = waiverSection(report, cwd)
  return assemble(head, [...issues, ...sections], tail)
}

function changeSummary(report: Report): string[] {
  const counts = tally(report.changes)
  const parts = [
    counts.breaking > 0
      ? `**${countLabel(counts.breaking, 'breaking')}**`
      : countLabel(0, 'breaking'),
    countLabel(counts.warning, 'warning'),
    countLabel(counts.info, 'info'),
  ]
  const accepted = report.changes.filter((change) => change.waived?.accepted).length
  if (counts.waived > accepted) parts.push(`${counts.waived - accepted} waived`)
  if (accepted > 0) parts.push(`${accepted} accepted`)
  const lines = [parts.join(' · ')]
  if (report.changes.length === 0 && report.issues.length === 0) lines.push('', 'No changes.')
  if (report.failOn)
    lines.push(
      '',
      report.failure
        ? `**\`--fail-on ${report.failOn}\` failed:** ${escapeText(report.failure)}.`
        : `\`--fail-on ${report.failOn}\` passed.`,
    )
  return lines
}

function issueSummary(report: Report): string[] {
  const count = (level: ReportIssue['level']) =>
    report.issues.filter((issue) => issue.level === level).length
  const errors = count('error')
  const parts = [
    errors > 0 ? `**${errors} ${errors === 1 ? 'error' : 'errors'}**` : '0 errors',
    `${count('warning')} ${count('warning') === 1 ? 'warning' : 'warnings'}`,
  ]
  if (count('debug') > 0) parts.push(`${count('debug')} debug`)
  return [parts.join(' · '), ...(report.issues.length === 0 ? ['', 'No issues.'] : [])]
}

const CHANGE_HEADER = '| Level | Rule | Change | Where |\n| --- | --- | --- | --- |'

const GROUP_KINDS: readonly ChangeGroupKind[] = ['endpoint', 'component', 'type', 'document']

/** What a change at its group's title is at. */
const HERE = {
  endpoint: '(the operation)',
  component: '(the component)',
  type: '(the type)',
} as const

/**
 * Endpoints, then components (GraphQL: types), then the rest of the document, each kind's groups
 * worst first (a waived change counts least), then documentation.
 */
function changeSections(report: Report, cwd: string): Section[] {
  const documentation = report.changes.filter((change) => change.documentation)
  const groups = groupChanges(report.changes.filter((change) => !change.documentation))
  const worst = (group: ChangeGroup<ReportChange>) =>
    Math.min(...group.entries.map(({ change }) => rank(change)))
  const ordered = [...groups].sort(
    (a, b) =>
      GROUP_KINDS.indexOf(a.kind) - GROUP_KINDS.indexOf(b.kind) ||
      worst(a) - worst(b) ||
      (a.title < b.title ? -1 : a.title > b.title ? 1 : 0),
  )
  const section = (
    heading: string,
    entries: readonly { change: ReportChange; path: string }[],
    fold: boolean,
    here = '(document)',
  ): Section => {
    const rows = [...entries]
      .sort((a, b) => rank(a.change) - rank(b.change))
      .map(({ change, path }) => changeRow(change, path || here, cwd, report))
    return { heading, rows, header: CHANGE_HEADER, fold: fold || rows.length > FOLD_ROWS }
  }
  const documented = documentation.map((change) => ({
    change,
    path: readablePath(change.location),
  }))
  return [
    ...ordered.map((group) =>
      group.kind === 'document'
        ? section('Other places', group.entries, false)
        : section(code(group.title), group.entries, false, HERE[group.kind]),
    ),
    ...(documented.length > 0 ? [section('Documentation', documented, true)] : []),
  ]
}

function rank(change: ReportChange): number {
  return change.waived ? 3 : LEVEL_RANK[change.level]
}

function changeRow(change: ReportChange, path: string, cwd: string, report: Report): string {
  const level = change.waived
    ? `${change.level}, ${exemptionLabel(change.waived)}`
    : fails(change, report.failOn ?? 'breaking')
      ? `**${change.level}**`
      : change.level
  const message = change.waived
    ? `${escapeText(change.message)} *${escapeText(exemptionText(change.waived))}*`
    : escapeText(change.message)
  const reached =
    change.operations && change.operations.length > 0
      ? ` (${escapeText(reachedLabel(change.operations))})`
      : ''
  return `| ${level} | ${code(change.rule, TABLE)} | ${message}${reached} | ${where(path, change.place, cwd)} |`
}

function reachedLabel(operations: readonly string[]): string {
  const shown = operations.slice(0, 3).join(', ')
  return operations.length > 3 ? `${shown} and ${operations.length - 3} more` : shown
}

const ISSUE_HEADER = '| Level | Issue | Message | Where |\n| --- | --- | --- | --- |'

function issueSections(issues: readonly ReportIssue[], cwd: string): Section[] {
  const titles = { error: 'Errors', warning: 'Warnings', debug: 'Debug' } as const
  return (['error', 'warning', 'debug'] as const).flatMap((level) => {
    const rows = issues
      .filter((issue) => issue.level === level)
      .map((issue) => issueRow(issue, cwd))
    if (rows.length === 0) return []
    const fold = level === 'debug' || rows.length > FOLD_ROWS
    return [{ heading: titles[level], rows, header: ISSUE_HEADER, fold }]
  })
}

function parseErrorSections(issues: readonly ReportIssue[], cwd: string): Section[] {
  if (issues.length === 0) return []
  const rows = issues.map((issue) => issueRow(issue, cwd))
  return [{ heading: 'Parse errors', rows, header: ISSUE_HEADER, fold: rows.length > FOLD_ROWS }]
}

function issueRow(issue: ReportIssue, cwd: string): string {
  const level = issue.side ? `${issue.level} (${issue.side})` : issue.level
  return `| ${issue.level === 'error' ? `**${level}**` : level} | ${code(issue.type, TABLE)} | ${escapeText(issue.message)} | ${where(issue.location || '(document)', issue.place, cwd)} |`
}

function waiverSection(report: Report, cwd: string): string[] {
  const notes = waiverNotes(report.waivers)
  if (notes.length === 0 || !report.waivers) return []
  const file = displayPath(report.waivers.file, cwd)
  return [
    '### Waivers',
    '',
    ...notes.map((note) => `- ${code(`${file}:${note.line}`)}: ${escapeText(note.text)}`),
    '',
  ]
}

/**
 * `` `response 200 › body.owner` `` and `` `openapi.yaml:12` ``: the readable path below the
 * group's title, or an issue's location, and the line.
 */
function where(path: string, place: Place | undefined, cwd: string): string {
  const line =
    place?.file !== undefined
      ? ` ${code(`${displayPath(place.file, cwd)}:${place.line}`, TABLE)}`
      : ''
  return `${code(path, TABLE)}${line}`
}

/**
 * The head, then whole sections while they fit, then the waivers; a section that does not fit
 * is cut after its last row that does, and a note says how many changes were left out.
 */
function assemble(
  head: readonly string[],
  sections: readonly Section[],
  tail: readonly string[],
): string {
  const out = [...head]
  const tailText = tail.join('\n')
  const note = (left: number) =>
    `*${left} more ${left === 1 ? 'row' : 'rows'} not shown: the comment would pass GitHub's ${COMMENT_LIMIT.toLocaleString('en-US')} characters. \`--format json\` lists every change.*`
  // Room for the tail, the note and closing tags, whatever is cut.
  const budget = COMMENT_LIMIT - tailText.length - note(Number.MAX_SAFE_INTEGER).length - 64
  let size = out.join('\n').length
  let left = 0
  for (const section of sections) {
    if (left > 0) {
      left += section.rows.length
      continue
    }
    const open = section.fold
      ? [
          `<details><summary>${escapeHtml(stripCode(section.heading))} (${section.rows.length})</summary>`,
          '',
        ]
      : [`### ${section.heading}`, '']
    const close = section.fold ? ['', '</details>', ''] : ['']
    const start = [...open, section.header].join('\n').length + close.join('\n').length + 2
    if (size + start > budget) {
      left += section.rows.length
      continue
    }
    const rows: string[] = []
    let used = size + start
    for (const [index, row] of section.rows.entries()) {
      if (used + row.length + 1 > budget) {
        left += section.rows.length - index
        break
      }
      rows.push(row)
      used += row.length + 1
    }
    if (rows.length > 0) {
      out.push(...open, section.header, ...rows, ...close)
      size = out.join('\n').length
    }
  }
  if (left > 0) out.push(note(left), '')
  out.push(...tail)
  return out.join('\n').trimEnd()
}

/**
 * Text that markdown must show as it is. Only what can mean something inside a line is escaped
 * (emphasis, code, links, HTML, tables, strikethrough, entities, math, mentions, issue links and
 * emoji); every line this report writes starts with its own markup.
 */
function escapeText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_[\]<>|~&$@#:!]/g, (char) => `\\${char}`)
}

/** A code span that holds any text: a fence longer than its longest run of backticks. */
function code(text: string, options: { table?: boolean } = {}): string {
  const flat = text.replace(/[\r\n]+/g, ' ')
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat.trim() === '' ? ' ' : ''
  // In a GFM table, `|` ends the cell even inside a code span unless escaped.
  const body = options.table ? flat.replaceAll('|', '\\|') : flat
  return `${fence}${pad}${body}${pad}${fence}`
}

function stripCode(heading: string): string {
  return heading.replace(/^(`+) ?(.*?) ?\1$/, '$2')
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
}
