import { relative } from 'node:path'
import type { ParseIssue } from '@svc/engine'
import { documentErrorJson, EXIT, formatDocumentError, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { GenerateResult } from './index.js'

type Generated = Extract<GenerateResult, { type: 'generated' }>

/**
 * Exit 1 when the document cannot be read, has an error-level issue, or any item or file failed.
 */
export function renderGenerate(result: GenerateResult, output: Output): ExitCode {
  if (result.type === 'unreadable') {
    output.diagnostic(formatDocumentError(result.error))
    if (output.format === 'json')
      output.json({
        type: 'error',
        code: 'unreadable_document',
        exitCode: EXIT.failure,
        message: result.error.message,
        projectName: result.projectName,
        error: documentErrorJson(result.error),
      })
    return EXIT.failure
  }
  const { outputDir: _outputDir, source: _source, ...shown } = result
  if (output.format === 'json') output.json(shown)
  else textReport(result, output)
  const failed =
    result.errors.length > 0 || result.parseIssues.some((issue) => issue.level === 'error')
  return failed ? EXIT.failure : EXIT.ok
}

/** Errors one by one on stderr, warnings as a count (`svc check` lists them), then the tally. */
function textReport(result: Generated, output: Output): void {
  const { color } = output
  const where = relative(output.cwd, result.outputDir) || '.'
  const issues = result.parseIssues
  for (const issue of issues.filter((i) => i.level === 'error'))
    output.diagnostic(issueLine(issue, color))
  const warnings = issues.filter((i) => i.level === 'warning').length
  if (warnings > 0)
    output.diagnostic(
      `${color.yellow('warning')}: the document has ${warnings} parse warning${warnings === 1 ? '' : 's'}; svc check ${result.source} lists them`,
    )
  for (const warning of result.enrichmentWarnings)
    output.diagnostic(
      `${warning.level === 'warning' ? color.yellow('warning') : color.dim('info')}: ${warning.message}`,
    )
  for (const error of result.errors)
    output.diagnostic(
      `${color.red('error')}: ${error.generator ?? 'render'} ${error.item}: ${error.cause}`,
    )
  for (const [generator, tally] of Object.entries(result.results)) {
    const parts = Object.entries(tally).map(([status, count]) => `${count} ${status}`)
    output.result(`${generator}: ${parts.join(', ') || 'no items of its kind in this document'}`)
  }
  const { files, removedFiles, stats } = result
  if (files.length === 0)
    output.diagnostic(
      `${color.yellow('warning')}: no file was generated: the generators made no code for this document.`,
    )
  output.result(
    `Wrote ${files.length} file${files.length === 1 ? '' : 's'} (${stats.lines} lines) to ${where} in ${stats.totalTimeMs} ms${removedFiles.length > 0 ? `; removed ${removedFiles.length} no longer generated` : ''}.`,
  )
}

function issueLine(issue: ParseIssue, color: Output['color']): string {
  return `${color.red('error')} ${issue.type}: ${issue.message} (${issue.location})`
}
