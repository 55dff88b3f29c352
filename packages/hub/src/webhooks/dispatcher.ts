import type { SafeFetch } from '@svc/safe-fetch'
import type { Logger } from 'pino'
import type { ClaimedDelivery, Completion } from '../store/deliveries-repo.js'
import type { Store } from '../store/store.js'
import { attemptDelivery, type AttemptReport } from './attempt.js'
import { Leases } from './leases.js'
import { nextAttemptAt } from './schedule.js'
import { backoffMs, StoreOutage } from './store-outage.js'
import { StoreWrites } from './store-writes.js'

/**
 * Leases are renewed every third of their length while held, so even a short one survives a
 * slow renewal; below this, a stall of the process or the database could lose it.
 */
export const MIN_LEASE_MS = 5_000
/** The lease when none is configured: a dead worker's rows are due again this soon. */
export const DEFAULT_LEASE_MS = 15_000

export type DispatcherOptions = {
  readonly store: Store
  readonly fetch: SafeFetch
  readonly log: Logger
  /** Milliseconds since the epoch; tests move it forward a day at a time. */
  readonly clock?: () => number
  readonly random?: () => number
  /** Attempts in flight at once. */
  readonly concurrency?: number
  /**
   * How long a claim holds a row unless renewed (every third of it, while the row is held):
   * after it, another worker may take the row again.
   */
  readonly leaseMs?: number
  /** How often an idle dispatcher looks for due rows it was not told about. */
  readonly pollMs?: number
  readonly metrics?: DispatcherMetrics
}

export type DispatcherMetrics = {
  attempted(outcome: AttemptReport['outcome'] | 'inactive', durationMs: number): void
}

/** What the rest of the hub needs of a dispatcher: to be told new rows are due. */
export type DeliveryNotifier = { wake(): void }

export const NO_DISPATCHER: DeliveryNotifier = { wake() {} }

const CLAIM_BATCH = 100

/** An outcome waiting to be written, and the attempt waiting on it. */
type Pending = {
  readonly completion: Completion
  readonly done: () => void
}

/**
 * Claims due deliveries, attempts them, and writes their outcomes, until stopped. Outcomes are
 * written in batches (one statement per batch), and the outcomes of answered attempts are
 * written before the next claim, so a worker killed at any moment leaves few answered rows to be
 * sent again. The leases of held rows are renewed while their attempts run and their outcomes
 * wait. A store that fails is waited out: claims back off (250 ms doubling to 5 s), outcomes
 * are retried while their leases hold, and the dispatcher resumes on its own.
 */
export class Dispatcher implements DeliveryNotifier {
  readonly #store: Store
  readonly #fetch: SafeFetch
  readonly #log: Logger
  readonly #clock: () => number
  readonly #random: () => number
  readonly #concurrency: number
  readonly #leaseMs: number
  readonly #pollMs: number
  readonly #metrics: DispatcherMetrics | undefined
  readonly #refill: number

  #held = 0
  readonly #made: Record<AttemptReport['outcome'] | 'inactive', number> = {
    succeeded: 0,
    retry: 0,
    failed: 0,
    inactive: 0,
  }
  #running: Promise<void> | undefined
  #stopping = false
  #signal: (() => void) | undefined
  #woken = false
  #buffer: Pending[] = []
  #flushing: Promise<void> | undefined
  /** Settle when the outcome of each answered attempt is written (or given up). */
  readonly #unwritten = new Set<Promise<void>>()
  readonly #writes = new StoreWrites()
  readonly #outage: StoreOutage
  readonly #leases: Leases

  constructor(options: DispatcherOptions) {
    this.#store = options.store
    this.#fetch = options.fetch
    this.#log = options.log
    this.#clock = options.clock ?? Date.now
    this.#random = options.random ?? Math.random
    this.#concurrency = options.concurrency ?? 128
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
    this.#pollMs = options.pollMs ?? 250
    this.#metrics = options.metrics
    this.#refill = Math.max(1, Math.min(CLAIM_BATCH, Math.floor(this.#concurrency / 4)))
    if (this.#leaseMs < MIN_LEASE_MS) {
      throw new RangeError(`the lease must be at least ${MIN_LEASE_MS} ms, got ${this.#leaseMs}`)
    }
    this.#outage = new StoreOutage(this.#log, this.#clock)
    this.#leases = new Leases({
      store: this.#store,
      log: this.#log,
      clock: this.#clock,
      leaseMs: this.#leaseMs,
      outage: this.#outage,
      writes: this.#writes,
    })
  }

  start(): void {
    this.#stopping = false
    this.#running ??= this.#loop()
      .catch((error: unknown) => {
        // Not a store error (those are waited out): a bug. Logged, never an unhandled rejection.
        this.#log.error({ err: error }, 'webhook dispatcher: stopped on an unexpected error')
      })
      .finally(() => (this.#running = undefined))
  }

  /** New rows are due: look now instead of at the next poll. */
  wake(): void {
    this.#woken = true
    this.#signal?.()
  }

  /** Attempts this dispatcher made, by outcome (`inactive`: switched-off webhook, no request). */
  made(): Readonly<Record<AttemptReport['outcome'] | 'inactive', number>> {
    return { ...this.#made }
  }

  /** Stops claiming, lets the attempts in flight finish and writes their outcomes. */
  async stop(): Promise<void> {
    this.#stopping = true
    this.#signal?.()
    await this.#running
  }

  /**
   * Claims what is due now and attempts it, until nothing due is left; answers how many
   * attempts it made. For tests and `svc-hub` tools that step a clock; not for use beside
   * `start()`.
   */
  async runDue(): Promise<number> {
    let total = 0
    for (;;) {
      const claimed = await this.#claim(this.#concurrency)
      if (claimed.length === 0) return total
      total += claimed.length
      await Promise.all(claimed.map((delivery) => this.#deliver(delivery)))
    }
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      if (this.#mayClaim()) {
        this.#woken = false
        // What was answered is written before more is claimed: a kill -9 then sends again only
        // the few attempts answered since.
        await this.#outcomesWritten()
        if (this.#stopping) break
        const limit = Math.min(this.#concurrency - this.#held, CLAIM_BATCH)
        let claimed: ClaimedDelivery[]
        try {
          claimed = await this.#claim(limit)
          this.#outage.ended()
        } catch (error) {
          this.#outage.failed(error, 'claiming deliveries')
          await this.#pause(this.#outage.backoffMs(), { wakeable: false })
          continue
        }
        for (const delivery of claimed) void this.#deliver(delivery)
        // A full batch: more may be due right now.
        if (claimed.length > 0 && claimed.length === limit) continue
      }
      if (this.#woken && this.#mayClaim()) continue
      await this.#pause(this.#pollMs, { wakeable: true })
    }
    while (this.#held > 0 || this.#flushing) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** Waits `ms`, or less when stopped (or, if `wakeable`, woken or a slot frees up). */
  async #pause(ms: number, { wakeable }: { wakeable: boolean }): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      this.#signal = () => {
        if (!wakeable && !this.#stopping) return
        clearTimeout(timer)
        resolve()
      }
    })
    this.#signal = undefined
  }

  /** Settles once the outcomes of the attempts answered so far are written (or given up). */
  async #outcomesWritten(): Promise<void> {
    if (this.#unwritten.size > 0) await Promise.all([...this.#unwritten])
  }

  async #claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.#clock()
    const until = now + this.#leaseMs
    const claimed = await this.#store.deliveries.claim(limit, iso(now), iso(until))
    this.#held += claimed.length
    this.#leases.hold(claimed, until)
    return claimed
  }

  /** Attempts one claimed delivery and waits until its outcome is written. */
  async #deliver(delivery: ClaimedDelivery): Promise<void> {
    let holding = true
    const release = () => {
      if (!holding) return
      holding = false
      this.#held--
      if (this.#mayClaim()) this.#signal?.()
    }
    try {
      let completion: Completion
      if (!delivery.active) {
        // A webhook switched off after the event was queued: no request, and the owner can
        // recover the delivery once it is on again.
        completion = this.#inactive(delivery)
        this.#made.inactive++
        this.#metrics?.attempted('inactive', 0)
      } else {
        const report = await attemptDelivery(delivery, this.#fetch, this.#clock)
        this.#made[report.outcome]++
        this.#metrics?.attempted(report.outcome, report.durationMs)
        completion = this.#completion(delivery, report)
      }
      const written = new Promise<void>((done) => {
        this.#buffer.push({ completion, done })
        this.#flushing ??= this.#flush().finally(() => (this.#flushing = undefined))
      })
      this.#unwritten.add(written)
      // The request is over: its slot may serve another while the outcome waits for its batch
      // (the row stays leased until then, and the next claim waits for the batch).
      release()
      await written
      this.#unwritten.delete(written)
    } catch (error) {
      // The row stays claimed; when its lease ends, a worker tries it again.
      this.#log.error({ err: error, delivery: delivery.id }, 'webhook dispatcher: attempt failed')
    } finally {
      release()
      this.#leases.release(delivery.id)
    }
  }

  /**
   * Whether enough slots are free for a claim: while attempts run, slots are taken back a
   * quarter of the concurrency at a time, so that one claim (two queries) serves many
   * attempts instead of one.
   */
  #mayClaim(): boolean {
    const free = this.#concurrency - this.#held
    return free >= this.#refill || (free > 0 && this.#held === 0)
  }

  async #flush(): Promise<void> {
    // One turn of the event loop gathers the outcomes that finished together into one write.
    await new Promise((resolve) => setImmediate(resolve))
    while (this.#buffer.length > 0) {
      let batch = this.#buffer
      this.#buffer = []
      for (let failures = 1; batch.length > 0; failures++) {
        try {
          const completions = batch.map((b) => b.completion)
          const written = await this.#writes.run(() => this.#store.deliveries.complete(completions))
          if (written.size < batch.length) {
            const lost = batch
              .filter((b) => !written.has(b.completion.id))
              .map((b) => b.completion.id)
            this.#log.warn(
              { deliveries: lost },
              'webhook dispatcher: outcomes not written (the rows were reclaimed or deleted)',
            )
          }
          break
        } catch (error) {
          this.#outage.failed(error, 'writing outcomes')
          await new Promise((resolve) => setTimeout(resolve, backoffMs(failures)))
          batch = this.#withLease(batch)
        }
      }
      for (const { done } of batch) done()
    }
  }

  /**
   * The outcomes in `batch` whose rows are still leased; the others are given up (logged and
   * settled): past its lease a row may be another worker's, which attempts it again.
   */
  #withLease(batch: readonly Pending[]): Pending[] {
    const kept: Pending[] = []
    const lost: Pending[] = []
    for (const pending of batch) {
      ;(this.#leases.expired(pending.completion.id) ? lost : kept).push(pending)
    }
    if (lost.length > 0) {
      this.#log.warn(
        { deliveries: lost.map((p) => p.completion.id) },
        'webhook dispatcher: leases ended before the outcomes could be written; the deliveries will be attempted again',
      )
      for (const { done } of lost) done()
    }
    return kept
  }

  #completion(delivery: ClaimedDelivery, report: AttemptReport): Completion {
    const number = delivery.attempt_count + 1
    const startedAt = iso(report.startedAt)
    const windowStartedAt = delivery.window_started_at ?? startedAt
    const windowAttempts = delivery.window_attempts + 1
    const endedAt = report.startedAt + report.durationMs
    const next =
      report.outcome === 'retry'
        ? nextAttemptAt({
            now: endedAt,
            windowStart: Date.parse(windowStartedAt),
            retry: windowAttempts,
            retryAfterMs: report.retryAfterMs,
            random: this.#random,
          })
        : undefined
    // A retryable answer after the window has closed is the delivery's last.
    const outcome = report.outcome === 'retry' && next === undefined ? 'failed' : report.outcome
    const nextAttempt = next === undefined ? null : iso(next)
    return {
      id: delivery.id,
      claimToken: delivery.claim_token,
      state: outcome === 'retry' ? 'pending' : outcome,
      nextAttemptAt: nextAttempt,
      windowStartedAt,
      windowAttempts,
      attemptCount: number,
      lastAttemptAt: startedAt,
      lastStatus: report.status,
      lastError: report.error,
      completedAt: outcome === 'retry' ? null : iso(endedAt),
      attempt: {
        delivery_id: delivery.id,
        number,
        trigger: delivery.next_trigger,
        url: delivery.url,
        redirects: JSON.stringify(report.redirects),
        started_at: startedAt,
        duration_ms: Math.round(report.durationMs),
        outcome,
        status: report.status,
        error: report.error,
        response_excerpt: report.excerpt,
        next_attempt_at: nextAttempt,
      },
    }
  }

  #inactive(delivery: ClaimedDelivery): Completion {
    const now = iso(this.#clock())
    return {
      id: delivery.id,
      claimToken: delivery.claim_token,
      state: 'failed',
      nextAttemptAt: null,
      windowStartedAt: delivery.window_started_at,
      windowAttempts: delivery.window_attempts,
      attemptCount: delivery.attempt_count,
      lastAttemptAt: null,
      lastStatus: null,
      lastError: 'webhook_inactive: the webhook was switched off before this attempt',
      completedAt: now,
      attempt: undefined,
    }
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}
