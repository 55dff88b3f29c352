import { createMiddleware } from 'hono/factory'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from './env.js'
import { discardRest, nodeStream, readBounded } from './request-body.js'

/**
 * Refuses a JSON body over the configured limit with 422 `payload_too_large`, reading no more
 * than the limit into memory; the body that passes is handed on to the route's validator.
 */
export const jsonBodyLimit = createMiddleware<HubEnv>(async function jsonBodyLimit(c, next) {
  const body = c.req.raw.body
  if (!body) return next()
  const maxBytes = c.get('hub').config.jsonBodyBytes
  const source = nodeStream(body)
  const error = new ApiError(
    'payload_too_large',
    `The request body exceeds the limit of ${maxBytes} bytes.`,
    { limit: maxBytes },
  )
  const declared = Number(c.req.header('content-length') ?? NaN)
  if (declared > maxBytes) {
    error.closeConnection = !(await discardRest(source, declared))
    throw error
  }
  const read = await readBounded(source, maxBytes)
  if (read.body === undefined) {
    error.closeConnection = read.closeConnection
    throw error
  }
  c.req.raw = new Request(c.req.raw, { body: read.body })
  await next()
})
