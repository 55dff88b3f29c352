import { Hono } from 'hono'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openFreshStore } from '../../test/support/databases.js'
import { IN_PROCESS_CALLER, inProcessCaller, type InProcessEnv } from '../auth/caller.js'
import { renderError } from '../errors/index.js'
import type { HubEnv, HubServices } from '../http/env.js'
import type { Store } from '../store/store.js'
import { rateLimit } from './middleware.js'
import { RateLimits } from './rate-limits.js'
import { readRateLimitSettings, type RateLimitSettings } from './settings.js'

const log = pino({ enabled: false })

/**
 * A small app behind the limiter: `x-user` stands for a valid PAT of that user id, `x-key` for
 * a valid API key of that org id, and the web app's in-process caller is taken as `authenticate`
 * takes it; `ran` counts the routes that ran.
 */
function appWith(rateLimits: RateLimits) {
  const ran: string[] = []
  const app = new Hono<HubEnv>()
  app.use('*', async function fakeAuthenticate(c, next) {
    c.set('requestId', 'req_test')
    c.set('log', log)
    c.set('hub', { rateLimits } as HubServices)
    // What requestContext sets: a request the app was handed in-process has no address.
    c.set('client', { address: 'unknown', local: false })
    const user = c.req.header('x-user')
    const key = c.req.header('x-key')
    const fromWeb = inProcessCaller(c)
    c.set(
      'caller',
      fromWeb !== undefined
        ? (fromWeb ?? undefined)
        : user
          ? { userId: user, handle: user, tokenId: 't', scopes: [], expiresAt: null }
          : undefined,
    )
    c.set('keyCaller', key ? { keyId: 'k', orgId: key, orgHandle: key } : undefined)
    await next()
  })
  app.use('/v1/*', rateLimit)
  app.get('/v1/user', (c) => (ran.push('user'), c.json({})))
  app.get('/v1/apis/:owner/:slug', (c) => (ran.push('api'), c.json({})))
  app.post('/v1/apis/:owner/:slug/refetch', (c) => (ran.push('refetch'), c.json({})))
  app.onError(renderError)
  app.notFound((c) => c.json({ code: 'not_found' }, 404))
  return { app, ran }
}

/** What the web app passes when it calls /v1 in-process for a page of `userId` (null: signed out). */
function fromPage(userId: string | null): InProcessEnv {
  const caller = userId
    ? { userId, handle: userId, tokenId: 'ses_1', scopes: [], expiresAt: null }
    : null
  return { [IN_PROCESS_CALLER]: caller }
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

  it("counts a page's actions like the same call with a PAT, and not the reads of a page", async () => {
    const { app, ran } = appWith(
      new RateLimits(
        settings('GET /v1/user=1/60,POST /v1/apis/{owner}/{slug}/refetch=2/60'),
        store,
        log,
      ),
    )
    const refetch = { method: 'POST' }
    const path = '/v1/apis/u1/shop/refetch'
    const byPat = () => app.request(path, { ...refetch, headers: { 'x-user': 'u1' } })
    const byPage = (user: string | null) => app.request(path, refetch, fromPage(user))

    // Reads that render a page are not counted, and carry no headers.
    for (let i = 0; i < 3; i++) {
      const read = await app.request('/v1/user', {}, fromPage('u1'))
      expect(read.status).toBe(200)
      expect(read.headers.get('ratelimit-limit')).toBeNull()
    }
    // The budget spent with a PAT refuses the page's action, and the other way round.
    expect((await byPat()).status).toBe(200)
    const onPage = await byPage('u1')
    expect(onPage.headers.get('ratelimit-remaining')).toBe('0')
    const refused = await byPage('u1')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await byPat()).status).toBe(429)
    expect(ran.filter((r) => r === 'refetch')).toHaveLength(2)

    const other = '/v1/apis/u2/shop/refetch'
    for (let i = 0; i < 2; i++) {
      expect((await app.request(other, refetch, fromPage('u2'))).status).toBe(200)
    }
    const viaApi = await app.request(other, { ...refetch, headers: { 'x-user': 'u2' } })
    expect(viaApi.status).toBe(429)

    // Signed out, a page's call has nobody to count against (the route refuses it anyway).
    expect((await byPage(null)).headers.get('ratelimit-limit')).toBeNull()
  })

  it("a page's action gets the organisation's override, as with a PAT", async () => {
    const alice = await store.accounts.create('alice', 'user')
    const acme = await store.accounts.create('acme', 'org')
    await store.accounts.setRole(acme.id, alice.id, 'writer')
    const route = {
      method: 'POST',
      path: '/v1/apis/{owner}/{slug}/refetch',
      max: 1,
      windowSeconds: 30,
    }
    await store.rateLimits.set(acme.id, route)
    const { app } = appWith(new RateLimits(settings(''), store, log))
    const first = await app.request(
      '/v1/apis/acme/shop/refetch',
      { method: 'POST' },
      fromPage(alice.id),
    )
    expect(first.status).toBe(200)
    expect(first.headers.get('ratelimit-policy')).toBe('1;w=30')
    const second = await app.request(
      '/v1/apis/acme/shop/refetch',
      { method: 'POST' },
      fromPage(alice.id),
    )
    expect(second.status).toBe(429)
  })
})
