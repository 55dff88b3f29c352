import { createSafeFetch, type SafeFetchClient } from '@svc/safe-fetch'
import type { Logger } from 'pino'
import type { HubConfig } from './config.js'
import { logOutboundMode } from './outbound/guard.js'
import { ArtifactRetention } from './runs/artifact-retention.js'
import { openStore, startWait, storeOptions } from './store/index.js'
import type { Store } from './store/store.js'
import { Dispatcher, type DispatcherMetrics } from './webhooks/dispatcher.js'

export type RunningWorker = { stop(): Promise<void> }

/** The guarded client of the hub's outbound requests, as the configuration sets it. */
export function outboundClient(config: HubConfig): SafeFetchClient {
  return createSafeFetch({
    allow: config.allowPrivateNetworks,
    // Every attempt in flight may go to the same receiver: one socket each, none queued.
    maxSockets: config.webhooks.concurrency,
  })
}

/** A webhook dispatcher over `store`, as the configuration sets it (not started). */
export function configuredDispatcher(
  config: HubConfig,
  store: Store,
  outbound: SafeFetchClient,
  log: Logger,
  metrics?: DispatcherMetrics,
): Dispatcher {
  return new Dispatcher({
    store,
    fetch: outbound,
    log,
    leaseMs: config.webhooks.leaseMs,
    concurrency: config.webhooks.concurrency,
    ...(metrics ? { metrics } : {}),
  })
}

/** The retention rule of run artifacts over `store`, as the configuration sets it (not started). */
export function configuredRetention(
  config: HubConfig,
  store: Store,
  log: Logger,
): ArtifactRetention {
  return new ArtifactRetention({ store, settings: config.quotas.retention, log })
}

/**
 * `svc-hub worker`: the webhook dispatcher alone, on the hub's store, with the cleanup of old run
 * artifacts. Any number of workers (and hubs serving with their own dispatcher) can share one
 * PostgreSQL database.
 */
export async function startWorker(config: HubConfig, log: Logger): Promise<RunningWorker> {
  const store = await openStore(storeOptions(config), startWait(config, log))
  store.upkeepOffThread()
  const outbound = outboundClient(config)
  const dispatcher = configuredDispatcher(config, store, outbound, log)
  dispatcher.start()
  const retention = configuredRetention(config, store, log)
  retention.start()
  log.info({ store: store.describe }, 'webhook worker started')
  logOutboundMode(config, log)
  let stopping: Promise<void> | undefined
  return {
    stop: () =>
      (stopping ??= (async () => {
        log.info('webhook worker: finishing the attempts in flight')
        await dispatcher.stop()
        await retention.stop()
        outbound.close()
        await store.close()
        log.info({ attempts: dispatcher.made() }, 'stopped')
      })()),
  }
}
