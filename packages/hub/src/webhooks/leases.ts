import type { Logger } from 'pino'
import type { ClaimedDelivery, HeldDelivery } from '../store/deliveries-repo.js'
import type { Store } from '../store/store.js'
import type { StoreOutage } from './store-outage.js'
import type { StoreWrites } from './store-writes.js'

export type LeasesOptions = {
  readonly store: Store
  readonly log: Logger
  readonly clock: () => number
  readonly leaseMs: number
  readonly outage: StoreOutage
  readonly writes: StoreWrites
}

type Held = HeldDelivery & {
  /** Until when the row is known to be ours: the end of the last lease written. */
  until: number
}

/**
 * The leases of the rows a dispatcher holds, kept alive while it holds them: every third of a
 * lease, one statement extends them all. A lease then only has to outlast a couple of missed
 * renewals instead of the longest attempt, so the rows of a worker that died are due again
 * within one (short) lease. A renewal that fails is logged and tried again at the next one.
 */
export class Leases {
  readonly #options: LeasesOptions
  readonly #held = new Map<string, Held>()
  #timer: NodeJS.Timeout | undefined

  constructor(options: LeasesOptions) {
    this.#options = options
  }

  /** Rows just claimed, leased until `until`. */
  hold(claimed: readonly ClaimedDelivery[], until: number): void {
    for (const row of claimed) {
      this.#held.set(row.id, { id: row.id, claimToken: row.claim_token, until })
    }
    if (this.#held.size > 0) this.#schedule()
  }

  /** The row's claim is over (its outcome written, or given up): no more renewals for it. */
  release(id: string): void {
    this.#held.delete(id)
    if (this.#held.size === 0 && this.#timer) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
  }

  /** Whether the row's last known lease has ended: another worker may have taken it. */
  expired(id: string): boolean {
    const held = this.#held.get(id)
    return held === undefined || this.#options.clock() >= held.until
  }

  #schedule(): void {
    if (this.#timer) return
    this.#timer = setTimeout(() => void this.#renew(), this.#options.leaseMs / 3)
    // Renewals alone must not keep a process alive.
    this.#timer.unref()
  }

  async #renew(): Promise<void> {
    const { store, clock, leaseMs, outage, writes, log } = this.#options
    const rows = [...this.#held.values()]
    try {
      const until = clock() + leaseMs
      const renewed = await writes.run(() =>
        store.deliveries.renew(
          rows.map(({ id, claimToken }) => ({ id, claimToken })),
          new Date(until).toISOString(),
        ),
      )
      for (const row of rows) row.until = until
      if (renewed < rows.length) {
        log.debug({ held: rows.length, renewed }, 'webhook dispatcher: leases renewed')
      }
    } catch (error) {
      outage.failed(error, 'renewing leases')
    } finally {
      this.#timer = undefined
      if (this.#held.size > 0) this.#schedule()
    }
  }
}
