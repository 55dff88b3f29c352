import type { Logger } from 'pino'

const FIRST_BACKOFF_MS = 250
const MAX_BACKOFF_MS = 5000

/** The wait before try number `failures + 1` of a store call that failed `failures` times. */
export function backoffMs(failures: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS)
}

/**
 * Whether the dispatcher's store calls are failing, for its logs and its claim loop: one warning
 * when an outage starts and one info when claims work again, whatever the number of calls that
 * failed in between (a line per poll would bury everything else during a database restart).
 */
export class StoreOutage {
  readonly #log: Logger
  readonly #clock: () => number
  #since: number | undefined
  #failures = 0

  constructor(log: Logger, clock: () => number) {
    this.#log = log
    this.#clock = clock
  }

  /** A store call failed while `doing` something; never throws. */
  failed(error: unknown, doing: string): void {
    this.#failures++
    if (this.#since !== undefined) {
      this.#log.debug({ err: error, doing }, 'webhook dispatcher: the store still fails')
      return
    }
    this.#since = this.#clock()
    this.#log.warn(
      { err: error, doing },
      'webhook dispatcher: the store fails; backing off until it answers',
    )
  }

  /** How long the claim loop waits before it tries again: 250 ms, doubling up to 5 s. */
  backoffMs(): number {
    return backoffMs(this.#failures)
  }

  /** A claim worked: the outage, if there was one, is over. */
  ended(): void {
    if (this.#since === undefined) return
    this.#log.info(
      { outageMs: this.#clock() - this.#since, failures: this.#failures },
      'webhook dispatcher: the store answers again; claiming resumed',
    )
    this.#since = undefined
    this.#failures = 0
  }
}
