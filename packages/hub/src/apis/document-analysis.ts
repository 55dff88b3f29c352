import type { Logger } from 'pino'
import { ApiError } from '../errors/index.js'
import { FairQueue, QueueFull } from '../fairness/fair-queue.js'
import { AccountAdmission } from './account-admission.js'
import {
  analysisQueueFull,
  clientWentAway,
  tooComplex,
  type AnalysisLimit,
} from './analysis-errors.js'
import type { AnalysisSettings } from './analysis-settings.js'
import { AnalysisThreads, ThreadBudgetExceeded } from './analysis-threads.js'
import type { Analysis, AnalysisTask } from './document-worker.js'

/** How an analysis ended: `done` (a model, or a document error), a budget, or neither. */
export type AnalysisOutcome = 'done' | AnalysisLimit | 'cancelled' | 'failed'

/** Counts analyses and their queue (middleware/metrics.ts). */
export type DocumentMetrics = {
  /** A read of a first revision, or a read and diff against the latest, that ran to its end. */
  analysed(kind: 'read' | 'diff', seconds: number): void
  ended(outcome: AnalysisOutcome): void
  /** The queue to read the numbers of waiting and running analyses from. */
  watch(queue: AnalysisQueue): void
}

export type AnalysisQueue = { readonly waiting: number; readonly running: number }

/** Who asks for an analysis, and when to give it up. */
export type AnalysisRequest = {
  /** The caller, whose account's queue the analysis waits in; callers without one share one. */
  readonly caller: AnalysisCaller | undefined
  /** Aborts when the client goes away: a waiting analysis is dropped, a running one ended. */
  readonly signal?: AbortSignal | undefined
  /** The request's logger, for the line that says why an analysis was ended. */
  readonly log?: Logger | undefined
}

export type AnalysisCaller = { readonly userId: string; readonly handle: string }

export type DocumentAnalysisOptions = {
  readonly metrics?: DocumentMetrics | undefined
  /** Told when an analysis thread fails outside any analysis. */
  readonly log?: Logger | undefined
}

/**
 * Reads and diffs pushed documents in worker threads (`settings.threads`), so that requests keep
 * being answered while a large description is parsed, each analysis within a budget: its
 * expanded size (checked by the engine), its wall time (the thread is terminated and a new one
 * started for the next analysis) and its heap (the thread's resource limit).
 *
 * Analyses wait in per-account queues served in turn (`FairQueue`, keyed `user:<id>`), in front
 * of the thread pool, whose own queue stays empty: an account's backlog delays another
 * account's first analysis by at most one analysis. Each account may have
 * `settings.queuePerAccount` pushes, refetches and diffs under way ({@link admitted}), and only its
 * fair share of `settings.queueMax` while the hub holds that many.
 */
export class DocumentAnalysis {
  readonly #settings: AnalysisSettings
  readonly #metrics: DocumentMetrics | undefined
  readonly #log: Logger | undefined
  readonly #queue: FairQueue
  readonly #admission: AccountAdmission
  readonly #threads: AnalysisThreads

  constructor(settings: AnalysisSettings, options: DocumentAnalysisOptions = {}) {
    this.#settings = settings
    this.#metrics = options.metrics
    this.#log = options.log
    this.#queue = new FairQueue({
      concurrency: settings.threads,
      maxPerKey: settings.queuePerAccount,
    })
    this.#admission = new AccountAdmission({
      perAccount: settings.queuePerAccount,
      total: settings.queueMax,
    })
    this.#threads = new AnalysisThreads(settings, (err) =>
      this.#log?.error({ err }, 'an analysis thread failed'),
    )
    this.#metrics?.watch(this.#queue)
  }

  /**
   * Runs `work`, one push, refetch or diff of `caller`, as one of the `queuePerAccount` its account
   * may have under way (body read, waiting, analysed, stored); one more is refused at once with
   * 429 `queue_full`, before its body is read.
   */
  async admitted<T>(caller: AnalysisCaller, work: () => Promise<T>): Promise<T> {
    const release = this.#admission.enter(accountKey(caller))
    if (typeof release === 'number') throw analysisQueueFull(caller.handle, release, this.#settings)
    try {
      return await work()
    } finally {
      release()
    }
  }

  /**
   * Analyses `task` in the caller's turn. Throws 422 `document_too_complex` over a budget and
   * 400 when the client went away first; the answer of a document that is not an API
   * description is an `ok: false` analysis.
   */
  async analyse(
    task: Omit<AnalysisTask, 'maxExpandedNodes'>,
    request: AnalysisRequest,
  ): Promise<Analysis> {
    const key = accountKey(request.caller)
    try {
      return await this.#queue.run(key, (signal) => this.#run(task, signal, request), {
        ...(request.signal ? { signal: request.signal } : {}),
      })
    } catch (error) {
      // Only callers without an account, whose pushes are never admitted, can find it full.
      if (error instanceof QueueFull)
        throw analysisQueueFull(
          request.caller?.handle,
          this.#settings.queuePerAccount,
          this.#settings,
        )
      if (request.signal?.aborted) {
        this.#ended('cancelled', request, { account: key }, 'the client went away')
        throw clientWentAway()
      }
      throw error
    }
  }

  async #run(
    task: Omit<AnalysisTask, 'maxExpandedNodes'>,
    cancelled: AbortSignal,
    request: AnalysisRequest,
  ): Promise<Analysis> {
    const settings = this.#settings
    const started = performance.now()
    let analysis: Analysis
    try {
      analysis = await this.#threads.run(
        { ...task, maxExpandedNodes: settings.maxNodes },
        cancelled,
      )
    } catch (error) {
      if (error instanceof ThreadBudgetExceeded) {
        const { limit } = error
        this.#ended(limit, request, { limit }, 'analysis over its budget: its thread was ended')
        throw tooComplex(limit, settings)
      }
      if (!cancelled.aborted) this.#ended('failed', request, { err: error }, 'analysis failed')
      throw error
    }
    if (!analysis.ok && analysis.error.code === 'too_complex') {
      this.#ended('expanded_nodes', request, { limit: 'expanded_nodes' }, 'document refused')
      throw tooComplex('expanded_nodes', settings)
    }
    this.#metrics?.analysed(task.previous ? 'diff' : 'read', (performance.now() - started) / 1000)
    this.#metrics?.ended('done')
    return analysis
  }

  #ended(
    outcome: Exclude<AnalysisOutcome, 'done'>,
    request: AnalysisRequest,
    fields: Record<string, unknown>,
    message: string,
  ): void {
    this.#metrics?.ended(outcome)
    const log = request.log ?? this.#log
    if (outcome === 'failed') log?.error(fields, message)
    else if (outcome === 'cancelled') log?.info(fields, `analysis cancelled: ${message}`)
    else log?.warn(fields, message)
  }

  /** Drops the analyses still waiting, waits for those under way, then ends the threads. */
  async close(): Promise<void> {
    this.#queue.clear(
      new ApiError('unavailable', 'The hub is shutting down; push again.').retryAfter(1),
    )
    await this.#threads.close()
  }
}

/** The fair-share key: the account that asks for the work. */
function accountKey(caller: AnalysisCaller | undefined): string {
  return caller ? `user:${caller.userId}` : 'anonymous'
}
