import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import pino, { type Logger } from 'pino'
import pretty from 'pino-pretty'
import { bootstrapAdmin } from './accounts/bootstrap.js'
import { DocumentAnalysis } from './apis/document-analysis.js'
import { createApp } from './app.js'
import type { HubConfig } from './config.js'
import { createMetrics } from './middleware/metrics.js'
import { registerStoreMetrics } from './middleware/store-metrics.js'
import { RateLimits } from './ratelimit/index.js'
import { openStore, startWait, storeOptions } from './store/index.js'
import { ConnectionDrain } from './http/connection-drain.js'
import { lingerOnClose } from './http/lingering-close.js'
import { listenError } from './http/listen-error.js'
import { logOutboundMode } from './outbound/guard.js'
import { NO_DISPATCHER } from './webhooks/dispatcher.js'
import { startRuns } from './runs/start-runs.js'
import { configuredDispatcher, configuredRetention, outboundClient } from './worker.js'

/**
 * How long connections get on SIGTERM (their requests in flight, and those that arrive on them:
 * http/connection-drain.ts) before they are cut.
 */
const SHUTDOWN_GRACE_MS = 10_000

export type RunningHub = {
  readonly url: string
  stop(): Promise<void>
}

/**
 * pino on stdout: JSON lines for log collectors, or, when stdout is a terminal (or
 * `SVC_HUB_LOG_FORMAT=pretty`), one readable line per entry, coloured unless `NO_COLOR` says no.
 */
export function createLogger(
  config: Pick<HubConfig, 'logLevel' | 'logFormat'>,
  stdout: { readonly isTTY?: boolean } = process.stdout,
): Logger {
  const options = { level: config.logLevel, base: { service: 'svc-hub' } }
  if ((config.logFormat ?? (stdout.isTTY ? 'pretty' : 'json')) === 'json') {
    // Written without waiting: lines logged while a write is under way go out together in the
    // next one, instead of one blocking write per request (a tenth of a busy hub's time), and
    // what is still buffered is written when the process exits.
    return pino(options, pino.destination({ dest: 1, sync: false }))
  }
  return pino(
    options,
    pretty({
      // Written before the process exits (`stopped`, then exit 0): no line is lost.
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      singleLine: true,
      ignore: 'pid,hostname,service',
    }),
  )
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
  const store = await openStore(storeOptions(config), startWait(config, log))
  log.info({ store: store.describe }, 'store ready')
  await store.cacheReads()
  store.upkeepOffThread()
  const rateLimits = await RateLimits.start(config, store, log)

  // The app needs the public URL, which needs the port really bound (PORT=0 picks one).
  let startApp!: (app: ReturnType<typeof createApp>) => void
  const appReady = new Promise<ReturnType<typeof createApp>>((resolve) => (startApp = resolve))
  const server = serve({
    fetch: async (request, env) => (await appReady).fetch(request, env),
    port: config.port,
    hostname: config.host,
  }) as Server
  // First of the request's listeners: its kept reads see every commit made before it arrived.
  server.prependListener('request', () => store.requestArrived())
  lingerOnClose(server)
  const connections = new ConnectionDrain(server)
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve)
      server.once('error', reject)
    })
  } catch (error) {
    await rateLimits.close()
    await store.close()
    throw listenError(error, config)
  }
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const publicUrl = config.publicUrlIsDefault
    ? `http://localhost:${address.port}`
    : config.publicUrl
  const metrics = createMetrics()
  registerStoreMetrics(metrics.registry, store)
  const documents = new DocumentAnalysis(config.analysis, { metrics: metrics.documents, log })
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
  // The process that delivers webhooks also applies the retention rule of run artifacts.
  const retention = dispatcher ? configuredRetention(config, store, log) : undefined
  retention?.start()
  const runs = await startRuns(store, config, log)
  const admin = await bootstrapAdmin(store)
  if (admin) announce(admin.token, publicUrl)
  const url = `http://${host}:${address.port}`
  // Before 'listening': that line is the last of the start, the one scripts wait for.
  logOutboundMode(config, log)
  // Who may name the client of a request: an operator behind a proxy checks it here.
  const trustedProxies = config.proxies.trusted.toString()
  const clientAddressHeader = config.proxies.header
  log.info({ url, publicUrl, runs: runs.status, trustedProxies, clientAddressHeader }, 'listening')

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      log.info('shutting down: finishing in-flight requests')
      const closed = connections.close()
      const timer = setTimeout(() => {
        log.warn('in-flight requests did not finish in time; closing their connections')
        server.closeAllConnections()
      }, SHUTDOWN_GRACE_MS)
      await closed
      clearTimeout(timer)
      await dispatcher?.stop()
      await retention?.stop()
      outbound.close()
      await documents.close()
      await runs.stop()
      await rateLimits.close()
      await store.close()
      log.info('stopped')
    })())
  return { url, stop }
}
