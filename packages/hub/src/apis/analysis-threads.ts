import { Piscina } from 'piscina'
import type { AnalysisSettings } from './analysis-settings.js'
import type { Analysis, AnalysisTask } from './document-worker.js'

/** An analysis went over its time or heap: its thread was ended. */
export class ThreadBudgetExceeded extends Error {
  override readonly name = 'ThreadBudgetExceeded'
  constructor(readonly limit: 'time' | 'memory') {
    super(`the analysis went over its ${limit} limit`)
  }
}

/** Idle threads end after this long, so an idle hub holds no parsed documents in memory. */
const IDLE_MS = 30_000

/**
 * The analysis threads (document-worker.ts), started on demand up to `settings.threads`, each
 * with a heap of `settings.memoryMb`. A task gets `settings.timeoutMs` from when it is handed to
 * a thread: past it, or when its signal aborts, piscina terminates the thread, and the next task
 * starts a new one.
 */
export class AnalysisThreads {
  readonly #settings: AnalysisSettings
  readonly #onError: (error: unknown) => void
  #pool: Piscina<AnalysisTask, Analysis> | undefined

  /** `onError` hears of a thread that fails outside any task. */
  constructor(settings: AnalysisSettings, onError: (error: unknown) => void) {
    this.#settings = settings
    this.#onError = onError
  }

  /**
   * Runs `task` on a free thread (the caller keeps at most `settings.threads` under way, so none
   * waits here). Throws {@link ThreadBudgetExceeded} over the time or heap limit, and the
   * signal's abort (piscina's AbortError) when `cancelled` aborts first.
   */
  async run(task: AnalysisTask, cancelled: AbortSignal): Promise<Analysis> {
    const timeout = AbortSignal.timeout(this.#settings.timeoutMs)
    try {
      return await this.#threads().run(task, { signal: AbortSignal.any([cancelled, timeout]) })
    } catch (error) {
      if (timeout.aborted && !cancelled.aborted) throw new ThreadBudgetExceeded('time')
      if ((error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new ThreadBudgetExceeded('memory')
      }
      throw error
    }
  }

  #threads(): Piscina<AnalysisTask, Analysis> {
    if (this.#pool) return this.#pool
    const pool = new Piscina<AnalysisTask, Analysis>({
      filename: new URL('./document-worker.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: this.#settings.threads,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: this.#settings.memoryMb },
    })
    // Unheard, the pool's 'error' event (a thread that dies between tasks) would end the process.
    pool.on('error', this.#onError)
    this.#pool = pool
    return pool
  }

  /** Waits for the tasks under way, then ends the threads. */
  async close(): Promise<void> {
    await this.#pool?.close()
    this.#pool = undefined
  }
}
