import { groupChanges, readablePath, RULES, type ChangeGroup, type Changelog } from '@svc/engine'
import { documentErrorJson, EXIT, formatDocumentError, type ExitCode } from '../../errors.js'
import { isReportFormat, type Colors, type Output } from '../../output.js'
import { renderReport, type Report } from '../../report/index.js'
import {
  jsonChanges,
  jsonWaivers,
  waiverWarnings,
  type ChangelogNotes,
} from '../../report/changelog-notes.js'
import { changelogReport } from '../../report/changelog-report.js'
import { displayPath, unreadableReport } from '../../report/report.js'
import type { DiffResult } from './index.js'

type Change = Changelog['changes'][number]

/** The width of the level column: `breaking`. */
const LEVEL_WIDTH = 8

/** Where a change's operations and waiver are written: below its rule id. */
const DETAIL_INDENT = ' '.repeat(2 + LEVEL_WIDTH + 2)

/** How many operations of a shared component's list are named before "and N more". */
const OPERATIONS_SHOWN = 3

/**
 * `svc diff`: the changelog on stdout (text, or exactly one JSON object with `--json`); exit 1
 * when `--fail-on` found a change at or above its level, or a document cannot be read.
 */
export function renderDiff(result: DiffResult, output: Output): ExitCode {
  if (result.type === 'unreadable') {
    output.diagnostic(formatDocumentError(result.error))
    if (output.format === 'json')
      output.json({
        summary: { diff: false, details: {} },
        counts: { breaking: 0, warning: 0, info: 0 },
        changes: [],
        error: documentErrorJson(result.error),
      })
    else if (isReportFormat(output.format))
      output.result(
        renderReport(
          unreadableReport(result.error, {
            command: 'svc diff',
            unnamed: 'a document',
            cwd: output.cwd,
          }),
          output.format,
          output.cwd,
        ),
      )
    return EXIT.failure
  }
  const { summary, counts, changes, issues } = result.changelog
  const { notes } = result
  if (output.format === 'json')
    output.json({
      summary,
      counts,
      changes: jsonChanges(changes, notes),
      ...(issues === undefined ? {} : { issues }),
      ...jsonWaivers(notes),
    })
  else if (isReportFormat(output.format))
    output.result(renderReport(diffReport(result, output.cwd), output.format, output.cwd))
  else for (const line of changelogLines(result.changelog, output.color, notes)) output.result(line)
  for (const line of waiverWarnings(notes, output.cwd)) output.diagnostic(line)
  if (result.failure === undefined) return EXIT.ok
  output.diagnostic(`error: --fail-on ${result.failure.failOn}: ${result.failure.crossed}.`)
  return EXIT.failure
}

/** The report the CI formats of `svc diff` (and `svc api diff`) are written from. */
export function diffReport(result: Extract<DiffResult, { type: 'diffed' }>, cwd: string): Report {
  return changelogReport({
    command: 'svc diff',
    subject: `${displayPath(result.oldOrigin, cwd)} → ${displayPath(result.newOrigin, cwd)}`,
    changelog: result.changelog,
    notes: result.notes,
    failOn: result.failOn ?? result.failure?.failOn,
    failure: result.failure,
  })
}

/**
 * The text report of `svc diff`: the parse errors of either side first (what they name could not
 * be compared), a headline with the counts, one line per changed section, then the changes
 * grouped by endpoint, then by component (GraphQL: by type), then the rest of the document, each
 * as `level  id  path  message` with its path below the group's title; documentation changes
 * last, each with its whole path.
 */
export function changelogLines(
  changelog: Changelog,
  color: Colors,
  notes?: ChangelogNotes,
): string[] {
  const { counts, summary, changes } = changelog
  const waivedBy = new Map(changes.map((change, index) => [change, notes?.changes[index]?.waived]))
  const waived = [...waivedBy.values()].filter(Boolean).length
  const failures = parseErrorLines(changelog, color)
  if (changes.length === 0 && !summary.diff && failures.length === 0) return ['No changes.']
  const lines = [
    ...failures,
    [
      paintCount(counts.breaking, 'breaking', color.red),
      paintCount(counts.warning, counts.warning === 1 ? 'warning' : 'warnings', color.yellow),
      `${counts.info} info ${counts.info === 1 ? 'change' : 'changes'}`,
    ].join(', ') + (waived > 0 ? color.dim(` (${waived} waived)`) : ''),
  ]
  const sections = Object.entries(summary.details)
  const width = Math.max(0, ...sections.map(([name]) => name.length))
  for (const [name, delta] of sections) {
    if (!delta) continue
    lines.push(
      `${`${name}:`.padEnd(width + 1)} ${color.green(`+${delta.added}`)} ${color.red(`−${delta.deleted}`)} ${color.yellow(`~${delta.modified}`)}`,
    )
  }
  // One id column for the whole report, so paths line up across the groups.
  const idWidth = Math.max(0, ...changes.map((change) => change.id.length))
  const render = (change: Change, path: string, titled: string | undefined) =>
    renderChange(change, path, titled, idWidth, color, waivedBy.get(change)?.reason)
  // Documentation changes (all info) come last, in their own group: they can be many.
  for (const group of groupChanges(changes.filter((change) => !isDocumentation(change)))) {
    lines.push('', color.bold(groupTitle(group)))
    for (const { change, path } of group.entries)
      lines.push(...render(change, path, group.kind === 'endpoint' ? group.title : undefined))
  }
  const documentation = changes.filter(isDocumentation)
  if (documentation.length > 0) {
    lines.push('', color.bold(`Documentation (${documentation.length})`))
    // The whole path names the operation already.
    for (const change of documentation)
      lines.push(...render(change, readablePath(change.location), change.operation))
  }
  return lines
}

function groupTitle(group: ChangeGroup<Change>): string {
  return group.kind === 'document' ? 'Document' : group.title
}

/**
 * `Parse errors (2); …` and one line per error-level issue, `old`/`new`, its location and
 * message; nothing when neither side has one.
 */
function parseErrorLines({ issues }: Changelog, color: Colors): string[] {
  if (!issues) return []
  const rows = [
    ...issues.before.map((issue) => ({ issue, side: color.yellow('old') })),
    ...issues.after.map((issue) => ({ issue, side: color.red('new') })),
  ]
  if (rows.length === 0) return []
  const where = (location: string) => location || '(document)'
  const width = Math.max(...rows.map(({ issue }) => where(issue.location).length))
  return [
    color.bold(`Parse errors (${rows.length}); the items they name are changes below:`),
    ...rows.map(
      ({ issue, side }) =>
        `  ${side}  ${color.cyan(where(issue.location).padEnd(width))}  ${issue.message}`,
    ),
    '',
  ]
}

function isDocumentation(change: Change): boolean {
  // A hub's changelog may name a rule this CLI does not know yet (`svc api changes`).
  return (RULES as Partial<typeof RULES>)[change.id]?.section === 'documentation'
}

function renderChange(
  change: Change,
  path: string,
  titled: string | undefined,
  idWidth: number,
  color: Colors,
  waivedFor: string | undefined,
): string[] {
  const paint =
    waivedFor !== undefined
      ? color.dim
      : change.level === 'breaking'
        ? color.red
        : change.level === 'warning'
          ? color.yellow
          : color.dim
  const where = path === '' ? '' : `${color.cyan(path)}  `
  const lines = [
    `  ${paint(change.level.padEnd(LEVEL_WIDTH))}  ${paint(change.id.padEnd(idWidth))}  ${where}${change.message}`,
  ]
  const operations = describeOperations(change)
  // `The operation DELETE /pets was removed.` already says where, as does the group's title.
  if (operations && operations !== titled && !change.message.includes(operations))
    lines.push(`${DETAIL_INDENT}${color.dim(operations)}`)
  if (waivedFor !== undefined) lines.push(`${DETAIL_INDENT}${color.green('waived:')} ${waivedFor}`)
  return lines
}

/** `GET /pets`, or for a shared component `3 operations: GET /a, GET /b, POST /c and 2 more`. */
function describeOperations(change: Change): string | undefined {
  const { operation, operations } = change
  if (operations && operations.length > 0) {
    const shown = operations.slice(0, OPERATIONS_SHOWN).join(', ')
    const more = operations.length - OPERATIONS_SHOWN
    const label = operations.length === 1 ? '1 operation' : `${operations.length} operations`
    return `${label}: ${shown}${more > 0 ? ` and ${more} more` : ''}`
  }
  return operation
}

function paintCount(count: number, label: string, paint: (text: string) => string): string {
  const text = `${count} ${label}`
  return count > 0 ? paint(text) : text
}
