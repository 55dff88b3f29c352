import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { StoreKind } from '../../test/support/databases.js'
import { snapshotStore } from '../../test/support/store-snapshot.js'
import { runApisRepoTests } from './apis-repo.case.js'
import { runRateLimitsRepoTests } from './rate-limits-repo.case.js'
import { runCreditsRepoTests } from './credits-repo.case.js'
import { runWebhooksRepoTests } from './webhooks-repo.case.js'
import { runDiffProfileTests } from './diff-profiles.case.js'
import { runLibrariesRepoTests } from './libraries-repo.case.js'
import { runDeploymentsRepoTests } from './deployments-repo.case.js'
import { runQuotaStoreTests } from './quotas.case.js'
import { runSessionsRepoTests } from './sessions-repo.case.js'
import { runReadableListsTests } from './readable-lists.case.js'
import { migrationProvider } from './migrations/index.js'
import { openStore, type StoreOptions } from './open-store.js'
import { READ_TABLES } from './read-cache.js'
import type { AccountRow, NewStackVersion, Role, StackVersionRow } from './schema.js'
import type { StoredFile } from './stacks-repo.js'
import type { Repos, Store } from './store.js'

/** One store under test: new and empty, with the options that open it again. */
export type StoreUnderTest = {
  store: Store
  options: StoreOptions
  cleanup: () => Promise<void>
}

export type StoreCase = {
  kind: StoreKind
  /** A new, empty, migrated store on its own data (a temp dir, a fresh schema). */
  newStore: () => Promise<StoreUnderTest>
  /**
   * An empty store for one test; defaults to `newStore`. An engine whose migrations are slow to
   * run gives each test the data of one migrated store, emptied, instead.
   */
  emptyStore?: () => Promise<StoreUnderTest>
}

/**
 * The storage contract: what the hub relies on from its store, run the same on every engine
 * (`sqlite/sqlite-store.test.ts`, `postgres/postgres-store.test.ts`).
 */
export function runStoreTests({ kind, newStore, emptyStore = newStore }: StoreCase): void {
  let underTest: StoreUnderTest
  let store: Store

  beforeEach(async () => {
    underTest = await emptyStore()
    store = underTest.store
  })

  afterEach(async () => {
    await underTest.cleanup()
  })

  describe('opening and migrating', () => {
    it(`runs on ${kind}`, () => {
      expect(store.capabilities.name).toBe(kind)
      expect(store.describe.startsWith(kind)).toBe(true)
    })

    it('starts empty', async () => {
      expect(await store.accounts.isEmpty()).toBe(true)
      await store.accounts.create('alice', 'user')
      expect(await store.accounts.isEmpty()).toBe(false)
    })

    it('migrating again, in the same store or in a second one on the same data, is a no-op', async () => {
      const alice = await store.accounts.create('alice', 'user')
      await store.blobs.put(bytes('kept'))
      const before = await snapshotStore(store)

      await store.migrate()
      const second = await openStore(underTest.options)
      try {
        expect(await second.accounts.find('alice')).toEqual(alice)
        expect(await snapshotStore(second)).toEqual(before)
        const query = sql<{ name: string }>`select name from kysely_migration order by name`
        const applied = await query.execute(second.kysely)
        const known = Object.keys(await migrationProvider(store.capabilities).getMigrations())
        expect(applied.rows.map((r) => r.name)).toEqual(known.sort())
      } finally {
        await second.close()
      }
      expect(await snapshotStore(store)).toEqual(before)
    })

    it('a store on other data is empty and independent of this one', async () => {
      await store.accounts.create('alice', 'user')
      const other = await newStore()
      try {
        expect(await other.store.accounts.isEmpty()).toBe(true)
        await other.store.accounts.create('alice', 'org')
      } finally {
        await other.cleanup()
      }
      expect((await store.accounts.find('alice'))?.kind).toBe('user')
    })
  })

  describe('accounts', () => {
    it('users and organisations share one handle namespace', async () => {
      const alice = await store.accounts.create('alice', 'user')
      expect(alice.id).not.toBe('')

      const asOrg = await rejection(store.accounts.create('alice', 'org'))
      expect(store.capabilities.isUniqueViolation(asOrg)).toBe(true)
      const asUser = await rejection(store.accounts.create('alice', 'user'))
      expect(store.capabilities.isUniqueViolation(asUser)).toBe(true)

      const acme = await store.accounts.create('acme', 'org')
      expect(
        store.capabilities.isUniqueViolation(
          await rejection(store.accounts.create('acme', 'user')),
        ),
      ).toBe(true)

      expect(await store.accounts.find('alice')).toEqual(alice)
      expect(await store.accounts.findById(acme.id)).toEqual(acme)
      expect(await store.accounts.find('nobody')).toBeUndefined()
      expect(await store.kysely.selectFrom('accounts').selectAll().execute()).toHaveLength(2)
    })

    it('tells a unique violation from other failures', async () => {
      const alice = await store.accounts.create('alice', 'user')
      // A membership in an organisation that does not exist breaks a foreign key, not uniqueness.
      const foreignKey = await rejection(store.accounts.setRole('org_missing', alice.id, 'owner'))
      expect(store.capabilities.isUniqueViolation(foreignKey)).toBe(false)
      expect(store.capabilities.isUniqueViolation(new Error('unique'))).toBe(false)
      expect(store.capabilities.isUniqueViolation(undefined)).toBe(false)
    })

    it('setRole makes a membership, and a second call changes its role', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const acme = await store.accounts.create('acme', 'org')
      expect(await store.accounts.roleOf(acme.id, alice.id)).toBeUndefined()

      await store.accounts.setRole(acme.id, alice.id, 'reader')
      expect(await store.accounts.roleOf(acme.id, alice.id)).toBe('reader')
      await store.accounts.setRole(acme.id, alice.id, 'owner')
      expect(await store.accounts.roleOf(acme.id, alice.id)).toBe('owner')

      expect(await store.kysely.selectFrom('memberships').selectAll().execute()).toHaveLength(1)
    })

    it('memberships lists the organisations of one user with its role in each, by handle', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const bob = await store.accounts.create('bob', 'user')
      const carol = await store.accounts.create('carol', 'user')
      const zeta = await store.accounts.create('zeta', 'org')
      const beta = await store.accounts.create('beta', 'org')
      await store.accounts.setRole(zeta.id, alice.id, 'reader')
      await store.accounts.setRole(beta.id, alice.id, 'owner')
      await store.accounts.setRole(beta.id, bob.id, 'writer')

      expect(await store.accounts.memberships(alice.id)).toEqual([
        { handle: 'beta', role: 'owner' },
        { handle: 'zeta', role: 'reader' },
      ] satisfies { handle: string; role: Role }[])
      expect(await store.accounts.memberships(bob.id)).toEqual([{ handle: 'beta', role: 'writer' }])
      expect(await store.accounts.memberships(carol.id)).toEqual([])
    })

    it('finds a token by its hash, with the handle of its user', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const token = await store.accounts.insertToken({
        userId: alice.id,
        hash: sha256('svc_pat_secret'),
        scopes: ['stacks:read', 'stacks:write'],
        note: 'laptop',
        expiresAt: '2999-01-01T00:00:00.000Z',
      })
      expect(token.scopes).toBe('stacks:read stacks:write')

      expect(await store.accounts.findTokenByHash(sha256('svc_pat_secret'))).toEqual({
        ...token,
        user_handle: 'alice',
      })
      expect(await store.accounts.findToken(token.id)).toEqual(token)
      expect(await store.accounts.findTokenByHash(sha256('svc_pat_other'))).toBeUndefined()

      const at = '2030-01-02T03:04:05.000Z'
      await store.accounts.touchToken(token.id, at)
      expect((await store.accounts.findToken(token.id))?.last_used_at).toBe(at)
    })

    it('a serving store caches token lookups, and sees a change made elsewhere', async () => {
      // `hub` plays a serving hub; `store` another process on the same data (svc-hub admin).
      const hub = await openStore(underTest.options)
      try {
        await hub.cacheReads()
        const alice = await store.accounts.create('alice', 'user')
        const hash = sha256('svc_pat_cached')
        expect(await hub.accounts.findTokenByHash(hash)).toBeUndefined()
        const token = await store.accounts.insertToken({
          userId: alice.id,
          hash,
          scopes: ['read'],
          note: null,
          expiresAt: null,
        })
        expect(await hub.accounts.findTokenByHash(hash)).toEqual({ ...token, user_handle: 'alice' })
        const at = '2030-01-02T03:04:05.000Z'
        await hub.accounts.touchToken(token.id, at)
        expect((await hub.accounts.findTokenByHash(hash))?.last_used_at).toBe(at)

        await store.accounts.revokeToken(token.id)
        await vi.waitFor(
          async () => expect((await hub.accounts.findTokenByHash(hash))?.revoked_at).toBeTruthy(),
          { timeout: 2_000, interval: 20 },
        )

        const other = await store.accounts.insertToken({
          userId: alice.id,
          hash: sha256('svc_pat_other'),
          scopes: ['read'],
          note: null,
          expiresAt: null,
        })
        expect((await hub.accounts.findTokenByHash(other.token_hash))?.revoked_at).toBeNull()
        await hub.accounts.revokeToken(other.id)
        expect((await hub.accounts.findTokenByHash(other.token_hash))?.revoked_at).toBeTruthy()
      } finally {
        await hub.close()
      }
    })

    it('keeps token hashes unique', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const token = {
        userId: alice.id,
        hash: sha256('same'),
        scopes: [],
        note: null,
        expiresAt: null,
      }
      await store.accounts.insertToken(token)
      const error = await rejection(store.accounts.insertToken(token))
      expect(store.capabilities.isUniqueViolation(error)).toBe(true)
    })

    it('revoking a token stamps revoked_at once; revoking it again keeps the first time', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const token = await store.accounts.insertToken({
        userId: alice.id,
        hash: sha256('svc_pat_secret'),
        scopes: ['stacks:read'],
        note: null,
        expiresAt: null,
      })
      expect(token.revoked_at).toBeNull()

      const revoked = await store.accounts.revokeToken(token.id)
      expect(revoked?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      expect((await store.accounts.findTokenByHash(token.token_hash))?.revoked_at).toBe(
        revoked?.revoked_at,
      )

      await new Promise((resolve) => setTimeout(resolve, 5))
      const again = await store.accounts.revokeToken(token.id)
      expect(again).toEqual(revoked)
      expect(await store.accounts.revokeToken('tok_missing')).toBeUndefined()
    })
  })

  describe('blobs', () => {
    it('are content-addressed: the same bytes twice keep one row under their SHA-256', async () => {
      const data = bytes('export const answer = 42\n')
      const first = await store.blobs.put(data)
      const second = await store.blobs.put(bytes('export const answer = 42\n'))
      expect(first).toBe(sha256(data))
      expect(second).toBe(first)
      const rows = await store.kysely.selectFrom('blobs').select(['sha256', 'size']).execute()
      expect(rows).toEqual([{ sha256: first, size: data.byteLength }])
    })

    it('give back exactly the bytes stored, all 256 byte values included', async () => {
      const data = Uint8Array.from({ length: 512 }, (_, i) => i % 256)
      const key = await store.blobs.put(data)
      const got = await store.blobs.get(key)
      expect(got).toBeInstanceOf(Uint8Array)
      expect([...(got ?? [])]).toEqual([...data])
      expect(await store.blobs.get(sha256('not stored'))).toBeUndefined()
    })

    it('store a view into a larger buffer as just the bytes of the view', async () => {
      const whole = Uint8Array.from({ length: 256 }, (_, i) => i)
      const view = whole.subarray(100, 110)
      const key = await store.blobs.put(view)
      expect(key).toBe(sha256(Uint8Array.from(view)))
      expect([...((await store.blobs.get(key)) ?? [])]).toEqual([...view])
    })

    it('are stored in batches: many at once, duplicates and blobs stored already kept once', async () => {
      const kept = bytes('stored before')
      await store.blobs.put(kept)
      // 250 small blobs (more than one 100-row batch) and 3 of 3 MiB (more than one 4 MiB batch).
      const small = Array.from({ length: 250 }, (_, i) => bytes(`file ${i}`))
      const large = [1, 2, 3].map((n) => new Uint8Array(3 * 1024 * 1024).fill(n))
      const all = [...small, ...large, kept, small[0]!].map((data) => ({
        data,
        sha256: sha256(data),
      }))
      await store.blobs.putMany(all)
      const rows = await store.kysely.selectFrom('blobs').select('sha256').execute()
      expect(rows).toHaveLength(254)
      for (const data of [small[0]!, small[249]!, large[2]!, kept]) {
        expect([...((await store.blobs.get(sha256(data))) ?? [])].length).toBe(data.byteLength)
      }
    })

    it('are written a few MiB per statement, other work served between statements', async () => {
      const blobs = Array.from({ length: 10 }, (_, n) => new Uint8Array(4_800_000).fill(n)).map(
        (data) => ({ data, sha256: sha256(data) }),
      )
      let turns = 0
      let counting = true
      const count = () => {
        if (!counting) return
        turns++
        setImmediate(count)
      }
      setImmediate(count)
      await store.blobs.putMany(blobs)
      counting = false
      // Each blob is more than one batch: ten statements, the event loop turned between them
      // (a synchronous driver would otherwise hold it for all ten).
      expect(turns).toBeGreaterThanOrEqual(9)
      const rows = await store.kysely.selectFrom('blobs').select(['sha256', 'size']).execute()
      expect(rows).toHaveLength(10)
      expect(rows.every((row) => row.size === 4_800_000)).toBe(true)
    })

    it('give back a large blob whole, read a few MiB per statement, other work served between', async () => {
      const data = Uint8Array.from({ length: 10 * 1024 * 1024 + 7 }, (_, i) => (i * 31) % 251)
      const key = await store.blobs.put(data)
      let turns = 0
      let counting = true
      const count = () => {
        if (!counting) return
        turns++
        setImmediate(count)
      }
      setImmediate(count)
      const got = await store.blobs.get(key)
      counting = false
      expect(got?.byteLength).toBe(data.byteLength)
      expect(Buffer.compare(Buffer.from(got!), Buffer.from(data))).toBe(0)
      // Three slices of 4 MiB: the event loop turned before each.
      expect(turns).toBeGreaterThanOrEqual(3)
    })

    it.runIf(kind === 'postgres')(
      'stored again in a transaction, are held from another process until it ends (PostgreSQL)',
      async () => {
        // What a push does while another process's retention cleanup frees unreferenced blobs:
        // the blob exists already, so the insert neither writes nor locks it; putMany's hold
        // keeps the cleanup from deleting it before the push's revision references it.
        const data = bytes('a document pushed again')
        const key = await store.blobs.put(data)
        const other = await openStore(underTest.options)
        try {
          const tryDelete = () =>
            other.kysely.transaction().execute(async (trx) => {
              await sql`set local lock_timeout = '50ms'`.execute(trx)
              await trx.deleteFrom('blobs').where('sha256', '=', key).execute()
            })
          await store.transaction(async (tx) => {
            await tx.blobs.putMany([{ data, sha256: key }])
            await expect(tryDelete()).rejects.toThrow(/lock timeout/i)
          })
          await tryDelete()
          expect(await store.blobs.get(key)).toBeUndefined()
        } finally {
          await other.close()
        }
      },
    )

    it('store empty bytes', async () => {
      const key = await store.blobs.put(new Uint8Array(0))
      const got = await store.blobs.get(key)
      expect(got).toBeInstanceOf(Uint8Array)
      expect(got?.byteLength).toBe(0)
    })
  })

  describe('stacks', () => {
    it('ensure makes the stack once and then finds it', async () => {
      const acme = await store.accounts.create('acme', 'org')
      const first = await store.stacks.ensure(acme.id, 'web')
      const second = await store.stacks.ensure(acme.id, 'web')
      expect(second).toEqual(first)
      expect(await store.stacks.find('acme', 'web')).toEqual({ ...first, account_handle: 'acme' })
      expect(await store.stacks.find('acme', 'other')).toBeUndefined()
      expect(await store.kysely.selectFrom('stacks').selectAll().execute()).toHaveLength(1)
    })

    it('ensure called concurrently makes one stack', async () => {
      const acme = await store.accounts.create('acme', 'org')
      const stacks = await Promise.all(
        Array.from({ length: 5 }, () => store.stacks.ensure(acme.id, 'web')),
      )
      expect(new Set(stacks.map((s) => s.id)).size).toBe(1)
      expect(await store.kysely.selectFrom('stacks').selectAll().execute()).toHaveLength(1)
    })

    it('insertVersion stores every file of a tree larger than one insert chunk', async () => {
      const { alice, stackId, bundle } = await seedStack(store)
      const files = sourceFiles('src/file', 450, bundle)
      const row = await store.stacks.insertVersion(
        newVersion(stackId, alice, bundle, '1.0.0', files),
        [...files].reverse(),
      )

      expect(await store.stacks.version(stackId, '1.0.0')).toEqual(row)
      expect(await store.stacks.versions(stackId)).toEqual([{ ...row, publisher: 'alice' }])
      expect(await store.stacks.files(row.id)).toEqual(files)
      expect(await store.stacks.file(row.id, 'src/file-0449.ts')).toEqual(files[449])
      expect(await store.stacks.file(row.id, 'src/missing.ts')).toBeUndefined()
    })

    it('lists files in the byte order of their paths', async () => {
      const { alice, stackId, bundle } = await seedStack(store)
      const paths = ['src/ab.ts', 'src/a_b.ts', 'src/a/b.ts', 'src/a-c.ts', 'src/B.ts', 'README']
      const files = paths.map((path) => ({ path, size: 1, sha256: bundle }))
      const row = await store.stacks.insertVersion(
        newVersion(stackId, alice, bundle, '1.0.0', files),
        files,
      )
      expect((await store.stacks.files(row.id)).map((f) => f.path)).toEqual([...paths].sort())
    })

    it('a version is immutable: inserting the same version again is a unique violation', async () => {
      const { alice, stackId, bundle } = await seedStack(store)
      const files = sourceFiles('src/a', 3, bundle)
      const first = await store.stacks.insertVersion(
        newVersion(stackId, alice, bundle, '1.0.0', files),
        files,
      )
      const before = await snapshotStore(store)

      const other = sourceFiles('src/b', 2, bundle)
      const error = await rejection(
        store.stacks.insertVersion(newVersion(stackId, alice, bundle, '1.0.0', other), other),
      )
      expect(store.capabilities.isUniqueViolation(error)).toBe(true)
      expect(await snapshotStore(store)).toEqual(before)
      expect(await store.stacks.files(first.id)).toEqual(files)

      // The same number in another stack is another version.
      const tools = await store.stacks.ensure(alice.id, 'tools')
      await store.stacks.insertVersion(newVersion(tools.id, alice, bundle, '1.0.0', files), files)
      expect(await store.stacks.versions(tools.id)).toHaveLength(1)
    })

    it('two transactions publishing the same version at once: one lands, the other is a unique violation', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const acme = await store.accounts.create('acme', 'org')
      const bundle = bytes('bundle')
      const contenders = [
        sourceFiles('src/a', 3, sha256(bundle)),
        sourceFiles('src/b', 5, sha256(bundle)),
      ]

      // As `stacks/publish.ts` does it: blobs, then the stack, then the version, in one transaction.
      const publish = (files: StoredFile[]) =>
        store.transaction(async (tx) => {
          const bundleSha = await tx.blobs.put(bundle)
          const stack = await tx.stacks.ensure(acme.id, 'web')
          return tx.stacks.insertVersion(
            newVersion(stack.id, alice, bundleSha, '1.0.0', files),
            files,
          )
        })
      const results = await Promise.allSettled(contenders.map(publish))

      const winner = results.findIndex((r) => r.status === 'fulfilled')
      const loser = results.findIndex((r) => r.status === 'rejected')
      expect([winner, loser].sort()).toEqual([0, 1])
      const row = (results[winner] as PromiseFulfilledResult<StackVersionRow>).value
      const reason = (results[loser] as PromiseRejectedResult).reason as unknown
      expect(store.capabilities.isUniqueViolation(reason)).toBe(true)

      const stack = await store.stacks.find('acme', 'web')
      expect(await store.stacks.versions(stack?.id ?? '')).toEqual([
        { ...row, publisher: expect.any(String) },
      ])
      expect(await store.stacks.files(row.id)).toEqual(contenders[winner])
      // Nothing of the losing transaction is left behind.
      expect(
        await store.kysely.selectFrom('stack_version_files').selectAll().execute(),
      ).toHaveLength(contenders[winner]?.length ?? -1)
      expect(await store.kysely.selectFrom('stacks').selectAll().execute()).toHaveLength(1)
    })
  })

  describe('transactions', () => {
    it('commit everything the work wrote and answer what it returned', async () => {
      const result = await store.transaction(async (tx) => {
        const acme = await tx.accounts.create('acme', 'org')
        const stack = await tx.stacks.ensure(acme.id, 'web')
        return { acme, stack }
      })
      expect(await store.accounts.find('acme')).toEqual(result.acme)
      expect(await store.stacks.find('acme', 'web')).toEqual({
        ...result.stack,
        account_handle: 'acme',
      })
    })

    it('roll back everything the work wrote when it throws', async () => {
      const alice = await store.accounts.create('alice', 'user')
      await store.blobs.put(bytes('already here'))
      const before = await snapshotStore(store)

      const boom = new Error('boom after writing')
      const error = await rejection(
        store.transaction(async (tx) => {
          const acme = await tx.accounts.create('acme', 'org')
          await tx.accounts.setRole(acme.id, alice.id, 'owner')
          await tx.accounts.insertToken({
            userId: alice.id,
            hash: sha256('pat'),
            scopes: ['stacks:write'],
            note: null,
            expiresAt: null,
          })
          await tx.accounts.insertApiKey({
            orgId: acme.id,
            hash: sha256('key'),
            createdBy: alice.id,
          })
          const bundle = await tx.blobs.put(bytes('bundle'))
          const stack = await tx.stacks.ensure(acme.id, 'web')
          const files = sourceFiles('src/f', 250, bundle)
          await tx.stacks.insertVersion(newVersion(stack.id, alice, bundle, '1.0.0', files), files)
          const project = await seedProjectIn(tx, alice, stack.id)
          await tx.projects.setConfig(project.id, '{"basePath":"src"}')
          // The work sees its own writes before it fails.
          expect(await tx.accounts.find('acme')).toEqual(acme)
          throw boom
        }),
      )

      expect(error).toBe(boom)
      expect(await snapshotStore(store)).toEqual(before)
      expect(await store.accounts.find('acme')).toBeUndefined()
      // And the store still works afterwards.
      await store.accounts.create('acme', 'org')
      expect(await store.accounts.find('acme')).toBeDefined()
    })
  })

  describe('projects', () => {
    it('create and find, with the handles and slugs the project binds', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const acme = await store.accounts.create('acme', 'org')
      const stack = await store.stacks.ensure(acme.id, 'web-stack')
      const project = await seedProjectIn(store, alice, stack.id)
      expect(project.config_updated_at).toBeNull()

      expect(await store.projects.find('alice', 'my-app')).toEqual({
        ...project,
        account_handle: 'alice',
        stack_account_handle: 'acme',
        stack_slug: 'web-stack',
        api_account_handle: 'bob',
        api_slug: 'petstore',
      })
      expect(await store.projects.find('acme', 'my-app')).toBeUndefined()
      expect(await store.projects.find('alice', 'other')).toBeUndefined()

      const duplicate = await rejection(
        store.projects.create({ ...withoutGenerated(project), stack_version: '2.0.0' }),
      )
      expect(store.capabilities.isUniqueViolation(duplicate)).toBe(true)
    })

    it('findWithAccess answers the account, the reader’s role and the project in one row', async () => {
      const alice = await store.accounts.create('alice', 'user')
      const acme = await store.accounts.create('acme', 'org')
      const carol = await store.accounts.create('carol', 'user')
      await store.accounts.setRole(acme.id, carol.id, 'reader')
      const stack = await store.stacks.ensure(acme.id, 'web-stack')
      const project = await seedProjectIn(store, acme, stack.id)
      const found = await store.projects.find('acme', 'my-app')

      expect(await store.projects.findWithAccess('acme', 'my-app', carol.id)).toEqual({
        account: acme,
        role: 'reader',
        project: found,
      })
      expect(found?.id).toBe(project.id)
      expect(await store.projects.findWithAccess('acme', 'my-app', alice.id)).toEqual({
        account: acme,
        role: undefined,
        project: found,
      })
      expect(await store.projects.findWithAccess('acme', 'other', carol.id)).toEqual({
        account: acme,
        role: 'reader',
        project: undefined,
      })
      expect(await store.projects.findWithAccess('alice', 'my-app', alice.id)).toEqual({
        account: alice,
        role: undefined,
        project: undefined,
      })
      expect(await store.projects.findWithAccess('nobody', 'my-app', alice.id)).toBeUndefined()
      expect(await store.accounts.findWithRole('acme', carol.id)).toEqual({
        account: acme,
        role: 'reader',
      })
      expect(await store.accounts.findWithRole('acme', alice.id)).toEqual({
        account: acme,
        role: undefined,
      })
      expect(await store.accounts.findWithRole('nobody', alice.id)).toBeUndefined()
    })

    /**
     * A serving hub (`hub`, caching) beside `store`, which plays another process on the same data
     * (svc-hub admin); `store` made acme's project my-app, and carol, who is not in acme yet.
     */
    async function withServingHub(
      test: (
        hub: Store,
        seeded: { acme: AccountRow; carol: AccountRow; project: { id: string } },
      ) => Promise<void>,
    ) {
      const hub = await openStore(underTest.options)
      try {
        await hub.cacheReads()
        const acme = await store.accounts.create('acme', 'org')
        const carol = await store.accounts.create('carol', 'user')
        const stack = await store.stacks.ensure(acme.id, 'web-stack')
        const project = await seedProjectIn(store, acme, stack.id)
        await test(hub, { acme, carol, project })
      } finally {
        await hub.close()
      }
    }

    it('a serving store keeps a project route’s read until anything changes, here or elsewhere', () =>
      withServingHub(async (hub, { acme, carol, project }) => {
        // Each read is a request's, told to the store as it arrives, as the server does.
        const read = () => {
          hub.requestArrived()
          return hub.projects.findWithAccess('acme', 'my-app', carol.id)
        }
        expect((await read())?.role).toBeUndefined()
        // Another process's change: on SQLite the next request sees it (data_version); on
        // PostgreSQL once the tables' trigger notice lands, a few milliseconds after the commit,
        // well within the 5 s a read is kept at most.
        const eventually = (check: () => Promise<void>) =>
          vi.waitFor(check, { timeout: kind === 'sqlite' ? 0 : 2_000, interval: 20 })
        // Once the notices of the writes above have landed, a read again costs no query.
        await eventually(async () => {
          await read()
          const queries = vi.spyOn(hub.kysely, 'executeQuery')
          try {
            expect((await read())?.project?.id).toBe(project.id)
            expect(queries).not.toHaveBeenCalled()
          } finally {
            queries.mockRestore()
          }
        })

        await store.accounts.setRole(acme.id, carol.id, 'reader')
        await eventually(async () => expect((await read())?.role).toBe('reader'))
        await hub.projects.setConfig(project.id, '{"a":"1"}')
        expect((await read())?.project?.config).toBe('{"a":"1"}')
        await store.projects.setConfig(project.id, '{"a":"2"}')
        await eventually(async () => expect((await read())?.project?.config).toBe('{"a":"2"}'))
        await hub.transaction(async (tx) => {
          await tx.projects.setConfig(project.id, '{"a":"3"}')
          const inside = await tx.projects.findWithAccess('acme', 'my-app', carol.id)
          expect(inside?.project?.config).toBe('{"a":"3"}')
        })
        expect((await read())?.project?.config).toBe('{"a":"3"}')
        await hub.accounts.setRole(acme.id, carol.id, 'writer')
        expect((await read())?.role).toBe('writer')

        // Each caller gets objects of its own.
        const mine = await read()
        mine!.project!.config = '{}'
        expect((await read())?.project?.config).toBe('{"a":"3"}')
      }))

    it('a serving store keeps a project route’s read across writes to tables it does not read', () =>
      withServingHub(async (hub, { acme, carol }) => {
        const read = () => hub.projects.findWithAccess('acme', 'my-app', carol.id)
        const queriesOf = async (work: () => Promise<unknown>) => {
          const queries = vi.spyOn(hub.kysely, 'executeQuery')
          try {
            await work()
            return queries.mock.calls.length
          } finally {
            queries.mockRestore()
          }
        }
        // The webhook dispatcher claims (an UPDATE of webhook_deliveries) many times a second: a
        // read kept before a claim is still kept after it (on PostgreSQL, once the notices of
        // the writes above have landed).
        const now = new Date().toISOString()
        const later = new Date(Date.now() + 60_000).toISOString()
        await vi.waitFor(
          async () => {
            await read()
            await hub.deliveries.claim(10, now, later)
            expect(await queriesOf(read)).toBe(0)
          },
          { timeout: kind === 'sqlite' ? 0 : 2_000, interval: 20 },
        )
        // A write to a table the read holds sets it aside at once.
        await hub.accounts.setRole(acme.id, carol.id, 'reader')
        expect((await read())?.role).toBe('reader')
      }))

    if (kind === 'sqlite')
      it('on SQLite a request looks at data_version once: the next request, or a millisecond later, looks again', () =>
        withServingHub(async (hub, { acme, carol }) => {
          vi.useFakeTimers({ toFake: ['performance'] })
          try {
            const read = () => hub.projects.findWithAccess('acme', 'my-app', carol.id)
            hub.requestArrived()
            expect((await read())?.role).toBeUndefined()
            await store.accounts.setRole(acme.id, carol.id, 'reader')
            // The same request, the same instant: its reads are of one moment.
            expect((await read())?.role).toBeUndefined()
            hub.requestArrived()
            expect((await read())?.role).toBe('reader')
            await store.accounts.setRole(acme.id, carol.id, 'writer')
            expect((await read())?.role).toBe('reader')
            // Reads outside a request (none in the hub) look again after a millisecond.
            vi.advanceTimersByTime(1)
            expect((await read())?.role).toBe('writer')
          } finally {
            vi.useRealTimers()
          }
        }))

    if (kind === 'postgres')
      it('the tables whose changes notify the hubs are the ones a kept read holds', async () => {
        const { rows } = await sql<{ table: string }>`
          select distinct event_object_table as "table" from information_schema.triggers
          where trigger_schema = current_schema() and action_statement like '%svc_store_changed%'
          order by 1`.execute(store.kysely)
        expect(rows.map((row) => row.table)).toEqual([...READ_TABLES].sort())
      })

    it('setConfig replaces the config and stamps when', async () => {
      const { project } = await seedProject(store)
      const at = await store.projects.setConfig(project.id, '{"basePath":"src/api"}')
      const found = await store.projects.find('alice', 'my-app')
      expect(found?.config).toBe('{"basePath":"src/api"}')
      expect(found?.config_updated_at).toBe(at)
    })

    it('replaceBaseFiles replaces the whole set, and only that project’s', async () => {
      const { project, other } = await seedProject(store)
      const sha = async (text: string) => store.blobs.put(bytes(text))
      await store.projects.replaceBaseFiles(other.id, [
        { path: 'keep.ts', size: 1, sha256: await sha('k') },
      ])

      await store.projects.replaceBaseFiles(project.id, [
        { path: 'a.ts', size: 1, sha256: await sha('a') },
        { path: 'b.ts', size: 1, sha256: await sha('b1') },
      ])
      const second: StoredFile[] = [
        { path: 'b.ts', size: 2, sha256: await sha('b2') },
        { path: 'c.ts', size: 1, sha256: await sha('c') },
      ]
      await store.projects.replaceBaseFiles(project.id, second)
      expect(await store.projects.baseFiles(project.id)).toEqual(second)

      const many = sourceFiles('src/base', 450, await sha('many'))
      await store.projects.replaceBaseFiles(project.id, many)
      expect(await store.projects.baseFiles(project.id)).toEqual(many)

      await store.projects.replaceBaseFiles(project.id, [])
      expect(await store.projects.baseFiles(project.id)).toEqual([])
      expect((await store.projects.baseFiles(other.id)).map((f) => f.path)).toEqual(['keep.ts'])
    })
  })

  describe('stack and project lists', () => {
    runReadableListsTests(() => store)
  })

  describe('APIs and revisions', () => {
    runApisRepoTests(() => store)
  })

  describe('webhooks and deliveries', () => {
    runWebhooksRepoTests(() => store)
  })

  describe('diff profiles', () => {
    runDiffProfileTests(() => store)
  })

  describe('rate-limit overrides', () => {
    runRateLimitsRepoTests(() => store)
  })

  describe('credits ledger', () => {
    runCreditsRepoTests(kind, () => underTest)
  })

  describe('libraries and idempotency keys', () => {
    runLibrariesRepoTests(() => store)
  })

  describe('deployments, runs and aliases', () => {
    runDeploymentsRepoTests(() => store)
  })

  describe('passwords and sessions', () => {
    runSessionsRepoTests(() => store)
  })

  describe('storage quotas and the retention of run artifacts', () => {
    runQuotaStoreTests(() => underTest)
  })

  describe('lifecycle', () => {
    it('ping answers while open; after close, ping and queries fail', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
      await store.accounts.create('alice', 'user')
      await store.close()
      await expect(store.ping()).rejects.toThrow()
      await expect(store.accounts.find('alice')).rejects.toThrow()
    })
  })
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

/** What `promise` rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection, got a value')
}

/** `count` files `${prefix}-0000.ts`…, in path order, all with the content `sha`. */
function sourceFiles(prefix: string, count: number, sha: string): StoredFile[] {
  return Array.from({ length: count }, (_, i) => ({
    path: `${prefix}-${String(i).padStart(4, '0')}.ts`,
    size: i + 1,
    sha256: sha,
  }))
}

function newVersion(
  stackId: string,
  publisher: AccountRow,
  bundleSha: string,
  version: string,
  files: readonly StoredFile[],
): Omit<NewStackVersion, 'id'> {
  return {
    stack_id: stackId,
    version,
    bundle_sha256: bundleSha,
    bundle_bytes: 6,
    source_file_count: files.length,
    source_total_bytes: files.reduce((sum, f) => sum + f.size, 0),
    composition: JSON.stringify([{ name: 'gen-zod', kind: 'imported' }]),
    manifest_path: 'svc.stack.json',
    published_by: publisher.id,
    published_at: new Date().toISOString(),
  }
}

async function seedStack(store: Store) {
  const alice = await store.accounts.create('alice', 'user')
  const acme = await store.accounts.create('acme', 'org')
  const bundle = await store.blobs.put(bytes('bundle'))
  const stack = await store.stacks.ensure(acme.id, 'web')
  return { alice, acme, bundle, stackId: stack.id }
}

/** The API `bob/petstore` and the project `alice/my-app` of stack `stackId`. */
async function seedProjectIn(repos: Repos, alice: AccountRow, stackId: string) {
  const bob = (await repos.accounts.find('bob')) ?? (await repos.accounts.create('bob', 'user'))
  const api =
    (await repos.apis.find('bob', 'petstore')) ??
    (await repos.apis.create({
      account_id: bob.id,
      slug: 'petstore',
      name: 'Petstore',
      visibility: 'public',
      source_url: null,
    }))
  return repos.projects.create({
    account_id: alice.id,
    slug: 'my-app',
    stack_id: stackId,
    stack_version: 'latest',
    api_id: api.id,
    config: '{}',
    created_by: alice.id,
  })
}

/** `alice/my-app` and `alice/other-app`, on stack `acme/web-stack` and API `bob/petstore`. */
async function seedProject(store: Store) {
  const alice = await store.accounts.create('alice', 'user')
  const acme = await store.accounts.create('acme', 'org')
  const stack = await store.stacks.ensure(acme.id, 'web-stack')
  const project = await seedProjectIn(store, alice, stack.id)
  const other = await store.projects.create({
    ...withoutGenerated(project),
    slug: 'other-app',
  })
  return { alice, acme, stack, project, other }
}

function withoutGenerated<T extends { id: string; created_at: string; config_updated_at: unknown }>(
  row: T,
): Omit<T, 'id' | 'created_at' | 'config_updated_at'> {
  const { id: _id, created_at: _created, config_updated_at: _updated, ...rest } = row
  return rest
}
