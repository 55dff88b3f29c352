import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import pino, { type Logger } from 'pino'
import { bootstrapAdmin } from './accounts/bootstrap.js'
import { createApp } from './app.js'
import type { HubConfig } from './config.js'
import { createMetrics } from './middleware/metrics.js'
import { openStore, storeOptions } from './store/index.js'

/** How long in-flight requests get to finish on SIGTERM before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000

export type RunningHub = {
  readonly url: string
  stop(): Promise<void>
}

export function createLogger(config: Pick<HubConfig, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'svc-hub' } })
}

/**
 * Opens the store (migrating it), makes the first admin on an empty store, and serves the app.
 * `announce` receives the one-time admin PAT when one was made.
 */
export async function startHub(
  config: HubConfig,
  log: Logger,
  announce: (pat: string) => void,
): Promise<RunningHub> {
  const store = await openStore(storeOptions(config))
  log.info({ store: store.describe }, 'store ready')
  const admin = await bootstrapAdmin(store)
  if (admin) announce(admin.token)

  const app = createApp({ store, config, metrics: createMetrics() }, log)
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host })
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const url = `http://${host}:${address.port}`
  log.info({ url, publicUrl: config.publicUrl }, 'listening')

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      log.info('shutting down: finishing in-flight requests')
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      if ('closeIdleConnections' in server) server.closeIdleConnections()
      const timer = setTimeout(() => {
        log.warn('in-flight requests did not finish in time; closing their connections')
        if ('closeAllConnections' in server) server.closeAllConnections()
      }, SHUTDOWN_GRACE_MS)
      await closed
      clearTimeout(timer)
      await store.close()
      log.info('stopped')
    })())
  return { url, stop }
}
