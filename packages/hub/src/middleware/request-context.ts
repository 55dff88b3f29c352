import { randomUUID } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { Logger } from 'pino'
import type { HubEnv, HubServices } from '../http/env.js'
import { requestClient } from '../proxy/index.js'

/** An incoming `X-Request-Id` is kept only when it is short and plain, so logs stay clean. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * `req_` and 20 hex digits, as documented (docs/hub/running.md). `randomUUID` draws from a pool
 * it refills in bulk, where `randomBytes` asked the system for entropy on every request (13 % of
 * `/healthz`). A v4 UUID's first 8 and last 12 hex digits are all random: 80 bits, as before.
 */
export function newRequestId(): string {
  const uuid = randomUUID()
  return `req_${uuid.slice(0, 8)}${uuid.slice(24)}`
}

/**
 * Gives every request an id (echoed in `X-Request-Id` and in every error body), its client (the
 * address trusted proxies forwarded, else the socket's: proxy/request-client.ts), a logger that
 * stamps both on each line, and the hub's services; logs one line when it ends. Every answer says
 * `X-Content-Type-Options: nosniff`.
 */
export function requestContext(hub: HubServices, log: Logger) {
  return createMiddleware<HubEnv>(async function requestContext(c, next) {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && CLIENT_ID.test(incoming) ? incoming : newRequestId()
    const started = performance.now()
    const client = requestClient(c, hub.config.proxies)
    c.set('requestId', requestId)
    c.set('client', client)
    c.set('log', log.child({ requestId, clientAddress: client.address }))
    c.set('hub', hub)
    c.header('X-Request-Id', requestId)
    // Documents, bundles and generated files are served as what they are, never as what a
    // browser guesses from their bytes.
    c.header('X-Content-Type-Options', 'nosniff')
    // Set before `next()` only: a header set on a finished response makes Hono rebuild it
    // around its body stream, which halves the hub's rate (docs/benchmarks.md).
    await next()
    const durationMs = Math.round((performance.now() - started) * 10) / 10
    c.get('log').info(
      { method: c.req.method, path: c.req.path, status: c.res.status, durationMs },
      'request',
    )
  })
}
