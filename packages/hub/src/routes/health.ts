import type { Health } from '@svc/hub-api'
import { Hono } from 'hono'
import { errorResponse, unavailable } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { HUB_VERSION } from '../version.js'

/** Liveness, readiness and Prometheus metrics: outside `/v1`, never authenticated. */
export const health = new Hono<HubEnv>()

// The version lets `svc --version` and `svc doctor` tell a CLI that does not match this hub.
health.get('/healthz', (c) => c.json({ status: 'ok', version: HUB_VERSION } satisfies Health))

health.get('/readyz', async (c) => {
  const { store, config } = c.get('hub')
  try {
    await store.ping(config.readyTimeoutMs)
    return c.json({ status: 'ready' })
  } catch (error) {
    c.get('log').warn({ err: error }, 'store not reachable')
    return errorResponse(c, unavailable({ retryAfterSeconds: 5 }))
  }
})

health.get('/metrics', async (c) => {
  const { registry } = c.get('hub').metrics
  return c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType })
})
