import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { undoDiffProfiles } from './diff-profiles.case.js'
import type { Completion } from './deliveries-repo.js'
import type { WebhookEventRow } from './schema.js'
import type { Store } from './store.js'
import type { ProfileAudience } from './webhooks-repo.js'

/** Webhooks that follow an API diffed under `wire`. */
const WIRE: ProfileAudience = { profile: 'wire', apiProfile: 'wire' }

/**
 * The storage contract of webhooks and their delivery queue, part of `runStoreTests`
 * (`store.case.ts`), so it runs on every engine.
 */
export function runWebhooksRepoTests(current: () => Store): void {
  const T0 = '2026-01-01T00:00:00.000Z'
  const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString()

  async function seed(store: Store, webhooks = 2) {
    const alice = await store.accounts.create('alice', 'user')
    const api = await store.apis.create({
      account_id: alice.id,
      slug: 'petstore',
      name: 'Petstore',
      visibility: 'private',
      source_url: null,
    })
    const hooks = []
    for (let i = 0; i < webhooks; i++) {
      hooks.push(
        await store.webhooks.create(
          {
            api_id: api.id,
            url: `https://example.com/hook/${i}`,
            description: null,
            secret: `whsec_secret${i}`,
            created_by: alice.id,
            active: true,
          },
          T0,
        ),
      )
    }
    return { alice, api, hooks }
  }

  function event(apiId: string, id = 'evt_1', createdAt = T0): WebhookEventRow {
    return {
      id,
      api_id: apiId,
      type: 'dev.svc.api.test.v1',
      revision_id: null,
      body: `{"id":"${id}"}`,
      created_at: createdAt,
    }
  }

  function done(
    claimed: { id: string; claim_token: string; attempt_count: number },
    state: 'succeeded' | 'failed' | 'pending',
    when: string,
  ): Completion {
    const number = claimed.attempt_count + 1
    return {
      id: claimed.id,
      claimToken: claimed.claim_token,
      state,
      nextAttemptAt: state === 'pending' ? at(3600) : null,
      windowStartedAt: when,
      windowAttempts: 1,
      attemptCount: number,
      lastAttemptAt: when,
      lastStatus: 200,
      lastError: null,
      completedAt: state === 'pending' ? null : when,
      attempt: {
        delivery_id: claimed.id,
        number,
        trigger: 'scheduled',
        url: 'https://example.com/hook',
        redirects: '[]',
        started_at: when,
        duration_ms: 12,
        outcome: state === 'pending' ? 'retry' : state,
        status: 200,
        error: null,
        response_excerpt: null,
        next_attempt_at: null,
      },
    }
  }

  describe('webhooks', () => {
    it('create, find, list, update, rotate the secret, delete', async () => {
      const store = current()
      const { api, hooks } = await seed(store)
      const [first, second] = hooks
      expect(first!.id).toMatch(/^whk_[0-9a-f]{24}$/)
      expect(await store.webhooks.find(api.id, first!.id)).toEqual(first)
      expect(await store.webhooks.find('api_other', first!.id)).toBeUndefined()
      expect((await store.webhooks.list(api.id, { limit: 10 })).map((w) => w.id).sort()).toEqual(
        [first!.id, second!.id].sort(),
      )

      const updated = await store.webhooks.update(api.id, first!.id, { active: false }, at(5))
      expect(updated).toMatchObject({ active: 0, url: first!.url, updated_at: at(5) })
      // Only the active one gets a delivery of an event.
      expect(await store.webhooks.enqueueForActive(event(api.id), ['info'], WIRE)).toBe(1)
      const queued = await store.kysely.selectFrom('webhook_deliveries').selectAll().execute()
      expect(queued).toMatchObject([
        {
          webhook_id: second!.id,
          event_id: 'evt_1',
          state: 'pending',
          next_attempt_at: T0,
          next_trigger: 'scheduled',
          claim_token: null,
          window_attempts: 0,
          attempt_count: 0,
          last_status: null,
          completed_at: null,
        },
      ])
      expect(queued[0]!.id).toMatch(/^dlv_[0-9a-f]{24}$/)
      await store.webhooks.update(api.id, second!.id, { active: false }, at(5))
      expect(await store.webhooks.enqueueForActive(event(api.id, 'evt_2'), ['info'], WIRE)).toBe(0)
      expect(await store.kysely.selectFrom('webhook_events').select('id').execute()).toEqual([
        { id: 'evt_1' },
      ])

      const rotated = await store.webhooks.rotateSecret(api.id, first!.id, 'whsec_new', at(6))
      expect(rotated).toMatchObject({ secret: 'whsec_new', secret_rotated_at: at(6) })

      expect(await store.webhooks.delete(api.id, first!.id)).toBe(true)
      expect(await store.webhooks.delete(api.id, first!.id)).toBe(false)
      expect(await store.webhooks.find(api.id, first!.id)).toBeUndefined()
    })

    it('a minimum level is stored, defaults to info, and only webhooks it admits get a delivery', async () => {
      const store = current()
      const { alice, api, hooks } = await seed(store, 3)
      const [info, warning, breaking] = hooks
      expect(info!.min_level).toBe('info')
      expect(await store.webhooks.find(api.id, info!.id)).toMatchObject({ min_level: 'info' })
      await store.webhooks.update(api.id, warning!.id, { min_level: 'warning' }, at(1))
      const changed = await store.webhooks.update(
        api.id,
        breaking!.id,
        { min_level: 'breaking' },
        at(1),
      )
      expect(changed).toMatchObject({ min_level: 'breaking', url: breaking!.url, active: 1 })
      // A row written without the column (as every row was before it existed) reads as info.
      await store.kysely
        .insertInto('webhooks')
        .values({
          id: 'whk_000000000000000000000000',
          api_id: api.id,
          url: 'https://example.com/hook/old',
          description: null,
          active: 1,
          secret: 'whsec_old',
          secret_rotated_at: null,
          created_by: alice.id,
          created_at: T0,
          updated_at: T0,
        })
        .execute()
      expect(await store.webhooks.find(api.id, 'whk_000000000000000000000000')).toMatchObject({
        min_level: 'info',
      })
      const made = await store.webhooks.create(
        {
          api_id: api.id,
          url: 'https://example.com/hook/b',
          description: null,
          secret: 'whsec_b',
          created_by: alice.id,
          active: true,
          min_level: 'breaking',
        },
        T0,
      )
      expect(made.min_level).toBe('breaking')

      const receivers = async (eventId: string) =>
        (
          await store.kysely
            .selectFrom('webhook_deliveries')
            .select('webhook_id')
            .where('event_id', '=', eventId)
            .execute()
        )
          .map((d) => d.webhook_id)
          .sort()
      expect(await store.webhooks.enqueueForActive(event(api.id, 'evt_info'), ['info'], WIRE)).toBe(
        2,
      )
      expect(await receivers('evt_info')).toEqual([info!.id, 'whk_000000000000000000000000'].sort())
      expect(
        await store.webhooks.enqueueForActive(
          event(api.id, 'evt_warning'),
          ['info', 'warning'],
          WIRE,
        ),
      ).toBe(3)
      expect(await receivers('evt_warning')).toEqual(
        [info!.id, warning!.id, 'whk_000000000000000000000000'].sort(),
      )
      expect(
        await store.webhooks.enqueueForActive(
          event(api.id, 'evt_breaking'),
          ['info', 'warning', 'breaking'],
          WIRE,
        ),
      ).toBe(5)
      // No webhook admits it: neither the event nor a delivery is stored.
      await store.webhooks.update(api.id, info!.id, { active: false }, at(2))
      await store.webhooks.update(
        api.id,
        'whk_000000000000000000000000',
        { min_level: 'breaking' },
        at(2),
      )
      expect(await store.webhooks.enqueueForActive(event(api.id, 'evt_none'), ['info'], WIRE)).toBe(
        0,
      )
      expect(
        await store.kysely
          .selectFrom('webhook_events')
          .select('id')
          .where('id', '=', 'evt_none')
          .execute(),
      ).toEqual([])
      expect(await store.webhooks.enqueueForActive(event(api.id, 'evt_empty'), [], WIRE)).toBe(0)
    })

    it('the minimum-level migration gives the webhooks that existed before it info', async () => {
      const store = current()
      // Back to the schema before the migration (and the ones after it, which must run in
      // order), with a webhook in it, then migrate again.
      await store.kysely.schema.alterTable('webhooks').dropColumn('min_level').execute()
      await store.kysely.schema.alterTable('revisions').dropColumn('changelog_issues').execute()
      await store.kysely.schema.alterTable('revisions').dropColumn('parse_issues').execute()
      await undoDiffProfiles(store)
      await sql`delete from kysely_migration where name > '0008'`.execute(store.kysely)
      const alice = await store.accounts.create('alice', 'user')
      const api = await store.apis.create({
        account_id: alice.id,
        slug: 'petstore',
        name: 'Petstore',
        visibility: 'private',
        source_url: null,
      })
      await sql`insert into webhooks (id, api_id, url, description, active, secret,
        secret_rotated_at, created_by, created_at, updated_at)
        values ('whk_000000000000000000000001', ${api.id}, 'https://example.com/hook', null, 1,
        'whsec_old', null, ${alice.id}, ${T0}, ${T0})`.execute(store.kysely)
      await store.migrate()
      expect(await store.webhooks.find(api.id, 'whk_000000000000000000000001')).toMatchObject({
        min_level: 'info',
        active: 1,
      })
    })

    it('deleting a webhook deletes its deliveries and their attempts, not the event', async () => {
      const store = current()
      const { api, hooks } = await seed(store)
      await store.webhooks.enqueue(
        event(api.id),
        hooks.map((h) => h.id),
      )
      const [claimed] = await store.deliveries.claim(1, T0, at(60))
      await store.deliveries.complete([done(claimed!, 'failed', at(1))])
      await store.webhooks.delete(api.id, claimed!.webhook_id)
      const left = await store.kysely.selectFrom('webhook_deliveries').select('id').execute()
      expect(left).toHaveLength(1)
      expect(await store.kysely.selectFrom('webhook_attempts').selectAll().execute()).toEqual([])
      expect(await store.kysely.selectFrom('webhook_events').select('id').execute()).toHaveLength(1)
    })
  })

  describe('delivery queue', () => {
    it('enqueue makes one pending delivery per webhook, due at the event time', async () => {
      const store = current()
      const { api, hooks } = await seed(store)
      const ids = await store.webhooks.enqueue(
        event(api.id),
        hooks.map((h) => h.id),
      )
      expect(ids).toHaveLength(2)
      const rows = await store.kysely.selectFrom('webhook_deliveries').selectAll().execute()
      expect(rows.map((r) => [r.state, r.next_attempt_at, r.attempt_count])).toEqual([
        ['pending', T0, 0],
        ['pending', T0, 0],
      ])
    })

    it('a claim takes due rows with what the attempt needs, and holds them until the lease ends', async () => {
      const store = current()
      const { api, hooks } = await seed(store)
      await store.webhooks.enqueue(
        event(api.id),
        hooks.map((h) => h.id),
      )
      expect(await store.deliveries.claim(10, at(-1), at(59))).toEqual([])

      const claimed = await store.deliveries.claim(10, T0, at(60))
      expect(claimed).toHaveLength(2)
      expect(claimed[0]).toMatchObject({
        event_id: 'evt_1',
        body: '{"id":"evt_1"}',
        active: 1,
        attempt_count: 0,
        next_trigger: 'scheduled',
      })
      expect(claimed.map((c) => c.secret).sort()).toEqual(['whsec_secret0', 'whsec_secret1'])
      // Held: nobody else gets them before the lease ends …
      expect(await store.deliveries.claim(10, at(59), at(119))).toEqual([])
      // … and after it, they come back with a new claim token.
      const again = await store.deliveries.claim(10, at(60), at(120))
      expect(again.map((c) => c.id).sort()).toEqual(claimed.map((c) => c.id).sort())
      expect(again[0]!.claim_token).not.toBe(claimed[0]!.claim_token)
    })

    it('a renewal extends the leases of rows still held with their claim token, and no others', async () => {
      const store = current()
      const { api, hooks } = await seed(store, 2)
      await store.webhooks.enqueue(
        event(api.id),
        hooks.map((h) => h.id),
      )
      const [first, second] = await store.deliveries.claim(10, T0, at(15))
      // The second row's lease ran out and another worker took it: it is no longer ours.
      const [taken] = await store.deliveries.claim(1, at(15), at(30))
      expect(taken?.id).toBeDefined()
      const mine = taken!.id === first!.id ? second! : first!
      const lost = taken!.id === first!.id ? first! : second!
      const held = [mine, lost].map((c) => ({ id: c.id, claimToken: c.claim_token }))
      expect(await store.deliveries.renew(held, at(45))).toBe(1)
      const rows = await store.kysely
        .selectFrom('webhook_deliveries')
        .select(['id', 'next_attempt_at', 'claim_token'])
        .execute()
      const byId = new Map(rows.map((r) => [r.id, r]))
      expect(byId.get(mine.id)).toMatchObject({
        next_attempt_at: at(45),
        claim_token: mine.claim_token,
      })
      expect(byId.get(lost.id)).toMatchObject({
        next_attempt_at: at(30),
        claim_token: taken!.claim_token,
      })
      // Held until the renewed lease ends (the other row's lease ended at 30 s), then due again.
      const before = await store.deliveries.claim(10, at(44), at(60))
      expect(before.map((c) => c.id)).toEqual([lost.id])
      const after = await store.deliveries.claim(10, at(45), at(60))
      expect(after.map((c) => c.id)).toEqual([mine.id])
      // A row whose outcome is written is not held any more: its old token renews nothing.
      await store.deliveries.complete([done(after[0]!, 'succeeded', at(46))])
      expect(
        await store.deliveries.renew([{ id: mine.id, claimToken: after[0]!.claim_token }], at(90)),
      ).toBe(0)
      expect(
        await store.kysely
          .selectFrom('webhook_deliveries')
          .select(['state', 'next_attempt_at', 'claim_token'])
          .where('id', '=', mine.id)
          .executeTakeFirst(),
      ).toEqual({ state: 'succeeded', next_attempt_at: null, claim_token: null })
      // Nothing held: no statement, nothing renewed.
      expect(await store.deliveries.renew([], at(90))).toBe(0)
    })

    it('a completion only lands with the current claim token', async () => {
      const store = current()
      const { api, hooks } = await seed(store, 1)
      await store.webhooks.enqueue(event(api.id), [hooks[0]!.id])
      const [stale] = await store.deliveries.claim(1, T0, at(60))
      const [fresh] = await store.deliveries.claim(1, at(60), at(120))
      expect(await store.deliveries.complete([done(stale!, 'succeeded', at(61))])).toEqual(
        new Set(),
      )
      expect(await store.kysely.selectFrom('webhook_attempts').selectAll().execute()).toEqual([])

      const written = await store.deliveries.complete([done(fresh!, 'succeeded', at(62))])
      expect(written).toEqual(new Set([fresh!.id]))
      const [row] = await store.kysely.selectFrom('webhook_deliveries').selectAll().execute()
      expect(row).toMatchObject({
        state: 'succeeded',
        claim_token: null,
        attempt_count: 1,
        last_status: 200,
        completed_at: at(62),
      })
      const attempts = await store.deliveries.attempts([fresh!.id])
      expect(attempts.get(fresh!.id)).toMatchObject([{ number: 1, outcome: 'succeeded' }])
    })

    it('a retry pending row is due again at its next attempt', async () => {
      const store = current()
      const { api, hooks } = await seed(store, 1)
      await store.webhooks.enqueue(event(api.id), [hooks[0]!.id])
      const [claimed] = await store.deliveries.claim(1, T0, at(60))
      await store.deliveries.complete([done(claimed!, 'pending', at(1))])
      expect(await store.deliveries.claim(1, at(3599), at(3659))).toEqual([])
      const [due] = await store.deliveries.claim(1, at(3600), at(3660))
      expect(due).toMatchObject({ id: claimed!.id, attempt_count: 1, window_started_at: at(1) })
    })

    it('concurrent claims never hand out the same row twice', async () => {
      const store = current()
      const { api, hooks } = await seed(store, 1)
      for (let i = 0; i < 20; i++) {
        await store.webhooks.enqueue(event(api.id, `evt_${i}`), [hooks[0]!.id, hooks[0]!.id])
      }
      const claims = await Promise.all(
        Array.from({ length: 8 }, () => store.deliveries.claim(7, T0, at(60))),
      )
      const ids = claims.flat().map((c) => c.id)
      expect(ids).toHaveLength(40)
      expect(new Set(ids).size).toBe(40)
    })

    it('a manual retry requeues a finished delivery with a new window, never a pending one', async () => {
      const store = current()
      const { api, hooks } = await seed(store, 1)
      const webhookId = hooks[0]!.id
      await store.webhooks.enqueue(event(api.id), [webhookId])
      const [claimed] = await store.deliveries.claim(1, T0, at(60))
      expect(await store.deliveries.retry(webhookId, claimed!.id, at(2))).toBeUndefined()
      await store.deliveries.complete([done(claimed!, 'failed', at(1))])
      expect(await store.deliveries.retry('whk_other', claimed!.id, at(2))).toBeUndefined()

      const retried = await store.deliveries.retry(webhookId, claimed!.id, at(2))
      expect(retried).toMatchObject({
        state: 'pending',
        next_attempt_at: at(2),
        next_trigger: 'manual',
        window_started_at: null,
        window_attempts: 0,
        attempt_count: 1,
        completed_at: null,
      })
      const [again] = await store.deliveries.claim(1, at(2), at(62))
      expect(again).toMatchObject({ id: claimed!.id, next_trigger: 'manual', attempt_count: 1 })
    })

    it('recover requeues the failed deliveries created in the window, and only those', async () => {
      const store = current()
      const { api, hooks } = await seed(store, 1)
      const webhookId = hooks[0]!.id
      for (const [i, created] of [at(0), at(100), at(200), at(300)].entries()) {
        await store.webhooks.enqueue(event(api.id, `evt_${i}`, created), [webhookId])
      }
      const claimed = await store.deliveries.claim(10, at(400), at(460))
      await store.deliveries.complete(
        claimed.map((c) => done(c, c.event_id === 'evt_2' ? 'succeeded' : 'failed', at(401))),
      )
      expect(await store.deliveries.recover(webhookId, at(100), at(300), at(500))).toBe(1)
      const pending = await store.deliveries.list(webhookId, { state: 'pending', limit: 10 })
      expect(pending.map((d) => d.event_id)).toEqual(['evt_1'])
      const all = await store.deliveries.list(webhookId, { limit: 10 })
      expect(all.map((d) => d.event_id)).toEqual(['evt_3', 'evt_2', 'evt_1', 'evt_0'])
      const page = await store.deliveries.list(webhookId, {
        limit: 2,
        before: { createdAt: all[1]!.created_at, id: all[1]!.id },
      })
      expect(page.map((d) => d.event_id)).toEqual(['evt_1', 'evt_0'])
    })
  })
}
