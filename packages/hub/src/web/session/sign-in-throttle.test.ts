import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ACCOUNT_FAILURES,
  delaySeconds,
  FREE_FAILURES,
  MAX_DELAY_SECONDS,
  SignInThrottle,
  UNKNOWN_FAILURES,
} from './sign-in-throttle.js'

const A = '203.0.113.7'
const B = '198.51.100.20'

/** Handles of users; any other handle is no user's. */
const USERS = new Set(['dave', 'alice'])

/** `throttle.begin` as the sign-in page calls it: it knows which handles are users'. */
const begin = (throttle: SignInThrottle, handle: string, address: string) =>
  throttle.begin(handle, address, USERS.has(handle))

/** `n` wrong passwords for `handle` from `address`, each let through; answers how many were. */
async function fail(throttle: SignInThrottle, handle: string, address: string, n: number) {
  let passed = 0
  for (let i = 0; i < n; i++) if ((await begin(throttle, handle, address)) === undefined) passed++
  return passed
}

describe('the sign-in throttle', () => {
  // The clock stands still unless a test moves it: waits are read, never waited for.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('slows guesses at an account from one address, never the account from another', async () => {
    const throttle = new SignInThrottle()
    // The free failures, then one that sets the first wait; the next ones wait.
    expect(await fail(throttle, 'dave', A, 30)).toBe(FREE_FAILURES + 1)
    const wait = await begin(throttle, 'dave', A)
    expect(wait?.reason).toBe('account')
    expect(wait?.seconds).toBeGreaterThan(0)

    // dave from elsewhere, and another account from the same address, go ahead.
    expect(await begin(throttle, 'dave', B)).toBeUndefined()
    await throttle.succeeded('dave', B)
    expect(await begin(throttle, 'alice', A)).toBeUndefined()
    expect((await begin(throttle, 'dave', A))?.reason).toBe('account')
  })

  it('waits 1 s after the first failure past the free ones, doubling up to 15 minutes', async () => {
    const throttle = new SignInThrottle()
    expect(await fail(throttle, 'dave', A, FREE_FAILURES + 1)).toBe(FREE_FAILURES + 1)
    for (const seconds of [1, 2, 4, 8]) {
      expect(await begin(throttle, 'dave', A)).toEqual({ seconds, reason: 'account' })
      vi.advanceTimersByTime(seconds * 1000)
      expect(await begin(throttle, 'dave', A)).toBeUndefined()
    }
    expect([1, 2, 3, 4, 5].map(delaySeconds)).toEqual([1, 2, 4, 8, 16])
    expect(delaySeconds(10)).toBe(512)
    expect(delaySeconds(11)).toBe(MAX_DELAY_SECONDS)
    expect(delaySeconds(1000)).toBe(MAX_DELAY_SECONDS)
  })

  it('forgets the failures of a pair when it signs in', async () => {
    const throttle = new SignInThrottle()
    expect(await fail(throttle, 'dave', A, FREE_FAILURES - 1)).toBe(FREE_FAILURES - 1)
    expect(await begin(throttle, 'dave', A)).toBeUndefined()
    await throttle.succeeded('dave', A)
    expect(await fail(throttle, 'dave', A, FREE_FAILURES + 1)).toBe(FREE_FAILURES + 1)
  })

  it("gives one address a budget of failures at handles that are no user's", async () => {
    const throttle = new SignInThrottle()
    for (let i = 0; i < UNKNOWN_FAILURES; i++) {
      expect(await begin(throttle, `made-up-${i}`, A)).toBeUndefined()
    }
    expect(await begin(throttle, 'someone-new', A)).toEqual({ seconds: 3600, reason: 'address' })
    expect(await begin(throttle, 'someone-new', B)).toBeUndefined()
    vi.advanceTimersByTime(3600 * 1000)
    expect(await begin(throttle, 'someone-new', A)).toBeUndefined()
  })

  it('never holds back a user from an address that spent that budget on made-up names', async () => {
    const throttle = new SignInThrottle()
    for (let i = 0; i < UNKNOWN_FAILURES + 50; i++) await begin(throttle, `made-up-${i}`, A)
    expect((await begin(throttle, 'made-up-again', A))?.reason).toBe('address')
    expect(await begin(throttle, 'alice', A)).toBeUndefined()
    await throttle.succeeded('alice', A)
    // Their own typing mistakes still get the free failures.
    expect(await fail(throttle, 'dave', A, FREE_FAILURES)).toBe(FREE_FAILURES)
  })

  it('failures at one user from many addresses take the free failures away, never the first try', async () => {
    const throttle = new SignInThrottle()
    // Guesses spread so that no address reaches a wait of its own.
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      expect(await begin(throttle, 'dave', `198.51.100.${i}`)).toBeUndefined()
    }
    // Under attack: a new address's first try goes through, its first failure makes it wait 1 s.
    expect(await begin(throttle, 'dave', '203.0.113.50')).toBeUndefined()
    expect(await begin(throttle, 'dave', '203.0.113.50')).toEqual({ seconds: 1, reason: 'account' })
    // The owner, from an address with no failure at the account, is let through and signs in.
    expect(await begin(throttle, 'dave', B)).toBeUndefined()
    await throttle.succeeded('dave', B)
    expect(await begin(throttle, 'dave', B)).toBeUndefined()
    await throttle.succeeded('dave', B)
    // Another account is not under attack: its free failures stay.
    expect(await fail(throttle, 'alice', '203.0.113.50', FREE_FAILURES + 1)).toBe(FREE_FAILURES + 1)
    // An hour later the account is no longer under attack.
    vi.advanceTimersByTime(3600 * 1000)
    expect(await fail(throttle, 'dave', '203.0.113.60', FREE_FAILURES + 1)).toBe(FREE_FAILURES + 1)
  })

  it('a success does not count against its account', async () => {
    const throttle = new SignInThrottle()
    for (let i = 0; i < ACCOUNT_FAILURES + 10; i++) {
      expect(await begin(throttle, 'alice', A)).toBeUndefined()
      await throttle.succeeded('alice', A)
    }
    expect(await fail(throttle, 'alice', B, FREE_FAILURES + 1)).toBe(FREE_FAILURES + 1)
  })

  it('lets guesses sent at once through one at a time', async () => {
    const throttle = new SignInThrottle()
    const answers = await Promise.all(Array.from({ length: 20 }, () => begin(throttle, 'dave', A)))
    expect(answers.filter((a) => a === undefined)).toHaveLength(FREE_FAILURES + 1)
  })
})
