import { createMiddleware } from 'hono/factory'
import type { HubEnv } from './env.js'
import { readLimitedBody } from './limited-body.js'

/**
 * Refuses a JSON body over the configured limit with 422 `payload_too_large`, reading no more
 * than the limit into memory; the body that passes is handed on to the route's validator.
 */
export const jsonBodyLimit = createMiddleware<HubEnv>(async function jsonBodyLimit(c, next) {
  const body = await readLimitedBody(c.req.raw, c.get('hub').config.jsonBodyBytes)
  if (body === undefined) return next()
  c.req.raw = new Request(c.req.raw, { body })
  await next()
})
