import { envInteger } from '../env-integer.js'

/** How many runs wait in one hub process, per account and in all (docs/hub/running.md). */
export type RunQueueSettings = {
  /** Runs one account may have waiting and running at once; one more is 429 `queue_full`. */
  readonly perAccount: number
  /** Runs that may wait in this process, all accounts together; one more is 503 `unavailable`. */
  readonly maxWaiting: number
}

export const DEFAULT_RUN_QUEUE: RunQueueSettings = { perAccount: 3, maxWaiting: 20 }

/** `SVC_HUB_RUN_QUEUE_PER_ACCOUNT` and `SVC_HUB_RUN_QUEUE_MAX`; throws ConfigError on a bad value. */
export function readRunQueueSettings(env: NodeJS.ProcessEnv): RunQueueSettings {
  return {
    perAccount: envInteger(env, 'SVC_HUB_RUN_QUEUE_PER_ACCOUNT', DEFAULT_RUN_QUEUE.perAccount, 1),
    maxWaiting: envInteger(env, 'SVC_HUB_RUN_QUEUE_MAX', DEFAULT_RUN_QUEUE.maxWaiting, 1),
  }
}
