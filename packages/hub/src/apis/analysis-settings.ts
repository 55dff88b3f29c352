import { availableParallelism } from 'node:os'
import { envInteger } from '../env-integer.js'

/**
 * The budget of one analysis (reading a pushed or refetched document, and diffing it against the
 * latest revision) and each account's share of the analysis threads (docs/hub/running.md).
 */
export type AnalysisSettings = {
  /** Analyses running at once, each on a worker thread of its own. */
  readonly threads: number
  /** Wall time of one analysis, from its start on a thread; past it the thread is ended. */
  readonly timeoutMs: number
  /** The V8 heap of an analysis thread (`maxOldGenerationSizeMb`); past it the thread dies. */
  readonly memoryMb: number
  /** Nodes a pushed YAML document may have once its aliases are expanded. */
  readonly maxNodes: number
  /** Pushes and refetches one account may have waiting or being analysed; one more is 429. */
  readonly queuePerAccount: number
  /**
   * Pushes and refetches all accounts may have under way before each account is held to its
   * fair share of them (this ÷ the accounts with one under way, at least one each).
   */
  readonly queueMax: number
}

/** The variable that sets each budget, as `details.setting` and the messages name it. */
export const ANALYSIS_SETTING = {
  threads: 'SVC_HUB_ANALYSIS_THREADS',
  timeoutMs: 'SVC_HUB_ANALYSIS_TIMEOUT_MS',
  memoryMb: 'SVC_HUB_ANALYSIS_MEMORY_MB',
  maxNodes: 'SVC_HUB_ANALYSIS_MAX_NODES',
  queuePerAccount: 'SVC_HUB_ANALYSIS_QUEUE_PER_ACCOUNT',
  queueMax: 'SVC_HUB_ANALYSIS_QUEUE_MAX',
} as const satisfies Record<keyof AnalysisSettings, string>

/**
 * Sized on this machine class (2 cores; docs/benchmarks.md, "Analysis budgets"): GHES 3.18 → 3.19,
 * the largest real diff pushed, takes about 1 s and a 96 MB heap; Microsoft Graph (20 MB, the
 * largest real description under the 32 MiB document limit) diffed against itself 4 s and 256 MB;
 * the largest real tree has 2.65 million nodes. Each default leaves room for a loaded machine.
 */
export const DEFAULT_ANALYSIS: Omit<AnalysisSettings, 'threads'> = {
  timeoutMs: 30_000,
  memoryMb: 1024,
  maxNodes: 5_000_000,
  queuePerAccount: 8,
  // Each holds its body (up to SVC_HUB_MAX_DOCUMENT_BYTES) while it waits.
  queueMax: 32,
}

/** One thread per core, but one core left for the event loop (at least one thread). */
export function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1)
}

/** Reads the `SVC_HUB_ANALYSIS_*` variables; throws ConfigError naming the one that is wrong. */
export function readAnalysisSettings(env: NodeJS.ProcessEnv): AnalysisSettings {
  const D = DEFAULT_ANALYSIS
  const S = ANALYSIS_SETTING
  return {
    threads: envInteger(env, S.threads, defaultThreads(), 1),
    timeoutMs: envInteger(env, S.timeoutMs, D.timeoutMs, 100),
    // Below this the thread cannot even load the engine.
    memoryMb: envInteger(env, S.memoryMb, D.memoryMb, 32),
    maxNodes: envInteger(env, S.maxNodes, D.maxNodes, 1_000),
    queuePerAccount: envInteger(env, S.queuePerAccount, D.queuePerAccount, 1),
    queueMax: envInteger(env, S.queueMax, D.queueMax, 1),
  }
}
