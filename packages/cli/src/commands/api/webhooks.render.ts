import type { Delivery } from '@svc/hub-api'
import { EXIT, type ExitCode } from '../../errors.js'
import type { Output } from '../../output.js'
import type {
  WebhookAddResult,
  WebhookDeliveriesResult,
  WebhookDeleteResult,
  WebhookDeliveryResult,
  WebhooksListResult,
  WebhookUpdateResult,
} from './webhooks.js'

export function renderWebhooksList(result: WebhooksListResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  if (result.webhooks.length === 0) {
    output.result(
      `${result.api} has no webhooks. Add one with svc api webhooks add ${result.api} <url>.`,
    )
    return EXIT.ok
  }
  const count = result.webhooks.length
  output.result(`${count} ${count === 1 ? 'webhook' : 'webhooks'} of ${result.api}`)
  for (const hook of result.webhooks)
    output.result(
      `  ${hook.id}  ${(hook.active ? 'active' : 'off').padEnd(6)}  ${hook.minLevel.padEnd(8)}  ${hook.url}${hook.description ? `  ${hook.description}` : ''}`,
    )
  return EXIT.ok
}

export function renderWebhookAdd(result: WebhookAddResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  const { webhook } = result
  output.result(`Added webhook ${webhook.id} to ${result.api}`)
  output.result(`  url        ${webhook.url}`)
  output.result(`  active     ${webhook.active ? 'yes' : 'no'}`)
  output.result(`  min level  ${webhook.minLevel}`)
  output.result(`  profile    ${webhook.profile ?? "the API's"}`)
  output.result(`  secret     ${webhook.secret}`)
  output.diagnostic(
    'The secret is shown this once: store it now where the receiver can read it (it verifies each event).',
  )
  output.result(`Send a test event: svc api webhooks test ${result.api} ${webhook.id}`)
  return EXIT.ok
}

export function renderWebhookUpdate(result: WebhookUpdateResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  const { webhook } = result
  output.result(`Updated webhook ${webhook.id} of ${result.api}`)
  output.result(`  url          ${webhook.url}`)
  output.result(`  description  ${webhook.description ?? '(none)'}`)
  output.result(`  active       ${webhook.active ? 'yes' : 'no'}`)
  output.result(`  min level    ${webhook.minLevel}`)
  output.result(`  profile      ${webhook.profile ?? "the API's"}`)
  if ('secret' in webhook) {
    output.result(`  secret       ${webhook.secret}`)
    output.diagnostic(
      'The new secret is shown this once and signs every attempt from now on, retries included; the old one stopped: give the receiver the new one now.',
    )
  }
  return EXIT.ok
}

export function renderWebhookDelete(result: WebhookDeleteResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  output.result(
    result.type === 'deleted'
      ? `Deleted webhook ${result.webhookId} of ${result.api}, with its deliveries.`
      : `Nothing deleted: ${result.webhookId} of ${result.api} is unchanged.`,
  )
  return EXIT.ok
}

export function renderWebhookDelivery(result: WebhookDeliveryResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  const { delivery } = result
  output.result(
    result.type === 'test'
      ? `Queued a test event for ${delivery.webhookId}: delivery ${delivery.id} (event ${delivery.eventId})`
      : `Retrying delivery ${delivery.id} of ${delivery.webhookId} now (event ${delivery.eventId})`,
  )
  output.result(`Follow it: svc api webhooks deliveries ${result.api} ${delivery.webhookId}`)
  return EXIT.ok
}

export function renderWebhookDeliveries(result: WebhookDeliveriesResult, output: Output): ExitCode {
  if (output.format === 'json') {
    output.json(result)
    return EXIT.ok
  }
  if (result.deliveries.length === 0) {
    output.result(
      `${result.webhookId} has no deliveries yet. Send one with svc api webhooks test ${result.api} ${result.webhookId}.`,
    )
    return EXIT.ok
  }
  output.result(`Deliveries of ${result.webhookId} (${result.api}), newest first`)
  for (const delivery of result.deliveries) output.result(`  ${deliveryLine(delivery, output)}`)
  if (result.more) output.result('  … older deliveries left out (--limit, at most 100)')
  return EXIT.ok
}

function deliveryLine(delivery: Delivery, output: Output): string {
  const paint =
    delivery.state === 'failed'
      ? output.color.red
      : delivery.state === 'pending'
        ? output.color.yellow
        : output.color.green
  const last =
    delivery.lastStatus !== null
      ? `HTTP ${delivery.lastStatus}`
      : (delivery.lastError ?? 'not attempted yet')
  const attempts = `${delivery.attemptCount} ${delivery.attemptCount === 1 ? 'attempt' : 'attempts'}`
  return `${delivery.id}  ${paint(delivery.state.padEnd(9))}  ${delivery.eventType}  ${delivery.createdAt}  ${attempts}, last: ${last}`
}
