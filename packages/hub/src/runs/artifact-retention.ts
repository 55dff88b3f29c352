import type { Logger } from 'pino'
import type { RetentionSettings } from '../quotas/settings.js'
import { PRUNED_NOTHING, type Pruned, type RetentionRule } from '../store/retention-repo.js'
import type { Store } from '../store/store.js'

/** Runs whose artifacts one transaction removes. */
const BATCH = 50
const DAY_MS = 86_400_000

export type ArtifactRetentionOptions = {
  readonly store: Store
  readonly settings: RetentionSettings
  readonly log: Pick<Logger, 'info' | 'warn'>
  /** Milliseconds since the epoch (tests move it). */
  readonly clock?: () => number
}

/**
 * The retention rule of run artifacts, applied by every process that runs the webhook
 * dispatcher (`svc-hub worker`, and `serve` unless `--no-dispatcher`): at start and then every
 * `intervalMs`, it removes the artifacts of runs past the newest `keepRuns` of their deployment
 * and of runs older than `maxAgeDays`, in batches of {@link BATCH} runs, one transaction each,
 * with the blobs nothing references any more. Several workers on one store share the work (a
 * run is claimed by one). A store that fails is logged and tried again at the next sweep; it
 * never ends the process.
 */
export class ArtifactRetention {
  readonly #options: ArtifactRetentionOptions
  #timer: NodeJS.Timeout | undefined
  #sweeping: Promise<Pruned> | undefined
  #stopped = false

  constructor(options: ArtifactRetentionOptions) {
    this.#options = options
  }

  /** Whether the settings remove anything at all (both rules 0: nothing to do). */
  get enabled(): boolean {
    const { keepRuns, maxAgeDays } = this.#options.settings
    return keepRuns > 0 || maxAgeDays > 0
  }

  start(): void {
    if (!this.enabled || this.#timer) return
    const tick = () => {
      void this.sweep().finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(tick, this.#options.settings.intervalMs)
        this.#timer?.unref()
      })
    }
    this.#timer = setTimeout(tick, 0)
    this.#timer.unref()
  }

  /** One sweep, batch after batch until nothing is left; answers what it removed. */
  sweep(): Promise<Pruned> {
    this.#sweeping ??= this.#sweep().finally(() => (this.#sweeping = undefined))
    return this.#sweeping
  }

  /** Ends the sweeps; waits for the batch in progress. */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#sweeping
  }

  async #sweep(): Promise<Pruned> {
    const { store, log } = this.#options
    let total = PRUNED_NOTHING
    try {
      while (!this.#stopped) {
        const ids = await store.retention.prunable(this.#rule(), BATCH)
        if (ids.length === 0) break
        const pruned = await store.retention.prune(ids)
        total = add(total, pruned)
        // Another worker claimed this batch first; the next look leaves its runs out.
        if (pruned.runs === 0 && ids.length < BATCH) break
      }
    } catch (error) {
      log.warn({ err: error }, 'run artifact cleanup failed; trying again at the next sweep')
    }
    if (total.runs > 0) log.info({ ...total }, 'run artifacts removed by the retention rule')
    return total
  }

  #rule(): RetentionRule {
    const { keepRuns, maxAgeDays } = this.#options.settings
    const now = (this.#options.clock ?? Date.now)()
    return {
      keepRuns,
      finishedBefore:
        maxAgeDays > 0 ? new Date(now - maxAgeDays * DAY_MS).toISOString() : undefined,
    }
  }
}

function add(a: Pruned, b: Pruned): Pruned {
  return {
    runs: a.runs + b.runs,
    files: a.files + b.files,
    bytes: a.bytes + b.bytes,
    blobs: a.blobs + b.blobs,
  }
}
