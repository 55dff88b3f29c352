import { describe, expect, it } from 'vitest'
import {
  backoffMs,
  judgeStatus,
  MAX_ATTEMPTS_PER_WINDOW,
  nextAttemptAt,
  parseRetryAfter,
  RETRY_WINDOW_MS,
} from './schedule.js'

const HOUR = 3_600_000

describe('judgeStatus (SPEC §3, §7.2)', () => {
  it.each([200, 201, 202, 204, 299])('%i succeeds', (status) => {
    expect(judgeStatus(status)).toBe('succeeded')
  })
  it.each([408, 429, 500, 502, 503, 504, 599])('%i is retried', (status) => {
    expect(judgeStatus(status)).toBe('retry')
  })
  it.each([300, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 409, 410, 413, 422])(
    '%i fails at once (307/308 reach here only when not followed)',
    (status) => {
      expect(judgeStatus(status)).toBe('failed')
    },
  )
})

describe('backoffMs', () => {
  it('follows 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, then 8 h again', () => {
    const middle = () => 0.5
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20].map((n) => backoffMs(n, middle) / 1000)).toEqual([
      5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800, 28_800,
    ])
  })

  it('jitters by at most 20 % either way', () => {
    expect(backoffMs(2, () => 0)).toBe(24_000)
    expect(backoffMs(2, () => 0.999_999)).toBeCloseTo(36_000, -1)
  })
})

describe('nextAttemptAt', () => {
  const start = Date.parse('2026-01-01T00:00:00Z')

  it('schedules the next retry from the end of the attempt', () => {
    expect(
      nextAttemptAt({ now: start + 1000, windowStart: start, retry: 1, random: () => 0.5 }),
    ).toBe(start + 6000)
  })

  it('never goes past the window: the last attempt is at its end', () => {
    const now = start + RETRY_WINDOW_MS - HOUR
    expect(nextAttemptAt({ now, windowStart: start, retry: 9, random: () => 0.5 })).toBe(
      start + RETRY_WINDOW_MS,
    )
  })

  it('answers undefined (failed) once the window has closed', () => {
    expect(
      nextAttemptAt({ now: start + RETRY_WINDOW_MS, windowStart: start, retry: 12 }),
    ).toBeUndefined()
  })

  it('takes Retry-After as the earliest time, never sooner than the schedule, up to the window end', () => {
    const at = (retry: number, retryAfterMs: number) =>
      (nextAttemptAt({ now: start, windowStart: start, retry, retryAfterMs, random: () => 0.5 }) ??
        0) - start
    expect(at(1, 120_000)).toBe(120_000)
    expect(at(1, 2_000)).toBe(5_000)
    expect(at(1, 0)).toBe(5_000)
    expect(at(4, 1_000)).toBe(600_000)
    expect(at(1, 48 * HOUR)).toBe(RETRY_WINDOW_MS)
  })

  it('makes the attempt that reaches the cap at the window end, and none after it', () => {
    const last = MAX_ATTEMPTS_PER_WINDOW - 1
    expect(
      nextAttemptAt({ now: start + 60_000, windowStart: start, retry: last - 1 }),
    ).toBeLessThan(start + RETRY_WINDOW_MS)
    expect(nextAttemptAt({ now: start + 60_000, windowStart: start, retry: last })).toBe(
      start + RETRY_WINDOW_MS,
    )
    expect(
      nextAttemptAt({ now: start + 60_000, windowStart: start, retry: MAX_ATTEMPTS_PER_WINDOW }),
    ).toBeUndefined()
  })

  it('keeps a whole window of retryable answers under the cap, whatever Retry-After says', () => {
    for (const retryAfterMs of [undefined, 0, 1000, 60_000, 5 * HOUR]) {
      for (const random of [() => 0, () => 0.5, () => 0.999_999]) {
        let now = start
        let attempts = 1
        for (;;) {
          const next = nextAttemptAt({
            now,
            windowStart: start,
            retry: attempts,
            retryAfterMs,
            random,
          })
          if (next === undefined) break
          now = next
          attempts++
        }
        expect(attempts).toBeLessThanOrEqual(12)
        expect(now).toBe(start + RETRY_WINDOW_MS)
      }
    }
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000)
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0)
  })
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
  })
})
