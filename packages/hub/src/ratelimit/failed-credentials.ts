import type { Context } from 'hono'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import type { Limit } from './limiter.js'

/**
 * Credentials one client address may present that the hub does not accept (a PAT or key that is
 * malformed, unknown, revoked or expired), per window that starts at the first. Tokens are
 * 256-bit random, so this does not make guessing harder: it keeps a client from making the hub
 * look tokens up at full speed. No working client fails this often.
 */
export const FAILED_CREDENTIALS: Limit = Object.freeze({ max: 60, windowSeconds: 60 })

/**
 * Runs `check`, which accepts the request's credential or throws, as one attempt of the client
 * address's failed-credential budget: when the budget is spent, 429 `rate_limited` with
 * `Retry-After` before the credential is looked at, whether or not it is valid (a 429 only for
 * bad ones would tell which one is good). The attempt counts as a failure from before the check
 * until it is known to have passed, so that attempts sent in parallel cannot all pass the
 * budget before any of them is counted; one that passes (or fails for another reason, such as a
 * store that does not answer) is given back, and so is one this budget refuses: it was never
 * looked up, and keeping it would hold every client behind the address (a proxy) out for the
 * rest of the window once a burst of valid requests outran the budget.
 */
export async function spendingCredentialAttempt<T>(
  c: Context<HubEnv>,
  check: () => Promise<T>,
): Promise<T> {
  const { rateLimits } = c.get('hub')
  if (!rateLimits.settings.enabled) return check()
  const address = c.get('client').address
  const verdict = await rateLimits.consumeCredentialAttempt(address, FAILED_CREDENTIALS)
  if (!verdict.allowed) {
    await rateLimits.refundCredentialAttempt(address, FAILED_CREDENTIALS)
    c.header('Retry-After', String(verdict.resetSeconds))
    throw new ApiError(
      'rate_limited',
      `Too many requests with a credential that is not valid from this address: ${FAILED_CREDENTIALS.max} per ${FAILED_CREDENTIALS.windowSeconds} s; try again in ${verdict.resetSeconds} s.`,
      {
        method: c.req.method,
        path: c.req.path,
        limit: FAILED_CREDENTIALS.max,
        windowSeconds: FAILED_CREDENTIALS.windowSeconds,
        retryAfter: verdict.resetSeconds,
        budget: 'failed_credentials',
      },
    )
  }
  try {
    const accepted = await check()
    await rateLimits.refundCredentialAttempt(address, FAILED_CREDENTIALS)
    return accepted
  } catch (error) {
    if (!isRefusedCredential(error)) {
      await rateLimits.refundCredentialAttempt(address, FAILED_CREDENTIALS)
    }
    throw error
  }
}

function isRefusedCredential(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.code === 'unauthorized' || error.code === 'api_key_revoked')
  )
}
