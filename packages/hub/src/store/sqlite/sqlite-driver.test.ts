import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_STORE_TIMEOUTS } from '../dialect.js'
import { openStore } from '../open-store.js'
import type { Store } from '../store.js'
import { StoreUnavailable } from '../unavailable.js'
import { reusingStatements, sqliteOutage } from './sqlite-driver.js'

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
