import type { Changelog } from '@svc/engine'
import type { Revision } from '@svc/hub-api'
import { EXIT, type ExitCode } from '../../errors.js'
import { isReportFormat, type Output } from '../../output.js'
import { jsonChanges, jsonWaivers, waiverWarnings } from '../../report/changelog-notes.js'
import { changelogReport } from '../../report/changelog-report.js'
import { renderReport, type Report } from '../../report/index.js'
import { fails } from '../../report/report.js'
import { changelogLines } from '../diff/render.js'
import type { ApiRevisionResult } from './push.js'

/**
 * `svc api push` and `svc api refetch`: the new revision and its changelog, breaking changes
 * first (as `svc diff`), or that nothing changed; exit 1 when a change reached `--fail-on`.
 */
export function renderApiRevision(result: ApiRevisionResult, output: Output): ExitCode {
  if (output.format === 'json') output.json(revisionJson(result))
  else if (isReportFormat(output.format))
    output.result(renderReport(revisionReport(result), output.format, output.cwd))
  else for (const line of revisionLines(result, output)) output.result(line)
  if (result.versionNotApplied !== undefined)
    output.diagnostic(
      `note: --version ${result.versionNotApplied} was not applied: revision ${label(result.revision)} has this document already, and a revision is never changed (push a changed document to label a new one).`,
    )
  if (result.accepted !== undefined && output.format !== 'json') {
    const line = `--fail-on ${result.accepted.failOn} passes: the ${result.accepted.crossed} of revision ${label(result.revision)} ${/^1 /.test(result.accepted.crossed) ? 'was' : 'were'} accepted by ${result.accepted.by} at ${result.accepted.at}: ${result.accepted.reason}`
    // The other formats' stdout is the report itself (annotations, a comment, XML).
    if (output.format === 'text') output.result(line)
    else output.diagnostic(`note: ${line}`)
  }
  for (const line of waiverWarnings(result.notes, output.cwd)) output.diagnostic(line)
  if (result.failure === undefined) return EXIT.ok
  output.diagnostic(
    `error: --fail-on ${result.failure.failOn}: ${result.failure.crossed} in ${result.api} revision ${label(result.revision)} (${result.type === 'unchanged' ? 'pushed before; the gate fails again' : 'the revision is stored; the gate failed'}).`,
  )
  output.diagnostic(
    `If the change is deliberate, accept it: svc api accept ${result.api} ${result.revision.sequence} --reason "<why>"`,
  )
  return EXIT.failure
}

/** `--json`: the result, its changes with their lines and waivers, and the waiver file's report. */
function revisionJson(result: ApiRevisionResult): Record<string, unknown> {
  const { notes, failOn: _failOn, ...rest } = result
  return { ...rest, changes: jsonChanges(result.changes, notes), ...jsonWaivers(notes) }
}

/** The report the CI formats of `svc api push` and `svc api refetch` are written from. */
function revisionReport(result: ApiRevisionResult): Report {
  const { revision, previousRevision } = result
  const refetch = revision.origin === 'refetch'
  const lines =
    result.type === 'unchanged'
      ? [
          `No change: the document is ${result.api} revision ${label(revision)} already; no revision was made.`,
        ]
      : previousRevision === null
        ? ['The first revision: nothing to compare with.']
        : []
  const against = previousRevision === null ? '' : ` against ${label(previousRevision)}`
  const report = changelogReport({
    command: refetch ? 'svc api refetch' : 'svc api push',
    subject: `${result.api} revision ${label(revision)}${against}`,
    changelog: result,
    notes: result.notes,
    failOn: result.failOn ?? result.failure?.failOn,
    failure: result.failure,
    lines,
  })
  const { accepted } = result
  if (accepted === undefined) return report
  // What the hub's acceptance lets through is shown as such, not as errors of a passing job.
  const exempt = {
    reason: accepted.reason,
    entry: 0,
    accepted: { by: accepted.by, at: accepted.at },
  }
  return {
    ...report,
    changes: report.changes.map((change) =>
      change.waived === undefined && fails(change, accepted.failOn)
        ? { ...change, waived: exempt }
        : change,
    ),
  }
}

function revisionLines(result: ApiRevisionResult, output: Output): string[] {
  const { revision, previousRevision } = result
  if (result.type === 'unchanged') {
    const lines = [
      `No change: the document is ${result.api} revision ${label(revision)} already; no revision was made.`,
    ]
    if (result.failure === undefined || previousRevision === null) return lines
    lines.push('', `Its changes against revision ${label(previousRevision)}:`)
    lines.push(...changelogLines(changelogOf(result), output.color, result.notes))
    return lines
  }
  const head = `Pushed ${result.api} revision ${label(revision)}${revision.origin === 'refetch' ? ' from its sourceUrl' : ''}`
  const lines = [head, `  id    ${revision.id}`, `  page  ${revision.url}`]
  if (revision.parseIssues.error > 0)
    lines.push(
      `  ${output.color.red(`${revision.parseIssues.error} parse ${revision.parseIssues.error === 1 ? 'error' : 'errors'}`)}: see svc check on the document`,
    )
  if (result.webhookDeliveries > 0)
    lines.push(
      `  ${result.webhookDeliveries} webhook ${result.webhookDeliveries === 1 ? 'delivery' : 'deliveries'} queued`,
    )
  if (previousRevision === null) {
    lines.push('', 'The first revision: nothing to compare with.')
    return lines
  }
  lines.push('', `Changes against revision ${label(previousRevision)}:`)
  lines.push(...changelogLines(changelogOf(result), output.color, result.notes))
  return lines
}

/** The hub's changelog is `svc diff --json`'s; its rule ids are strings the engine may not know. */
function changelogOf(result: ApiRevisionResult): Changelog {
  return {
    summary: result.summary,
    counts: result.counts,
    changes: result.changes,
    ...(result.issues === undefined ? {} : { issues: result.issues }),
  } as unknown as Changelog
}

/** `#3 (1.4.0)`: the sequence, and the publisher's label when there is one. */
export function label(revision: Revision): string {
  return `#${revision.sequence}${revision.version ? ` (${revision.version})` : ''}`
}
