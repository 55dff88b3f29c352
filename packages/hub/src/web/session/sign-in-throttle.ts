import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

/**
 * Guessing passwords is slowed twice over: 10 failed sign-ins to one account in 15 minutes lock
 * that account's sign-in for the rest of the window, and one address gets 50 attempts (failed or
 * not) in 15 minutes. Counts live in this process (a restart forgets them; see docs/web.md).
 */
export class SignInThrottle {
  readonly #perAccount = new RateLimiterMemory({ points: 10, duration: 15 * 60 })
  readonly #perAddress = new RateLimiterMemory({ points: 50, duration: 15 * 60 })

  /** Seconds to wait before `handle` may try again from `address`; 0 when it may now. */
  async waitSeconds(handle: string, address: string): Promise<number> {
    const [account, from] = await Promise.all([
      this.#perAccount.get(handle),
      this.#perAddress.get(address),
    ])
    const blocked = [
      account && account.consumedPoints >= 10 ? account : undefined,
      from && from.consumedPoints >= 50 ? from : undefined,
    ].filter((r): r is RateLimiterRes => r !== undefined)
    return Math.max(0, ...blocked.map((r) => Math.ceil(r.msBeforeNext / 1000)))
  }

  /** Counts an attempt from `address`, and against `handle` when it failed. */
  async record(handle: string, address: string, failed: boolean): Promise<void> {
    await Promise.all([
      this.#perAddress.penalty(address, 1),
      failed ? this.#perAccount.penalty(handle, 1) : this.#perAccount.delete(handle),
    ])
  }
}
