import { SIGNATURE_HEADER, verifyWebhook, WebhookVerificationError } from '@svc/webhooks'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../src/store/store.js'
import type { StoreKind } from './support/databases.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { startReceiver, type Answer, type Received, type Receiver } from './support/receiver.js'

/**
 * The delivery guarantees over real processes: the real hub (and `svc-hub worker`s), real
 * loopback receivers, real HTTP. Retries follow the real schedule (5 s ± 20 % for the first;
 * `Retry-After` never brings one sooner), so the tests here fail an attempt once at most.
 */
export function webhookReliability(kind: StoreKind, skip = false): void {
  describe.skipIf(skip)(`webhook delivery over real processes (${kind})`, () => {
    const cleanups: (() => Promise<unknown>)[] = []

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    })

    async function receiver(
      answer?: (request: Received, index: number) => Answer | Promise<Answer>,
    ) {
      const started = await startReceiver(answer)
      cleanups.push(() => started.close())
      return started
    }

    async function hub(
      receivers: Receiver[],
      env: NodeJS.ProcessEnv = {},
      options: { args?: string[]; reuse?: HubProcess } = {},
    ) {
      const started = await startHub(kind, {
        env: {
          // These tests send more requests per minute than the default rate limits allow.
          SVC_HUB_RATE_LIMITS: 'off',
          SVC_HUB_ALLOW_PRIVATE_NETWORKS: receivers.map((r) => r.origin).join(','),
          ...env,
        },
        ...options,
      })
      cleanups.push(() => started.dispose())
      return started
    }

    /** An API of `admin` with its first revision (which sends no event). */
    async function api(target: HubProcess, slug = 'petstore') {
      const created = await call(`${target.url}/v1/apis`, {
        method: 'POST',
        token: target.adminPat,
        json: { owner: 'admin', slug, name: slug, visibility: 'private' },
      })
      expect(created.status).toBe(201)
      await push(target, slug, 0)
      return `${target.url}/v1/apis/admin/${slug}`
    }

    /** Pushes a document with `n + 1` paths: each `n` differs from every other. */
    async function push(target: HubProcess, slug: string, n: number) {
      const paths = Object.fromEntries(
        Array.from({ length: n + 1 }, (_, i) => [
          `/p${i}`,
          { get: { operationId: `p${i}`, responses: { '200': { description: 'ok' } } } },
        ]),
      )
      const reply = await call(`${target.url}/v1/apis/admin/${slug}/revisions`, {
        method: 'POST',
        token: target.adminPat,
        json: { openapi: '3.0.3', info: { title: slug, version: '1' }, paths },
      })
      expect(reply.status, reply.text).toBe(201)
      return reply.body as { webhookDeliveries: number; revision: { id: string } }
    }

    async function webhook(target: HubProcess, apiUrl: string, url: string) {
      const reply = await call(`${apiUrl}/webhooks`, {
        method: 'POST',
        token: target.adminPat,
        json: { url },
      })
      expect(reply.status, reply.text).toBe(201)
      return reply.body as { id: string; secret: string }
    }

    /** Polls the delivery list of a webhook until `done` holds for its only delivery. */
    async function delivery(
      target: HubProcess,
      apiUrl: string,
      webhookId: string,
      done: (d: any) => boolean,
    ): Promise<any> {
      const deadline = Date.now() + 30_000
      for (;;) {
        const reply = await call(`${apiUrl}/webhooks/${webhookId}/deliveries`, {
          token: target.adminPat,
        })
        const [first] = reply.body.deliveries
        if (first && done(first)) return first
        if (Date.now() > deadline) throw new Error(`delivery never got there: ${reply.text}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }

    const eventId = (request: Received) => (JSON.parse(request.body) as { id: string }).id
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

    /**
     * From now on the store refuses every attempt row, so no outcome can be written, while claims
     * and lease renewals still work: the window in which a dispatcher that claims ahead of its
     * outcomes piles up answered deliveries that a kill then sends again.
     */
    async function refuseOutcomes(store: Store): Promise<() => Promise<void>> {
      const db = store.kysely
      if (kind === 'sqlite') {
        await sql`create trigger refuse_outcomes before insert on webhook_attempts
        begin select raise(abort, 'outcomes refused by the test'); end`.execute(db)
        return async () => void (await sql`drop trigger refuse_outcomes`.execute(db))
      }
      await sql`create function refuse_outcomes() returns trigger language plpgsql as
      $$ begin raise exception 'outcomes refused by the test'; end $$`.execute(db)
      await sql`create trigger refuse_outcomes before insert on webhook_attempts
      for each row execute function refuse_outcomes()`.execute(db)
      return async () =>
        void (await sql`drop trigger refuse_outcomes on webhook_attempts`.execute(db))
    }

    it('a receiver answering 500 and then 200 gets the event once it recovers, same id, attempts logged', async () => {
      const target = await receiver((_, index) =>
        index < 1 ? { status: 500, headers: { 'retry-after': '1' } } : { status: 204 },
      )
      const running = await hub([target])
      const apiUrl = await api(running)
      const hook = await webhook(running, apiUrl, `${target.origin}/hook`)
      expect((await push(running, 'petstore', 1)).webhookDeliveries).toBe(1)

      const requests = await target.waitFor(2)
      const ids = requests.map(eventId)
      expect(new Set(ids).size).toBe(1)
      for (const request of requests) {
        expect(verifyWebhook(request.body, request.headers[SIGNATURE_HEADER], hook.secret).id).toBe(
          ids[0],
        )
      }
      const done = await delivery(running, apiUrl, hook.id, (d) => d.state === 'succeeded')
      expect(done.eventId).toBe(ids[0])
      expect(done.attempts.map((a: any) => [a.outcome, a.status])).toEqual([
        ['retry', 500],
        ['succeeded', 204],
      ])
      // `Retry-After: 1` is no reason to come sooner than the schedule's first retry (5 s ± 20 %).
      expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(4000)
    })

    it('404 fails after one attempt; a manual retry then succeeds with the same id', async () => {
      const target = await receiver((_, index) => (index === 0 ? { status: 404 } : { status: 200 }))
      const running = await hub([target])
      const apiUrl = await api(running)
      const hook = await webhook(running, apiUrl, `${target.origin}/hook`)
      await push(running, 'petstore', 1)

      const failed = await delivery(running, apiUrl, hook.id, (d) => d.state === 'failed')
      expect(failed.attempts).toMatchObject([{ number: 1, outcome: 'failed', status: 404 }])
      expect(target.received).toHaveLength(1)

      const retried = await call(`${apiUrl}/webhooks/${hook.id}/deliveries/${failed.id}/retry`, {
        method: 'POST',
        token: running.adminPat,
      })
      expect(retried.status, retried.text).toBe(202)
      const [first, second] = await target.waitFor(2)
      expect(eventId(second!)).toBe(eventId(first!))
      const done = await delivery(running, apiUrl, hook.id, (d) => d.state === 'succeeded')
      expect(done.attempts.map((a: any) => [a.trigger, a.outcome])).toEqual([
        ['scheduled', 'failed'],
        ['manual', 'succeeded'],
      ])
    })

    it('307 → 307 → 200 is delivered, each hop the same signed request', async () => {
      const target = await receiver((request) => {
        const hop = Number(/\/hop\/(\d)/.exec(request.path)?.[1])
        return hop < 2 ? { status: 307, headers: { location: `/hop/${hop + 1}` } } : { status: 200 }
      })
      const running = await hub([target])
      const apiUrl = await api(running)
      const hook = await webhook(running, apiUrl, `${target.origin}/hop/0`)
      await push(running, 'petstore', 1)
      const done = await delivery(running, apiUrl, hook.id, (d) => d.state !== 'pending')
      expect(done.state).toBe('succeeded')
      expect(done.attempts[0].redirects).toEqual([
        `${target.origin}/hop/1`,
        `${target.origin}/hop/2`,
      ])
      expect(target.received.map((r) => r.path)).toEqual(['/hop/0', '/hop/1', '/hop/2'])
      expect(new Set(target.received.map((r) => r.headers[SIGNATURE_HEADER])).size).toBe(1)
    })

    it('a secret rotated between a failed attempt and its retry: the retry verifies only with the new secret', async () => {
      const target = await receiver((_, index) =>
        index === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 204 },
      )
      const running = await hub([target])
      const apiUrl = await api(running)
      const hook = await webhook(running, apiUrl, `${target.origin}/hook`)
      await push(running, 'petstore', 1)
      await target.waitFor(1)
      const rotated = await call(`${apiUrl}/webhooks/${hook.id}/rotate-secret`, {
        method: 'POST',
        token: running.adminPat,
      })
      expect(rotated.status).toBe(200)
      const newSecret = rotated.body.secret as string
      expect(newSecret).not.toBe(hook.secret)

      const [before, after] = await target.waitFor(2)
      const verify = (request: Received, secret: string) =>
        verifyWebhook(request.body, request.headers[SIGNATURE_HEADER], secret)
      expect(verify(before!, hook.secret).id).toBe(eventId(after!))
      expect(verify(after!, newSecret).id).toBe(eventId(before!))
      expect(() => verify(after!, hook.secret)).toThrow(WebhookVerificationError)
      expect(() => verify(before!, newSecret)).toThrow(WebhookVerificationError)
    })

    it('kill -9 of the hub with 300 deliveries in flight, then a restart (5 s lease): every event is delivered at least once', async () => {
      // Until the kill, the receiver takes every request and answers none: all are in flight.
      const HOOKS = 30
      const TOTAL = HOOKS * 10
      let answering = false
      const target = await receiver(() => (answering ? { status: 204 } : 'hang'))
      // The shortest lease there is: the restarted hub waits it out before it takes the claims over.
      const env = { SVC_HUB_WEBHOOK_CONCURRENCY: '1000', SVC_HUB_WEBHOOK_LEASE_SECONDS: '5' }
      const first = await hub([target], env)
      const apiUrl = await api(first)
      const hooks = []
      for (let i = 0; i < HOOKS; i++)
        hooks.push(await webhook(first, apiUrl, `${target.origin}/w/${i}`))
      for (let n = 1; n <= 10; n++)
        expect((await push(first, 'petstore', n)).webhookDeliveries).toBe(HOOKS)

      await target.waitFor(TOTAL)
      await first.kill()
      answering = true
      const restarted = await hub([target], env, { reuse: first })
      // The dead hub's claims are reclaimed when their lease ends; the receiver now answers.
      const expected = new Set(
        target.received.slice(0, TOTAL).map((r) => `${eventId(r)} ${r.path}`),
      )
      expect(expected.size).toBe(TOTAL)
      const deadline = Date.now() + 60_000
      let delivered = new Set<string>()
      while (delivered.size < TOTAL) {
        if (Date.now() > deadline)
          throw new Error(`only ${delivered.size} of ${TOTAL} delivered again`)
        await new Promise((resolve) => setTimeout(resolve, 200))
        delivered = new Set(target.received.slice(TOTAL).map((r) => `${eventId(r)} ${r.path}`))
      }
      expect(delivered).toEqual(expected)
      const store = await restarted.openStore()
      try {
        const deadlineDb = Date.now() + 10_000
        let counts = await store.deliveries.countByState()
        while (counts.succeeded < TOTAL && Date.now() < deadlineDb) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          counts = await store.deliveries.countByState()
        }
        expect(counts).toEqual({ pending: 0, succeeded: TOTAL, failed: 0 })
      } finally {
        await store.close()
      }
      // Every request of either hub was signed with the webhook's secret.
      for (const request of target.received.slice(0, 50)) {
        const index = Number(/\/w\/(\d+)/.exec(request.path)![1])
        verifyWebhook(request.body, request.headers[SIGNATURE_HEADER], hooks[index]!.secret)
      }
    }, 120_000)

    it('kill -9 of a worker mid-drain (5 s lease): every delivery is done within 10 s, duplicates at most its concurrency', async () => {
      const concurrency = 16
      const total = 100 * 6
      // The shortest lease: the survivor takes the dead worker's deliveries once it ends.
      const LEASE_SECONDS = 5
      // The first `gated` requests are answered at once, the rest once the gate opens.
      const gated = 150
      let openGate!: () => void
      const gate = new Promise<void>((resolve) => (openGate = resolve))
      const target = await receiver(async (_, index) => {
        if (index >= gated) await gate
        return { status: 204 }
      })
      const running = await hub([target], {}, { args: ['--no-dispatcher'] })
      const apiUrl = await api(running)
      for (let i = 0; i < 100; i++) await webhook(running, apiUrl, `${target.origin}/w/${i}`)
      const env = {
        SVC_HUB_WEBHOOK_CONCURRENCY: String(concurrency),
        SVC_HUB_WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
      }
      const [victim, survivor] = await Promise.all([
        running.startWorker(env),
        running.startWorker(env),
      ])
      cleanups.push(() => Promise.all([victim.kill(), survivor.stop()]))
      const store = await running.openStore()
      cleanups.push(() => store.close())
      for (let n = 1; n <= 6; n++) await push(running, 'petstore', n)

      // Mid-drain: both workers hold attempts at the gate, and what was answered before is written.
      await target.waitFor(gated)
      const attemptRows = async () => {
        const row = await store.kysely
          .selectFrom('webhook_attempts')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
        return Number(row.n)
      }
      while ((await attemptRows()) < gated) await sleep(20)
      const allowOutcomes = await refuseOutcomes(store)
      openGate()
      // A worker that writes its outcomes before claiming more stops at the attempts it holds.
      for (let seen = -1; target.received.length !== seen && target.received.length < total;) {
        seen = target.received.length
        await sleep(1000)
      }
      await victim.kill()
      const killedAt = Date.now()
      await allowOutcomes()

      // Delivered: every delivery succeeded in the store, the dead worker's too (once its leases
      // ended, the survivor took them).
      let counts = await store.deliveries.countByState()
      while (counts.succeeded < total) {
        if (Date.now() - killedAt > (LEASE_SECONDS + 5) * 1000) {
          throw new Error(
            `${LEASE_SECONDS + 5} s after the kill: ${JSON.stringify(counts)} of ${total} deliveries`,
          )
        }
        await sleep(100)
        counts = await store.deliveries.countByState()
      }
      const deliveredAfterMs = Date.now() - killedAt
      expect(counts).toEqual({ pending: 0, succeeded: total, failed: 0 })
      const key = (r: Received) => `${eventId(r)} ${r.path}`
      expect(new Set(target.received.map(key)).size).toBe(total)
      // The outcomes the dead worker never wrote are not in the log; every other attempt is, once.
      expect(await attemptRows()).toBe(total)
      const duplicates = target.received.length - total
      console.info(
        `[${kind}] kill -9 mid-drain: all ${total} deliveries done ${deliveredAfterMs} ms after the kill; ${duplicates} sent twice (worker concurrency ${concurrency})`,
      )
      // Only what the dead worker had answered and not yet written is sent again: at most the
      // attempts it held, because it claims no more while an answered outcome waits.
      expect(duplicates).toBeLessThanOrEqual(concurrency)
    }, 90_000)

    it('two workers on one store with 1,000 deliveries: none lost, none attempted twice at once', async () => {
      const inFlight = new Map<string, number>()
      let overlaps = 0
      const target = await receiver(async (request) => {
        const key = `${eventId(request)} ${request.path}`
        const now = (inFlight.get(key) ?? 0) + 1
        inFlight.set(key, now)
        if (now > 1) overlaps++
        // A little latency, so that both workers hold rows at the same time.
        await new Promise((resolve) => setTimeout(resolve, 2))
        inFlight.set(key, (inFlight.get(key) ?? 1) - 1)
        return { status: 204 }
      })
      // The hub only takes pushes; two `svc-hub worker`s deliver.
      const running = await hub([target], {}, { args: ['--no-dispatcher'] })
      const apiUrl = await api(running)
      for (let i = 0; i < 100; i++) await webhook(running, apiUrl, `${target.origin}/w/${i}`)
      const workers = await Promise.all([running.startWorker(), running.startWorker()])
      cleanups.push(() => Promise.all(workers.map((w) => w.stop())))
      for (let n = 1; n <= 10; n++)
        expect((await push(running, 'petstore', n)).webhookDeliveries).toBe(100)

      await target.waitFor(1000)
      const store = await running.openStore()
      try {
        const deadline = Date.now() + 10_000
        let counts = await store.deliveries.countByState()
        while (counts.succeeded < 1000 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          counts = await store.deliveries.countByState()
        }
        expect(counts).toEqual({ pending: 0, succeeded: 1000, failed: 0 })
        const attempts = await store.kysely
          .selectFrom('webhook_attempts')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
        expect(Number(attempts.n)).toBe(1000)
      } finally {
        await store.close()
      }
      const pairs = new Set(target.received.map((r) => `${eventId(r)} ${r.path}`))
      expect(pairs.size).toBe(1000)
      expect(target.received).toHaveLength(1000)
      expect(overlaps).toBe(0)
      // Both workers took part: each logs the attempts it made when it stops.
      const made = []
      for (const worker of workers) {
        await worker.stop()
        const line = worker
          .stdout()
          .split('\n')
          .find((l) => l.includes('"attempts"'))
        made.push((JSON.parse(line!) as { attempts: { succeeded: number } }).attempts.succeeded)
      }
      expect(made[0]! + made[1]!).toBe(1000)
      expect(Math.min(...made)).toBeGreaterThan(0)
    }, 90_000)
  })
}
