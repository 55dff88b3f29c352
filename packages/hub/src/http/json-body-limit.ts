import { createMiddleware } from 'hono/factory'
import type { HubEnv } from './env.js'
import { readLimitedBody } from './limited-body.js'

const UTF8 = new TextDecoder()

/**
 * Refuses a JSON body over the configured limit with 422 `payload_too_large` (readLimitedBody:
 * from its declared length before reading, or as soon as a streamed one passes the limit) and
 * hands the body that passes to the route's validator.
 */
export const jsonBodyLimit = createMiddleware<HubEnv>(async function jsonBodyLimit(c, next) {
  const body = await readLimitedBody(c.req.raw, c.get('hub').config.jsonBodyBytes)
  // The validator's `c.req.json()` parses this cached text (decoded as `Request.text()` does),
  // so the body is not copied into a new Request only to be read through a stream again. Hono
  // keeps promises in the cache, though its type says plain values.
  if (body !== undefined) {
    const cache = c.req.bodyCache as { text?: Promise<string> }
    cache.text = Promise.resolve(UTF8.decode(body))
  }
  await next()
})
