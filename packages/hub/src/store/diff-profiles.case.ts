import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { revisionRow } from './apis-repo.case.js'
import type { Store } from './store.js'

/**
 * Back to the schema before migration 0015 (diff profiles), for the tests of earlier migrations
 * that run the later ones again.
 */
export async function undoDiffProfiles(store: Store): Promise<void> {
  const db = store.kysely
  await db.schema.dropTable('revision_changelogs').execute()
  await db.schema.alterTable('revisions').dropColumn('profile').execute()
  await db.schema.alterTable('webhooks').dropColumn('profile').execute()
  await db.schema.alterTable('apis').dropColumn('diff_profile').execute()
}

/**
 * The storage contract of diff profiles, part of `runStoreTests`: an API's profile, a webhook's,
 * a revision's changelogs under other profiles, and which webhooks an event judged under a
 * profile goes to.
 */
export function runDiffProfileTests(current: () => Store): void {
  const T0 = '2026-01-01T00:00:00.000Z'

  async function seed(store: Store) {
    const alice = await store.accounts.create('alice', 'user')
    const api = await store.apis.create({
      account_id: alice.id,
      slug: 'petstore',
      name: 'Petstore',
      visibility: 'private',
      source_url: null,
    })
    return { alice, api }
  }

  const hook = (store: Store, apiId: string, by: string, profile?: 'wire' | 'sdk' | null) =>
    store.webhooks.create(
      {
        api_id: apiId,
        url: `https://example.com/${profile ?? 'follows'}`,
        description: null,
        secret: 'whsec_x',
        created_by: by,
        active: true,
        ...(profile === undefined ? {} : { profile }),
      },
      T0,
    )

  const event = (apiId: string, id: string) => ({
    id,
    api_id: apiId,
    type: 'dev.svc.api.revision.v1' as const,
    revision_id: null,
    body: '{}',
    created_at: T0,
  })

  it("an API is diffed under wire until its profile is set; the setting is the API's own", async () => {
    const store = current()
    const { alice, api } = await seed(store)
    expect(api.diff_profile).toBe('wire')
    expect(await store.apis.diffProfile(api.id)).toBe('wire')
    await store.apis.setDiffProfile(api.id, 'sdk')
    expect(await store.apis.diffProfile(api.id)).toBe('sdk')
    expect((await store.apis.find('alice', 'petstore'))?.diff_profile).toBe('sdk')
    const other = await store.apis.create({
      account_id: alice.id,
      slug: 'other',
      name: 'Other',
      visibility: 'private',
      source_url: null,
    })
    expect(await store.apis.diffProfile(other.id)).toBe('wire')
  })

  it("a revision's changelog under another profile is kept beside it, once", async () => {
    const store = current()
    const { alice, api } = await seed(store)
    const first = await store.apis.appendRevision(revisionRow(api.id, alice.id, 'a: 1'))
    const second = await store.apis.appendRevision({
      ...revisionRow(api.id, alice.id, 'a: 2', first.id),
      profile: 'wire',
      changes: '[{"id":"operation-id-changed"}]',
      warning: 1,
    })
    expect((await store.apis.revision(api.id, second.id))?.profile).toBe('wire')
    const own = await store.apis.changelogUnder(second.id, 'wire')
    expect(own).toMatchObject({ profile: 'wire', warning: 1, changes: second.changes })
    expect(await store.apis.changelogUnder(second.id, 'sdk')).toBeUndefined()

    const sdk = {
      revision_id: second.id,
      profile: 'sdk' as const,
      summary: '{"diff":true,"details":{}}',
      breaking: 1,
      warning: 1,
      info: 0,
      changes: '[{"id":"sdk-operation-renamed"},{"id":"operation-id-changed"}]',
      changelog_issues: null,
    }
    await store.apis.keepChangelogs([sdk])
    // A second reader that computed it too keeps the first.
    await store.apis.keepChangelogs([{ ...sdk, breaking: 7 }])
    const { revision_id: _id, ...kept } = sdk
    expect(await store.apis.changelogUnder(second.id, 'sdk')).toEqual(kept)
    expect(await store.apis.otherCounts(second.id)).toEqual([
      { profile: 'sdk', breaking: 1, warning: 1, info: 0 },
    ])
  })

  it('an event judged under a profile goes to the webhooks set to it, and to those that follow the API when it is the API’s', async () => {
    const store = current()
    const { alice, api } = await seed(store)
    const follows = await hook(store, api.id, alice.id)
    const wire = await hook(store, api.id, alice.id, 'wire')
    const sdk = await hook(store, api.id, alice.id, 'sdk')
    expect([follows.profile, wire.profile, sdk.profile]).toEqual([null, 'wire', 'sdk'])
    expect((await store.webhooks.activeProfiles(api.id, 'wire')).sort()).toEqual(['sdk', 'wire'])

    const delivered = async (eventId: string) =>
      (
        await store.kysely
          .selectFrom('webhook_deliveries')
          .select('webhook_id')
          .where('event_id', '=', eventId)
          .execute()
      )
        .map((row) => row.webhook_id)
        .sort()
    const audience = { profile: 'wire', apiProfile: 'wire' } as const
    expect(await store.webhooks.enqueueForActive(event(api.id, 'evt_w'), ['info'], audience)).toBe(
      2,
    )
    expect(await delivered('evt_w')).toEqual([follows.id, wire.id].sort())
    const toSdk = { profile: 'sdk', apiProfile: 'wire' } as const
    expect(await store.webhooks.enqueueForActive(event(api.id, 'evt_s'), ['info'], toSdk)).toBe(1)
    expect(await delivered('evt_s')).toEqual([sdk.id])

    // The API set to sdk: the webhook that follows it goes with it.
    expect((await store.webhooks.activeProfiles(api.id, 'sdk')).sort()).toEqual(['sdk', 'wire'])
    const underSdk = { profile: 'sdk', apiProfile: 'sdk' } as const
    expect(await store.webhooks.enqueueForActive(event(api.id, 'evt_s2'), ['info'], underSdk)).toBe(
      2,
    )
    expect(await delivered('evt_s2')).toEqual([follows.id, sdk.id].sort())

    // Set to follow the API again, and inactive webhooks judge nothing.
    expect((await store.webhooks.update(api.id, sdk.id, { profile: null }, T0))?.profile).toBeNull()
    await store.webhooks.update(api.id, wire.id, { active: false }, T0)
    expect(await store.webhooks.activeProfiles(api.id, 'wire')).toEqual(['wire'])
  })

  describe('migration 0015', () => {
    it('gives the APIs, webhooks and revisions that existed before it the wire profile', async () => {
      const store = current()
      const { alice, api } = await seed(store)
      const follows = await hook(store, api.id, alice.id)
      const revision = await store.apis.appendRevision(revisionRow(api.id, alice.id))
      await undoDiffProfiles(store)
      await sql`delete from kysely_migration where name >= '0015'`.execute(store.kysely)
      await store.migrate()
      expect(await store.apis.diffProfile(api.id)).toBe('wire')
      expect((await store.webhooks.find(api.id, follows.id))?.profile).toBeNull()
      expect((await store.apis.revision(api.id, revision.id))?.profile).toBe('wire')
      expect(await store.apis.changelogUnder(revision.id, 'sdk')).toBeUndefined()
    })
  })
}
