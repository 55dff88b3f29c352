import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import type { Analysis, AnalysisTask } from './document-worker.js'

/** Counts analyses: a read of a first revision, or a read and diff against the latest. */
export type DocumentMetrics = { analysed(kind: 'read' | 'diff', seconds: number): void }

/** Idle threads end after this long, so an idle hub holds no parsed documents in memory. */
const IDLE_MS = 30_000

/**
 * Reads and diffs pushed documents in worker threads, one per core but one left for the
 * event loop (at least one), queued beyond that, so that requests keep being answered while a
 * large description is parsed.
 */
export class DocumentAnalysis {
  #pool: Piscina<AnalysisTask, Analysis> | undefined
  readonly #metrics: DocumentMetrics | undefined

  constructor(metrics?: DocumentMetrics) {
    this.#metrics = metrics
  }

  async analyse(task: AnalysisTask): Promise<Analysis> {
    this.#pool ??= new Piscina<AnalysisTask, Analysis>({
      filename: new URL('./document-worker.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: Math.max(1, availableParallelism() - 1),
      idleTimeout: IDLE_MS,
    })
    const started = performance.now()
    const analysis = await this.#pool.run(task)
    this.#metrics?.analysed(task.previous ? 'diff' : 'read', (performance.now() - started) / 1000)
    return analysis
  }

  /** Waits for the analyses under way, then ends the threads. */
  async close(): Promise<void> {
    await this.#pool?.close()
    this.#pool = undefined
  }
}
