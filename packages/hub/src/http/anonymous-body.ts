import { createMiddleware } from 'hono/factory'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from './env.js'
import { ANONYMOUS_BODY_BYTES } from './request-body.js'

/**
 * A request without a valid credential never makes the hub hold more than
 * {@link ANONYMOUS_BODY_BYTES} of its body: whichever route reads it, reading fails with
 * `payload_too_large` past that. Routes that need a credential answer 401 before they read
 * anything; this is the rule for the rest, and for a route that forgets.
 */
export const capAnonymousBody = createMiddleware<HubEnv>(async function capAnonymousBody(c, next) {
  // In this order: asking a request for its body makes @hono/node-server build a whole web
  // Request (a tenth of an authenticated GET's time), and a GET or HEAD has none to cap.
  if (c.get('caller') || c.get('keyCaller')) return next()
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
  const body = c.req.raw.body
  if (!body) return next()
  let bytes = 0
  const capped = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength
        if (bytes > ANONYMOUS_BODY_BYTES) controller.error(tooLarge())
        else controller.enqueue(chunk)
      },
    }),
  )
  c.req.raw = new Request(c.req.raw, { body: capped, duplex: 'half' })
  await next()
})

function tooLarge(): ApiError {
  return new ApiError(
    'payload_too_large',
    `Without a credential the hub reads at most ${ANONYMOUS_BODY_BYTES} bytes of a body; send your token with the request.`,
    { limit: ANONYMOUS_BODY_BYTES },
  )
}
