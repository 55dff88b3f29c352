import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/** A token, key or signing secret just made, to be shown once. */
export type NewSecret = { readonly label: string; readonly value: string }

/** A new secret as a session row may keep it: sealed with a key that only the browser holds. */
export type SealedSecret = { readonly label: string; readonly box: string }

const CIPHER = 'aes-256-gcm'
const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * Seals `secret` with a new random key (AES-256-GCM), bound to `context` (the session id): the
 * box is useless without the key, and the key is useless with another session's box.
 *
 * @example
 * const { sealed, key } = seal({ label: 'Signing secret', value: 'whsec_…' }, sessionId)
 * unseal(sealed, key, sessionId) // { label: 'Signing secret', value: 'whsec_…' }
 */
export function seal(secret: NewSecret, context: string): { sealed: SealedSecret; key: string } {
  const key = randomBytes(32)
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv(CIPHER, key, iv).setAAD(Buffer.from(context))
  const body = Buffer.concat([cipher.update(secret.value, 'utf8'), cipher.final()])
  const box = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
  return { sealed: { label: secret.label, box }, key: key.toString('base64url') }
}

/** The secret in `sealed`, or undefined when `key` or `context` is not the one it was sealed with. */
export function unseal(sealed: SealedSecret, key: string, context: string): NewSecret | undefined {
  const raw = Buffer.from(sealed.box, 'base64url')
  const secretKey = Buffer.from(key, 'base64url')
  if (secretKey.length !== 32 || raw.length < IV_BYTES + TAG_BYTES) return undefined
  try {
    const decipher = createDecipheriv(CIPHER, secretKey, raw.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(context))
      .setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    const body = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ])
    return { label: sealed.label, value: body.toString('utf8') }
  } catch {
    return undefined
  }
}
