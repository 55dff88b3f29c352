import {
  countLabel,
  describeChange,
  displayPath,
  exemptionLabel,
  exemptionText,
  tally,
  waiverNotes,
  type Place,
  type Report,
  type ReportChange,
  type ReportIssue,
} from './report.js'

type Command = 'error' | 'warning' | 'notice'

/**
 * `--format github`: one GitHub Actions workflow command per change and per parse issue,
 * `::error file=…,line=…,col=…,title=<rule>::<message>`, which GitHub shows as an annotation at
 * that line of the pull request's diff (breaking → error, warning → warning, info → notice; a
 * waived change is a notice), then one per expired or unused waiver, then a summary line.
 */
export function githubReport(report: Report, cwd: string): string {
  const lines: string[] = []
  for (const issue of report.issues) {
    const command = issueCommand(issue)
    if (command) lines.push(workflowCommand(command, issue.type, issue.message, issue.place, cwd))
  }
  for (const change of report.changes) {
    const waived = change.waived
    const message = waived
      ? `${describeChange(change)} ${exemptionText(waived)}`
      : describeChange(change)
    lines.push(
      workflowCommand(
        waived ? 'notice' : changeCommand(change),
        waived ? `${change.rule} (${exemptionLabel(waived)})` : change.rule,
        message,
        change.place,
        cwd,
      ),
    )
  }
  const file = report.waivers?.file
  for (const note of waiverNotes(report.waivers))
    lines.push(
      workflowCommand(
        'warning',
        note.kind === 'expired' ? 'waiver expired' : 'waiver matched no change',
        note.text,
        file === undefined ? undefined : { file, line: note.line, column: 1 },
        cwd,
      ),
    )
  lines.push(summary(report))
  return lines.join('\n')
}

function changeCommand(change: ReportChange): Command {
  return change.level === 'breaking' ? 'error' : change.level === 'warning' ? 'warning' : 'notice'
}

function issueCommand(issue: ReportIssue): Command | undefined {
  if (issue.level === 'error') return 'error'
  if (issue.level === 'warning') return 'warning'
  return issue.level === 'debug' ? 'notice' : undefined
}

/** `::error file=a.yaml,line=3,col=5,title=x::message`; a place not in a local file has none. */
function workflowCommand(
  command: Command,
  title: string,
  message: string,
  place: Place | undefined,
  cwd: string,
): string {
  const properties: [string, string][] = []
  if (place?.file !== undefined) {
    properties.push(['file', displayPath(place.file, cwd)])
    properties.push(['line', String(place.line)], ['col', String(place.column)])
  }
  properties.push(['title', title])
  const list = properties.map(([key, value]) => `${key}=${escapeProperty(value)}`).join(',')
  return `::${command} ${list}::${escapeData(message)}`
}

/** What GitHub's runner decodes in a command's message (actions/toolkit `escapeData`). */
function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
}

/** In a property, `:` and `,` end the value, so they are encoded too (`escapeProperty`). */
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C')
}

function summary(report: Report): string {
  if (report.kind === 'issues') {
    const count = (level: ReportIssue['level']) =>
      report.issues.filter((issue) => issue.level === level).length
    const errors = count('error')
    const warnings = count('warning')
    return `${report.command}: ${report.subject}: ${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}.`
  }
  const counts = tally(report.changes)
  const parts = [
    countLabel(counts.breaking, 'breaking'),
    countLabel(counts.warning, 'warning'),
    countLabel(counts.info, 'info'),
  ]
  if (counts.waived > 0) parts.push(`${counts.waived} waived`)
  const gate = report.failOn
    ? report.failure
      ? ` --fail-on ${report.failOn} failed: ${report.failure}.`
      : ` --fail-on ${report.failOn} passed.`
    : ''
  const notes = report.notes.length > 0 ? ` ${report.notes.join(' ')}` : ''
  return `${report.command}: ${report.subject}:${notes} ${parts.join(', ')}.${gate}`
}
