import { RateLimiterMemory } from 'rate-limiter-flexible'

/** Failed sign-ins to one account from one address that cost no wait: typing mistakes. */
export const FREE_FAILURES = 5
/** The longest wait one more failure to one account from one address can add. */
export const MAX_DELAY_SECONDS = 15 * 60
/** Failed sign-ins one address may make to handles that are no user's, in `UNKNOWN_WINDOW_SECONDS`. */
export const UNKNOWN_FAILURES = 100
export const UNKNOWN_WINDOW_SECONDS = 60 * 60
/** Failures to one account from all addresses in `ACCOUNT_WINDOW_SECONDS` past which it is under attack. */
export const ACCOUNT_FAILURES = 20
export const ACCOUNT_WINDOW_SECONDS = 60 * 60
/** Failures to one account from one address are forgotten a day after the first. */
const PAIR_MEMORY_SECONDS = 24 * 60 * 60

/**
 * Why a sign-in must wait: its account has failed too often from this address, or this address
 * has failed too often at handles that are no user's.
 */
export type SignInWait = { readonly seconds: number; readonly reason: 'account' | 'address' }

/**
 * Slows password guessing without letting anyone lock a user out (OWASP's Authentication Cheat
 * Sheet; docs/web/README.md):
 *
 * - failures are counted per (account, client address), with a wait that doubles with each
 *   failure past the free ones (1 s, 2 s, 4 s … up to 15 minutes): guesses at an account from one
 *   address slow that address only, never the user signing in from elsewhere;
 * - once an account has had `ACCOUNT_FAILURES` failures in an hour from all addresses together
 *   (guesses spread over many addresses), no address gets free failures at it: the wait starts
 *   at an address's first failure. Never a lock: an address with no failure at the account (the
 *   owner's, usually) signs in at once, and a wait only grows with that address's own failures;
 * - an address gets `UNKNOWN_FAILURES` failures per hour at handles that are no user's
 *   (credential stuffing with lists from elsewhere, guessing names); past them it waits for the
 *   window to end, for such handles only: a user signing in to their own account from the same
 *   address (behind the same proxy) is never held back by what others tried there.
 *
 * A success clears its (account, address) count. Counts live in this process.
 *
 * An attempt counts as a failure from the moment it is let through until it is known to have
 * succeeded, and attempts are let through one at a time: guesses sent in parallel cannot all pass
 * the check before any of them is counted.
 *
 * @example
 * const wait = await throttle.begin(handle, address, account !== undefined)
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
  readonly #perAccount = new RateLimiterMemory({
    keyPrefix: 'sign-in-account',
    points: ACCOUNT_FAILURES,
    duration: ACCOUNT_WINDOW_SECONDS,
  })
  readonly #unknownFrom = new RateLimiterMemory({
    keyPrefix: 'sign-in-unknown',
    points: UNKNOWN_FAILURES,
    duration: UNKNOWN_WINDOW_SECONDS,
  })
  #turn: Promise<unknown> = Promise.resolve()

  /**
   * How long `handle` must wait before it may try again from `address`; none: it may try now, and
   * the attempt counts as a failure until `succeeded` says otherwise. `known`: `handle` is a
   * user's (only a user can sign in).
   */
  begin(handle: string, address: string, known: boolean): Promise<SignInWait | undefined> {
    const key = pairKey(handle, address)
    const step = this.#turn.then(async () => {
      const wait = await this.#wait(key, address, known)
      if (wait) return wait
      const [pair, wide] = await Promise.all([
        this.#failures.penalty(key, 1),
        known ? this.#perAccount.penalty(handle, 1) : this.#unknownFrom.penalty(address, 1),
      ])
      const free = known && wide.consumedPoints > ACCOUNT_FAILURES ? 0 : FREE_FAILURES
      const past = pair.consumedPoints - free
      if (past > 0) await this.#delays.block(key, delaySeconds(past))
      return undefined
    })
    this.#turn = step.catch(() => undefined)
    return step
  }

  /** The attempt `begin` let through was right: its pair starts again, its account gets it back. */
  async succeeded(handle: string, address: string): Promise<void> {
    const key = pairKey(handle, address)
    await Promise.all([
      this.#failures.delete(key),
      this.#delays.delete(key),
      this.#perAccount.reward(handle, 1),
    ])
  }

  async #wait(key: string, address: string, known: boolean): Promise<SignInWait | undefined> {
    const [delay, unknown] = await Promise.all([
      this.#delays.get(key),
      known ? undefined : this.#unknownFrom.get(address),
    ])
    const waits: SignInWait[] = []
    if (delay && delay.msBeforeNext > 0) {
      waits.push({ seconds: Math.ceil(delay.msBeforeNext / 1000), reason: 'account' })
    }
    if (unknown && unknown.consumedPoints >= UNKNOWN_FAILURES && unknown.msBeforeNext > 0) {
      waits.push({ seconds: Math.ceil(unknown.msBeforeNext / 1000), reason: 'address' })
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
