import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { snapshotStore } from '../../test/support/store-snapshot.js'
import { StaleRevisionError, type AppendRevision } from './apis-repo.js'
import type { AccountRow, ApiRow, RevisionRow } from './schema.js'
import type { Store } from './store.js'

/**
 * The storage contract of APIs and revisions, part of `runStoreTests` (`store.case.ts`), so it
 * runs on every engine. `current()` is the store of the running test.
 */
export function runApisRepoTests(current: () => Store): void {
  describe('APIs', () => {
    it('create and find by owner handle and slug; an owner has one API per slug', async () => {
      const store = current()
      const bob = await store.accounts.create('bob', 'user')
      const acme = await store.accounts.create('acme', 'org')
      const api = await store.apis.create(newApi(bob, 'petstore', 'public'))
      expect(api.id).toMatch(/^api_[0-9a-f]{24}$/)

      expect(await store.apis.find('bob', 'petstore')).toEqual({ ...api, owner_handle: 'bob' })
      expect(await store.apis.find('acme', 'petstore')).toBeUndefined()
      expect(await store.apis.find('bob', 'other')).toBeUndefined()

      const same = await store.apis.create(newApi(acme, 'petstore', 'private'))
      expect(await store.apis.find('acme', 'petstore')).toEqual({ ...same, owner_handle: 'acme' })
      const duplicate = await rejection(store.apis.create(newApi(acme, 'petstore', 'public')))
      expect(store.capabilities.isUniqueViolation(duplicate)).toBe(true)
    })

    it('listReadable: public APIs of anyone, private ones of the reader and its organisations', async () => {
      const store = current()
      const alice = await store.accounts.create('alice', 'user')
      const bob = await store.accounts.create('bob', 'user')
      const acme = await store.accounts.create('acme', 'org')
      const other = await store.accounts.create('other', 'org')
      await store.accounts.setRole(acme.id, alice.id, 'reader')
      for (const [owner, slug, visibility] of [
        [alice, 'a-private', 'private'],
        [alice, 'a-public', 'public'],
        [bob, 'b-private', 'private'],
        [bob, 'b-public', 'public'],
        [acme, 'acme-private', 'private'],
        [other, 'other-private', 'private'],
        [other, 'other-public', 'public'],
      ] as const) {
        await store.apis.create(newApi(owner, slug, visibility))
      }
      // Sorted: APIs made in the same millisecond come in the order of their ids.
      const slugs = async (query: Parameters<Store['apis']['listReadable']>[0]) =>
        (await store.apis.listReadable(query))
          .map((api) => `${api.owner_handle}/${api.slug}`)
          .sort()

      expect(await slugs({ readerId: alice.id, limit: 50 })).toEqual([
        'acme/acme-private',
        'alice/a-private',
        'alice/a-public',
        'bob/b-public',
        'other/other-public',
      ])
      expect(await slugs({ readerId: undefined, limit: 50 })).toEqual([
        'alice/a-public',
        'bob/b-public',
        'other/other-public',
      ])
      expect(await slugs({ readerId: bob.id, ownerId: acme.id, limit: 50 })).toEqual([])
      expect(await slugs({ readerId: alice.id, ownerId: acme.id, limit: 50 })).toEqual([
        'acme/acme-private',
      ])
    })

    it('listReadable pages in a stable order, also among APIs made in the same millisecond', async () => {
      const store = current()
      const bob = await store.accounts.create('bob', 'user')
      const made: ApiRow[] = []
      for (let i = 0; i < 7; i++) made.push(await store.apis.create(newApi(bob, `api-${i}`)))
      // Same created_at for some: the id breaks the tie.
      await store.kysely
        .updateTable('apis')
        .set({ created_at: '2026-01-01T00:00:00.000Z' })
        .where('slug', 'in', ['api-2', 'api-3', 'api-4'])
        .execute()
      const all = await store.apis.listReadable({ readerId: bob.id, limit: 50 })
      expect(all).toHaveLength(7)

      const paged: string[] = []
      let after: { createdAt: string; id: string } | undefined
      for (;;) {
        const page = await store.apis.listReadable({ readerId: bob.id, after, limit: 3 })
        paged.push(...page.map((api) => api.id))
        const last = page.at(-1)
        if (page.length < 3 || !last) break
        after = { createdAt: last.created_at, id: last.id }
      }
      expect(paged).toEqual(all.map((api) => api.id))
      expect(new Set(paged).size).toBe(7)
    })
  })

  describe('revisions', () => {
    it('append makes a series: seq 1, 2, 3 …, each linked to the one before, the last one latest', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      expect(await store.apis.latestRevision(api.id)).toBeUndefined()

      const first = await store.apis.appendRevision(newRevision(api, alice, 'one', null))
      expect(first).toMatchObject({ seq: 1, previous_revision_id: null, size: 3 })
      expect(first.id).toMatch(/^rev_[0-9a-f]{24}$/)
      expect(first.content_hash).toBe(sha256('one'))
      expect([...((await store.blobs.get(first.content_hash)) ?? [])]).toEqual([...bytes('one')])

      const second = await store.apis.appendRevision(newRevision(api, alice, 'two', first.id))
      const third = await store.apis.appendRevision({
        ...newRevision(api, alice, 'three', second.id),
        version: '0.9.0',
      })
      expect([second.seq, third.seq]).toEqual([2, 3])
      expect(third.previous_revision_id).toBe(second.id)

      const {
        changes: _changes,
        changelog_issues: _issues,
        parse_issues: _parseIssues,
        ...listing
      } = third
      expect(await store.apis.latestRevision(api.id)).toEqual({
        ...listing,
        created_by_handle: 'alice',
        accepted_by_handle: null,
        accepted_at: null,
        acceptance_reason: null,
      })
      expect(await store.apis.revision(api.id, first.id)).toMatchObject({ id: first.id, seq: 1 })
      const page = await store.apis.revisions(api.id, { limit: 10 })
      expect(page.map((r) => r.seq)).toEqual([3, 2, 1])
      expect(
        page.every(
          (r) => !('changes' in r) && !('changelog_issues' in r) && !('parse_issues' in r),
        ),
      ).toBe(true)
    })

    it('finds a revision by id, by sequence number, or the latest; only in its own API', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const first = await store.apis.appendRevision(newRevision(api, alice, 'one', null))
      const second = await store.apis.appendRevision(newRevision(api, alice, 'two', first.id))
      const at = (address: Parameters<typeof store.apis.revisionAt>[1]) =>
        store.apis.revisionAt(api.id, address).then((row) => row?.id)
      expect(await at({ latest: true })).toBe(second.id)
      expect(await at({ seq: 1 })).toBe(first.id)
      expect(await at({ seq: 2 })).toBe(second.id)
      expect(await at({ seq: 3 })).toBeUndefined()
      expect(await at({ id: first.id })).toBe(first.id)
      expect(await store.apis.revisionAt('api_other', { seq: 1 })).toBeUndefined()
    })

    it("records a revision's acceptance once, lists it with the revision, and withdraws it", async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const first = await store.apis.appendRevision(newRevision(api, alice, 'one', null))
      const second = await store.apis.appendRevision(newRevision(api, alice, 'two', first.id))
      const acceptance = {
        revision_id: second.id,
        accepted_by: alice.id,
        accepted_at: '2026-12-07T10:00:00.000Z',
        reason: 'on purpose',
      }
      expect(await store.apis.accept(acceptance)).toBeUndefined()
      // A second one answers the one that stands, and changes nothing.
      expect(
        await store.apis.accept({
          ...acceptance,
          reason: 'again',
          accepted_at: new Date().toISOString(),
        }),
      ).toEqual(acceptance)
      expect(await store.apis.revision(api.id, second.id)).toMatchObject({
        accepted_by_handle: 'alice',
        accepted_at: acceptance.accepted_at,
        acceptance_reason: 'on purpose',
      })
      const page = await store.apis.revisions(api.id, { limit: 10 })
      expect(page.map((r) => r.acceptance_reason)).toEqual(['on purpose', null])

      expect(await store.apis.withdrawAcceptance(second.id)).toBe(true)
      expect(await store.apis.withdrawAcceptance(second.id)).toBe(false)
      expect(await store.apis.revision(api.id, second.id)).toMatchObject({
        accepted_by_handle: null,
        accepted_at: null,
        acceptance_reason: null,
      })
    })

    it("store a changelog's parse issues apart, null when there are none", async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const clean = await store.apis.appendRevision(newRevision(api, alice, 'one', null))
      const issues = JSON.stringify({ before: [], after: [{ level: 'error', location: 'x' }] })
      const broken = await store.apis.appendRevision({
        ...newRevision(api, alice, 'two', clean.id),
        changelog_issues: issues,
      })
      expect(await store.apis.changelogIssues(clean.id)).toBeNull()
      expect(await store.apis.changelogIssues(broken.id)).toBe(issues)
      expect(await store.apis.changelogIssues('rev_missing')).toBeUndefined()
    })

    it("keep a revision's parse issues, and fill them in once for a revision without", async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const issues = JSON.stringify([{ level: 'warning', location: 'x' }])
      const kept = await store.apis.appendRevision({
        ...newRevision(api, alice, 'one', null),
        parse_issues: issues,
      })
      const old = await store.apis.appendRevision(newRevision(api, alice, 'two', kept.id))
      expect(await store.apis.parseIssues(kept.id)).toBe(issues)
      expect(await store.apis.parseIssues(old.id)).toBeNull()
      expect(await store.apis.parseIssues('rev_missing')).toBeUndefined()
      await store.apis.keepParseIssues(old.id, '[]')
      await store.apis.keepParseIssues(old.id, issues)
      await store.apis.keepParseIssues(kept.id, '[]')
      expect(await store.apis.parseIssues(old.id)).toBe('[]')
      expect(await store.apis.parseIssues(kept.id)).toBe(issues)
    })

    it('pages revisions newest first from a seq down', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      let previous: string | null = null
      for (let i = 1; i <= 5; i++) {
        previous = (await store.apis.appendRevision(newRevision(api, alice, `doc ${i}`, previous)))
          .id
      }
      expect((await store.apis.revisions(api.id, { limit: 2 })).map((r) => r.seq)).toEqual([5, 4])
      const rest = await store.apis.revisions(api.id, { beforeSeq: 4, limit: 2 })
      expect(rest.map((r) => r.seq)).toEqual([3, 2])
      const last = await store.apis.revisions(api.id, { beforeSeq: 2, limit: 2 })
      expect(last.map((r) => r.seq)).toEqual([1])
    })

    it("keeps each API's series apart", async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const other = await store.apis.create(newApi(alice, 'other'))
      const mine = await store.apis.appendRevision(newRevision(api, alice, 'same bytes', null))
      const theirs = await store.apis.appendRevision(newRevision(other, alice, 'same bytes', null))
      expect([mine.seq, theirs.seq]).toEqual([1, 1])
      // One blob for both: the document is content-addressed.
      expect(theirs.content_hash).toBe(mine.content_hash)
      expect(await store.kysely.selectFrom('blobs').selectAll().execute()).toHaveLength(1)
      expect(await store.apis.revision(other.id, mine.id)).toBeUndefined()
      expect((await store.apis.latestRevision(other.id))?.id).toBe(theirs.id)
    })

    it('store the changelog as given, thousands of entries included', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const changes = Array.from({ length: 5000 }, (_, i) => ({
        id: 'response-property-removed',
        level: 'breaking',
        message: `The property \`field${i}\` was removed from the response “200” — ünïcödé.`,
        location: `/paths/~1items~1{id}/get/responses/200/content/application~1json/schema/properties/field${i}`,
        operation: 'GET /items/{id}',
      }))
      const row = await store.apis.appendRevision({
        ...newRevision(api, alice, 'big', null),
        summary: JSON.stringify({
          diff: true,
          details: { operations: { added: 0, deleted: 0, modified: 1 } },
        }),
        breaking: 5000,
        changes: JSON.stringify(changes),
      })
      const text = await store.apis.changes(row.id)
      expect(text).toBe(JSON.stringify(changes))
      expect(await store.apis.changes('rev_missing')).toBeUndefined()
      expect(await store.apis.latestRevision(api.id)).toMatchObject({
        breaking: 5000,
        summary: row.summary,
      })
    })

    it('refuses to append onto a revision that is no longer the latest, and writes nothing', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const first = await store.apis.appendRevision(newRevision(api, alice, 'one', null))
      await store.apis.appendRevision(newRevision(api, alice, 'two', first.id))
      const before = await snapshotStore(store)

      for (const previous of [first.id, null, 'rev_unknown']) {
        const error = await rejection(
          store.apis.appendRevision(newRevision(api, alice, 'three', previous)),
        )
        expect(error).toBeInstanceOf(StaleRevisionError)
      }
      expect(await snapshotStore(store)).toEqual(before)
    })

    it('write the document and the revision together: a failure after the insert leaves nothing', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      await store.apis.appendRevision(newRevision(api, alice, 'kept', null))
      const before = await snapshotStore(store)
      const latest = await store.apis.latestRevision(api.id)

      const boom = new Error('boom after the revision was written')
      const error = await rejection(
        store.transaction(async (tx) => {
          const row = await tx.apis.appendRevision(newRevision(api, alice, 'lost', latest!.id))
          // The transaction sees its own revision before it fails.
          expect((await tx.apis.latestRevision(api.id))?.id).toBe(row.id)
          throw boom
        }),
      )
      expect(error).toBe(boom)
      expect(await snapshotStore(store)).toEqual(before)
      expect(await store.blobs.get(sha256('lost'))).toBeUndefined()

      // Outside a transaction the append makes its own: a failing insert keeps no blob either.
      const orphan = await rejection(
        store.apis.appendRevision({
          ...newRevision(api, alice, 'orphan', latest!.id),
          created_by: 'usr_missing',
        }),
      )
      expect(orphan).toBeInstanceOf(Error)
      expect(orphan).not.toBeInstanceOf(StaleRevisionError)
      expect(await snapshotStore(store)).toEqual(before)
    })

    it('two appends onto the same latest at once: one lands, the other is stale', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      const first = await store.apis.appendRevision(newRevision(api, alice, 'one', null))
      const results = await Promise.allSettled(
        ['two', 'deux'].map((text) =>
          store.transaction((tx) =>
            tx.apis.appendRevision(newRevision(api, alice, text, first.id)),
          ),
        ),
      )
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
      expect(lost.reason).toBeInstanceOf(StaleRevisionError)
      const series = await store.apis.revisions(api.id, { limit: 10 })
      expect(series.map((r) => r.seq)).toEqual([2, 1])
      expect(series[0]?.previous_revision_id).toBe(first.id)
    })

    it('concurrent pushes that retry on stale get distinct consecutive seqs, each linked to the one before', async () => {
      const store = current()
      const { alice, api } = await seedApi(store)
      // As `apis/push.ts` does it: read the latest, append onto it, start over when stale.
      const push = async (text: string): Promise<RevisionRow> => {
        for (let attempt = 1; attempt <= 50; attempt++) {
          const latest = await store.apis.latestRevision(api.id)
          try {
            return await store.transaction((tx) =>
              tx.apis.appendRevision(newRevision(api, alice, text, latest?.id ?? null)),
            )
          } catch (error) {
            if (!(error instanceof StaleRevisionError)) throw error
          }
        }
        throw new Error(`${text} never landed`)
      }
      const pushed = await Promise.all(Array.from({ length: 8 }, (_, i) => push(`doc ${i}`)))

      expect(pushed.map((r) => r.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
      const series = (await store.apis.revisions(api.id, { limit: 20 })).reverse()
      expect(series.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
      series.forEach((revision, i) => {
        expect(revision.previous_revision_id).toBe(i === 0 ? null : series[i - 1]!.id)
      })
      expect(new Set(series.map((r) => r.content_hash)).size).toBe(8)
    })
  })
}

function newApi(
  owner: AccountRow,
  slug: string,
  visibility: 'public' | 'private' = 'private',
): Omit<ApiRow, 'id' | 'created_at' | 'diff_profile'> {
  return { account_id: owner.id, slug, name: slug, visibility, source_url: null }
}

async function seedApi(store: Store) {
  const alice = await store.accounts.create('alice', 'user')
  const api = await store.apis.create(newApi(alice, 'petstore'))
  return { alice, api }
}

/** A revision of `document` (as text) onto `previous`, with an empty changelog. */
function newRevision(
  api: ApiRow,
  by: AccountRow,
  document: string,
  previous: string | null,
): AppendRevision {
  return revisionRow(api.id, by.id, document, previous)
}

/**
 * A revision of the API `apiId` pushed by the user `byId`: `document` (as text) onto
 * `previous`, with an empty changelog; for the store tests that need revisions to exist.
 */
export function revisionRow(
  apiId: string,
  byId: string,
  document = 'openapi: 3.1.0',
  previous: string | null = null,
): AppendRevision {
  return {
    api_id: apiId,
    document: bytes(document),
    media_type: 'application/yaml',
    protocol: 'oas',
    format: 'yaml',
    spec_version: '3.1.0',
    version: null,
    published_at: null,
    retrieved_at: new Date().toISOString(),
    created_by: byId,
    origin: 'push',
    previous_revision_id: previous,
    issue_errors: 0,
    issue_warnings: 0,
    issue_debug: 0,
    summary: JSON.stringify({ diff: false, details: {} }),
    breaking: 0,
    warning: 0,
    info: 0,
    changes: '[]',
  }
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}
