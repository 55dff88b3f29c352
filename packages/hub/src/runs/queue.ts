import type { Logger } from 'pino'
import type { RunSettings } from '../config.js'
import type { Store } from '../store/store.js'
import { runBundle, type RunInput, type RunResult } from './runner.js'
import { announceSandbox, findSandbox, sandboxRefusal, type RunsStatus } from './sandbox-probe.js'

/** What a queued run needs, fixed when it was asked for. */
export type RunJob = {
  readonly runId: string
  readonly bundleSha256: string
  /** The revision's document blob and protocol; the run was refused without one. */
  readonly document: { readonly sha256: string; readonly protocol: 'oas' | 'gql' }
  readonly clientSettings: Record<string, unknown>
}

/** Runs waiting behind the one executing; a run asked for beyond that is 503 `unavailable`. */
export const MAX_QUEUED = 5

/** What a failed run says when its hub died before writing its outcome. */
export const INTERRUPTED = 'The hub stopped during the run.'

/**
 * One run at a time per hub process, the others waiting in order (at most {@link MAX_QUEUED}).
 * A run's row is `running` from the request; `startRun` moves its start to when its process
 * starts, `finishRun` writes the outcome and artifacts.
 */
export class RunQueue {
  readonly #waiting: RunJob[] = []
  #active: AbortController | undefined
  #draining: Promise<void> | undefined
  #stopped = false

  constructor(
    private readonly store: Store,
    private readonly settings: RunSettings,
    private readonly log: Pick<Logger, 'error' | 'info'>,
    private readonly run: (input: RunInput) => Promise<RunResult> = runBundle,
  ) {}

  /** Whether another run can wait. */
  get hasRoom(): boolean {
    return !this.#stopped && this.#waiting.length < MAX_QUEUED
  }

  /** Queues the run; false (nothing queued) when the queue is full or stopped. */
  enqueue(job: RunJob): boolean {
    if (!this.hasRoom) return false
    this.#waiting.push(job)
    this.#draining ??= this.#drain().finally(() => (this.#draining = undefined))
    return true
  }

  /** Kills the run in progress (it fails: the hub stopped) and drops the waiting ones. */
  async stop(): Promise<void> {
    this.#stopped = true
    const dropped = this.#waiting.splice(0)
    this.#active?.abort()
    await this.#draining
    for (const job of dropped) await this.#fail(job.runId, INTERRUPTED)
  }

  async #drain(): Promise<void> {
    for (let job = this.#waiting.shift(); job; job = this.#waiting.shift()) {
      try {
        await this.#execute(job)
      } catch (error) {
        this.log.error({ err: error, run: job.runId }, 'a run failed in the hub')
        await this.#fail(job.runId, 'The hub failed while running server.js; this is a bug.')
      }
    }
  }

  async #execute(job: RunJob): Promise<void> {
    const controller = new AbortController()
    this.#active = controller
    try {
      await this.#executeWith(job, controller.signal)
    } finally {
      this.#active = undefined
    }
  }

  async #executeWith(job: RunJob, signal: AbortSignal): Promise<void> {
    const startedAt = new Date()
    if (!(await this.store.deployments.startRun(job.runId, startedAt.toISOString()))) return
    const [bundle, document] = await Promise.all([
      this.store.blobs.get(job.bundleSha256),
      this.store.blobs.get(job.document.sha256),
    ])
    if (!bundle || !document) throw new Error('the bundle or document blob is missing')
    const found = await findSandbox(this.settings)
    if (!found.ok) return this.#fail(job.runId, sandboxRefusal(found.reason))
    const result = await this.run({
      bundle,
      document: new TextDecoder().decode(document),
      protocol: job.document.protocol,
      clientSettings: job.clientSettings,
      limits: this.settings,
      sandbox: found.sandbox,
      signal,
    })
    const finishedAt = new Date().toISOString()
    await this.store.deployments.finishRun(
      job.runId,
      result.ok
        ? {
            status: 'succeeded',
            error: null,
            manifest: JSON.stringify(result.manifest),
            log: result.log,
            finishedAt,
            durationMs: result.durationMs,
          }
        : {
            status: 'failed',
            error: result.reason,
            manifest: null,
            log: result.log,
            finishedAt,
            durationMs: result.durationMs,
          },
      result.ok ? result.artifacts : [],
    )
    this.log.info(
      { run: job.runId, ok: result.ok, durationMs: result.durationMs },
      result.ok ? 'run succeeded' : 'run failed',
    )
  }

  async #fail(runId: string, error: string): Promise<void> {
    try {
      await this.store.deployments.finishRun(runId, {
        status: 'failed',
        error,
        manifest: null,
        log: null,
        finishedAt: new Date().toISOString(),
        durationMs: 0,
      })
    } catch (failure) {
      this.log.error({ err: failure, run: runId }, 'could not record a failed run')
    }
  }
}

const queues = new WeakMap<Store, RunQueue>()

/** The run queue of the hub process serving `store`. */
export function runQueue(
  store: Store,
  settings: RunSettings,
  log: Pick<Logger, 'error' | 'info'>,
): RunQueue {
  let queue = queues.get(store)
  if (!queue) {
    queue = new RunQueue(store, settings, log)
    queues.set(store, queue)
  }
  return queue
}

/**
 * What a hub does about runs when it starts: runs still `running` that started more than the
 * time limit ago died with the hub that ran them, and are marked failed. Then, every minute, the
 * same for runs older than any run of this hub can be (its queue full, each run at its limit),
 * which catches the runs of a hub that restarted within the time limit. It tries the sandbox
 * first (`status` says how runs will go; a warning is logged unless they are sandboxed). `stop`
 * kills the run in progress and ends the sweeps.
 */
export async function startRuns(
  store: Store,
  settings: RunSettings,
  log: Pick<Logger, 'error' | 'info' | 'warn'>,
): Promise<{ readonly status: RunsStatus; stop(): Promise<void> }> {
  const status = await announceSandbox(settings, log)
  const sweep = async (olderThanMs: number) => {
    const before = new Date(Date.now() - olderThanMs).toISOString()
    const count = await store.deployments.failRunsStartedBefore(before, INTERRUPTED)
    if (count > 0) log.warn({ count }, 'marked runs of a stopped hub as failed')
  }
  await sweep(settings.timeoutMs)
  runQueue(store, settings, log)
  const longest = settings.timeoutMs * (MAX_QUEUED + 1) + 60_000
  const timer = setInterval(() => {
    sweep(longest).catch((error) => log.error({ err: error }, 'sweeping runs failed'))
  }, 60_000)
  timer.unref()
  return {
    status,
    async stop() {
      clearInterval(timer)
      await queues.get(store)?.stop()
    },
  }
}
