/**
 * @module report: the CI formats of `svc check`, `svc diff`, `svc api diff`, `svc api push` and
 * `svc api refetch` (`--format markdown|github|junit`), each written from one {@link Report}.
 */
import { githubReport } from './github.js'
import { junitReport } from './junit.js'
import { markdownReport } from './markdown.js'
import type { Report, ReportFormat } from './report.js'

export { REPORT_FORMATS, type Report, type ReportFormat } from './report.js'

/** The whole stdout of a command under `--format <format>`, without its last newline. */
export function renderReport(report: Report, format: ReportFormat, cwd: string): string {
  if (format === 'github') return githubReport(report, cwd)
  if (format === 'markdown') return markdownReport(report, cwd)
  return junitReport(report, cwd)
}
