import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type { ApiAcceptResult } from './accept.js'
import { label } from './push.render.js'

/** `svc api accept`: who accepted which changes, when and why. */
export function renderApiAccept(result: ApiAcceptResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  const { revision, acceptance, counts, webhookDeliveries } = result
  const accepted = [
    counts.breaking > 0
      ? `${counts.breaking} breaking ${counts.breaking === 1 ? 'change' : 'changes'}`
      : '',
    counts.warning > 0 ? `${counts.warning} ${counts.warning === 1 ? 'warning' : 'warnings'}` : '',
  ].filter(Boolean)
  output.result(`Accepted ${accepted.join(' and ')} of ${result.api} revision ${label(revision)}`)
  output.result(`  by      ${acceptance.by}`)
  output.result(`  at      ${acceptance.at}`)
  output.result(`  reason  ${acceptance.reason}`)
  output.result(`  page    ${revision.url}`)
  if (webhookDeliveries > 0)
    output.result(
      `  ${webhookDeliveries} webhook ${webhookDeliveries === 1 ? 'delivery' : 'deliveries'} queued`,
    )
  output.result(`svc api push --fail-on now passes on revision ${label(revision)}.`)
  return EXIT.ok
}
