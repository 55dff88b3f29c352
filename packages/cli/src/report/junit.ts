import XMLBuilder from 'fast-xml-builder'
import {
  countLabel,
  describeChange,
  displayPath,
  exemptionLabel,
  exemptionText,
  fails,
  waiverNotes,
  type Place,
  type Report,
  type ReportChange,
  type ReportIssue,
} from './report.js'

type TestCase = {
  readonly name: string
  readonly file?: string
  readonly line?: number
  /** What failed it, one per line; none: it passed. */
  readonly failures: readonly string[]
  readonly failureType?: string
  /** What else it has, shown with it. */
  readonly notes: readonly string[]
}

/**
 * `--format junit`: JUnit XML, which GitLab and Jenkins read as test results. One test suite;
 * for a changelog one test case per endpoint, and per rule for the changes on no endpoint (a
 * component, the document); for `svc check` one per document. A test case fails for its
 * breaking changes (and warnings under `--fail-on warning`) that no waiver covers, or for the
 * document's parse errors; everything else is in its `<system-out>`.
 */
export function junitReport(report: Report, cwd: string): string {
  const cases = report.kind === 'issues' ? issueCases(report, cwd) : changeCases(report, cwd)
  const failures = cases.filter((testCase) => testCase.failures.length > 0).length
  const suite = {
    '@_name': xmlText(`${report.command}: ${report.subject}`),
    '@_tests': cases.length,
    '@_failures': failures,
    '@_errors': 0,
    '@_skipped': 0,
    testcase: cases.map((testCase) => ({
      '@_name': xmlText(testCase.name),
      '@_classname': xmlText(report.command),
      ...(testCase.file === undefined ? {} : { '@_file': xmlText(testCase.file) }),
      ...(testCase.line === undefined ? {} : { '@_line': testCase.line }),
      ...(testCase.failures.length === 0
        ? {}
        : {
            failure: {
              '@_message': attribute(testCase.failures[0]!),
              '@_type': testCase.failureType ?? 'failure',
              '#text': xmlText(testCase.failures.join('\n')),
            },
          }),
      ...(testCase.notes.length === 0 ? {} : { 'system-out': xmlText(testCase.notes.join('\n')) }),
    })),
    ...(report.waivers && waiverNotes(report.waivers).length > 0
      ? {
          'system-err': xmlText(
            waiverNotes(report.waivers)
              .map((note) => `${displayPath(report.waivers!.file, cwd)}:${note.line}: ${note.text}`)
              .join('\n'),
          ),
        }
      : {}),
  }
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    format: true,
    suppressEmptyNode: true,
  })
  const xml = builder.build({
    testsuites: {
      '@_name': xmlText(report.command),
      '@_tests': cases.length,
      '@_failures': failures,
      testsuite: suite,
    },
  })
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml.trimEnd()}`
}

function changeCases(report: Report, cwd: string): TestCase[] {
  const groups = new Map<string, ReportChange[]>()
  for (const change of report.changes) {
    const name = change.operation ?? change.rule
    const group = groups.get(name) ?? []
    group.push(change)
    groups.set(name, group)
  }
  const cases = [...groups].map(([name, changes]): TestCase => {
    const failing = changes.filter((change) => fails(change, report.failOn))
    const first = changes.find((change) => change.place?.file !== undefined)?.place
    const worst = failing.some((change) => change.level === 'breaking') ? 'breaking' : 'warning'
    return {
      name,
      ...(first?.file === undefined
        ? {}
        : { file: displayPath(first.file, cwd), line: first.line }),
      failures:
        failing.length === 0
          ? []
          : [
              failing.length === 1 ? failing[0]!.message : failingLabel(failing),
              ...failing.map((change) => changeLine(change, cwd)),
            ],
      failureType: worst,
      notes: changes
        .filter((change) => !failing.includes(change))
        .map((change) => changeLine(change, cwd)),
    }
  })
  const parseErrors = report.issues.filter((issue) => issue.level === 'error')
  if (parseErrors.length > 0)
    cases.push({
      name: 'parse errors',
      failures: [],
      notes: parseErrors.map((issue) => issueLine(issue, cwd)),
    })
  // A run with nothing to report is still one passing test, so the job shows it ran.
  if (cases.length === 0)
    cases.push({
      name: report.subject,
      failures: [],
      notes: report.notes.length > 0 ? report.notes : ['No changes.'],
    })
  return cases
}

function issueCases(report: Report, cwd: string): TestCase[] {
  const files = new Map<string, ReportIssue[]>()
  for (const issue of report.issues) {
    const name =
      issue.place?.file !== undefined ? displayPath(issue.place.file, cwd) : report.subject
    const group = files.get(name) ?? []
    group.push(issue)
    files.set(name, group)
  }
  if (!files.has(report.subject)) files.set(report.subject, [])
  return [...files].map(([name, issues]): TestCase => {
    const errors = issues.filter((issue) => issue.level === 'error')
    return {
      name,
      file: name,
      failures:
        errors.length === 0
          ? []
          : [
              errors.length === 1 ? errors[0]!.message : `${errors.length} errors`,
              ...errors.map((issue) => issueLine(issue, cwd)),
            ],
      failureType: 'error',
      notes: issues
        .filter((issue) => issue.level !== 'error')
        .map((issue) => issueLine(issue, cwd)),
    }
  })
}

/** `2 breaking changes, 1 warning`. */
function failingLabel(changes: readonly ReportChange[]): string {
  const count = (level: ReportChange['level']) =>
    changes.filter((change) => change.level === level).length
  return (['breaking', 'warning'] as const)
    .filter((level) => count(level) > 0)
    .map((level) => countLabel(count(level), level))
    .join(', ')
}

function changeLine(change: ReportChange, cwd: string): string {
  const waived = change.waived ? ` ${exemptionText(change.waived)}` : ''
  return `${change.level}${change.waived ? ` (${exemptionLabel(change.waived)})` : ''} ${change.rule}: ${describeChange(change)}${waived} [${change.location || '(document)'}${at(change.place, cwd)}]`
}

function issueLine(issue: ReportIssue, cwd: string): string {
  return `${issue.level}${issue.side ? ` (${issue.side})` : ''} ${issue.type}: ${issue.message} [${issue.location || '(document)'}${at(issue.place, cwd)}]`
}

function at(place: Place | undefined, cwd: string): string {
  if (!place) return ''
  return ` ${place.file === undefined ? '' : `${displayPath(place.file, cwd)}:`}${place.line}:${place.column}`
}

/**
 * Text XML 1.0 can hold: the control characters it forbids (even as references) are shown as
 * `\u0001`; the builder escapes `&`, `<`, `>` and quotes.
 */
function xmlText(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** An attribute's value: one line (a parser would fold its line breaks into spaces anyway). */
function attribute(text: string): string {
  return xmlText(text.replace(/\s+/g, ' '))
}
