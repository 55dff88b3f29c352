import {
  CONTENT_TYPE,
  REVISION_EVENT,
  SIGNATURE_HEADER,
  TEST_EVENT,
  USER_AGENT,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '@svc/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { oasYaml } from './support/documents.js'
import { seedPeople, seedTokens, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { startReceiver, type Answer, type Received, type Receiver } from './support/receiver.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

/** The hub's `{base_url}`: the `source` of its events and the origin of the URLs in them. */
const PUBLIC_URL = 'https://hub.example.com'
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/
const SIGNATURE = /^t=\d+,v1=[0-9a-f]{64}$/

type Hook = {
  id: string
  url: string
  secret: string
  description: string | null
  active: boolean
  minLevel: 'breaking' | 'warning' | 'info'
  createdAt: string
  updatedAt: string
  secretRotatedAt: string | null
  /** The receiver the webhook points at, and the path it posts to there. */
  receiver: Receiver
  path: string
}

type Init = {
  token?: string | undefined
  json?: unknown
  headers?: RequestInit['headers']
  body?: RequestInit['body']
}

/**
 * The webhook management API (docs/api/webhooks.md) against the real `svc-hub serve` and real
 * loopback receivers, admitted by `SVC_HUB_ALLOW_PRIVATE_NETWORKS` (their exact origins).
 */
describe.each(await storeKinds())('webhook management API (%s)', (kind) => {
  let hub: HubProcess
  let people: People
  /** PATs with `admin:webhooks` (unless named otherwise) for alice, walt, rita and nora. */
  let tokens: Record<'alice' | 'walt' | 'rita' | 'nora' | 'aliceApis', string>
  let first: Receiver
  let second: Receiver
  /** A loopback receiver the allow-list does not admit: nothing may ever connect to it. */
  let outsider: Receiver

  /** How each receiver path answers its n-th request (from 0); 204 when not set. */
  const answers = new Map<string, (n: number) => Answer>()
  const seen = new Map<string, number>()
  const answer = (request: Received): Answer => {
    const n = seen.get(request.path) ?? 0
    seen.set(request.path, n + 1)
    return answers.get(request.path)?.(n) ?? { status: 204 }
  }

  /** Every answer of the hub in this file, to search for secrets. */
  const replies: { what: string; reply: Reply }[] = []
  /** Every secret the hub handed out. */
  const secrets = new Set<string>()

  const v1 = (path: string) => `${hub.url}/v1${path}`
  const send = async (method: string, path: string, init: Init = {}): Promise<Reply> => {
    const reply = await call(v1(path), { method, ...init })
    replies.push({ what: `${method} ${path}`, reply })
    return reply
  }
  const expectError = (reply: Reply, status: number, code: string, what = '') => {
    expect(reply.status, `${what} ${reply.text}`).toBe(status)
    expect(reply.body?.code, `${what} ${reply.text}`).toBe(code)
  }

  let apiCount = 0
  let pathCount = 0
  /** A new API of acme; with its first revision unless told (a first revision sends nothing). */
  async function newApi(
    options: { visibility?: 'public' | 'private'; firstRevision?: boolean } = {},
  ): Promise<string> {
    const slug = `hooks-${++apiCount}`
    const created = await send('POST', '/apis', {
      token: people.alice,
      json: {
        owner: 'acme',
        slug,
        name: `Hooks ${apiCount}`,
        visibility: options.visibility ?? 'private',
      },
    })
    expect(created.status, created.text).toBe(201)
    if (options.firstRevision ?? true)
      expect((await push(`acme/${slug}`, ['get /pets'])).status).toBe(201)
    return `acme/${slug}`
  }
  const push = (api: string, operations: string[], title = 'Pets', query = '') =>
    pushYaml(api, oasYaml(operations, title), query)
  const pushYaml = (api: string, yaml: string, query = '') =>
    send('POST', `/apis/${api}/revisions${query}`, {
      token: people.alice,
      headers: { 'content-type': 'application/yaml' },
      body: yaml,
    })

  /** A new path on a receiver, for one webhook: what arrives there is that webhook's. */
  const newTarget = (receiver = first) => {
    const path = `/hook/${++pathCount}`
    return { receiver, path, url: `${receiver.origin}${path}` }
  }
  async function createHook(
    api: string,
    options: {
      receiver?: Receiver
      active?: boolean
      description?: string
      minLevel?: Hook['minLevel']
      token?: string
    } = {},
  ): Promise<Hook> {
    const target = newTarget(options.receiver)
    const reply = await send('POST', `/apis/${api}/webhooks`, {
      token: options.token ?? tokens.alice,
      json: {
        url: target.url,
        ...(options.active === undefined ? {} : { active: options.active }),
        ...(options.description === undefined ? {} : { description: options.description }),
        ...(options.minLevel === undefined ? {} : { minLevel: options.minLevel }),
      },
    })
    expect(reply.status, reply.text).toBe(201)
    secrets.add(reply.body.secret)
    return { ...reply.body, receiver: target.receiver, path: target.path }
  }
  const requestsOf = (hook: Pick<Hook, 'receiver' | 'path'>) =>
    hook.receiver.received.filter((r) => r.path === hook.path)
  const waitForRequests = (hook: Hook, count: number) =>
    eventually(
      () => {
        const got = requestsOf(hook)
        return got.length >= count ? got : undefined
      },
      () => `${count} requests at ${hook.path}; got ${requestsOf(hook).length}`,
    )

  async function sendTest(api: string, hook: Hook, token = tokens.alice) {
    const reply = await send('POST', `/apis/${api}/webhooks/${hook.id}/test`, { token })
    expect(reply.status, reply.text).toBe(202)
    return reply.body
  }
  /** Reads the delivery until `done` holds for it. */
  const deliveryWhen = (api: string, hook: Hook, id: string, done: (d: any) => boolean) =>
    eventually(async () => {
      const reply = await send('GET', `/apis/${api}/webhooks/${hook.id}/deliveries/${id}`, {
        token: tokens.alice,
      })
      expect(reply.status, reply.text).toBe(200)
      return done(reply.body) ? reply.body : undefined
    }, `delivery ${id} to reach the state asked for`)
  const finished = (d: any) => d.state !== 'pending'

  /** Checks a request the hub sent: headers, signature (with `secret`), envelope. */
  function verified(request: Received, secret: string): WebhookEvent {
    expect(request.method).toBe('POST')
    expect(request.headers['content-type']).toBe(CONTENT_TYPE)
    expect(request.headers['user-agent']).toBe(USER_AGENT)
    expect(request.headers[SIGNATURE_HEADER]).toMatch(SIGNATURE)
    return verifyWebhook(request.body, request.headers[SIGNATURE_HEADER], secret)
  }

  beforeAll(async () => {
    first = await startReceiver(answer)
    second = await startReceiver(answer)
    outsider = await startReceiver()
    hub = await startHub(kind, {
      env: {
        // These tests send more requests per minute than the default rate limits allow.
        SVC_HUB_RATE_LIMITS: 'off',
        SVC_HUB_ALLOW_PRIVATE_NETWORKS: `${first.origin},${second.origin}`,
        SVC_HUB_PUBLIC_URL: PUBLIC_URL,
      },
    })
    people = await seedPeople(hub)
    tokens = await seedTokens(hub, {
      alice: ['alice', 'admin:webhooks,write:apis'],
      walt: ['walt', 'admin:webhooks'],
      rita: ['rita', 'admin:webhooks,read'],
      nora: ['nora', 'admin:webhooks,read,write:apis'],
      aliceApis: ['alice', 'write:apis'],
    })
  })
  afterAll(async () => {
    await hub?.dispose()
    await Promise.all([first?.close(), second?.close(), outsider?.close()])
  })

  it('creates a webhook: 201, Location, the secret once with no-store; get answers it without the secret', async () => {
    const api = await newApi()
    const target = newTarget()
    const reply = await send('POST', `/apis/${api}/webhooks`, {
      token: tokens.alice,
      json: { url: target.url, description: 'Regenerate the SDK' },
    })
    expect(reply.status, reply.text).toBe(201)
    secrets.add(reply.body.secret)
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-f]{24}$/),
      url: target.url,
      description: 'Regenerate the SDK',
      active: true,
      minLevel: 'info',
      profile: null,
      createdAt: expect.any(String),
      updatedAt: reply.body.createdAt,
      secretRotatedAt: null,
      secret: expect.stringMatching(SECRET),
    })
    expect(Date.parse(reply.body.createdAt)).toBeGreaterThan(Date.now() - 60_000)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(reply.headers.get('location')).toBe(
      `${PUBLIC_URL}/v1/apis/${api}/webhooks/${reply.body.id}`,
    )

    const { secret: _secret, ...record } = reply.body
    const read = await send('GET', `/apis/${api}/webhooks/${reply.body.id}`, {
      token: tokens.alice,
    })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(record)
    expect(read.text).not.toContain('whsec_')
    const located = await call(reply.headers.get('location')!.replace(PUBLIC_URL, hub.url), {
      token: tokens.alice,
    })
    expect(located.body).toEqual(record)
    // The Location names the webhook whatever the request URL carried.
    const queried = await send('POST', `/apis/${api}/webhooks?x=1`, {
      token: tokens.alice,
      json: { url: newTarget().url },
    })
    expect(queried.status).toBe(201)
    secrets.add(queried.body.secret)
    expect(queried.headers.get('location')).toBe(
      `${PUBLIC_URL}/v1/apis/${api}/webhooks/${queried.body.id}`,
    )
    // Secrets are random: never the same twice.
    expect(queried.body.secret).not.toBe(reply.body.secret)
  })

  it('creates a switched-off webhook, and takes a url of 2,048 and a description of 500 characters', async () => {
    const api = await newApi()
    const off = await createHook(api, { active: false })
    expect(off.active).toBe(false)
    const url = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`
    const long = await send('POST', `/apis/${api}/webhooks`, {
      token: tokens.alice,
      json: { url, description: 'd'.repeat(500) },
    })
    expect(long.status, long.text).toBe(201)
    secrets.add(long.body.secret)
    expect(long.body).toMatchObject({ url, description: 'd'.repeat(500), active: true })
  })

  it('lists the webhooks oldest first, a page at a time, never with a secret', async () => {
    const api = await newApi()
    const hooks: Hook[] = []
    for (let i = 0; i < 5; i++) hooks.push(await createHook(api, { description: `hook ${i}` }))
    const all = await send('GET', `/apis/${api}/webhooks`, { token: tokens.alice })
    expect(all.status).toBe(200)
    expect(all.body.nextCursor).toBeNull()
    expect(all.body.webhooks.map((w: Hook) => w.id)).toEqual(hooks.map((h) => h.id))
    expect(all.text).not.toContain('whsec_')
    for (const listed of all.body.webhooks) {
      const hook = hooks.find((h) => h.id === listed.id)!
      const { secret: _s, receiver: _r, path: _p, ...record } = hook
      expect(listed).toEqual(record)
    }

    const paged: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const reply = await send('GET', `/apis/${api}/webhooks${query}`, { token: tokens.alice })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.webhooks.length).toBeLessThanOrEqual(2)
      expect(reply.text).not.toContain('whsec_')
      paged.push(...reply.body.webhooks.map((w: Hook) => w.id))
      cursor = reply.body.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(paged).toEqual(hooks.map((h) => h.id))

    // Another API's list is its own.
    const other = await newApi()
    const empty = await send('GET', `/apis/${other}/webhooks`, { token: tokens.alice })
    expect(empty.body).toEqual({ webhooks: [], nextCursor: null })

    await expectStoreUnchanged(hub, async () => {
      for (const query of ['?limit=0', '?limit=101', '?limit=two', '?cursor=nonsense']) {
        const reply = await send('GET', `/apis/${api}/webhooks${query}`, { token: tokens.alice })
        expectError(reply, 422, 'invalid_request', query)
      }
    })
  })

  it('changes url, description and active; description null clears it', async () => {
    const api = await newApi()
    const hook = await createHook(api, { description: 'before' })
    const path = `/apis/${api}/webhooks/${hook.id}`
    const patch = async (json: unknown) => {
      const reply = await send('PATCH', path, { token: tokens.alice, json })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.text).not.toContain('whsec_')
      const read = await send('GET', path, { token: tokens.alice })
      expect(read.body).toEqual(reply.body)
      return reply.body
    }
    const moved = newTarget(second)
    expect(await patch({ url: moved.url })).toMatchObject({
      url: moved.url,
      description: 'before',
      active: true,
    })
    expect(await patch({ description: 'after' })).toMatchObject({
      url: moved.url,
      description: 'after',
    })
    // Any text for people: other scripts, emoji, line breaks.
    const text = 'Régénérer le SDK 🚀\n\tétape 2 — 東京'
    expect(await patch({ description: text })).toMatchObject({ description: text })
    expect(await patch({ description: 'after' })).toMatchObject({ description: 'after' })
    expect(await patch({ active: false })).toMatchObject({ active: false, description: 'after' })
    const cleared = await patch({ description: null, active: true })
    expect(cleared).toEqual({
      id: hook.id,
      url: moved.url,
      description: null,
      active: true,
      minLevel: 'info',
      profile: null,
      createdAt: hook.createdAt,
      updatedAt: expect.any(String),
      secretRotatedAt: null,
    })
    expect(cleared.updatedAt >= hook.updatedAt).toBe(true)
    // An empty patch changes nothing it names.
    expect(await patch({})).toMatchObject({ url: moved.url, description: null, active: true })

    // The new url is where the next event goes; the old one gets nothing.
    const delivery = await sendTest(api, hook)
    const moveTo = { ...hook, receiver: second, path: moved.path }
    const [request] = await waitForRequests(moveTo, 1)
    expect(verified(request!, hook.secret).id).toBe(delivery.eventId)
    await deliveryWhen(api, hook, delivery.id, finished)
    expect(requestsOf(hook)).toHaveLength(0)
  })

  it('takes a minimum level on create and on patch, and answers it in every read', async () => {
    const api = await newApi()
    const hook = await createHook(api, { minLevel: 'breaking' })
    expect(hook.minLevel).toBe('breaking')
    const path = `/apis/${api}/webhooks/${hook.id}`
    const read = async () => (await send('GET', path, { token: tokens.alice })).body
    expect(await read()).toMatchObject({ id: hook.id, minLevel: 'breaking' })
    const listed = await send('GET', `/apis/${api}/webhooks`, { token: tokens.alice })
    expect(listed.body.webhooks.map((w: Hook) => [w.id, w.minLevel])).toEqual([
      [hook.id, 'breaking'],
    ])
    for (const minLevel of ['warning', 'info', 'breaking'] as const) {
      const patched = await send('PATCH', path, { token: tokens.alice, json: { minLevel } })
      expect(patched.status, patched.text).toBe(200)
      expect(patched.body).toMatchObject({ minLevel, url: hook.url, active: true })
      expect(await read()).toEqual(patched.body)
    }
    // A patch that does not name it keeps it.
    const other = await send('PATCH', path, {
      token: tokens.alice,
      json: { active: false, description: 'breaking changes only' },
    })
    expect(other.body).toMatchObject({ minLevel: 'breaking', active: false })
  })

  it('sends a signed test event: 202 with a pending delivery, then the receiver gets it and the attempt is logged', async () => {
    const api = await newApi()
    const hook = await createHook(api)
    const queued = await sendTest(api, hook)
    expect(queued).toMatchObject({
      id: expect.stringMatching(/^dlv_[0-9a-f]{24}$/),
      webhookId: hook.id,
      eventId: expect.stringMatching(/^evt_/),
      eventType: TEST_EVENT,
      state: 'pending',
      attemptCount: 0,
      attempts: [],
      completedAt: null,
    })

    const [request] = await waitForRequests(hook, 1)
    const event = verified(request!, hook.secret)
    const apiRecord = (await send('GET', `/apis/${api}`, { token: tokens.alice })).body
    const slug = api.split('/')[1]
    expect(event).toEqual({
      specversion: '1.0',
      id: queued.eventId,
      source: PUBLIC_URL,
      subject: api,
      time: queued.createdAt,
      datacontenttype: 'application/json',
      type: TEST_EVENT,
      data: {
        test: true,
        api: {
          id: apiRecord.id,
          owner: 'acme',
          slug,
          name: apiRecord.name,
          url: `${PUBLIC_URL}/acme/apis/${slug}`,
        },
        message: expect.stringContaining('alice'),
      },
    })
    // The delivery keeps the event as sent, byte for byte.
    expect(queued.event).toEqual(JSON.parse(request!.body))

    const done = await deliveryWhen(api, hook, queued.id, (d) => d.attempts.length > 0)
    expect(done).toMatchObject({
      state: 'succeeded',
      attemptCount: 1,
      lastStatus: 204,
      lastError: null,
      nextAttemptAt: null,
      completedAt: expect.any(String),
    })
    expect(done.attempts).toEqual([
      {
        number: 1,
        trigger: 'scheduled',
        url: hook.url,
        redirects: [],
        startedAt: expect.any(String),
        durationMs: expect.any(Number),
        outcome: 'succeeded',
        status: 204,
        error: null,
        responseExcerpt: null,
        nextAttemptAt: null,
      },
    ])
    const listed = await send('GET', `/apis/${api}/webhooks/${hook.id}/deliveries`, {
      token: tokens.alice,
    })
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({ deliveries: [done], nextCursor: null })
    expect(listed.text).not.toContain('whsec_')
  })

  it('lists deliveries newest first, a page at a time, and by state', async () => {
    const api = await newApi()
    const hook = await createHook(api)
    answers.set(hook.path, (n) => (n === 1 ? { status: 410 } : { status: 204 }))
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const queued = await sendTest(api, hook)
      await deliveryWhen(api, hook, queued.id, finished)
      ids.push(queued.id)
    }
    const list = (query = '') =>
      send('GET', `/apis/${api}/webhooks/${hook.id}/deliveries${query}`, { token: tokens.alice })
    const all = await list()
    expect(all.body.deliveries.map((d: any) => d.id)).toEqual([...ids].reverse())
    expect(all.body.deliveries.map((d: any) => d.state)).toEqual([
      'succeeded',
      'failed',
      'succeeded',
    ])
    const failed = await list('?state=failed')
    expect(failed.body.deliveries.map((d: any) => d.id)).toEqual([ids[1]])
    expect(failed.body.deliveries[0].attempts).toMatchObject([{ outcome: 'failed', status: 410 }])
    expect((await list('?state=pending')).body.deliveries).toEqual([])

    const page1 = await list('?limit=2')
    expect(page1.body.deliveries.map((d: any) => d.id)).toEqual([ids[2], ids[1]])
    const page2 = await list(`?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`)
    expect(page2.body).toMatchObject({ deliveries: [{ id: ids[0] }], nextCursor: null })

    await expectStoreUnchanged(hub, async () => {
      for (const query of ['?state=done', '?limit=0', '?cursor=x', '?limit=1000']) {
        expectError(await list(query), 422, 'invalid_request', query)
      }
    })
  })

  it('rotates the secret: a new one, secretRotatedAt set, and only the new one signs from then on', async () => {
    const api = await newApi()
    const hook = await createHook(api)
    const reply = await send('POST', `/apis/${api}/webhooks/${hook.id}/rotate-secret`, {
      token: tokens.alice,
    })
    expect(reply.status, reply.text).toBe(200)
    secrets.add(reply.body.secret)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(reply.body).toEqual({
      id: hook.id,
      url: hook.url,
      description: null,
      active: true,
      minLevel: 'info',
      profile: null,
      createdAt: hook.createdAt,
      updatedAt: reply.body.secretRotatedAt,
      secretRotatedAt: expect.any(String),
      secret: expect.stringMatching(SECRET),
    })
    expect(reply.body.secret).not.toBe(hook.secret)
    const read = await send('GET', `/apis/${api}/webhooks/${hook.id}`, { token: tokens.alice })
    expect(read.body.secretRotatedAt).toBe(reply.body.secretRotatedAt)
    expect(read.text).not.toContain('whsec_')

    await sendTest(api, hook)
    const [request] = await waitForRequests(hook, 1)
    expect(verified(request!, reply.body.secret).type).toBe(TEST_EVENT)
    expect(() => verified(request!, hook.secret)).toThrow(WebhookVerificationError)
  })

  it('retries: a pending delivery is 409 delivery_pending; a succeeded one is sent again with the same event id', async () => {
    const api = await newApi()
    // Pending for an hour after its first attempt.
    const waiting = await createHook(api)
    answers.set(waiting.path, () => ({ status: 503, headers: { 'retry-after': '3600' } }))
    const queued = await sendTest(api, waiting)
    const retrying = await deliveryWhen(api, waiting, queued.id, (d) => d.attemptCount === 1)
    expect(retrying).toMatchObject({ state: 'pending', lastStatus: 503 })
    expect(retrying.attempts).toMatchObject([{ outcome: 'retry', status: 503 }])
    expect(Date.parse(retrying.nextAttemptAt)).toBeGreaterThan(Date.now() + 30 * 60_000)
    await expectStoreUnchanged(hub, async () => {
      const reply = await send(
        'POST',
        `/apis/${api}/webhooks/${waiting.id}/deliveries/${queued.id}/retry`,
        { token: tokens.alice },
      )
      expectError(reply, 409, 'delivery_pending')
      expect(reply.body.details).toEqual({ nextAttemptAt: retrying.nextAttemptAt })
    })

    const hook = await createHook(api)
    const test = await sendTest(api, hook)
    const succeeded = await deliveryWhen(api, hook, test.id, finished)
    expect(succeeded.state).toBe('succeeded')
    const retried = await send(
      'POST',
      `/apis/${api}/webhooks/${hook.id}/deliveries/${test.id}/retry`,
      { token: tokens.alice },
    )
    expect(retried.status, retried.text).toBe(202)
    expect(retried.body).toMatchObject({
      id: test.id,
      eventId: test.eventId,
      state: 'pending',
      completedAt: null,
    })
    const [one, two] = await waitForRequests(hook, 2)
    expect(verified(two!, hook.secret).id).toBe(verified(one!, hook.secret).id)
    expect(two!.body).toBe(one!.body)
    const again = await deliveryWhen(api, hook, test.id, (d) => d.attemptCount === 2 && finished(d))
    expect(again.state).toBe('succeeded')
    expect(again.attempts.map((a: any) => [a.number, a.trigger, a.outcome])).toEqual([
      [1, 'scheduled', 'succeeded'],
      [2, 'manual', 'succeeded'],
    ])
  })

  it('recovers failed deliveries created since a time: they are sent again and delivered', async () => {
    const api = await newApi()
    const hook = await createHook(api)
    answers.set(hook.path, (n) =>
      n === 0 ? { status: 404, body: 'no such hook' } : { status: 200 },
    )
    const queued = await sendTest(api, hook)
    const failed = await deliveryWhen(api, hook, queued.id, finished)
    expect(failed).toMatchObject({ state: 'failed', lastStatus: 404, nextAttemptAt: null })
    expect(failed.attempts).toMatchObject([
      { outcome: 'failed', status: 404, responseExcerpt: 'no such hook' },
    ])

    const recover = (query: string) =>
      send('POST', `/apis/${api}/webhooks/${hook.id}/recover${query}`, { token: tokens.alice })
    const created = Date.parse(failed.createdAt)
    await expectStoreUnchanged(hub, async () => {
      // Created before `since`: not recovered.
      const later = new Date(created + 1).toISOString()
      const none = await recover(`?since=${later}`)
      expect(none.status, none.text).toBe(202)
      expect(none.body).toEqual({ recovered: 0, since: later, until: expect.any(String) })
      // Created at `until`: not recovered either ([since, until)).
      const before = new Date(created - 60_000).toISOString()
      const upTo = await recover(`?since=${before}&until=${failed.createdAt}`)
      expect(upTo.body).toMatchObject({ recovered: 0 })
      // `since` not before `until`, or no date at all.
      for (const query of [
        `?since=${failed.createdAt}&until=${failed.createdAt}`,
        `?since=${later}&until=${failed.createdAt}`,
        `?since=${new Date(Date.now() + 3_600_000).toISOString()}`,
        '',
        '?since=yesterday',
        '?since=2026-13-01T00:00:00Z',
        `?since=${before}&until=soon`,
      ]) {
        expectError(await recover(query), 422, 'invalid_request', query)
      }
    })

    const recovered = await recover(`?since=${failed.createdAt}`)
    expect(recovered.status, recovered.text).toBe(202)
    expect(recovered.body).toEqual({
      recovered: 1,
      since: failed.createdAt,
      until: expect.any(String),
    })
    const [one, two] = await waitForRequests(hook, 2)
    expect(verified(two!, hook.secret).id).toBe(verified(one!, hook.secret).id)
    const delivered = await deliveryWhen(api, hook, queued.id, (d) => d.state === 'succeeded')
    expect(delivered.attempts.map((a: any) => [a.trigger, a.outcome, a.status])).toEqual([
      ['scheduled', 'failed', 404],
      ['manual', 'succeeded', 200],
    ])
    // Nothing failed is left.
    expect((await recover(`?since=${failed.createdAt}`)).body.recovered).toBe(0)
  })

  it('refuses a test event for a switched-off webhook with 409 webhook_inactive', async () => {
    const api = await newApi()
    const hook = await createHook(api, { active: false })
    await expectStoreUnchanged(hub, async () => {
      const reply = await send('POST', `/apis/${api}/webhooks/${hook.id}/test`, {
        token: tokens.alice,
      })
      expectError(reply, 409, 'webhook_inactive')
    })
    const list = await send('GET', `/apis/${api}/webhooks/${hook.id}/deliveries`, {
      token: tokens.alice,
    })
    expect(list.body.deliveries).toEqual([])
  })

  it('deletes a webhook: 204, then 404 for it, and its deliveries and attempts are gone', async () => {
    const api = await newApi()
    const hook = await createHook(api)
    const kept = await createHook(api)
    const queued = await sendTest(api, hook)
    await deliveryWhen(api, hook, queued.id, finished)
    const path = `/apis/${api}/webhooks/${hook.id}`
    const deleted = await send('DELETE', path, { token: tokens.alice })
    expect(deleted.status, deleted.text).toBe(204)
    expect(deleted.text).toBe('')
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
      ['GET', `/deliveries/${queued.id}`],
      ['POST', `/deliveries/${queued.id}/retry`],
      ['POST', `/recover?since=2020-01-01T00:00:00Z`],
    ] as const) {
      const reply = await send(method, `${path}${suffix}`, {
        token: tokens.alice,
        ...(method === 'PATCH' ? { json: { description: 'x' } } : {}),
      })
      expectError(reply, 404, 'not_found', `${method} ${suffix}`)
    }
    const list = await send('GET', `/apis/${api}/webhooks`, { token: tokens.alice })
    expect(list.body.webhooks.map((w: Hook) => w.id)).toEqual([kept.id])

    const store = await hub.openStore()
    try {
      const deliveries = await store.kysely
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', hook.id)
        .execute()
      const attempts = await store.kysely
        .selectFrom('webhook_attempts')
        .select('delivery_id')
        .where('delivery_id', '=', queued.id)
        .execute()
      expect({ deliveries, attempts }).toEqual({ deliveries: [], attempts: [] })
    } finally {
      await store.close()
    }
  })

  describe('revision events', () => {
    it('a push with a change reaches every active webhook once; the first revision, an identical document and a change of nothing send nothing', async () => {
      const api = await newApi({ firstRevision: false })
      const slug = api.split('/')[1]!
      const one = await createHook(api, { receiver: first })
      const two = await createHook(api, { receiver: second })
      const off = await createHook(api, { receiver: first, active: false })

      // The API's first revision: nothing to compare it with.
      const initial = await push(api, ['get /pets'])
      expect(initial.status, initial.text).toBe(201)
      expect(initial.body).toMatchObject({ created: true, webhookDeliveries: 0 })
      // Byte-identical: no revision.
      const same = await push(api, ['get /pets'])
      expect(same.status, same.text).toBe(200)
      expect(same.body).toMatchObject({ created: false, webhookDeliveries: 0 })
      // Only the YAML differs (the title is quoted), not what it says: a revision without a change.
      const requoted = await push(api, ['get /pets'], "'Pets'")
      expect(requoted.status, requoted.text).toBe(201)
      expect(requoted.body).toMatchObject({
        created: true,
        summary: { diff: false, details: {} },
        counts: { breaking: 0, warning: 0, info: 0 },
        webhookDeliveries: 0,
      })
      // Proof that nothing was queued: a test event sent now is all each webhook ever gets.
      for (const hook of [one, two]) {
        const queued = await sendTest(api, hook)
        await deliveryWhen(api, hook, queued.id, finished)
        expect(requestsOf(hook).map((r) => verified(r, hook.secret).type)).toEqual([TEST_EVENT])
        const list = await send('GET', `/apis/${api}/webhooks/${hook.id}/deliveries`, {
          token: tokens.alice,
        })
        expect(list.body.deliveries.map((d: any) => d.id)).toEqual([queued.id])
      }

      const before = new Date().toISOString()
      const changed = await push(
        api,
        ['get /pets', 'post /pets'],
        'Pets',
        '?version=2.0.0&publishedAt=2026-11-20T10:00:00Z',
      )
      const after = new Date().toISOString()
      expect(changed.status, changed.text).toBe(201)
      expect(changed.body).toMatchObject({
        created: true,
        summary: { diff: true },
        webhookDeliveries: 2,
      })
      expect(changed.body.counts.info).toBeGreaterThan(0)

      const apiRecord = (await send('GET', `/apis/${api}`, { token: tokens.alice })).body
      const revision = (r: any) => ({
        id: r.id,
        contentHash: r.contentHash,
        version: r.version,
        publishedAt: r.publishedAt,
        retrievedAt: r.retrievedAt,
        url: r.url,
      })
      const events: WebhookEvent[] = []
      for (const hook of [one, two]) {
        const requests = await waitForRequests(hook, 2)
        const event = verified(requests[1]!, hook.secret)
        events.push(event)
        expect(Object.keys(event).sort()).toEqual(
          [
            'data',
            'datacontenttype',
            'id',
            'source',
            'specversion',
            'subject',
            'time',
            'type',
          ].sort(),
        )
        expect(event).toMatchObject({
          specversion: '1.0',
          id: expect.stringMatching(/^evt_/),
          source: PUBLIC_URL,
          subject: api,
          datacontenttype: 'application/json',
          type: REVISION_EVENT,
        })
        expect(event.time >= before && event.time <= after, event.time).toBe(true)
        expect(event.data).toEqual({
          api: {
            id: apiRecord.id,
            owner: 'acme',
            slug,
            name: apiRecord.name,
            url: `${PUBLIC_URL}/acme/apis/${slug}`,
          },
          revision: revision(changed.body.revision),
          previousRevision: revision(requoted.body.revision),
          profile: 'wire',
          summary: changed.body.summary,
          counts: changed.body.counts,
          changesUrl: `${changed.body.revision.url}/changes`,
        })
        expect(Object.keys((event.data as any).counts).sort()).toEqual([
          'breaking',
          'info',
          'warning',
        ])
        expect(changed.body.revision).toMatchObject({
          version: '2.0.0',
          publishedAt: '2026-11-20T10:00:00Z',
          url: `${PUBLIC_URL}/acme/apis/${slug}/revisions/${changed.body.revision.id}`,
        })
        const list = await send('GET', `/apis/${api}/webhooks/${hook.id}/deliveries`, {
          token: tokens.alice,
        })
        expect(list.body.deliveries[0]).toMatchObject({
          eventType: REVISION_EVENT,
          eventId: event.id,
          event: JSON.parse(requests[1]!.body),
        })
      }
      // One event, one id, to both webhooks.
      expect(events[1]!.id).toBe(events[0]!.id)
      // The switched-off webhook got no delivery at all.
      const offList = await send('GET', `/apis/${api}/webhooks/${off.id}/deliveries`, {
        token: tokens.alice,
      })
      expect(offList.body.deliveries).toEqual([])
      expect(requestsOf(off)).toEqual([])
    })
  })

  describe('minimum levels', () => {
    /** The OpenAPI document of `operations` with `get /pets` renamed (an info change on the wire). */
    const renamedGet = (operations: string[]) =>
      oasYaml(operations).replace(/(\n {4}get:\n {6}operationId: )\S+/, '$1fetchPets')
    /** The API now asks every operation for an API key: a warning (it may always have done so). */
    const secured = (operations: string[]) =>
      `${oasYaml(operations)}security:\n  - key: []\ncomponents:\n  securitySchemes:\n    key: { type: apiKey, name: X-Key, in: header }\n`

    it('a webhook gets a revision event only when the revision has a change at its minimum level or above', async () => {
      const api = await newApi()
      const info = await createHook(api)
      const warning = await createHook(api, { minLevel: 'warning', receiver: second })
      const breaking = await createHook(api, { minLevel: 'breaking' })
      expect([info.minLevel, warning.minLevel, breaking.minLevel]).toEqual([
        'info',
        'warning',
        'breaking',
      ])
      const revisionIdsOf = async (hook: Hook) => {
        const list = await send('GET', `/apis/${api}/webhooks/${hook.id}/deliveries`, {
          token: tokens.alice,
        })
        expect(list.status, list.text).toBe(200)
        return list.body.deliveries
          .filter((d: any) => d.eventType === REVISION_EVENT)
          .map((d: any) => d.event.data.revision.id)
          .reverse()
      }

      // A test event ignores the level: it is what the owner asked for.
      const tested = await sendTest(api, breaking)
      await deliveryWhen(api, breaking, tested.id, finished)

      // An operation added: info only.
      const added = await push(api, ['get /pets', 'post /pets'])
      expect(added.status, added.text).toBe(201)
      expect(added.body.counts).toMatchObject({ breaking: 0, warning: 0 })
      expect(added.body.counts.info).toBeGreaterThan(0)
      expect(added.body.webhookDeliveries).toBe(1)

      // A document-level security added: a warning, no breaking change.
      const securedRevision = await pushYaml(api, secured(['get /pets', 'post /pets']))
      expect(securedRevision.status, securedRevision.text).toBe(201)
      expect(securedRevision.body.counts.breaking).toBe(0)
      expect(securedRevision.body.counts.warning).toBeGreaterThan(0)
      expect(securedRevision.body.webhookDeliveries).toBe(2)

      // An operation removed: breaking.
      const removed = await pushYaml(api, renamedGet(['get /pets']))
      expect(removed.status, removed.text).toBe(201)
      expect(removed.body.counts.breaking).toBeGreaterThan(0)
      expect(removed.body.webhookDeliveries).toBe(3)

      const ids = (...replies: Reply[]) => replies.map((r) => r.body.revision.id)
      expect(await revisionIdsOf(info)).toEqual(ids(added, securedRevision, removed))
      expect(await revisionIdsOf(warning)).toEqual(ids(securedRevision, removed))
      expect(await revisionIdsOf(breaking)).toEqual(ids(removed))

      // What arrives is the same event, byte for byte, whatever the level that let it through.
      const infoRequests = await waitForRequests(info, 3)
      const warningRequests = await waitForRequests(warning, 2)
      const breakingRequests = await waitForRequests(breaking, 2)
      const bodiesOf = (requests: Received[], secret: string) =>
        requests
          .map((r) => ({ event: verified(r, secret), body: r.body }))
          .filter((r) => r.event.type === REVISION_EVENT)
          .sort((a, b) => a.event.time.localeCompare(b.event.time))
      const breakingEvents = bodiesOf(breakingRequests, breaking.secret)
      expect(breakingEvents).toHaveLength(1)
      expect(bodiesOf(infoRequests, info.secret).at(-1)!.body).toBe(breakingEvents[0]!.body)
      expect(bodiesOf(warningRequests, warning.secret).at(-1)!.body).toBe(breakingEvents[0]!.body)
      expect(Object.keys(breakingEvents[0]!.event).sort()).toEqual(
        [
          'data',
          'datacontenttype',
          'id',
          'source',
          'specversion',
          'subject',
          'time',
          'type',
        ].sort(),
      )
      expect(Object.keys(breakingEvents[0]!.event.data).sort()).toEqual(
        [
          'api',
          'changesUrl',
          'counts',
          'previousRevision',
          'profile',
          'revision',
          'summary',
        ].sort(),
      )
      expect((breakingEvents[0]!.event.data as any).counts).toEqual(removed.body.counts)

      // A new level applies from the next revision on.
      for (const [hook, minLevel] of [
        [info, 'breaking'],
        [breaking, 'info'],
      ] as const) {
        const patched = await send('PATCH', `/apis/${api}/webhooks/${hook.id}`, {
          token: tokens.alice,
          json: { minLevel },
        })
        expect(patched.body.minLevel, patched.text).toBe(minLevel)
      }
      const addedAgain = await pushYaml(api, renamedGet(['get /pets', 'put /pets']))
      expect(addedAgain.status, addedAgain.text).toBe(201)
      expect(addedAgain.body.counts).toMatchObject({ breaking: 0, warning: 0 })
      expect(addedAgain.body.webhookDeliveries).toBe(1)
      expect(await revisionIdsOf(info)).toEqual(ids(added, securedRevision, removed))
      expect(await revisionIdsOf(warning)).toEqual(ids(securedRevision, removed))
      expect(await revisionIdsOf(breaking)).toEqual(ids(removed, addedAgain))
      await waitForRequests(breaking, 3)
    })

    it('the OpenAPI description of the hub has minLevel on the webhook, its create and its patch', async () => {
      const doc = (await call(v1('/openapi.json'))).body
      const level = { $ref: '#/components/schemas/WebhookMinLevel' }
      expect(doc.components.schemas.WebhookMinLevel).toMatchObject({
        type: 'string',
        enum: ['breaking', 'warning', 'info'],
      })
      expect(doc.components.schemas.Webhook.properties.minLevel).toEqual(level)
      expect(doc.components.schemas.Webhook.required).toContain('minLevel')
      // Create and rotate answer the webhook with its secret: the same record, minLevel included.
      expect(doc.components.schemas.WebhookWithSecret.allOf[0]).toEqual({
        $ref: '#/components/schemas/Webhook',
      })
      const create = doc.components.schemas.CreateWebhook
      expect(create.properties.minLevel).toEqual({ allOf: [level, { default: 'info' }] })
      expect(create.required ?? []).not.toContain('minLevel')
      const update = doc.components.schemas.UpdateWebhook
      expect(update.properties.minLevel).toEqual(level)
      expect(update.required ?? []).not.toContain('minLevel')
    })
  })

  describe('who may manage webhooks', () => {
    /** Every endpoint of one webhook of `api`, and of one of its deliveries. */
    const endpoints = (api: string, hookId: string, deliveryId: string) =>
      [
        ['POST', `/apis/${api}/webhooks`, { url: `${first.origin}/never` }],
        ['GET', `/apis/${api}/webhooks`],
        ['GET', `/apis/${api}/webhooks/${hookId}`],
        ['PATCH', `/apis/${api}/webhooks/${hookId}`, { description: 'taken over' }],
        ['DELETE', `/apis/${api}/webhooks/${hookId}`],
        ['POST', `/apis/${api}/webhooks/${hookId}/test`],
        ['POST', `/apis/${api}/webhooks/${hookId}/rotate-secret`],
        ['GET', `/apis/${api}/webhooks/${hookId}/deliveries`],
        ['GET', `/apis/${api}/webhooks/${hookId}/deliveries/${deliveryId}`],
        ['POST', `/apis/${api}/webhooks/${hookId}/deliveries/${deliveryId}/retry`],
        ['POST', `/apis/${api}/webhooks/${hookId}/recover?since=2020-01-01T00:00:00Z`],
      ] as const
    const request = (endpoint: readonly [string, string, object?], token: string | undefined) =>
      send(endpoint[0], endpoint[1], {
        token,
        ...(endpoint[2] === undefined ? {} : { json: endpoint[2] }),
      })

    let api: string
    let hook: Hook
    let delivery: string
    let otherApi: string
    let otherHook: Hook
    let otherDelivery: string
    beforeAll(async () => {
      api = await newApi()
      hook = await createHook(api)
      delivery = (await sendTest(api, hook)).id
      await deliveryWhen(api, hook, delivery, finished)
      otherApi = await newApi()
      otherHook = await createHook(otherApi)
      otherDelivery = (await sendTest(otherApi, otherHook)).id
      await deliveryWhen(otherApi, otherHook, otherDelivery, finished)
    })

    it('no token is 401; a token without admin:webhooks is 403 insufficient_scope', async () => {
      await expectStoreUnchanged(hub, async () => {
        for (const endpoint of endpoints(api, hook.id, delivery)) {
          const what = `${endpoint[0]} ${endpoint[1]}`
          expectError(await request(endpoint, undefined), 401, 'unauthorized', what)
          expectError(await request(endpoint, people.aliceRevoked), 401, 'unauthorized', what)
          for (const token of [people.alice, tokens.aliceApis, people.aliceReadOnly]) {
            const reply = await request(endpoint, token)
            expectError(reply, 403, 'insufficient_scope', what)
            expect(reply.body.details.required).toEqual(['admin:webhooks'])
          }
        }
      })
    })

    it('a reader of the organisation is 403 forbidden; a stranger gets 404 for a private API, 403 for a public one', async () => {
      const open = await newApi({ visibility: 'public' })
      const openHook = await createHook(open)
      const openDelivery = (await sendTest(open, openHook)).id
      await deliveryWhen(open, openHook, openDelivery, finished)
      await expectStoreUnchanged(hub, async () => {
        for (const endpoint of endpoints(api, hook.id, delivery)) {
          const what = `${endpoint[0]} ${endpoint[1]}`
          expectError(await request(endpoint, tokens.rita), 403, 'forbidden', what)
          const hidden = await request(endpoint, tokens.nora)
          expectError(hidden, 404, 'not_found', what)
          expect(hidden.body.message).not.toMatch(/private|webhook/i)
        }
        for (const endpoint of endpoints(open, openHook.id, openDelivery)) {
          const what = `${endpoint[0]} ${endpoint[1]}`
          expectError(await request(endpoint, tokens.rita), 403, 'forbidden', what)
          expectError(await request(endpoint, tokens.nora), 403, 'forbidden', what)
        }
        // A private API of a user is nobody else's, whatever their role in acme.
        const mine = await send('GET', '/apis/alice/ghost/webhooks', { token: tokens.walt })
        expectError(mine, 404, 'not_found')
      })
    })

    it('a writer of the organisation manages webhooks', async () => {
      const created = await createHook(api, { token: tokens.walt })
      const path = `/apis/${api}/webhooks/${created.id}`
      expect((await send('GET', `/apis/${api}/webhooks`, { token: tokens.walt })).status).toBe(200)
      expect((await send('GET', path, { token: tokens.walt })).status).toBe(200)
      const patched = await send('PATCH', path, { token: tokens.walt, json: { description: 'w' } })
      expect(patched.status, patched.text).toBe(200)
      const queued = await sendTest(api, created, tokens.walt)
      await deliveryWhen(api, created, queued.id, finished)
      expect(requestsOf(created)).toHaveLength(1)
      expect(verified(requestsOf(created)[0]!, created.secret).data).toMatchObject({
        message: expect.stringContaining('walt'),
      })
      const rotated = await send('POST', `${path}/rotate-secret`, { token: tokens.walt })
      expect(rotated.status).toBe(200)
      secrets.add(rotated.body.secret)
      expect((await send('GET', `${path}/deliveries`, { token: tokens.walt })).status).toBe(200)
      const retried = await send('POST', `${path}/deliveries/${queued.id}/retry`, {
        token: tokens.walt,
      })
      expect(retried.status, retried.text).toBe(202)
      await deliveryWhen(api, created, queued.id, (d) => d.attemptCount === 2 && finished(d))
      const recovered = await send('POST', `${path}/recover?since=2020-01-01T00:00:00Z`, {
        token: tokens.walt,
      })
      expect(recovered.body).toMatchObject({ recovered: 0 })
      expect((await send('DELETE', path, { token: tokens.walt })).status).toBe(204)
    })

    it("another API's webhook or another webhook's delivery is 404; an unknown API is 404", async () => {
      await expectStoreUnchanged(hub, async () => {
        // otherHook belongs to otherApi: through api, it does not exist.
        for (const endpoint of endpoints(api, otherHook.id, otherDelivery).slice(2)) {
          const what = `${endpoint[0]} ${endpoint[1]}`
          expectError(await request(endpoint, tokens.alice), 404, 'not_found', what)
        }
        // otherDelivery belongs to otherHook: through hook, it does not exist.
        for (const endpoint of endpoints(api, hook.id, otherDelivery).slice(8, 10)) {
          const what = `${endpoint[0]} ${endpoint[1]}`
          expectError(await request(endpoint, tokens.alice), 404, 'not_found', what)
        }
        for (const endpoint of [
          ...endpoints('acme/ghost', hook.id, delivery),
          ...endpoints('ghost/hooks', hook.id, delivery),
        ]) {
          const what = `${endpoint[0]} ${endpoint[1]}`
          expectError(await request(endpoint, tokens.alice), 404, 'not_found', what)
        }
      })
    })

    it('malformed ids and names in the path are 422 invalid_request', async () => {
      await expectStoreUnchanged(hub, async () => {
        const bad: [string, string, string][] = [
          [api, 'whk_123', delivery],
          [api, `whk_${'G'.repeat(24)}`, delivery],
          [api, `WHK_${hook.id.slice(4)}`, delivery],
          [api, `${hook.id}0`, delivery],
          [api, '..%2F..%2Fwebhooks', delivery],
          [api, hook.id.replace('whk_', 'dlv_'), delivery],
          [api, hook.id, 'dlv_nope'],
          [api, hook.id, delivery.replace('dlv_', 'whk_')],
          [api, hook.id, `${delivery}%00`],
          ['ACME/hooks-1', hook.id, delivery],
          ['acme/-hooks', hook.id, delivery],
        ]
        for (const [where, id, deliveryId] of bad) {
          const all = endpoints(where, id, deliveryId)
          // Only the endpoints whose path holds the malformed part.
          const affected = where === api ? (id === hook.id ? all.slice(8, 10) : all.slice(2)) : all
          for (const endpoint of affected) {
            const what = `${endpoint[0]} ${endpoint[1]}`
            expectError(await request(endpoint, tokens.alice), 422, 'invalid_request', what)
          }
        }
      })
    })
  })

  describe('hostile and malformed input changes nothing', () => {
    const reasons: [string, string][] = [
      ['http://127.0.0.1/', 'private_address'],
      ['http://localhost:8080/', 'reserved_hostname'],
      ['http://[::1]/', 'private_address'],
      ['http://169.254.169.254/latest/meta-data', 'private_address'],
      ['http://10.0.0.1/', 'private_address'],
      ['http://foo.internal/', 'reserved_hostname'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'reserved_hostname'],
      ['http://printer.local/', 'reserved_hostname'],
      ['http://2130706433/', 'private_address'],
      ['http://0x7f.1/', 'private_address'],
      ['http://[::ffff:127.0.0.1]/', 'private_address'],
      ['http://0.0.0.0/', 'private_address'],
      ['http://[fd00:ec2::254]/', 'private_address'],
      ['file:///etc/passwd', 'unsupported_scheme'],
      ['ftp://example.com/', 'unsupported_scheme'],
      ['javascript:alert(1)', 'unsupported_scheme'],
      ['http://user:pass@example.com/', 'invalid_url'],
      ['not-a-url', 'invalid_url'],
      ['/relative/path', 'invalid_url'],
    ]
    /** URLs next to the admitted receivers: another port, another scheme. */
    const nearMisses = (): [string, string][] => {
      const port = Number(new URL(first.origin).port)
      return [
        [`http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}/hook`, 'private_address'],
        [`https://127.0.0.1:${port}/hook`, 'private_address'],
        [`${outsider.origin}/hook`, 'private_address'],
      ]
    }

    it('refuses a url the guard refuses with 422 url_refused and its reason, on create and on patch', async () => {
      const api = await newApi()
      const hook = await createHook(api)
      const path = `/apis/${api}/webhooks/${hook.id}`
      const before = (await send('GET', path, { token: tokens.alice })).body
      await expectStoreUnchanged(hub, async () => {
        for (const [url, reason] of [...reasons, ...nearMisses()]) {
          const created = await send('POST', `/apis/${api}/webhooks`, {
            token: tokens.alice,
            json: { url, description: 'hostile' },
          })
          expectError(created, 422, 'url_refused', url)
          expect(created.body.details, url).toEqual({ reason, field: 'json.url' })
          const patched = await send('PATCH', path, { token: tokens.alice, json: { url } })
          expectError(patched, 422, 'url_refused', url)
          expect(patched.body.details, url).toEqual({ reason, field: 'json.url' })
        }
      })
      expect((await send('GET', path, { token: tokens.alice })).body).toEqual(before)
      expect(outsider.connections()).toBe(0)
    })

    it('refuses bodies that break the schema with 422 invalid_request', async () => {
      const api = await newApi()
      const hook = await createHook(api)
      const path = `/apis/${api}/webhooks/${hook.id}`
      const url = newTarget().url
      const bodies: [string, unknown][] = [
        ['an unknown key', { url, secret: 'whsec_chosen-by-the-caller' }],
        ['an unknown key', { url, id: 'whk_000000000000000000000000' }],
        ['an unknown key', { url, events: ['*'] }],
        ['url not a string', { url: 42 }],
        ['url null', { url: null }],
        ['no url', { description: 'nothing to send to' }],
        ['url empty', { url: '' }],
        ['url over 2,048', { url: `https://example.com/${'a'.repeat(2049 - 20)}` }],
        ['active not a boolean', { url, active: 'yes' }],
        ['active null', { url, active: null }],
        ['description not a string', { url, description: 7 }],
        ['description over 500', { url, description: 'd'.repeat(501) }],
        ['description with NUL', { url, description: 'a\u0000b' }],
        ['description with an unpaired surrogate', { url, description: 'a\ud800b' }],
        ['minLevel not a level', { url, minLevel: 'critical' }],
        ['minLevel in capitals', { url, minLevel: 'BREAKING' }],
        ['minLevel the level of the CLI gate', { url, minLevel: 'error' }],
        ['minLevel empty', { url, minLevel: '' }],
        ['minLevel null', { url, minLevel: null }],
        ['minLevel a number', { url, minLevel: 2 }],
        ['minLevel a list', { url, minLevel: ['breaking'] }],
        ['an array', [{ url }]],
        ['null', null],
        ['a string', url],
        ['a number', 1],
      ]
      const patches: [string, unknown][] = [
        ['an unknown key', { secret: 'whsec_chosen-by-the-caller' }],
        ['an unknown key', { secretRotatedAt: null }],
        ['url null', { url: null }],
        ['url empty', { url: '' }],
        ['url not a string', { url: ['https://example.com/'] }],
        ['url over 2,048', { url: `https://example.com/${'a'.repeat(2049 - 20)}` }],
        ['active not a boolean', { active: 1 }],
        ['active null', { active: null }],
        ['description over 500', { description: 'd'.repeat(501) }],
        ['description with NUL', { description: '\u0000' }],
        ['description with an unpaired surrogate', { description: '\udfff' }],
        ['minLevel not a level', { minLevel: 'none' }],
        ['minLevel in capitals', { minLevel: 'Info' }],
        ['minLevel null', { minLevel: null }],
        ['minLevel a number', { minLevel: 0 }],
        ['minLevel valid beside a bad url', { minLevel: 'breaking', url: '' }],
        ['an array', []],
        ['null', null],
      ]
      const before = (await send('GET', path, { token: tokens.alice })).body
      await expectStoreUnchanged(hub, async () => {
        for (const [what, json] of bodies) {
          const reply = await send('POST', `/apis/${api}/webhooks`, { token: tokens.alice, json })
          expectError(reply, 422, 'invalid_request', what)
          expect(reply.body.details.issues.length, what).toBeGreaterThan(0)
        }
        for (const [what, json] of patches) {
          const reply = await send('PATCH', path, { token: tokens.alice, json })
          expectError(reply, 422, 'invalid_request', what)
        }
      })
      expect((await send('GET', path, { token: tokens.alice })).body).toEqual(before)
      expect(before.minLevel).toBe('info')
    })

    it('refuses a minimum level that is not breaking, warning or info with 422 invalid_request naming the three', async () => {
      const api = await newApi()
      const hook = await createHook(api, { minLevel: 'warning' })
      const path = `/apis/${api}/webhooks/${hook.id}`
      const before = (await send('GET', path, { token: tokens.alice })).body
      const issue = {
        path: 'json.minLevel',
        message: 'must be one of `breaking`, `warning`, `info`',
      }
      await expectStoreUnchanged(hub, async () => {
        const created = await send('POST', `/apis/${api}/webhooks`, {
          token: tokens.alice,
          json: { url: newTarget().url, minLevel: 'critical' },
        })
        expectError(created, 422, 'invalid_request')
        expect(created.body.details.issues).toEqual([issue])
        expect(created.body.message).toBe(
          'The request is not valid: json.minLevel: must be one of `breaking`, `warning`, `info`.',
        )
        const patched = await send('PATCH', path, {
          token: tokens.alice,
          json: { minLevel: 'breaking-only' },
        })
        expectError(patched, 422, 'invalid_request')
        expect(patched.body.details.issues).toEqual([issue])
      })
      expect((await send('GET', path, { token: tokens.alice })).body).toEqual(before)
    })

    it('a body over the JSON limit is 422 payload_too_large; the wrong content type 415; malformed JSON 400', async () => {
      const api = await newApi()
      const hook = await createHook(api)
      const path = `/apis/${api}/webhooks/${hook.id}`
      const url = newTarget().url
      const huge = JSON.stringify({ url, description: 'x'.repeat(1024 * 1024 + 1) })
      const before = (await send('GET', path, { token: tokens.alice })).body
      await expectStoreUnchanged(hub, async () => {
        for (const [method, target] of [
          ['POST', `/apis/${api}/webhooks`],
          ['PATCH', path],
        ] as const) {
          const raw = (body: RequestInit['body'], contentType?: string) =>
            send(method, target, {
              token: tokens.alice,
              body,
              ...(contentType ? { headers: { 'content-type': contentType } } : {}),
            })
          const tooLarge = await raw(huge, 'application/json')
          expectError(tooLarge, 422, 'payload_too_large', method)
          expect(tooLarge.body.details).toEqual({ limit: 1024 * 1024 })

          const json = JSON.stringify({ url })
          for (const type of [
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/yaml',
          ]) {
            expectError(await raw(json, type), 415, 'unsupported_media_type', `${method} ${type}`)
          }
          // Bytes without any Content-Type.
          expectError(
            await raw(new TextEncoder().encode(json)),
            415,
            'unsupported_media_type',
            `${method} without a type`,
          )
          for (const broken of ['{"url":', '{url: 1}', "{'url':'x'}", '{"url":"a"}}', '\u0000']) {
            expectError(await raw(broken, 'application/json'), 400, 'malformed_request', broken)
          }
        }
      })
      expect((await send('GET', path, { token: tokens.alice })).body).toEqual(before)
    })
  })

  it('the secret is in no answer but those of create and rotate, in no event, delivery or log line', async () => {
    // Read everything once more, so that every list and record is among the answers searched.
    const store = await hub.openStore()
    let bodies: string[]
    let excerpts: (string | null)[]
    try {
      const hooks = await store.kysely
        .selectFrom('webhooks as w')
        .innerJoin('apis as a', 'a.id', 'w.api_id')
        .select(['w.id', 'a.slug'])
        .execute()
      for (const { id, slug } of hooks) {
        const base = `/apis/acme/${slug}/webhooks`
        await send('GET', base, { token: tokens.alice })
        await send('GET', `${base}/${id}`, { token: tokens.alice })
        await send('GET', `${base}/${id}/deliveries?limit=100`, { token: tokens.alice })
      }
      bodies = (await store.kysely.selectFrom('webhook_events').select('body').execute()).map(
        (row) => row.body,
      )
      excerpts = (
        await store.kysely.selectFrom('webhook_attempts').select('response_excerpt').execute()
      ).map((row) => row.response_excerpt)
    } finally {
      await store.close()
    }
    expect(secrets.size).toBeGreaterThan(10)
    expect(bodies.length).toBeGreaterThan(10)

    const handedOut = (what: string, status: number) =>
      (status === 201 && /^POST \/apis\/[^/]+\/[^/]+\/webhooks(\?|$)/.test(what)) ||
      (status === 200 && /\/rotate-secret$/.test(what))
    let searched = 0
    for (const { what, reply } of replies) {
      if (handedOut(what, reply.status)) continue
      searched++
      const headers = JSON.stringify([...reply.headers])
      for (const secret of secrets) {
        expect(reply.text.includes(secret), `${what} answered a secret`).toBe(false)
        expect(headers.includes(secret), `${what} answered a secret in a header`).toBe(false)
      }
      expect(reply.text, what).not.toContain('whsec_')
    }
    expect(searched).toBeGreaterThan(100)
    const sent = [...first.received, ...second.received]
    expect(sent.length).toBeGreaterThan(10)
    for (const secret of secrets) {
      for (const request of sent) {
        expect(request.body.includes(secret)).toBe(false)
        expect(JSON.stringify(request.headers).includes(secret)).toBe(false)
      }
      for (const body of bodies) expect(body.includes(secret)).toBe(false)
      for (const excerpt of excerpts) expect(excerpt?.includes(secret) ?? false).toBe(false)
      expect(hub.stdout().includes(secret)).toBe(false)
      expect(hub.stderr().includes(secret)).toBe(false)
    }
  })
})
