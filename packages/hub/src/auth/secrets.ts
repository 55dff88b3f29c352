import { createHash, randomBytes } from 'node:crypto'

export const PAT_PREFIX = 'svc_pat_'
export const API_KEY_PREFIX = 'svc_key_'
/** Webhook signing secrets: the whole string, prefix included, is the HMAC key (SPEC §4.8). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

/** 32 random bytes, base64url: 43 characters. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/

export function newSecret(
  prefix: typeof PAT_PREFIX | typeof API_KEY_PREFIX | typeof WEBHOOK_SECRET_PREFIX,
): string {
  return prefix + randomBytes(32).toString('base64url')
}

/** Whether `value` has the shape of a secret with `prefix` (checked before any lookup). */
export function isWellFormed(value: string, prefix: string): boolean {
  return value.startsWith(prefix) && SECRET_PATTERN.test(value.slice(prefix.length))
}

/** What the store keeps instead of a secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}
