import type { Logger } from 'pino'
import type { HubConfig } from '../config.js'
import type { Store } from '../store/store.js'
import { INTERRUPTED, runQueue } from './queue.js'
import { announceSandbox, type RunsStatus } from './sandbox-probe.js'

/**
 * What a hub does about runs when it starts: runs still `running` that started more than the
 * time limit ago died with the hub that ran them, and are marked failed. Then, every minute, the
 * same for runs older than any run of this hub can be (the longest wait for a turn, then the
 * time limit), which catches the runs of a hub that restarted within that time. It tries the
 * sandbox first (`status` says how runs will go; a warning is logged unless they are sandboxed).
 * `stop` kills the run in progress, fails the waiting ones and ends the sweeps.
 */
export async function startRuns(
  store: Store,
  config: Pick<HubConfig, 'runs' | 'quotas'>,
  log: Pick<Logger, 'error' | 'info' | 'warn'>,
): Promise<{ readonly status: RunsStatus; stop(): Promise<void> }> {
  const status = await announceSandbox(config.runs, log)
  const sweep = async (olderThanMs: number) => {
    const before = new Date(Date.now() - olderThanMs).toISOString()
    const count = await store.deployments.failRunsStartedBefore(before, INTERRUPTED)
    if (count > 0) log.warn({ count }, 'marked runs of a stopped hub as failed')
  }
  await sweep(config.runs.timeoutMs)
  const queue = runQueue(store, config, log)
  // A waiting run's start is when it was asked for; a running one's, when its process started.
  const longest = queue.maxWaitMs + config.runs.timeoutMs + 60_000
  const timer = setInterval(() => {
    sweep(longest).catch((error) => log.error({ err: error }, 'sweeping runs failed'))
  }, 60_000)
  timer.unref()
  return {
    status,
    async stop() {
      clearInterval(timer)
      await queue.stop()
    },
  }
}
