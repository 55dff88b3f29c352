import { WebhookVerificationError } from './errors.js'
import { ACCEPTANCE_EVENT, REVISION_EVENT, TEST_EVENT, type WebhookEvent } from './events.js'

const KNOWN_TYPES: readonly string[] = [REVISION_EVENT, ACCEPTANCE_EVENT, TEST_EVENT]

/**
 * Parses a verified body into a {@link WebhookEvent}: checks the CloudEvents envelope, not the
 * fields of `data`, so that fields the hub adds later do not break receivers.
 */
export function parseEvent(rawBody: string | Uint8Array): WebhookEvent {
  let value: unknown
  try {
    const text =
      typeof rawBody === 'string'
        ? rawBody
        : new TextDecoder('utf-8', { fatal: true }).decode(rawBody)
    value = JSON.parse(text)
  } catch (cause) {
    throw malformed('the body is not UTF-8 JSON', cause)
  }
  if (!isObject(value)) throw malformed('the body is not a JSON object')
  if (value.specversion !== '1.0') throw malformed('specversion is not "1.0"')
  for (const field of ['id', 'source', 'subject', 'time'] as const) {
    const text = value[field]
    if (typeof text !== 'string' || text === '') {
      throw malformed(`${field} is not a non-empty string`)
    }
  }
  if (Number.isNaN(Date.parse(value.time as string))) throw malformed('time is not a date-time')
  if (value.datacontenttype !== 'application/json') {
    throw malformed('datacontenttype is not "application/json"')
  }
  if (typeof value.type !== 'string') throw malformed('type is not a string')
  if (!KNOWN_TYPES.includes(value.type)) {
    throw malformed(
      `unknown event type "${value.type}": this version of @svc/webhooks knows ` +
        `${KNOWN_TYPES.join(', ')}; upgrade @svc/webhooks to receive it`,
    )
  }
  if (!isObject(value.data)) throw malformed('data is not an object')
  return value as WebhookEvent
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function malformed(reason: string, cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_event',
    `the signature is valid but the body is not an svc webhook event: ${reason}`,
    cause === undefined ? undefined : { cause },
  )
}
