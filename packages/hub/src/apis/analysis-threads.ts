import { Piscina } from 'piscina'
import { workerModule } from '../worker-module.js'
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
    // A timer of its own: on Node 20 an AbortSignal.timeout() inside AbortSignal.any() can be
    // garbage-collected before it fires, and the analysis would outlive its limit.
    const ended = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      ended.abort(new Error('time limit'))
    }, this.#settings.timeoutMs)
    const cancel = () => ended.abort(cancelled.reason)
    if (cancelled.aborted) cancel()
    else cancelled.addEventListener('abort', cancel, { once: true })
    const { task: moved, transferList } = movable(task)
    try {
      return await this.#threads().run(moved, { signal: ended.signal, transferList })
    } catch (error) {
      if (timedOut && !cancelled.aborted) throw new ThreadBudgetExceeded('time')
      if ((error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new ThreadBudgetExceeded('memory')
      }
      throw error
    } finally {
      clearTimeout(timer)
      cancelled.removeEventListener('abort', cancel)
    }
  }

  #threads(): Piscina<AnalysisTask, Analysis> {
    if (this.#pool) return this.#pool
    const pool = new Piscina<AnalysisTask, Analysis>({
      filename: workerModule('./document-worker.js', import.meta.url).href,
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

/**
 * The task with its documents in buffers of their own, and those buffers, to move into the
 * thread: a copy of the bytes (a few milliseconds for tens of megabytes) instead of a copy of
 * the text made by the structured clone on the event loop, which took ten times as long.
 */
function movable(task: AnalysisTask): { task: AnalysisTask; transferList: ArrayBuffer[] } {
  // `new Uint8Array(view)` copies (a Buffer's `slice` would share its memory, and moving that
  // would empty the caller's Buffer, and any other Buffer of Node's pool).
  const document = new Uint8Array(task.document)
  const previous = task.previous && {
    ...task.previous,
    document: new Uint8Array(task.previous.document),
  }
  return {
    task: { ...task, document, ...(previous ? { previous } : {}) },
    transferList: [document.buffer, ...(previous ? [previous.document.buffer] : [])],
  }
}
