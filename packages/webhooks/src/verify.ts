import { timingSafeEqual } from 'node:crypto'
import { parseEvent } from './envelope.js'
import { WebhookVerificationError } from './errors.js'
import type { WebhookEvent } from './events.js'
import { assertSecret, computeSignature, parseSignatureHeader } from './signature.js'

/** How far `t` may be from the receiver's clock, either way: five minutes (SPEC §8). */
export const DEFAULT_TOLERANCE_SECONDS = 300

export type VerifyOptions = {
  /** Largest accepted distance between `t` and now, in seconds; default 300. */
  toleranceSeconds?: number
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number
}

/**
 * Checks that `rawBody` was signed by the hub with `secret` less than five minutes ago (either
 * way), then parses it. Pass the body exactly as received, before any JSON parser touches it.
 * During a secret rotation, pass `[newSecret, oldSecret]`: a match with either is accepted.
 *
 * @throws {WebhookVerificationError} when the request is not a genuine, fresh svc event; answer 400
 * @throws {TypeError} on an empty secret (or list) or a body that is not a string or bytes
 *
 * @example
 * ```ts
 * const event = verifyWebhook(rawBody, request.headers.get(SIGNATURE_HEADER), secret)
 * if (event.type === REVISION_EVENT) console.log(event.data.counts.breaking)
 * ```
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | readonly string[] | null | undefined,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent {
  const secrets = typeof secret === 'string' ? [secret] : secret
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError('secret must be a non-empty string or a non-empty list of them')
  }
  secrets.forEach(assertSecret)
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      'rawBody must be the raw request body as a string or bytes, read before any JSON parser',
    )
  }
  const { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now } = options
  if (!(toleranceSeconds >= 0)) {
    throw new TypeError(`toleranceSeconds must be 0 or more, not ${toleranceSeconds}`)
  }

  const { timestamp, signatures } = parseSignatureHeader(signatureHeader)
  let matched = false
  for (const key of secrets) {
    const expected = Buffer.from(computeSignature(key, timestamp, rawBody), 'hex')
    for (const signature of signatures) {
      // Every pair is compared, so the time taken does not tell which one matched.
      if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) matched = true
    }
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'no v1 signature matches: check the secret (the whole whsec_… string, current since the ' +
        'last rotation) and that the body is the raw bytes received, not re-serialised JSON',
    )
  }
  // Checked after the signature, so this error says the request is genuine but late (or a
  // replay), which points at a clock or a queue rather than at the secret.
  const skew = Math.floor(now() / 1000) - timestamp
  if (Math.abs(skew) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `t is ${Math.abs(skew)} s in the ${skew > 0 ? 'past' : 'future'}, more than the ` +
        `${toleranceSeconds} s allowed: a replay, or this host's clock is off`,
    )
  }
  return parseEvent(rawBody)
}
