import type { Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import pino, { type Logger } from 'pino'
import { bootstrapAdmin } from './accounts/bootstrap.js'
import { DocumentAnalysis } from './apis/document-analysis.js'
import { createApp } from './app.js'
import type { HubConfig } from './config.js'
import { createMetrics } from './middleware/metrics.js'
import { RateLimits } from './ratelimit/index.js'
import { openStore, storeOptions } from './store/index.js'
import { lingerOnClose } from './http/lingering-close.js'
import { NO_DISPATCHER } from './webhooks/dispatcher.js'
import { startRuns } from './runs/queue.js'
import { configuredDispatcher, outboundClient } from './worker.js'

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
 * Opens the store (migrating it), serves the app, and makes the first admin on an empty store.
 * `announce` receives the one-time admin PAT, only once the hub listens (so that a port
 * already in use cannot swallow it), with the origin to try it on.
 */
export async function startHub(
  config: HubConfig,
  log: Logger,
  announce: (pat: string, publicUrl: string) => void,
  options: { readonly dispatcher: boolean } = { dispatcher: true },
): Promise<RunningHub> {
  const store = await openStore(storeOptions(config))
  log.info({ store: store.describe }, 'store ready')
  const rateLimits = await RateLimits.start(config, store, log)

  // The app needs the public URL, which needs the port really bound (PORT=0 picks one).
  let startApp!: (app: ReturnType<typeof createApp>) => void
  const appReady = new Promise<ReturnType<typeof createApp>>((resolve) => (startApp = resolve))
  const server = serve({
    fetch: async (request, env) => (await appReady).fetch(request, env),
    port: config.port,
    hostname: config.host,
  }) as Server
  lingerOnClose(server)
  // Responses not yet started when shutdown begins say `Connection: close`, so a keep-alive
  // client cannot hold the process open until its idle timeout once its request is answered.
  const unanswered = new Set<ServerResponse>()
  let stopping: Promise<void> | undefined
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (stopping) response.shouldKeepAlive = false
    unanswered.add(response)
    response.once('close', () => unanswered.delete(response))
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve)
      server.once('error', reject)
    })
  } catch (error) {
    await rateLimits.close()
    await store.close()
    throw error
  }
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const publicUrl = config.publicUrlIsDefault
    ? `http://localhost:${address.port}`
    : config.publicUrl
  const metrics = createMetrics()
  const documents = new DocumentAnalysis(metrics.documents)
  const outbound = outboundClient(config)
  const dispatcher = options.dispatcher
    ? configuredDispatcher(config, store, outbound, log, metrics.webhooks)
    : undefined
  startApp(
    createApp(
      {
        store,
        config: { ...config, publicUrl },
        metrics,
        documents,
        outbound,
        deliveries: dispatcher ?? NO_DISPATCHER,
        rateLimits,
      },
      log,
    ),
  )
  dispatcher?.start()
  const runs = await startRuns(store, config.runs, log)
  const admin = await bootstrapAdmin(store)
  if (admin) announce(admin.token, publicUrl)
  const url = `http://${host}:${address.port}`
  log.info({ url, publicUrl, runs: runs.status }, 'listening')

  const stop = () =>
    (stopping ??= (async () => {
      log.info('shutting down: finishing in-flight requests')
      for (const response of unanswered) {
        if (!response.headersSent) response.shouldKeepAlive = false
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const timer = setTimeout(() => {
        log.warn('in-flight requests did not finish in time; closing their connections')
        server.closeAllConnections()
      }, SHUTDOWN_GRACE_MS)
      await closed
      clearTimeout(timer)
      await dispatcher?.stop()
      outbound.close()
      await documents.close()
      await runs.stop()
      await rateLimits.close()
      await store.close()
      log.info('stopped')
    })())
  return { url, stop }
}
