import { mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore } from '../open-store.js'
import { startCheckpointer } from './checkpointer.js'

describe('SQLite checkpoints off the event loop', () => {
  const cleanups: (() => Promise<unknown> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function newDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-hub-checkpoint-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    return dir
  }

  it("a serving store's commits leave the WAL to the checkpoint thread, which copies it all", async () => {
    const dataDir = await newDir()
    const store = await openStore({ kind: 'sqlite', dataDir })
    cleanups.push(() => store.close())
    store.upkeepOffThread()
    // 8 MiB: past the 1,000 pages at which a commit would checkpoint on this thread.
    await store.blobs.put(new Uint8Array(8 * 1024 * 1024).fill(7))
    const file = path.join(dataDir, 'hub.db')
    // The commit copied nothing into the database file: the WAL still holds the blob.
    expect((await stat(file)).size).toBeLessThan(4 * 1024 * 1024)
    const checkpointer = startCheckpointer(file, (error) => {
      throw error
    })
    cleanups.push(() => checkpointer.close())
    const result = await checkpointer.checkpoint()
    expect(result).toMatchObject({ ok: true })
    if (!result.ok) return
    expect(result.log).toBeGreaterThan(2000)
    expect(result.checkpointed).toBe(result.log)
    expect((await stat(file)).size).toBeGreaterThan(8 * 1024 * 1024)
  })

  it('a store that serves nothing checkpoints in its commits, as SQLite does', async () => {
    const dataDir = await newDir()
    const store = await openStore({ kind: 'sqlite', dataDir })
    cleanups.push(() => store.close())
    await store.blobs.put(new Uint8Array(8 * 1024 * 1024).fill(7))
    expect((await stat(path.join(dataDir, 'hub.db'))).size).toBeGreaterThan(8 * 1024 * 1024)
  })

  it('checkpoints a file on request, and tells of a thread that cannot open its file', async () => {
    const dir = await newDir()
    const file = path.join(dir, 'hub.db')
    const database = new SqliteDatabase(file)
    cleanups.push(() => void database.close())
    database.pragma('journal_mode = WAL')
    database.exec('create table t (x)')
    const checkpointer = startCheckpointer(file, () => {})
    cleanups.push(() => checkpointer.close())
    expect(await checkpointer.checkpoint()).toMatchObject({ ok: true })

    const failures: Error[] = []
    const missing = startCheckpointer(path.join(dir, 'missing.db'), (error) => failures.push(error))
    cleanups.push(() => missing.close())
    expect(await missing.checkpoint()).toMatchObject({ ok: false })
    expect(failures).toHaveLength(1)
  })
})
