import { createSafeFetch } from '@svc/safe-fetch'
import type { Logger } from 'pino'
import type { HubConfig } from './config.js'
import { openStore, storeOptions } from './store/index.js'
import { Dispatcher } from './webhooks/dispatcher.js'

export type RunningWorker = { stop(): Promise<void> }

/**
 * `svc-hub worker`: the webhook dispatcher alone, on the hub's store. Any number of workers (and
 * hubs serving with their own dispatcher) can share one PostgreSQL database.
 */
export async function startWorker(config: HubConfig, log: Logger): Promise<RunningWorker> {
  const store = await openStore(storeOptions(config))
  const outbound = createSafeFetch({
    allow: config.allowPrivateNetworks,
    // Every attempt in flight may go to the same receiver: one socket each, none queued.
    maxSockets: config.webhooks.concurrency,
  })
  const dispatcher = new Dispatcher({
    store,
    fetch: outbound,
    log,
    leaseMs: config.webhooks.leaseMs,
    concurrency: config.webhooks.concurrency,
  })
  dispatcher.start()
  log.info({ store: store.describe }, 'webhook worker started')
  let stopping: Promise<void> | undefined
  return {
    stop: () =>
      (stopping ??= (async () => {
        log.info('webhook worker: finishing the attempts in flight')
        await dispatcher.stop()
        outbound.close()
        await store.close()
        log.info({ attempts: dispatcher.made() }, 'stopped')
      })()),
  }
}
