import type { Logger } from 'pino'
import type { HubConfig } from '../config.js'
import { FairQueue } from '../fairness/fair-queue.js'
import type { Store } from '../store/store.js'
import { executeRun, failRun, INTERRUPTED, type RunContext, type RunJob } from './execute-run.js'
import type { RunQueueSettings } from './queue-settings.js'

export type { RunJob }
export { INTERRUPTED }

/** A place taken in an account's queue before its run is stored: queue the run, or give it back. */
export type RunTicket = {
  enqueue(job: Omit<RunJob, 'account'>): void
  release(): void
}

/** Whether a run may queue: a ticket, or why not (its account's queue, the hub's, or stopping). */
export type Admission =
  | { readonly ok: true; readonly ticket: RunTicket }
  | { readonly ok: false; readonly full: 'account' | 'hub' | 'stopped'; readonly limit: number }

export type RunQueueOptions = RunContext & { readonly queue: RunQueueSettings }

const STOPPED = new Error('the hub stopped')
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * The runs of one hub process: one at a time, the others waiting in per-account queues served
 * in turn (`FairQueue`: the account with none running, then the one served least recently), so
 * another account's first run waits for at most the run in progress, whatever one account has
 * queued. An account has at most `perAccount` runs waiting and running, and the process at most
 * `maxWaiting` waiting. A run waits at most {@link RunQueue.maxWaitMs}, then fails.
 *
 * A run's row is `running` from the request; `startRun` moves its start to when its process
 * starts, `finishRun` writes the outcome and artifacts.
 */
export class RunQueue {
  readonly #options: RunQueueOptions
  readonly #fair: FairQueue
  readonly #reserved = new Map<string, number>()
  readonly #active = new Set<AbortController>()
  readonly #jobs = new Set<Promise<void>>()
  #reservedTotal = 0
  #stopped = false

  constructor(options: RunQueueOptions) {
    this.#options = options
    this.#fair = new FairQueue({ concurrency: 1, maxPerKey: options.queue.perAccount })
  }

  /**
   * The longest a run waits for its turn before it fails: as long as every run the process may
   * hold waiting ran to the time limit, and one more.
   */
  get maxWaitMs(): number {
    return this.#options.settings.timeoutMs * (this.#options.queue.maxWaiting + 1)
  }

  /** Runs waiting now, all accounts together. */
  get waiting(): number {
    return this.#fair.waiting
  }

  /** Takes a place for a run of `account` (`user:<id>`), if its queue and the hub's have one. */
  admit(account: string): Admission {
    const { perAccount, maxWaiting } = this.#options.queue
    if (this.#stopped) return { ok: false, full: 'stopped', limit: 0 }
    const reserved = this.#reserved.get(account) ?? 0
    if (this.#fair.size(account) + reserved >= perAccount) {
      return { ok: false, full: 'account', limit: perAccount }
    }
    if (this.#fair.waiting + this.#reservedTotal >= maxWaiting) {
      return { ok: false, full: 'hub', limit: maxWaiting }
    }
    this.#reserve(account, 1)
    let held = true
    const release = () => {
      if (!held) return
      held = false
      this.#reserve(account, -1)
    }
    return {
      ok: true,
      ticket: {
        enqueue: (job) => {
          if (!held) throw new Error('this ticket was used already')
          release()
          this.#enqueue({ ...job, account })
        },
        release,
      },
    }
  }

  /** Kills the run in progress (it fails: the hub stopped) and fails the waiting ones alike. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#fair.clear(STOPPED)
    for (const controller of this.#active) controller.abort()
    await Promise.all([...this.#jobs])
  }

  #reserve(account: string, by: number): void {
    const count = (this.#reserved.get(account) ?? 0) + by
    if (count === 0) this.#reserved.delete(account)
    else this.#reserved.set(account, count)
    this.#reservedTotal += by
  }

  #enqueue(job: RunJob): void {
    if (this.#stopped) {
      this.#track(failRun(this.#options, job.runId, INTERRUPTED))
      return
    }
    // A timer longer than 2^31 - 1 ms fires at once (Node's overflow): such a wait is unbounded.
    const deadline = AbortSignal.timeout(Math.min(this.maxWaitMs, MAX_TIMER_MS))
    const turn = this.#fair
      .run(job.account, () => this.#execute(job), { signal: deadline })
      .catch((error: unknown) => {
        if (error === STOPPED) return failRun(this.#options, job.runId, INTERRUPTED)
        if (deadline.aborted && error === deadline.reason) {
          const seconds = Math.round(this.maxWaitMs / 1000)
          return failRun(
            this.#options,
            job.runId,
            `The run waited ${seconds} s for its turn, the longest a run waits; the hub was busy with other runs. Run it again.`,
          )
        }
        this.#options.log.error({ err: error, run: job.runId }, 'a run failed in the hub')
        return failRun(
          this.#options,
          job.runId,
          'The hub failed while running server.js; this is a bug.',
        )
      })
    this.#track(turn)
  }

  #track(job: Promise<void>): void {
    this.#jobs.add(job)
    void job.finally(() => this.#jobs.delete(job))
  }

  async #execute(job: RunJob): Promise<void> {
    const controller = new AbortController()
    this.#active.add(controller)
    try {
      await executeRun(job, this.#options, controller.signal)
    } finally {
      this.#active.delete(controller)
    }
  }
}

const queues = new WeakMap<Store, RunQueue>()

/** The run queue of the hub process serving `store`. */
export function runQueue(
  store: Store,
  config: Pick<HubConfig, 'runs' | 'quotas'>,
  log: Pick<Logger, 'error' | 'info'>,
): RunQueue {
  let queue = queues.get(store)
  if (!queue) {
    queue = new RunQueue({
      store,
      settings: config.runs,
      queue: config.quotas.runQueue,
      quotas: config.quotas.storage,
      log,
    })
    queues.set(store, queue)
  }
  return queue
}
