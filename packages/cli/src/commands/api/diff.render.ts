import { EXIT, type ExitCode } from '../../errors.js'
import { isReportFormat, type Output } from '../../output.js'
import { renderReport } from '../../report/index.js'
import { renderDiff } from '../diff/render.js'
import type { ApiDiffResult } from './diff.js'

/**
 * `svc api diff`: exactly what `svc diff` prints for the hub's revision and the document (every
 * format, exit codes); with no revision on the hub yet, that there is nothing to compare with
 * (exit 0; `--json` holds the empty changelog a first push stores; the CI formats an empty report
 * that says so).
 */
export function renderApiDiff(result: ApiDiffResult, output: Output): ExitCode {
  if (result.type !== 'first') return renderDiff(result, output)
  const line = `Nothing to compare with: ${result.api} has no revisions yet; its first push stores ${result.newOrigin} with no changes.`
  if (output.format === 'json') {
    output.json({
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      changes: [],
    })
    output.diagnostic(line)
  } else if (isReportFormat(output.format))
    output.result(
      renderReport(
        {
          command: 'svc api diff',
          subject: `${result.api} (no revisions yet) → ${result.newOrigin}`,
          kind: 'changes',
          changes: [],
          issues: [],
          notes: [line],
        },
        output.format,
        output.cwd,
      ),
    )
  else output.result(line)
  return EXIT.ok
}
