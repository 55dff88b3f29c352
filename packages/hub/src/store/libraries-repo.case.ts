import { describe, expect, it } from 'vitest'
import type { IdempotencyKeyId } from './idempotency-repo.js'
import type { LibraryRow } from './schema.js'
import type { Store } from './store.js'

/**
 * The storage contract of libraries and of idempotency keys, part of `runStoreTests`
 * (`store.case.ts`), so it runs on every engine.
 */
export function runLibrariesRepoTests(current: () => Store): void {
  const T0 = '2026-01-01T00:00:00.000Z'
  const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString()
  const KEY: IdempotencyKeyId = { scope: 'org:org_1', key: 'key-1' }
  const claimAt = (seconds: number, requestHash = 'hash-a') => ({
    requestHash,
    at: at(seconds),
    expiresAt: at(seconds + 86_400),
  })

  function library(orgId: string, id: string, createdAt: string): LibraryRow {
    return {
      id,
      org_id: orgId,
      name: `Library ${id}`,
      ingestion_profile: '{"id":"p","version":"1"}',
      created_by: null,
      api_key_id: null,
      created_at: createdAt,
      updated_at: createdAt,
    }
  }

  describe('libraries', () => {
    it('finds a library by id, and lists one organisation, or every organisation of a member, oldest first', async () => {
      const store = current()
      const alice = await store.accounts.create('alice', 'user')
      const acme = await store.accounts.create('acme', 'org')
      const beta = await store.accounts.create('beta', 'org')
      const other = await store.accounts.create('other', 'org')
      await store.accounts.setRole(acme.id, alice.id, 'reader')
      await store.accounts.setRole(beta.id, alice.id, 'owner')
      const rows = [
        library(acme.id, 'lib_b', at(2)),
        library(acme.id, 'lib_a', at(2)),
        library(beta.id, 'lib_c', at(1)),
        library(other.id, 'lib_d', at(0)),
      ]
      for (const row of rows) await store.libraries.create(row)

      expect(await store.libraries.find('lib_a')).toEqual(rows[1])
      expect(await store.libraries.find('lib_missing')).toBeUndefined()
      const ids = (list: LibraryRow[]) => list.map((row) => row.id)
      expect(ids(await store.libraries.list({ orgId: acme.id }, { limit: 10 }))).toEqual([
        'lib_a',
        'lib_b',
      ])
      expect(ids(await store.libraries.list({ memberId: alice.id }, { limit: 10 }))).toEqual([
        'lib_c',
        'lib_a',
        'lib_b',
      ])
      const first = await store.libraries.list({ memberId: alice.id }, { limit: 2 })
      const last = first.at(-1)!
      const rest = await store.libraries.list(
        { memberId: alice.id },
        { after: { createdAt: last.created_at, id: last.id }, limit: 2 },
      )
      expect([...ids(first), ...ids(rest)]).toEqual(['lib_c', 'lib_a', 'lib_b'])
      expect(await store.libraries.list({ memberId: 'usr_nobody' }, { limit: 10 })).toEqual([])
    })
  })

  describe('idempotency keys', () => {
    it('the first claim of a key wins; later claims get its row, whatever their hash', async () => {
      const store = current()
      const first = await store.idempotency.claim(KEY, claimAt(0))
      expect(first.claimed).toBe(true)
      const again = await store.idempotency.claim(KEY, claimAt(1))
      const other = await store.idempotency.claim(KEY, claimAt(2, 'hash-b'))
      for (const result of [again, other]) {
        expect(result).toEqual({
          claimed: false,
          row: {
            ...KEY,
            request_hash: 'hash-a',
            state: 'in_flight',
            claim_token: first.claimed ? first.token : '',
            claimed_at: at(0),
            response_status: null,
            response_body: null,
            created_at: at(0),
            expires_at: at(86_400),
          },
        })
      }
      // Keys are per scope: the same key of another caller is another key.
      expect(
        (await store.idempotency.claim({ ...KEY, scope: 'user:usr_1' }, claimAt(3))).claimed,
      ).toBe(true)
    })

    it('ten claims at once of one key: exactly one wins', async () => {
      const store = current()
      const results = await Promise.all(
        Array.from({ length: 10 }, () => store.idempotency.claim(KEY, claimAt(0))),
      )
      expect(results.filter((r) => r.claimed)).toHaveLength(1)
      const rows = await store.kysely.selectFrom('idempotency_keys').selectAll().execute()
      expect(rows).toHaveLength(1)
    })

    it('completing stores the response once, for the holder of the claim only', async () => {
      const store = current()
      const claim = await store.idempotency.claim(KEY, claimAt(0))
      if (!claim.claimed) throw new Error('not claimed')
      const response = { status: 201, body: '{"a":"é ✓"}' }
      expect(await store.idempotency.complete(KEY, 'not-the-token', response)).toBe(false)
      expect(await store.idempotency.complete(KEY, claim.token, response)).toBe(true)
      expect(await store.idempotency.complete(KEY, claim.token, { status: 500, body: '' })).toBe(
        false,
      )
      expect(await store.idempotency.find(KEY)).toMatchObject({
        state: 'done',
        response_status: 201,
        response_body: '{"a":"é ✓"}',
      })
      // A done key is not released, and stays until it expires.
      await store.idempotency.release(KEY, claim.token)
      expect((await store.idempotency.claim(KEY, claimAt(86_399))).claimed).toBe(false)
    })

    it('a completion inside a transaction that rolls back leaves the key in flight', async () => {
      const store = current()
      const claim = await store.idempotency.claim(KEY, claimAt(0))
      if (!claim.claimed) throw new Error('not claimed')
      const boom = new Error('boom')
      await expect(
        store.transaction(async (tx) => {
          expect(await tx.idempotency.complete(KEY, claim.token, { status: 201, body: '{}' })).toBe(
            true,
          )
          throw boom
        }),
      ).rejects.toBe(boom)
      expect((await store.idempotency.find(KEY))?.state).toBe('in_flight')
    })

    it('a released key can be claimed again; releasing needs the claim token', async () => {
      const store = current()
      const claim = await store.idempotency.claim(KEY, claimAt(0))
      if (!claim.claimed) throw new Error('not claimed')
      await store.idempotency.release(KEY, 'not-the-token')
      expect(await store.idempotency.find(KEY)).toBeDefined()
      await store.idempotency.release(KEY, claim.token)
      expect(await store.idempotency.find(KEY)).toBeUndefined()
      expect((await store.idempotency.claim(KEY, claimAt(1, 'hash-b'))).claimed).toBe(true)
    })

    it('a key that expired is claimed over by the next request, with its own hash', async () => {
      const store = current()
      const claim = await store.idempotency.claim(KEY, claimAt(0))
      if (!claim.claimed) throw new Error('not claimed')
      await store.idempotency.complete(KEY, claim.token, { status: 201, body: '{}' })
      expect((await store.idempotency.claim(KEY, claimAt(86_399, 'hash-b'))).claimed).toBe(false)

      const after = await store.idempotency.claim(KEY, claimAt(86_400, 'hash-b'))
      expect(after.claimed).toBe(true)
      expect(await store.idempotency.find(KEY)).toMatchObject({
        request_hash: 'hash-b',
        state: 'in_flight',
        response_status: null,
        response_body: null,
        created_at: at(86_400),
        expires_at: at(2 * 86_400),
      })
      // The old holder can no longer write.
      expect(await store.idempotency.complete(KEY, claim.token, { status: 201, body: '' })).toBe(
        false,
      )
    })

    it('an in-flight claim can be taken over with its token, once; the old holder then loses', async () => {
      const store = current()
      const claim = await store.idempotency.claim(KEY, claimAt(0))
      if (!claim.claimed) throw new Error('not claimed')
      expect(await store.idempotency.takeOver(KEY, 'not-the-token', at(60))).toBeUndefined()
      const [a, b] = await Promise.all([
        store.idempotency.takeOver(KEY, claim.token, at(60)),
        store.idempotency.takeOver(KEY, claim.token, at(60)),
      ])
      const taken = a ?? b
      expect([a, b].filter(Boolean)).toHaveLength(1)
      expect(await store.idempotency.find(KEY)).toMatchObject({
        claim_token: taken,
        claimed_at: at(60),
        created_at: at(0),
      })
      const response = { status: 201, body: '{}' }
      expect(await store.idempotency.complete(KEY, claim.token, response)).toBe(false)
      expect(await store.idempotency.complete(KEY, taken!, response)).toBe(true)
      expect(await store.idempotency.takeOver(KEY, taken!, at(120))).toBeUndefined()
    })

    it('the sweep deletes the keys that expired, and only those', async () => {
      const store = current()
      await store.idempotency.claim({ ...KEY, key: 'old' }, claimAt(0))
      await store.idempotency.claim({ ...KEY, key: 'new' }, claimAt(10))
      expect(await store.idempotency.sweep(at(86_405))).toBe(1)
      expect(await store.idempotency.find({ ...KEY, key: 'old' })).toBeUndefined()
      expect(await store.idempotency.find({ ...KEY, key: 'new' })).toBeDefined()
      expect(await store.idempotency.sweep(at(86_405))).toBe(0)
    })
  })
}
