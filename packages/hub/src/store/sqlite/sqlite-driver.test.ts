import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_STORE_TIMEOUTS } from '../dialect.js'
import { openStore } from '../open-store.js'
import type { Store } from '../store.js'
import { StoreUnavailable } from '../unavailable.js'
import { sqliteOutage } from './sqlite-outage.js'
import { reusingStatements } from './statement-cache.js'

describe('SQLite with another process on the file', () => {
  const cleanups: (() => Promise<unknown> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function storeOnNewFile(busyMs: number): Promise<[Store, string]> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-hub-busy-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const store = await openStore({
      kind: 'sqlite',
      dataDir,
      timeouts: { ...DEFAULT_STORE_TIMEOUTS, busyMs },
    })
    cleanups.push(() => store.close())
    return [store, path.join(dataDir, 'hub.db')]
  }

  it('a transaction the write lock is held against fails as StoreUnavailable (busy), and works once it is free', async () => {
    const [store, file] = await storeOnNewFile(200)
    // Another connection (as another process would) holds the write lock.
    const other = new SqliteDatabase(file)
    cleanups.push(() => void other.close())
    other.exec('begin immediate')

    const failure = await store
      .transaction((tx) => tx.accounts.isEmpty())
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StoreUnavailable)
    expect((failure as StoreUnavailable).reason).toBe('busy')

    other.exec('rollback')
    await expect(store.transaction((tx) => tx.accounts.isEmpty())).resolves.toBe(true)
  })

  /** Another connection on `file`, holding the write lock (as another process would). */
  function holdWriteLock(file: string): SqliteDatabase.Database {
    const other = new SqliteDatabase(file, { timeout: 0 })
    cleanups.push(() => void (other.open && other.close()))
    other.exec('begin immediate')
    other.exec(
      "insert into accounts (id, handle, kind, created_at) values ('acc_other', 'other', 'user', 'x')",
    )
    return other
  }

  /** Whether `promise` has settled, once the microtasks queued before this look have run. */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false
    void promise.then(
      () => (done = true),
      () => (done = true),
    )
    await new Promise((resolve) => setImmediate(resolve))
    return done
  }

  it("while a write waits for another process's lock, the event loop and other queries go on; the write lands once the lock is free", async () => {
    const [store, file] = await storeOnNewFile(10_000)
    await store.accounts.create('alice', 'user')
    const other = holdWriteLock(file)

    const write = store.transaction((tx) => tx.accounts.create('bob', 'user'))
    const autocommit = store.accounts.create('carol', 'user')
    // A timer fires and reads answer, from the store and from the same connection, while both
    // writes still wait: nothing waits synchronously, and they do not hold the connection.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await store.accounts.find('alice')).toMatchObject({ handle: 'alice' })
    expect(await store.kysely.selectFrom('accounts').select('handle').execute()).toHaveLength(1)
    expect(await settled(write)).toBe(false)
    expect(await settled(autocommit)).toBe(false)

    other.exec('commit')
    await expect(write).resolves.toMatchObject({ handle: 'bob' })
    await expect(autocommit).resolves.toMatchObject({ handle: 'carol' })
    const handles = await store.kysely.selectFrom('accounts').select('handle').execute()
    expect(handles.map((r) => r.handle).sort()).toEqual(['alice', 'bob', 'carol', 'other'])
  })

  it('a write outside a transaction fails as StoreUnavailable (busy) at the busy timeout, having written nothing', async () => {
    const [store, file] = await storeOnNewFile(150)
    const other = holdWriteLock(file)
    const failure = await store.accounts.create('bob', 'user').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StoreUnavailable)
    expect((failure as StoreUnavailable).reason).toBe('busy')
    expect((failure as StoreUnavailable).message).toMatch(/busy timeout \(150 ms\)/)
    other.exec('rollback')
    expect(await store.accounts.find('bob')).toBeUndefined()
    await expect(store.accounts.create('bob', 'user')).resolves.toMatchObject({ handle: 'bob' })
  })

  it('with a busy timeout of 0, a write the lock is held against fails at once', async () => {
    const [store, file] = await storeOnNewFile(0)
    holdWriteLock(file)
    const failure = await store
      .transaction((tx) => tx.accounts.create('bob', 'user'))
      .catch((error: unknown) => error)
    expect((failure as StoreUnavailable).reason).toBe('busy')
  })

  it('a transaction that only reads holds the write lock too (it began IMMEDIATE)', async () => {
    const [store, file] = await storeOnNewFile(200)
    const other = new SqliteDatabase(file, { timeout: 0 })
    cleanups.push(() => void other.close())
    await store.transaction(async (tx) => {
      await tx.accounts.isEmpty()
      expect(() => other.exec('begin immediate')).toThrow(/locked|busy/i)
    })
    other.exec('begin immediate')
    other.exec('rollback')
  })
})

describe('SQLite on a full disk', () => {
  const cleanups: (() => Promise<unknown> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  /** A store whose file cannot grow past its current size (SQLite's max_page_count). */
  async function fullStore(): Promise<Store> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-hub-full-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const store = await openStore({ kind: 'sqlite', dataDir })
    cleanups.push(() => store.close())
    await store.accounts.create('alice', 'user')
    await sql`pragma wal_checkpoint(truncate)`.execute(store.kysely)
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(store.kysely)
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(store.kysely)
    return store
  }

  const big = () => new Uint8Array(256 * 1024).map((_, i) => (i * 7919) % 251)

  it('a transaction that fills the disk fails with StoreUnavailable (SQLITE_FULL), not a rollback error, and writes nothing', async () => {
    const store = await fullStore()
    const failure = await store
      .transaction(async (tx) => {
        await tx.accounts.create('bob', 'user')
        await tx.blobs.put(big())
      })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StoreUnavailable)
    expect((failure as StoreUnavailable).reason).toBe('lost')
    expect((failure as Error).message).toContain('SQLITE_FULL')
    expect(await store.accounts.find('bob')).toBeUndefined()
    expect(await store.accounts.find('alice')).toBeDefined()

    // Space again: the same writes work.
    await sql`pragma max_page_count = 1073741823`.execute(store.kysely)
    await store.transaction(async (tx) => {
      await tx.accounts.create('bob', 'user')
      await tx.blobs.put(big())
    })
    expect(await store.accounts.find('bob')).toBeDefined()
  })

  it('work that goes on after SQLite ended its transaction fails instead of writing outside it', async () => {
    const store = await fullStore()
    const failure = await store
      .transaction(async (tx) => {
        await tx.blobs.put(big()).catch(() => {})
        await tx.accounts.create('bob', 'user')
      })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StoreUnavailable)
    expect((failure as Error).message).toMatch(/ended the transaction/)
    expect(await store.accounts.find('bob')).toBeUndefined()
  })
})

describe('sqliteOutage', () => {
  const coded = (code: string) => Object.assign(new Error(code), { code })

  it('takes lock, disk and open failures for outages, and nothing else', () => {
    expect(sqliteOutage(coded('SQLITE_BUSY'))?.reason).toBe('busy')
    expect(sqliteOutage(coded('SQLITE_BUSY_SNAPSHOT'))?.reason).toBe('busy')
    expect(sqliteOutage(coded('SQLITE_LOCKED'))?.reason).toBe('busy')
    expect(sqliteOutage(coded('SQLITE_IOERR_WRITE'))?.reason).toBe('lost')
    expect(sqliteOutage(coded('SQLITE_FULL'))?.reason).toBe('lost')
    expect(sqliteOutage(coded('SQLITE_CONSTRAINT_UNIQUE'))).toBeUndefined()
    expect(sqliteOutage(coded('SQLITE_ERROR'))).toBeUndefined()
    expect(sqliteOutage(new TypeError('x is undefined'))).toBeUndefined()
  })
})

describe('reusingStatements', () => {
  function counted() {
    const database = new SqliteDatabase(':memory:')
    let prepared = 0
    const counting = {
      close: () => database.close(),
      prepare: (sql: string) => {
        prepared++
        return database.prepare(sql)
      },
    }
    return { database, counting, prepared: () => prepared }
  }

  it('prepares a SQL text once and answers later calls with the same statement', () => {
    const { counting, prepared, database } = counted()
    const reusing = reusingStatements(counting)
    const first = reusing.prepare('select 1 as one')
    expect(reusing.prepare('select 1 as one')).toBe(first)
    expect(first.all([])).toEqual([{ one: 1 }])
    expect(prepared()).toBe(1)
    database.close()
  })

  it('gives a fresh statement while the cached one is still iterating, so a streamed select and the same query interleave', () => {
    const { counting, database } = counted()
    database.exec('create table t (n integer); insert into t values (1), (2), (3)')
    const reusing = reusingStatements(counting)
    const streaming = reusing.prepare('select n from t order by n')
    const seen: unknown[] = []
    for (const row of streaming.iterate([])) {
      seen.push(row)
      expect(reusing.prepare('select n from t order by n').all([])).toHaveLength(3)
    }
    expect(seen).toHaveLength(3)
    database.close()
  })

  it('keeps at most `size` statements, dropping the least recently used', () => {
    const { counting, prepared, database } = counted()
    const reusing = reusingStatements(counting, 2)
    reusing.prepare('select 1')
    reusing.prepare('select 2')
    reusing.prepare('select 1') // 1 is now the most recently used
    reusing.prepare('select 3') // drops 2
    expect(prepared()).toBe(3)
    reusing.prepare('select 1')
    expect(prepared()).toBe(3)
    reusing.prepare('select 2')
    expect(prepared()).toBe(4)
    database.close()
  })
})
