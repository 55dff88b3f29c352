import { createHmac } from 'node:crypto'
import { WebhookVerificationError } from './errors.js'

/** The only scheme there is; other `name=value` entries of the header are ignored. */
const SCHEME = 'v1'
const HEX_SHA256 = /^[0-9a-f]{64}$/
const UNIX_SECONDS = /^[0-9]{1,15}$/

/**
 * The hex HMAC-SHA256 of `${timestamp}.${rawBody}`, keyed by the whole secret as UTF-8 (its
 * `whsec_` prefix included): Stripe's scheme, so its libraries verify svc webhooks too.
 *
 * @example
 * ```ts
 * computeSignature('whsec_…', 1767225600, '{"specversion":"1.0",…}') // 'a3f1…' (64 hex)
 * ```
 */
export function computeSignature(
  secret: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  assertSecret(secret)
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(`timestamp must be whole unix seconds, not ${timestamp}`)
  }
  // Bytes are signed as they are, not decoded, so a Uint8Array signs exactly what is on the wire.
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')
}

/**
 * The `svc-signature` header value `t=<unix seconds>,v1=<hex>` for `rawBody`.
 *
 * @example
 * ```ts
 * headers[SIGNATURE_HEADER] = signWebhook(webhook.secret, body)
 * ```
 */
export function signWebhook(
  secret: string,
  rawBody: string | Uint8Array,
  timestamp: number = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},${SCHEME}=${computeSignature(secret, timestamp, rawBody)}`
}

export type ParsedSignature = { timestamp: number; signatures: string[] }

/**
 * Splits a header into its timestamp and `v1` signatures. Duplicated headers joined with `,` (as
 * HTTP combines them) stay valid as long as they agree on `t`.
 */
export function parseSignatureHeader(
  header: string | readonly string[] | null | undefined,
): ParsedSignature {
  const value = typeof header === 'string' ? header : header?.join(',')
  if (value === undefined || value === null || value.trim() === '') {
    throw new WebhookVerificationError('missing_signature', 'no svc-signature header')
  }
  let timestamp: number | undefined
  const signatures: string[] = []
  for (const item of value.split(',')) {
    const entry = item.trim()
    if (entry === '') continue
    const equals = entry.indexOf('=')
    if (equals <= 0) throw malformed(`"${entry}" is not a name=value entry`)
    const name = entry.slice(0, equals)
    const field = entry.slice(equals + 1)
    if (name === 't') {
      if (!UNIX_SECONDS.test(field)) throw malformed(`t=${field} is not unix seconds`)
      const seconds = Number(field)
      if (timestamp !== undefined && timestamp !== seconds) throw malformed('t appears twice')
      timestamp = seconds
    } else if (name === SCHEME) {
      if (!HEX_SHA256.test(field)) throw malformed(`${SCHEME}= is not 64 lowercase hex digits`)
      signatures.push(field)
    }
  }
  if (timestamp === undefined) throw malformed('it has no t= entry')
  if (signatures.length === 0) throw malformed(`it has no ${SCHEME}= entry`)
  return { timestamp, signatures }
}

export function assertSecret(secret: string): void {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError("the webhook's secret must be a non-empty string (it starts with whsec_)")
  }
}

function malformed(reason: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_signature', `malformed svc-signature: ${reason}`)
}
