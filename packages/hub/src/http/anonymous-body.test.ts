import { Hono } from 'hono'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { renderError } from '../errors/index.js'
import { capAnonymousBody } from './anonymous-body.js'
import type { HubEnv } from './env.js'
import { readLimitedBody } from './limited-body.js'
import { ANONYMOUS_BODY_BYTES } from './request-body.js'

/** A route that reads whole bodies up to 1 MiB, behind the cap; `x-user` stands for a valid PAT. */
function app() {
  const app = new Hono<HubEnv>()
  app.use('*', async function fakeAuthenticate(c, next) {
    c.set('requestId', 'req_test')
    c.set('log', pino({ enabled: false }))
    const user = c.req.header('x-user')
    c.set(
      'caller',
      user ? { userId: user, handle: user, tokenId: 't', scopes: [], expiresAt: null } : undefined,
    )
    c.set('keyCaller', undefined)
    await next()
  })
  app.use('*', capAnonymousBody)
  app.post('/read', async (c) => {
    const body = await readLimitedBody(c.req.raw, 1024 * 1024)
    return c.json({ bytes: body?.byteLength ?? 0 })
  })
  app.onError(renderError)
  return app
}

/** A body streamed without a declared length, as a chunked upload arrives. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(left, 16 * 1024)
      if (size === 0) return controller.close()
      left -= size
      controller.enqueue(new Uint8Array(size))
    },
  })
}

const post = (body: ReadableStream<Uint8Array> | Uint8Array, user?: string) =>
  app().request('/read', {
    method: 'POST',
    body,
    headers: user ? { 'x-user': user } : {},
    duplex: 'half',
  })

describe('capAnonymousBody', () => {
  it('lets a request without a credential send a body up to the anonymous limit', async () => {
    const answer = await post(streamed(ANONYMOUS_BODY_BYTES))
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ bytes: ANONYMOUS_BODY_BYTES })
  })

  it('fails reading past the limit without a credential: 422 payload_too_large', async () => {
    const answer = await post(streamed(ANONYMOUS_BODY_BYTES + 1))
    expect(answer.status).toBe(422)
    expect(await answer.json()).toMatchObject({
      code: 'payload_too_large',
      details: { limit: ANONYMOUS_BODY_BYTES },
    })
  })

  it('leaves the bodies of authenticated callers to the route limits', async () => {
    const answer = await post(streamed(512 * 1024), 'u1')
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ bytes: 512 * 1024 })
  })
})
