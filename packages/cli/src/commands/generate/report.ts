import { relative } from 'node:path'
import type { ParseIssue } from '@svc/engine'
import type { Manifest } from '@svc/engine/generate'
import type { Output } from '../../output.js'

/** One failed item or file, as `--json` lists it and the text report prints it. */
export type GenerateError = {
  readonly generator: string | null
  readonly item: string
  readonly cause: string
}

export function errorsOf(manifest: Manifest): GenerateError[] {
  const errors: GenerateError[] = []
  for (const [generator, items] of Object.entries(manifest.results))
    for (const [item, result] of Object.entries(items))
      if (result.status === 'error') errors.push({ generator, item, cause: result.cause ?? '' })
  for (const [path, result] of Object.entries(manifest.render))
    if (result.status === 'error')
      errors.push({ generator: null, item: path, cause: result.cause ?? '' })
  return errors
}

/** Generator id → status → how many items. */
export function counts(manifest: Manifest): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(manifest.results).map(([generator, items]) => {
      const tally: Record<string, number> = {}
      for (const { status } of Object.values(items)) tally[status] = (tally[status] ?? 0) + 1
      return [generator, tally]
    }),
  )
}

export function report(
  output: Output,
  run: {
    manifest: Manifest
    errors: readonly GenerateError[]
    written: { written: string[]; removed: string[] }
    basePath: string
    cwd: string
    /** The schema as the user named it, for the `svc check` hint. */
    source: string
    totalTimeMs: number
    lines: number
  },
): void {
  const { color } = output
  const where = relative(run.cwd, run.basePath) || '.'
  // Errors one by one; warnings as a count, since `svc check` lists them grouped.
  const issues = run.manifest.parseIssues
  for (const issue of issues.filter((i) => i.level === 'error'))
    output.diagnostic(issueLine(issue, color))
  const warnings = issues.filter((i) => i.level === 'warning').length
  if (warnings > 0)
    output.diagnostic(
      `${color.yellow('warning')}: the document has ${warnings} parse warning${warnings === 1 ? '' : 's'}; svc check ${run.source} lists them`,
    )
  for (const warning of run.manifest.enrichmentWarnings)
    output.diagnostic(
      `${warning.level === 'warning' ? color.yellow('warning') : color.dim('info')}: ${warning.message}`,
    )
  for (const error of run.errors)
    output.diagnostic(
      `${color.red('error')}: ${error.generator ?? 'render'} ${error.item}: ${error.cause}`,
    )
  for (const [generator, tally] of Object.entries(counts(run.manifest))) {
    const parts = Object.entries(tally).map(([status, count]) => `${count} ${status}`)
    output.result(`${generator}: ${parts.join(', ') || 'no items of its kind in this document'}`)
  }
  if (run.written.written.length === 0)
    output.diagnostic(
      `${color.yellow('warning')}: no file was generated: the generators made no code for this document.`,
    )
  output.result(
    `Wrote ${run.written.written.length} file${run.written.written.length === 1 ? '' : 's'} (${run.lines} lines) to ${where} in ${run.totalTimeMs} ms${run.written.removed.length > 0 ? `; removed ${run.written.removed.length} no longer generated` : ''}.`,
  )
}

function issueLine(issue: ParseIssue, color: Output['color']): string {
  return `${color.red('error')} ${issue.type}: ${issue.message} (${issue.location})`
}
