import { isAbsolute, relative } from 'node:path'
import type { IssueLevel, ParseIssue } from '@svc/engine'
import { documentErrorJson, EXIT, formatDocumentError, type ExitCode } from '../../errors.js'
import { isReportFormat, type Colors, type Output } from '../../output.js'
import { renderReport, type Report } from '../../report/index.js'
import { displayPath as shownPath, unreadableReport } from '../../report/report.js'
import type { CheckResult } from './index.js'

/** How a path is shown: relative to the working directory when it is a local file. */
type DisplayPath = (path: string) => string

const LEVELS: readonly { level: IssueLevel; title: string }[] = [
  { level: 'error', title: 'Errors' },
  { level: 'warning', title: 'Warnings' },
  { level: 'debug', title: 'Debug' },
]

/**
 * `svc check`: the report on stdout (text, or exactly one JSON object with `--json`); exit 1
 * when any issue is an error or the document cannot be read.
 */
export function renderCheck(
  result: CheckResult,
  output: Output,
  options: { readonly debug: boolean },
): ExitCode {
  if (result.type === 'unreadable') {
    output.diagnostic(formatDocumentError(result.error))
    if (output.format === 'json')
      output.json({
        parseIssues: [],
        summary: { error: 0, warning: 0, debug: 0 },
        error: documentErrorJson(result.error),
      })
    else if (isReportFormat(output.format))
      output.result(
        renderReport(
          unreadableReport(result.error, {
            command: 'svc check',
            unnamed: 'the document',
            cwd: output.cwd,
          }),
          output.format,
          output.cwd,
        ),
      )
    return EXIT.failure
  }
  if (output.format === 'json')
    output.json({ parseIssues: result.parseIssues, summary: result.summary })
  else if (isReportFormat(output.format))
    output.result(
      renderReport(checkReport(result, output.cwd, options.debug), output.format, output.cwd),
    )
  else {
    const displayPath = (path: string) =>
      isAbsolute(path) ? relative(output.cwd, path) || path : path
    for (const line of textReport(result, { ...options, color: output.color, displayPath }))
      output.result(line)
  }
  return result.summary.error > 0 ? EXIT.failure : EXIT.ok
}

/**
 * The report the CI formats of `svc check` are written from: every error and warning (debug
 * issues with `--debug`), each at its line in the document or the file a `$ref` brought in.
 */
function checkReport(
  result: Extract<CheckResult, { type: 'checked' }>,
  cwd: string,
  debug: boolean,
): Report {
  const document = isAbsolute(result.origin) ? result.origin : undefined
  const errors = result.summary.error
  return {
    command: 'svc check',
    subject: shownPath(result.origin, cwd),
    kind: 'issues',
    changes: [],
    notes: [],
    issues: result.parseIssues
      .filter((issue) => debug || issue.level !== 'debug')
      .map((issue) => {
        const file = issue.file ?? document
        return {
          level: issue.level,
          type: issue.type,
          message: issue.message,
          location: issue.location,
          ...(issue.line !== undefined && issue.column !== undefined
            ? { place: { line: issue.line, column: issue.column, ...(file ? { file } : {}) } }
            : {}),
        }
      }),
    ...(errors > 0 ? { failure: plural(errors, 'error') } : {}),
  }
}

/** The text report: a header, counts, then issues grouped by level. */
function textReport(
  result: Extract<CheckResult, { type: 'checked' }>,
  options: { debug: boolean; color: Colors; displayPath: DisplayPath },
): string[] {
  const { color } = options
  const { source, summary } = result
  const kind =
    source.protocol === 'gql'
      ? 'GraphQL SDL'
      : source.version === '2.0'
        ? 'Swagger 2.0'
        : `OpenAPI ${source.version}`
  const format = source.format === 'graphql' ? '' : ` (${source.format.toUpperCase()})`
  const lines = [`${color.bold(options.displayPath(result.origin))}: ${kind}${format}`]
  const shownDebug = options.debug ? summary.debug : 0
  if (summary.error + summary.warning + shownDebug === 0) {
    const hidden =
      summary.debug > 0
        ? color.dim(` (${plural(summary.debug, 'debug issue')} hidden; --debug shows them)`)
        : ''
    lines.push(`${color.green('✓')} no issues${hidden}`)
    return lines
  }
  const counts = [
    color.red(plural(summary.error, 'error')),
    color.yellow(plural(summary.warning, 'warning')),
    `${plural(summary.debug, 'debug issue')}${summary.debug > 0 && !options.debug ? ' (hidden; --debug shows them)' : ''}`,
  ]
  lines.push(counts.join(', '))
  for (const { level, title } of LEVELS) {
    if (level === 'debug' && !options.debug) continue
    const issues = result.parseIssues.filter((issue) => issue.level === level)
    if (issues.length === 0) continue
    lines.push('', color.bold(title))
    for (const issue of issues) lines.push(...renderIssue(issue, color, options.displayPath))
  }
  return lines
}

function renderIssue(issue: ParseIssue, color: Colors, displayPath: DisplayPath): string[] {
  const paint =
    issue.level === 'error' ? color.red : issue.level === 'warning' ? color.yellow : color.dim
  const file = issue.file !== undefined ? `${displayPath(issue.file)}:` : ''
  const where =
    issue.line !== undefined ? ` ${color.dim(`(${file}${issue.line}:${issue.column})`)}` : ''
  return [
    `  ${paint(issue.type)} ${color.cyan(issue.location || '(document)')}${where}`,
    `    ${issue.message}`,
  ]
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`
}
