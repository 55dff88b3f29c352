import { Hono } from 'hono'
import { ApiError, errorResponse } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'

/** Liveness, readiness and Prometheus metrics: outside `/v1`, never authenticated. */
export const health = new Hono<HubEnv>()

health.get('/healthz', (c) => c.json({ status: 'ok' }))

health.get('/readyz', async (c) => {
  try {
    await c.get('hub').store.ping()
    return c.json({ status: 'ready' })
  } catch (error) {
    c.get('log').warn({ err: error }, 'store not reachable')
    return errorResponse(c, new ApiError('unavailable', 'The database does not answer.'))
  }
})

health.get('/metrics', async (c) => {
  const { registry } = c.get('hub').metrics
  return c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType })
})
