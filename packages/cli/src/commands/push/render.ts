import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import { formatDestination } from './destination.js'
import type { PushResult } from './index.js'

/** Exit 1 when a stage failed; an answered No is a success that changed nothing. */
export function renderPush(result: PushResult, output: Output): ExitCode {
  if (result.type === 'failed') {
    if (output.format === 'json') output.json(result)
    else
      output.diagnostic(
        `Pushing ${result.projectName} failed at stage ${result.stage}:\n  ${result.reason}`,
      )
    return EXIT.failure
  }
  if (result.type === 'aborted') {
    if (output.format === 'json') output.json(result)
    else
      output.result(
        `Push of ${result.projectName} aborted: ${formatDestination(result.project)} is unchanged.`,
      )
    return EXIT.ok
  }
  const { withBaseFiles, recorded, ...shown } = result
  if (output.format === 'json') {
    output.json(shown)
    return EXIT.ok
  }
  output.result(`Pushed ${result.projectName} to ${result.project.account}/${result.project.slug}`)
  output.result(`  origin       ${result.origin}`)
  output.result(
    `  enrichments  ${result.remoteWritten ? result.enrichmentCount : 'config untouched (--base-files-only)'}`,
  )
  if (withBaseFiles) output.result(`  base files   ${result.baseFilesPushed}`)
  if (result.overwroteExistingConfig) output.result('  replaced existing config')
  if (recorded) output.result('  recorded destination in client.json#project')
  return EXIT.ok
}
