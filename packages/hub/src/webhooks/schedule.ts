/** One attempt, every redirect hop included, ends after this long (SPEC §8). */
export const ATTEMPT_TIMEOUT_MS = 10_000
/** Retries stop this long after the first attempt of a run (SPEC §3). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000
/** 307 and 308 are followed at most this many times per attempt (SPEC §8). */
export const MAX_REDIRECTS = 3
/**
 * Attempts in one retry window, the first and the last included. The schedule alone makes at
 * most 12 (and `Retry-After` only spaces them further); the cap holds whatever a receiver
 * answers, so a day of failures costs a bounded number of attempt rows.
 */
export const MAX_ATTEMPTS_PER_WINDOW = 15

/**
 * Waits before the 1st, 2nd … retry (ARCHITECTURE "Delivery queue"); the last one repeats
 * until the window closes.
 */
const BACKOFF_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800] as const
const JITTER = 0.2

/** How an answer is taken (SPEC §3 and §7.2); 307/308 reach here only when not followed. */
export function judgeStatus(status: number): 'succeeded' | 'retry' | 'failed' {
  if (status >= 200 && status < 300) return 'succeeded'
  if (status === 408 || status === 429 || status >= 500) return 'retry'
  return 'failed'
}

/** The wait before retry number `retry` (1 for the first retry), with ±20 % jitter. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = BACKOFF_SECONDS[Math.min(retry, BACKOFF_SECONDS.length) - 1]! * 1000
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()))
}

/**
 * When to try again after a retryable failure at `now`, or undefined when the window that
 * opened at `windowStart` has closed (the delivery has failed). `Retry-After` can only push the
 * schedule later, never sooner: a receiver answering `Retry-After: 0` every time still gets
 * attempts further and further apart. Nothing goes past the window's end, where one last
 * attempt is made, and the attempt that would reach {@link MAX_ATTEMPTS_PER_WINDOW} is that
 * last one.
 */
export function nextAttemptAt(input: {
  readonly now: number
  readonly windowStart: number
  /** Attempts made in the window so far: 1 after its first failed attempt. */
  readonly retry: number
  readonly retryAfterMs?: number | undefined
  readonly random?: () => number
}): number | undefined {
  const end = input.windowStart + RETRY_WINDOW_MS
  if (input.now >= end || input.retry >= MAX_ATTEMPTS_PER_WINDOW) return undefined
  if (input.retry === MAX_ATTEMPTS_PER_WINDOW - 1) return end
  const wait = Math.max(backoffMs(input.retry, input.random), input.retryAfterMs ?? 0)
  return Math.min(input.now + wait, end)
}

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable. A date in the past means "now".
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  // HTTP dates start with the day's name; Date.parse alone takes `-5` for a year.
  const date = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}
