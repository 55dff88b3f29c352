import type { QuotaId } from '@svc/hub-api'
import { envInteger } from '../env-integer.js'
import { readRunQueueSettings, type RunQueueSettings } from '../runs/queue-settings.js'
import { DEFAULT_QUOTAS } from './table.js'

/** The default limit of each storage quota (0: no limit), as the environment sets them. */
export type QuotaLimits = Readonly<Record<QuotaId, number>>

/**
 * Which run artifacts the cleanup removes: those of runs past the newest `keepRuns` of their
 * deployment (that stored artifacts), and those of runs that finished more than `maxAgeDays`
 * ago; 0 turns a rule off.
 */
export type RetentionSettings = {
  readonly keepRuns: number
  readonly maxAgeDays: number
  /** How often each worker looks for artifacts to remove. */
  readonly intervalMs: number
}

/** What each account may take of the hub: its queue of runs, its storage, how long artifacts stay. */
export type QuotaSettings = {
  readonly runQueue: RunQueueSettings
  readonly storage: QuotaLimits
  readonly retention: RetentionSettings
}

export const DEFAULT_RETENTION: RetentionSettings = {
  keepRuns: 10,
  maxAgeDays: 30,
  intervalMs: 600_000,
}

/**
 * Reads the `SVC_HUB_QUOTA_*`, `SVC_HUB_RUN_ARTIFACTS_*` and `SVC_HUB_RUN_QUEUE_*` variables
 * (docs/hub/running.md); throws ConfigError on a bad value.
 */
export function readQuotaSettings(env: NodeJS.ProcessEnv): QuotaSettings {
  const storage = Object.fromEntries(
    DEFAULT_QUOTAS.map((row) => [row.id, envInteger(env, row.setting, row.defaultLimit)]),
  ) as Record<QuotaId, number>
  return {
    runQueue: readRunQueueSettings(env),
    storage,
    retention: {
      keepRuns: envInteger(env, 'SVC_HUB_RUN_ARTIFACTS_KEEP_RUNS', DEFAULT_RETENTION.keepRuns),
      maxAgeDays: envInteger(
        env,
        'SVC_HUB_RUN_ARTIFACTS_MAX_AGE_DAYS',
        DEFAULT_RETENTION.maxAgeDays,
      ),
      intervalMs:
        envInteger(
          env,
          'SVC_HUB_RUN_ARTIFACTS_SWEEP_SECONDS',
          DEFAULT_RETENTION.intervalMs / 1000,
          1,
          86_400,
        ) * 1000,
    },
  }
}
