import { Hono } from 'hono'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openFreshStore } from '../../test/support/databases.js'
import { renderError } from '../errors/index.js'
import type { HubEnv, HubServices } from '../http/env.js'
import type { Store } from '../store/store.js'
import { rateLimit } from './middleware.js'
import { RateLimits } from './rate-limits.js'
import { readRateLimitSettings, type RateLimitSettings } from './settings.js'

const log = pino({ enabled: false })

/**
 * A small app behind the limiter: `x-user` stands for a valid PAT of that user id, `x-key` for
 * a valid API key of that org id (what `authenticate` sets); `ran` counts the routes that ran.
 */
function appWith(rateLimits: RateLimits) {
  const ran: string[] = []
  const app = new Hono<HubEnv>()
  app.use('*', async function fakeAuthenticate(c, next) {
    c.set('requestId', 'req_test')
    c.set('log', log)
    c.set('hub', { rateLimits } as HubServices)
    const user = c.req.header('x-user')
    const key = c.req.header('x-key')
    c.set(
      'caller',
      user ? { userId: user, handle: user, tokenId: 't', scopes: [], expiresAt: null } : undefined,
    )
    c.set('keyCaller', key ? { keyId: 'k', orgId: key, orgHandle: key } : undefined)
    await next()
  })
  app.use('/v1/*', rateLimit)
  app.get('/v1/user', (c) => (ran.push('user'), c.json({})))
  app.get('/v1/apis/:owner/:slug', (c) => (ran.push('api'), c.json({})))
  app.onError(renderError)
  app.notFound((c) => c.json({ code: 'not_found' }, 404))
  return { app, ran }
}

function settings(rows: string): RateLimitSettings {
  const read = readRateLimitSettings(rows, 0)
  if (typeof read === 'string') throw new Error(read)
  return read
}

describe('the rate-limit middleware', () => {
  let store: Store
  let cleanup: () => Promise<void>

  beforeEach(async () => {
    ;({ store, cleanup } = await openFreshStore('sqlite'))
  })
  afterEach(() => cleanup())

  it('answers the call over the limit with 429 and does not run the route', async () => {
    const { app, ran } = appWith(new RateLimits(settings('GET /v1/user=3/60'), store, log))
    const replies = []
    for (let i = 0; i < 4; i++)
      replies.push(await app.request('/v1/user', { headers: { 'x-user': 'u1' } }))
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429])
    expect(replies.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0'])
    expect(ran).toEqual(['user', 'user', 'user'])
    const refused = replies[3]!
    expect(refused.headers.get('ratelimit-limit')).toBe('3')
    expect(refused.headers.get('ratelimit-policy')).toBe('3;w=60')
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(refused.headers.get('ratelimit-reset')).toBe(String(retryAfter))
    expect(await refused.json()).toMatchObject({
      code: 'rate_limited',
      details: { method: 'GET', path: '/v1/user', limit: 3, windowSeconds: 60, retryAfter },
    })

    // Another caller, and another route of the same caller, have counts of their own; HEAD is GET.
    expect((await app.request('/v1/user', { headers: { 'x-user': 'u2' } })).status).toBe(200)
    expect((await app.request('/v1/apis/a/b', { headers: { 'x-user': 'u1' } })).status).toBe(200)
    const head = await app.request('/v1/user', { method: 'HEAD', headers: { 'x-user': 'u2' } })
    expect(head.headers.get('ratelimit-remaining')).toBe('1')
  })

  it('does not count a path no route matches, and sends no headers for it', async () => {
    const { app } = appWith(new RateLimits(settings('GET /v1/user=2/60'), store, log))
    for (const path of ['/v1/nope', '/v1/user/x', '/v1/apis/a']) {
      const reply = await app.request(path, { headers: { 'x-user': 'u1' } })
      expect(reply.status).toBe(404)
      expect(reply.headers.get('ratelimit-limit')).toBeNull()
    }
    const post = await app.request('/v1/user', { method: 'POST', headers: { 'x-user': 'u1' } })
    expect(post.status).toBe(404)
    const reply = await app.request('/v1/user', { headers: { 'x-user': 'u1' } })
    expect(reply.headers.get('ratelimit-remaining')).toBe('1')
  })

  it('an API key counts against its organisation, with its overrides', async () => {
    const acme = await store.accounts.create('acme', 'org')
    await store.rateLimits.set(acme.id, {
      method: 'GET',
      path: '/v1/user',
      max: 2,
      windowSeconds: 30,
    })
    const { app } = appWith(new RateLimits(settings(''), store, log))
    const statuses = []
    for (let i = 0; i < 3; i++) {
      const reply = await app.request('/v1/user', { headers: { 'x-key': acme.id } })
      statuses.push(reply.status)
      expect(reply.headers.get('ratelimit-policy')).toBe('2;w=30')
    }
    expect(statuses).toEqual([200, 200, 429])
    // Without a credential the caller is the client address, with the defaults.
    const anonymous = await app.request('/v1/user')
    expect(anonymous.headers.get('ratelimit-limit')).toBe('600')
  })

  it("a PAT user gets an org's override on a path naming that org, when a member", async () => {
    const alice = await store.accounts.create('alice', 'user')
    const bob = await store.accounts.create('bob', 'user')
    const acme = await store.accounts.create('acme', 'org')
    await store.accounts.setRole(acme.id, alice.id, 'reader')
    const route = { method: 'GET', path: '/v1/apis/{owner}/{slug}', max: 7, windowSeconds: 60 }
    await store.rateLimits.set(acme.id, route)
    const { app } = appWith(new RateLimits(settings(''), store, log))
    const limitOf = async (path: string, user: string) =>
      (await app.request(path, { headers: { 'x-user': user } })).headers.get('ratelimit-limit')

    expect(await limitOf('/v1/apis/acme/billing', alice.id)).toBe('7')
    expect(await limitOf('/v1/apis/acme/billing', bob.id)).toBe('600')
    expect(await limitOf('/v1/apis/alice/billing', alice.id)).toBe('600')
    expect(await limitOf('/v1/user', alice.id)).toBe('600')
  })

  it('with SVC_HUB_RATE_LIMITS=off nothing is counted', async () => {
    const { app, ran } = appWith(new RateLimits(settings('off'), store, log))
    for (let i = 0; i < 3; i++) {
      const reply = await app.request('/v1/user', { headers: { 'x-user': 'u1' } })
      expect(reply.status).toBe(200)
      expect(reply.headers.get('ratelimit-limit')).toBeNull()
    }
    expect(ran).toHaveLength(3)
  })
})
