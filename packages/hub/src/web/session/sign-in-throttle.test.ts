import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ADDRESS_FAILURES,
  delaySeconds,
  FREE_FAILURES,
  MAX_DELAY_SECONDS,
  SignInThrottle,
} from './sign-in-throttle.js'

const A = '203.0.113.7'
const B = '198.51.100.20'

/** `n` wrong passwords for `handle` from `address`, each let through; answers how many were. */
async function fail(throttle: SignInThrottle, handle: string, address: string, n: number) {
  let passed = 0
  for (let i = 0; i < n; i++) if ((await throttle.begin(handle, address)) === undefined) passed++
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
    const wait = await throttle.begin('dave', A)
    expect(wait?.reason).toBe('account')
    expect(wait?.seconds).toBeGreaterThan(0)

    // dave from elsewhere, and another account from the same address, go ahead.
    expect(await throttle.begin('dave', B)).toBeUndefined()
    await throttle.succeeded('dave', B)
    expect(await throttle.begin('alice', A)).toBeUndefined()
    expect((await throttle.begin('dave', A))?.reason).toBe('account')
  })

  it('waits 1 s after the first failure past the free ones, doubling up to 15 minutes', async () => {
    const throttle = new SignInThrottle()
    expect(await fail(throttle, 'dave', A, FREE_FAILURES + 1)).toBe(FREE_FAILURES + 1)
    for (const seconds of [1, 2, 4, 8]) {
      expect(await throttle.begin('dave', A)).toEqual({ seconds, reason: 'account' })
      vi.advanceTimersByTime(seconds * 1000)
      expect(await throttle.begin('dave', A)).toBeUndefined()
    }
    expect([1, 2, 3, 4, 5].map(delaySeconds)).toEqual([1, 2, 4, 8, 16])
    expect(delaySeconds(10)).toBe(512)
    expect(delaySeconds(11)).toBe(MAX_DELAY_SECONDS)
    expect(delaySeconds(1000)).toBe(MAX_DELAY_SECONDS)
  })

  it('forgets the failures of a pair when it signs in', async () => {
    const throttle = new SignInThrottle()
    expect(await fail(throttle, 'dave', A, FREE_FAILURES - 1)).toBe(FREE_FAILURES - 1)
    expect(await throttle.begin('dave', A)).toBeUndefined()
    await throttle.succeeded('dave', A)
    expect(await fail(throttle, 'dave', A, FREE_FAILURES + 1)).toBe(FREE_FAILURES + 1)
  })

  it('gives one address a budget of failures across all accounts', async () => {
    const throttle = new SignInThrottle()
    for (let i = 0; i < ADDRESS_FAILURES; i++) {
      expect(await throttle.begin(`user-${i}`, A)).toBeUndefined()
    }
    expect(await throttle.begin('someone-new', A)).toEqual({ seconds: 3600, reason: 'address' })
    expect(await throttle.begin('someone-new', B)).toBeUndefined()
    vi.advanceTimersByTime(3600 * 1000)
    expect(await throttle.begin('someone-new', A)).toBeUndefined()
  })

  it('a success does not count against its address', async () => {
    const throttle = new SignInThrottle()
    for (let i = 0; i < ADDRESS_FAILURES + 10; i++) {
      expect(await throttle.begin('alice', A)).toBeUndefined()
      await throttle.succeeded('alice', A)
    }
  })

  it('lets guesses sent at once through one at a time', async () => {
    const throttle = new SignInThrottle()
    const answers = await Promise.all(Array.from({ length: 20 }, () => throttle.begin('dave', A)))
    expect(answers.filter((a) => a === undefined)).toHaveLength(FREE_FAILURES + 1)
  })
})
