import { createSafeFetch, parseAllowList } from '@svc/safe-fetch'
import { SIGNATURE_HEADER, verifyWebhook, WebhookVerificationError } from '@svc/webhooks'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openFreshStore, storeKinds } from '../../test/support/databases.js'
import {
  startReceiver,
  type Answer,
  type Receiver,
  type Received,
} from '../../test/support/receiver.js'
import type { ApiWithOwner } from '../store/apis-repo.js'
import type { DeliveriesRepo } from '../store/deliveries-repo.js'
import type { DeliveryRow, WebhookRow } from '../store/schema.js'
import type { Store } from '../store/store.js'
import { Dispatcher } from './dispatcher.js'
import { enqueueTestEvent } from './outbox.js'
import { MAX_ATTEMPTS_PER_WINDOW, RETRY_WINDOW_MS } from './schedule.js'

/**
 * The dispatcher over a real store and real loopback receivers, with a clock the test moves:
 * every row of SPEC §3's delivery table, without waiting for the schedule.
 */
describe.each(await storeKinds())('webhook dispatcher on %s', (kind) => {
  let store: Store
  let cleanup: () => Promise<void>
  let api: ApiWithOwner
  let userId: string
  let receivers: Receiver[]
  let fetch: ReturnType<typeof createSafeFetch>
  let now: number
  const log = pino({ level: 'silent' })

  beforeEach(async () => {
    ;({ store, cleanup } = await openFreshStore(kind))
    const alice = await store.accounts.create('alice', 'user')
    userId = alice.id
    const row = await store.apis.create({
      account_id: alice.id,
      slug: 'petstore',
      name: 'Petstore',
      visibility: 'private',
      source_url: null,
    })
    api = { ...row, owner_handle: 'alice' }
    receivers = []
    now = Date.parse('2026-11-21T10:00:00.000Z')
  })

  afterEach(async () => {
    vi.useRealTimers()
    fetch?.close()
    await Promise.all(receivers.map((r) => r.close()))
    await cleanup()
  })

  /** A receiver admitted by the guard through its exact origin (other loopback ports are not). */
  async function receiver(answer?: (request: Received, index: number) => Answer) {
    const started = await startReceiver(answer)
    receivers.push(started)
    return started
  }

  function dispatcher(options: {
    allow: string[]
    clock?: () => number
    leaseMs?: number
    concurrency?: number
    store?: Store
    log?: pino.Logger
  }) {
    fetch = createSafeFetch({ allow: parseAllowList(options.allow.join(',')) })
    return new Dispatcher({
      store: options.store ?? store,
      fetch,
      log: options.log ?? log,
      clock: options.clock ?? (() => now),
      random: () => 0.5,
      leaseMs: options.leaseMs ?? 60_000,
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    })
  }

  type Queue = Pick<DeliveriesRepo, 'claim' | 'complete' | 'renew'>

  /** The store, with some of its delivery queue's calls replaced (to fail them, or hold them). */
  function storeWith(replace: (real: Queue) => Partial<Queue>): Store {
    const real = store.deliveries
    const queue: Queue = {
      claim: (...args) => real.claim(...args),
      complete: (...args) => real.complete(...args),
      renew: (...args) => real.renew(...args),
      ...replace(real),
    }
    return new Proxy(store, {
      get: (target, key) => (key === 'deliveries' ? queue : Reflect.get(target, key)),
    })
  }

  /** A logger whose lines the test reads. */
  function recordingLog() {
    const lines: { level: number; msg: string }[] = []
    const logger = pino(
      { level: 'debug' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    )
    return { logger, lines, at: (level: number) => lines.filter((l) => l.level === level) }
  }

  /** Waits on real I/O (the database) under fake timers, which setImmediate escapes. */
  async function until(check: () => Promise<boolean>, what: string) {
    for (let tries = 0; tries < 2000; tries++) {
      if (await check()) return
      await new Promise((resolve) => setImmediate(resolve))
    }
    throw new Error(`never: ${what}`)
  }

  async function webhook(url: string, active = true): Promise<WebhookRow> {
    return store.webhooks.create(
      {
        api_id: api.id,
        url,
        description: null,
        secret: 'whsec_dGVzdC1zZWNyZXQtb2YtdGhlLWRpc3BhdGNoZXItdGVzdHM',
        created_by: userId,
        active,
      },
      new Date(now).toISOString(),
    )
  }

  async function testEvent(hook: WebhookRow): Promise<string> {
    return store.transaction((tx) =>
      enqueueTestEvent(tx, {
        publicUrl: 'https://hub.example',
        api,
        webhookId: hook.id,
        message: 'hello',
        at: new Date(now).toISOString(),
      }),
    )
  }

  async function delivery(id: string): Promise<DeliveryRow> {
    return store.kysely
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  }

  async function attempts(id: string) {
    return (await store.deliveries.attempts([id])).get(id) ?? []
  }

  /** Moves the clock to the delivery's next attempt and makes it. */
  async function nextAttempt(run: Dispatcher, id: string): Promise<DeliveryRow> {
    const row = await delivery(id)
    now = Date.parse(row.next_attempt_at!)
    expect(await run.runDue()).toBe(1)
    return delivery(id)
  }

  it('any 2xx succeeds, without reading the body', async () => {
    // The receiver sends its headers and never finishes the body: reading it would time out.
    const target = await receiver(() => 'head-only')
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    expect(await run.runDue()).toBe(1)
    expect(await delivery(id)).toMatchObject({ state: 'succeeded', last_status: 200 })
    expect(await attempts(id)).toMatchObject([
      { number: 1, outcome: 'succeeded', status: 200, error: null, response_excerpt: null },
    ])
  })

  it('sends the §4.8 request: POST, headers, a signed CloudEvent of §6', async () => {
    const target = await receiver()
    const run = dispatcher({ allow: [target.origin] })
    const hook = await webhook(`${target.origin}/hook?x=1`)
    const id = await testEvent(hook)
    await run.runDue()
    const [request] = target.received
    expect(request).toMatchObject({ method: 'POST', path: '/hook?x=1' })
    expect(request!.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8')
    expect(request!.headers['user-agent']).toBe('Svc-Hub-Webhooks/1')
    const signature = request!.headers[SIGNATURE_HEADER] as string
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(signature).toContain(`t=${Math.floor(now / 1000)},`)
    const event = verifyWebhook(request!.body, signature, hook.secret, { now: () => now })
    const row = await delivery(id)
    expect(event).toEqual({
      specversion: '1.0',
      id: row.event_id,
      source: 'https://hub.example',
      subject: 'alice/petstore',
      time: '2026-11-21T10:00:00.000Z',
      datacontenttype: 'application/json',
      type: 'dev.svc.api.test.v1',
      data: {
        test: true,
        api: {
          id: api.id,
          owner: 'alice',
          slug: 'petstore',
          name: 'Petstore',
          url: 'https://hub.example/alice/apis/petstore',
        },
        message: 'hello',
      },
    })
    expect(request!.body).not.toContain(hook.secret)
  })

  it.each([408, 429, 500, 502, 503, 504])(
    '%i is retried with the same event id, each attempt signed anew',
    async (status) => {
      const target = await receiver((_, index) => (index < 2 ? { status } : { status: 200 }))
      const run = dispatcher({ allow: [target.origin] })
      const hook = await webhook(`${target.origin}/hook`)
      const id = await testEvent(hook)
      const first = now
      await run.runDue()
      expect(await delivery(id)).toMatchObject({ state: 'pending', last_status: status })
      // 5 s after the first attempt (no jitter here), then 30 s after the second.
      expect(Date.parse((await delivery(id)).next_attempt_at!) - first).toBe(5_000)
      expect(await nextAttempt(run, id)).toMatchObject({ state: 'pending' })
      expect(Date.parse((await delivery(id)).next_attempt_at!) - now).toBe(30_000)
      expect(await nextAttempt(run, id)).toMatchObject({ state: 'succeeded', attempt_count: 3 })

      expect((await attempts(id)).map((a) => [a.outcome, a.status])).toEqual([
        ['retry', status],
        ['retry', status],
        ['succeeded', 200],
      ])
      const ids = target.received.map((r) => JSON.parse(r.body).id)
      expect(new Set(ids)).toEqual(new Set([(await delivery(id)).event_id]))
      const stamps = target.received.map(
        (r) => /t=(\d+)/.exec(r.headers[SIGNATURE_HEADER] as string)![1],
      )
      expect(new Set(stamps).size).toBe(3)
    },
  )

  it('keeps at most 4 KiB of a non-2xx answer, and honours Retry-After', async () => {
    const target = await receiver(() => ({
      status: 503,
      headers: { 'retry-after': '120' },
      body: 'y'.repeat(10_000),
    }))
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    await run.runDue()
    const [attempt] = await attempts(id)
    expect(attempt!.response_excerpt).toBe('y'.repeat(4096))
    expect(Date.parse((await delivery(id)).next_attempt_at!) - now).toBe(120_000)
  })

  it('a network error is retried', async () => {
    const closed = await receiver()
    await closed.close()
    const run = dispatcher({ allow: [closed.origin] })
    const id = await testEvent(await webhook(`${closed.origin}/hook`))
    await run.runDue()
    expect(await delivery(id)).toMatchObject({ state: 'pending', last_status: null })
    expect((await attempts(id))[0]).toMatchObject({ outcome: 'retry', status: null })
    expect((await attempts(id))[0]!.error).toMatch(/^network: /)
  })

  it.each([300, 301, 302, 303, 304, 400, 401, 403, 404, 405, 410, 422])(
    '%i fails after one attempt, with no automatic retry',
    async (status) => {
      const target = await receiver(() => ({ status, headers: { location: '/elsewhere' } }))
      const run = dispatcher({ allow: [target.origin] })
      const id = await testEvent(await webhook(`${target.origin}/hook`))
      await run.runDue()
      expect(await delivery(id)).toMatchObject({
        state: 'failed',
        next_attempt_at: null,
        attempt_count: 1,
      })
      now += RETRY_WINDOW_MS
      expect(await run.runDue()).toBe(0)
      expect(target.received).toHaveLength(1)
    },
  )

  it('a failed delivery retried by the owner is attempted again with the same event id', async () => {
    const target = await receiver((_, index) => (index === 0 ? { status: 404 } : { status: 200 }))
    const run = dispatcher({ allow: [target.origin] })
    const hook = await webhook(`${target.origin}/hook`)
    const id = await testEvent(hook)
    await run.runDue()
    expect(await delivery(id)).toMatchObject({ state: 'failed' })
    now += 60_000
    await store.deliveries.retry(hook.id, id, new Date(now).toISOString())
    expect(await run.runDue()).toBe(1)
    expect(await delivery(id)).toMatchObject({ state: 'succeeded', attempt_count: 2 })
    expect((await attempts(id)).map((a) => [a.trigger, a.outcome])).toEqual([
      ['scheduled', 'failed'],
      ['manual', 'succeeded'],
    ])
    const [first, second] = target.received.map((r) => JSON.parse(r.body).id)
    expect(second).toBe(first)
  })

  it('307 and 308 are followed with the same request, at most 3 times', async () => {
    const final = await receiver()
    const hops = await receiver((request) => {
      const n = Number(/\/(\d+)$/.exec(request.path)?.[1] ?? 0)
      if (n < 2) return { status: n % 2 ? 308 : 307, headers: { location: `/hop/${n + 1}` } }
      return { status: 307, headers: { location: `${final.origin}/end` } }
    })
    const run = dispatcher({ allow: [hops.origin, final.origin] })
    const hook = await webhook(`${hops.origin}/hop/0`)
    const id = await testEvent(hook)
    await run.runDue()
    expect(await delivery(id)).toMatchObject({ state: 'succeeded', last_status: 204 })
    expect(JSON.parse((await attempts(id))[0]!.redirects)).toEqual([
      `${hops.origin}/hop/1`,
      `${hops.origin}/hop/2`,
      `${final.origin}/end`,
    ])
    const all = [...hops.received, ...final.received]
    expect(all.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST'])
    expect(new Set(all.map((r) => r.body)).size).toBe(1)
    expect(new Set(all.map((r) => r.headers[SIGNATURE_HEADER])).size).toBe(1)
  })

  it('a fourth redirect fails the delivery', async () => {
    const hops = await receiver((request) => {
      const n = Number(/\/(\d+)$/.exec(request.path)?.[1] ?? 0)
      return { status: 307, headers: { location: `/hop/${n + 1}` } }
    })
    const run = dispatcher({ allow: [hops.origin] })
    const id = await testEvent(await webhook(`${hops.origin}/hop/0`))
    await run.runDue()
    expect(await delivery(id)).toMatchObject({ state: 'failed' })
    expect((await attempts(id))[0]!.error).toMatch(/^too_many_redirects: /)
    expect(JSON.parse((await attempts(id))[0]!.redirects)).toEqual([
      `${hops.origin}/hop/1`,
      `${hops.origin}/hop/2`,
      `${hops.origin}/hop/3`,
    ])
    expect(hops.received).toHaveLength(4)
  })

  it('a 307 without a location fails like any other 3xx', async () => {
    const target = await receiver(() => ({ status: 307 }))
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    await run.runDue()
    expect(await delivery(id)).toMatchObject({ state: 'failed', last_status: 307 })
  })

  it('a redirect to a refused address fails, and that address is never connected', async () => {
    const forbidden = await receiver()
    const target = await receiver(() => ({
      status: 307,
      headers: { location: `${forbidden.origin}/steal` },
    }))
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    await run.runDue()
    expect(await delivery(id)).toMatchObject({ state: 'failed' })
    expect((await attempts(id))[0]!.error).toMatch(/^private_address: /)
    expect(JSON.parse((await attempts(id))[0]!.redirects)).toEqual([])
    expect(forbidden.connections()).toBe(0)
  })

  it('a refusal after a hop records the hop it followed', async () => {
    const forbidden = await receiver()
    const target = await receiver((request) =>
      request.path === '/hook'
        ? { status: 308, headers: { location: '/moved' } }
        : { status: 307, headers: { location: `${forbidden.origin}/steal` } },
    )
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    await run.runDue()
    const [attempt] = await attempts(id)
    expect(attempt).toMatchObject({ outcome: 'failed', status: null })
    expect(attempt!.error).toMatch(/^private_address: /)
    expect(JSON.parse(attempt!.redirects)).toEqual([`${target.origin}/moved`])
    expect(forbidden.connections()).toBe(0)
  })

  it('retries until 24 hours after the first attempt, then fails', async () => {
    const target = await receiver(() => ({ status: 503 }))
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    const first = now
    await run.runDue()
    let row = await delivery(id)
    while (row.state === 'pending') row = await nextAttempt(run, id)
    expect(row.state).toBe('failed')
    const log = await attempts(id)
    // 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then the window's end.
    const offsets = log.map((a) => (Date.parse(a.started_at) - first) / 1000)
    expect(offsets).toEqual([
      0, 5, 35, 155, 755, 2555, 6155, 13_355, 27_755, 56_555, 85_355, 86_400,
    ])
    expect(Date.parse(row.completed_at!) - first).toBe(RETRY_WINDOW_MS)
    expect(log.at(-1)).toMatchObject({ outcome: 'failed', next_attempt_at: null })
    expect(log.slice(0, -1).every((a) => a.outcome === 'retry')).toBe(true)
  })

  it('a receiver answering 503 `Retry-After: 0` forever: a simulated day of attempts stays under the cap', async () => {
    const target = await receiver(() => ({ status: 503, headers: { 'retry-after': '0' } }))
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    const first = now
    await run.runDue()
    let row = await delivery(id)
    // Past the cap the loop stops, so a missing cap fails here instead of running for a day.
    while (row.state === 'pending' && target.received.length <= MAX_ATTEMPTS_PER_WINDOW) {
      row = await nextAttempt(run, id)
    }
    expect(row.state).toBe('failed')
    expect(Date.parse(row.completed_at!) - first).toBe(RETRY_WINDOW_MS)
    const log = await attempts(id)
    expect(log.length).toBeLessThanOrEqual(MAX_ATTEMPTS_PER_WINDOW)
    expect(target.received).toHaveLength(log.length)
    // `Retry-After: 0` asks for nothing sooner than the schedule: the same spacing as without it.
    const offsets = log.map((a) => (Date.parse(a.started_at) - first) / 1000)
    expect(offsets).toEqual([
      0, 5, 35, 155, 755, 2555, 6155, 13_355, 27_755, 56_555, 85_355, 86_400,
    ])
  })

  it('a receiver that never answers: each attempt ends at 10 s, and the row fails after 24 h', async () => {
    const target = await receiver(() => 'hang')
    // Timers and the clock are the test's: a 10 s timeout passes without waiting 10 s.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now })
    const run = dispatcher({ allow: [target.origin], clock: () => Date.now() })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    const first = Date.now()
    for (let attempt = 1; ; attempt++) {
      const running = run.runDue()
      await target.waitForRequest(attempt)
      await vi.advanceTimersByTimeAsync(10_000)
      expect(await running).toBe(1)
      const row = await delivery(id)
      if (row.state !== 'pending') break
      vi.setSystemTime(Date.parse(row.next_attempt_at!))
    }
    const log = await attempts(id)
    expect(log.length).toBeGreaterThan(10)
    for (const attempt of log) {
      expect(attempt.duration_ms).toBe(10_000)
      expect(attempt.error).toMatch(/^timeout: /)
    }
    const row = await delivery(id)
    expect(row.state).toBe('failed')
    // The last attempt starts at the window's end and times out 10 s later.
    expect(Date.parse(log.at(-1)!.started_at) - first).toBe(RETRY_WINDOW_MS)
    expect(Date.parse(row.completed_at!) - first).toBe(RETRY_WINDOW_MS + 10_000)
  })

  it('keeps the lease of a row while its attempt runs: past the lease, no other worker takes it', async () => {
    const target = await receiver(() => 'hang')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now })
    const leaseMs = 6_000
    const run = dispatcher({ allow: [target.origin], clock: () => Date.now(), leaseMs })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    const iso = (ms: number) => new Date(ms).toISOString()
    const running = run.runDue()
    await target.waitForRequest(1)
    // Four renewals, a third of the lease apart: 8 s into a 6 s lease.
    for (let renewal = 1; renewal <= 4; renewal++) {
      await vi.advanceTimersByTimeAsync(leaseMs / 3)
      const leasedUntil = iso(Date.now() + leaseMs)
      await until(
        async () => (await delivery(id)).next_attempt_at === leasedUntil,
        `renewal ${renewal} written`,
      )
    }
    expect(await store.deliveries.claim(10, iso(Date.now()), iso(Date.now() + leaseMs))).toEqual([])
    // The attempt times out at 10 s, and its outcome lands: the row was never lost.
    await vi.advanceTimersByTimeAsync(2_000)
    expect(await running).toBe(1)
    expect(await delivery(id)).toMatchObject({ state: 'pending', attempt_count: 1 })
    expect((await attempts(id))[0]!.error).toMatch(/^timeout: /)
    expect(target.received).toHaveLength(1)
  })

  it('writes the outcomes of answered attempts before it claims more', async () => {
    now = Date.now()
    const target = await receiver()
    const hook = await webhook(`${target.origin}/hook`)
    for (let i = 0; i < 12; i++) await testEvent(hook)
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let claims = 0
    const held = storeWith((real) => ({
      claim: (...args) => {
        claims++
        return real.claim(...args)
      },
      // The database takes its time over the first outcomes.
      complete: async (completions) => {
        await released
        return real.complete(completions)
      },
    }))
    const run = dispatcher({ allow: [target.origin], clock: Date.now, store: held, concurrency: 4 })
    run.start()
    try {
      await target.waitFor(4)
      // Without the wait for outcomes, the slots these four freed are claimed again at once.
      for (let turn = 0; turn < 20 && claims < 2; turn++) {
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      expect(claims).toBe(1)
      expect(target.received).toHaveLength(4)
      release()
      await target.waitFor(12)
    } finally {
      release()
      await run.stop()
    }
    expect((await store.deliveries.countByState()).succeeded).toBe(12)
    expect(target.received).toHaveLength(12)
  })

  it('backs off while the store fails, logs the outage once, and resumes on its own', async () => {
    now = Date.now()
    const target = await receiver()
    const hook = await webhook(`${target.origin}/hook`)
    let failing = 0
    const down = new Error('connect ECONNREFUSED 127.0.0.1:5432')
    const flaky = storeWith((real) => ({
      claim: (...args) => (failing-- > 0 ? Promise.reject(down) : real.claim(...args)),
    }))
    const { logger, at } = recordingLog()
    const run = dispatcher({ allow: [target.origin], clock: Date.now, store: flaky, log: logger })
    failing = 3
    run.start()
    try {
      await testEvent(hook)
      run.wake()
      await target.waitFor(1)
    } finally {
      await run.stop()
    }
    expect(failing).toBeLessThan(0)
    expect(at(40).map((l) => l.msg)).toEqual([
      'webhook dispatcher: the store fails; backing off until it answers',
    ])
    expect(at(30).filter((l) => l.msg.includes('answers again'))).toHaveLength(1)
    expect(at(50)).toEqual([])
    expect((await store.deliveries.countByState()).succeeded).toBe(1)
  })

  it('an outcome write that fails is retried while its lease holds: one request, one attempt', async () => {
    const target = await receiver()
    const hook = await webhook(`${target.origin}/hook`)
    const id = await testEvent(hook)
    let failing = 2
    const flaky = storeWith((real) => ({
      complete: (completions) =>
        failing-- > 0
          ? Promise.reject(new Error('Connection terminated'))
          : real.complete(completions),
    }))
    const { logger, at } = recordingLog()
    const run = dispatcher({ allow: [target.origin], store: flaky, log: logger })
    expect(await run.runDue()).toBe(1)
    expect(await delivery(id)).toMatchObject({ state: 'succeeded', attempt_count: 1 })
    expect(await attempts(id)).toHaveLength(1)
    expect(target.received).toHaveLength(1)
    expect(at(40)).toHaveLength(1)
  })

  it('a store that fails everything ends nothing: stop() still settles', async () => {
    now = Date.now()
    const down = () => Promise.reject(new Error('the database is gone'))
    const gone = storeWith(() => ({ claim: down, complete: down, renew: down }))
    const { logger, at } = recordingLog()
    const run = dispatcher({ allow: [], clock: Date.now, store: gone, log: logger })
    run.start()
    await new Promise((resolve) => setTimeout(resolve, 600))
    await run.stop()
    expect(at(40)).toHaveLength(1)
    expect(at(50)).toEqual([])
  })

  it('a retry after a secret rotation verifies with the new secret only', async () => {
    const target = await receiver((_, index) => (index === 0 ? { status: 500 } : { status: 200 }))
    const run = dispatcher({ allow: [target.origin] })
    const hook = await webhook(`${target.origin}/hook`)
    const id = await testEvent(hook)
    await run.runDue()
    const rotated = await store.webhooks.rotateSecret(
      api.id,
      hook.id,
      'whsec_cm90YXRlZC1zZWNyZXQtb2YtdGhlLWRpc3BhdGNoZXItdGVzdHM',
      new Date(now).toISOString(),
    )
    await nextAttempt(run, id)
    const [before, after] = target.received
    const check = (request: Received, secret: string) =>
      verifyWebhook(request.body, request.headers[SIGNATURE_HEADER], secret, {
        now: () => now,
      })
    expect(check(before!, hook.secret).id).toBe((await delivery(id)).event_id)
    expect(check(after!, rotated!.secret).id).toBe((await delivery(id)).event_id)
    expect(() => check(after!, hook.secret)).toThrow(WebhookVerificationError)
  })

  it('a webhook switched off fails its queued deliveries without a request', async () => {
    const target = await receiver()
    const run = dispatcher({ allow: [target.origin] })
    const hook = await webhook(`${target.origin}/hook`)
    const id = await testEvent(hook)
    await store.webhooks.update(api.id, hook.id, { active: false }, new Date(now).toISOString())
    await run.runDue()
    expect(await delivery(id)).toMatchObject({ state: 'failed', attempt_count: 0 })
    expect((await delivery(id)).last_error).toMatch(/^webhook_inactive: /)
    expect(target.connections()).toBe(0)
  })

  it('a row claimed by a worker that died is attempted once its lease has passed', async () => {
    const target = await receiver()
    const run = dispatcher({ allow: [target.origin] })
    const id = await testEvent(await webhook(`${target.origin}/hook`))
    const iso = (ms: number) => new Date(ms).toISOString()
    // Another worker claims the row and is never heard of again.
    expect(await store.deliveries.claim(10, iso(now), iso(now + 60_000))).toHaveLength(1)
    expect(await run.runDue()).toBe(0)
    now += 59_999
    expect(await run.runDue()).toBe(0)
    now += 1
    expect(await run.runDue()).toBe(1)
    expect(await delivery(id)).toMatchObject({ state: 'succeeded', attempt_count: 1 })
    expect(target.received).toHaveLength(1)
  })

  it('start() delivers what is due and what a wake() announces; stop() drains', async () => {
    now = Date.now()
    const target = await receiver()
    const run = dispatcher({ allow: [target.origin], clock: Date.now })
    const hook = await webhook(`${target.origin}/hook`)
    run.start()
    try {
      const ids = []
      for (let i = 0; i < 20; i++) ids.push(await testEvent(hook))
      run.wake()
      await target.waitFor(20)
    } finally {
      await run.stop()
    }
    expect((await store.deliveries.countByState()).succeeded).toBe(20)
  })
})
