import { RateLimiterMemory } from 'rate-limiter-flexible'

/** Failed sign-ins to one account from one address that cost no wait: typing mistakes. */
export const FREE_FAILURES = 5
/** The longest wait one more failure to one account from one address can add. */
export const MAX_DELAY_SECONDS = 15 * 60
/** Failed sign-ins one address may make, to any accounts, in `ADDRESS_WINDOW_SECONDS`. */
export const ADDRESS_FAILURES = 100
export const ADDRESS_WINDOW_SECONDS = 60 * 60
/** Failures to one account from one address are forgotten a day after the first. */
const PAIR_MEMORY_SECONDS = 24 * 60 * 60

/** Why a sign-in must wait: its account has failed too often from this address, or the address has. */
export type SignInWait = { readonly seconds: number; readonly reason: 'account' | 'address' }

/**
 * Slows password guessing without letting anyone lock a user out (OWASP's Authentication Cheat
 * Sheet): failures are counted per (account, client address), with a wait that doubles with each
 * failure past the free ones (1 s, 2 s, 4 s … up to 15 minutes), so guesses at an account from
 * one address slow that address only, never the user signing in from elsewhere; and one address
 * gets `ADDRESS_FAILURES` failures per hour across all accounts (credential stuffing). A success
 * clears its (account, address) count. Counts live in this process (docs/web/README.md).
 *
 * An attempt counts as a failure from the moment it is let through until it is known to have
 * succeeded, and attempts are let through one at a time: guesses sent in parallel cannot all pass
 * the check before any of them is counted.
 *
 * @example
 * const wait = await throttle.begin(handle, address)
 * if (wait) return refuse(wait.seconds)
 * if (await passwordMatches()) await throttle.succeeded(handle, address)
 */
export class SignInThrottle {
  readonly #failures = new RateLimiterMemory({
    keyPrefix: 'sign-in-failures',
    points: FREE_FAILURES,
    duration: PAIR_MEMORY_SECONDS,
  })
  /** Only `block` and `get`: a blocked (account, address) waits until its block ends. */
  readonly #delays = new RateLimiterMemory({ keyPrefix: 'sign-in-delay', points: 1, duration: 1 })
  readonly #perAddress = new RateLimiterMemory({
    keyPrefix: 'sign-in-address',
    points: ADDRESS_FAILURES,
    duration: ADDRESS_WINDOW_SECONDS,
  })
  #turn: Promise<unknown> = Promise.resolve()

  /**
   * How long `handle` must wait before it may try again from `address`; none: it may try now, and
   * the attempt counts as a failure until `succeeded` says otherwise.
   */
  begin(handle: string, address: string): Promise<SignInWait | undefined> {
    const key = pairKey(handle, address)
    const step = this.#turn.then(async () => {
      const wait = await this.#wait(key, address)
      if (wait) return wait
      const [pair] = await Promise.all([
        this.#failures.penalty(key, 1),
        this.#perAddress.penalty(address, 1),
      ])
      const past = pair.consumedPoints - FREE_FAILURES
      if (past > 0) await this.#delays.block(key, delaySeconds(past))
      return undefined
    })
    this.#turn = step.catch(() => undefined)
    return step
  }

  /** The attempt `begin` let through was right: its pair starts again, its address gets it back. */
  async succeeded(handle: string, address: string): Promise<void> {
    const key = pairKey(handle, address)
    await Promise.all([
      this.#failures.delete(key),
      this.#delays.delete(key),
      this.#perAddress.reward(address, 1),
    ])
  }

  async #wait(key: string, address: string): Promise<SignInWait | undefined> {
    const [delay, from] = await Promise.all([this.#delays.get(key), this.#perAddress.get(address)])
    const waits: SignInWait[] = []
    if (delay && delay.msBeforeNext > 0) {
      waits.push({ seconds: Math.ceil(delay.msBeforeNext / 1000), reason: 'account' })
    }
    if (from && from.consumedPoints >= ADDRESS_FAILURES && from.msBeforeNext > 0) {
      waits.push({ seconds: Math.ceil(from.msBeforeNext / 1000), reason: 'address' })
    }
    return waits.sort((a, b) => b.seconds - a.seconds)[0]
  }
}

/** The wait after the `n`-th failure past the free ones: 1 s, doubling, at most 15 minutes. */
export function delaySeconds(n: number): number {
  return Math.min(2 ** Math.min(n - 1, 30), MAX_DELAY_SECONDS)
}

/** An address never holds a space, so the pair's key is unambiguous whatever was typed as handle. */
function pairKey(handle: string, address: string): string {
  return `${address} ${handle}`
}
