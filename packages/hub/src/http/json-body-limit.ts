import { createMiddleware } from 'hono/factory'
import { bodyLimit } from 'hono/body-limit'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from './env.js'

/** Refuses a JSON body larger than the configured limit while it streams in. */
export const jsonBodyLimit = createMiddleware<HubEnv>(async function jsonBodyLimit(c, next) {
  const maxSize = c.get('hub').config.jsonBodyBytes
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(
        'payload_too_large',
        `The request body exceeds the limit of ${maxSize} bytes.`,
        {
          limit: maxSize,
        },
      )
    },
  })(c, next)
})
