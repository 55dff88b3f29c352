import { OutboundFailed, OutboundRefused, type SafeFetch } from '@svc/safe-fetch'
import { CONTENT_TYPE, SIGNATURE_HEADER, signWebhook, USER_AGENT } from '@svc/webhooks'
import { refusalReason } from '../outbound/guard.js'
import { ATTEMPT_TIMEOUT_MS, judgeStatus, MAX_REDIRECTS, parseRetryAfter } from './schedule.js'

/** At most this much of a non-2xx answer is kept with the attempt. */
export const EXCERPT_BYTES = 4096

export type AttemptTarget = {
  readonly url: string
  /** The webhook's secret at the time of the attempt (a rotation applies to retries). */
  readonly secret: string
  /** The serialised CloudEvent. */
  readonly body: string
}

export type AttemptReport = {
  readonly outcome: 'succeeded' | 'retry' | 'failed'
  readonly startedAt: number
  readonly durationMs: number
  /** The final answer's status, when one came. */
  readonly status: number | null
  /** `<code>: <message>` when the attempt got no answer, or was refused by the guard. */
  readonly error: string | null
  readonly excerpt: string | null
  readonly redirects: readonly string[]
  readonly retryAfterMs: number | undefined
}

/**
 * POSTs the event once, signed now with the current secret, and judges the answer as SPEC §3
 * says: 2xx succeeds (the body is not read), 307/308 are followed at most 3 times with the same
 * request through the guard, 408/429/5xx, a timeout or a network error are retried, anything
 * else (and a target the guard refuses) fails at once.
 */
export async function attemptDelivery(
  target: AttemptTarget,
  fetch: SafeFetch,
  clock: () => number,
): Promise<AttemptReport> {
  const startedAt = clock()
  // Field by field rather than a spread: one shape for every report, built without a slow copy.
  const finish = (report: Omit<AttemptReport, 'startedAt' | 'durationMs'>): AttemptReport => ({
    outcome: report.outcome,
    startedAt,
    durationMs: Math.max(0, clock() - startedAt),
    status: report.status,
    error: report.error,
    excerpt: report.excerpt,
    redirects: report.redirects,
    retryAfterMs: report.retryAfterMs,
  })
  let response
  try {
    response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': CONTENT_TYPE,
        'user-agent': USER_AGENT,
        [SIGNATURE_HEADER]: signWebhook(target.secret, target.body, Math.floor(startedAt / 1000)),
      },
      body: target.body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      redirects: { follow: 'same-request', max: MAX_REDIRECTS },
    })
  } catch (error) {
    if (error instanceof OutboundRefused || error instanceof OutboundFailed) {
      return finish({
        outcome: error instanceof OutboundRefused ? 'failed' : 'retry',
        status: null,
        error: `${error.code}: ${error instanceof OutboundRefused ? refusalReason(error) : error.message}`,
        excerpt: null,
        // The hops followed before the refusal or failure (a `too_many_redirects` has 3).
        redirects: error.redirects,
        retryAfterMs: undefined,
      })
    }
    throw error
  }
  const outcome = judgeStatus(response.status)
  let excerpt: string | null = null
  if (outcome === 'succeeded') {
    response.discard()
  } else {
    excerpt = await response.excerpt(EXCERPT_BYTES).catch(() => null)
  }
  return finish({
    outcome,
    status: response.status,
    error: null,
    excerpt,
    redirects: response.redirects,
    retryAfterMs:
      outcome === 'retry' ? parseRetryAfter(response.header('retry-after'), clock()) : undefined,
  })
}
