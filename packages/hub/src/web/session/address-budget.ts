import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'

export type AddressBudgetOptions = {
  /** Names the count (its key prefix). */
  readonly name: string
  readonly max: number
  readonly windowSeconds: number
}

/**
 * At most `max` posts of one form per client address in a window of `windowSeconds` that starts
 * at the address's first post. Counts live in this process (docs/web/README.md).
 *
 * @example
 * const wait = await signUps.spend(c.get('client').address)
 * if (wait > 0) return tooManyPage(c, wait)
 */
export class AddressBudget {
  readonly #limiter: RateLimiterMemory

  constructor(options: AddressBudgetOptions) {
    this.#limiter = new RateLimiterMemory({
      keyPrefix: options.name,
      points: options.max,
      duration: options.windowSeconds,
    })
  }

  /** Counts one post from `address`: 0 when it may go ahead, else the seconds until it may. */
  async spend(address: string): Promise<number> {
    try {
      await this.#limiter.consume(address)
      return 0
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused
      return Math.max(1, Math.ceil(refused.msBeforeNext / 1000))
    }
  }
}
