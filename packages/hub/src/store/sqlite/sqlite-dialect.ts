import fs from 'node:fs'
import path from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, sql } from 'kysely'
import {
  DEFAULT_STORE_TIMEOUTS,
  type DialectCapabilities,
  type LockWaits,
  type StoreDialect,
} from '../dialect.js'
import type { Database } from '../schema.js'
import type { WriteCount } from '../read-cache.js'
import { startCheckpointer, type Checkpointer } from './checkpointer.js'
import { HubSqliteDialect } from './sqlite-driver.js'

export const SQLITE_CAPABILITIES: DialectCapabilities = {
  name: 'sqlite',
  blobType: 'blob',
  isUniqueViolation: (error) =>
    error instanceof Error &&
    'code' in error &&
    (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'),
  skipLocked: false,
  rowLocks: false,
  dataModifyingCte: false,
  randomId: (prefix) => sql<string>`${prefix + '_'} || lower(hex(randomblob(12)))`,
  // Each row as an array, each column read by its index: SQLite reads `value ->> 2` in about two
  // thirds of the time of `value ->> '$.name'`, and the rows are written per delivery.
  recordSet: (rows, columns, alias) =>
    sql`(select ${sql.join(
      columns.map(([name], index) => sql`value ->> ${sql.raw(String(index))} as ${sql.ref(name)}`),
    )} from json_each(${JSON.stringify(
      rows.map((row) => columns.map(([name]) => (row as Record<string, unknown>)[name] ?? null)),
    )})) as ${sql.ref(alias)}`,
}

/** Opens (creating when needed) the embedded database file `hub.db` in `dataDir`, or `:memory:`. */
export function openSqlite(
  dataDir: string | ':memory:',
  busyTimeoutMs: number = DEFAULT_STORE_TIMEOUTS.busyMs,
): StoreDialect {
  let file = ':memory:'
  if (dataDir !== ':memory:') {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    file = path.join(dataDir, 'hub.db')
  }
  // SQLite waits for another process's lock itself only while the file is opened (before the
  // process serves anything): switching a new file to WAL takes it whole.
  const database = new SqliteDatabase(file, { timeout: Math.trunc(busyTimeoutMs) })
  // WAL lets readers (and other processes: `svc-hub admin`, a worker, a second hub) run beside
  // the writer; transactions begin IMMEDIATE (sqlite-driver.ts).
  database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('synchronous = NORMAL')
  // From now on a statement that finds the file locked fails at once, and the driver waits for
  // the lock without blocking the event loop, up to `busyTimeoutMs` (sqlite-connection.ts).
  database.pragma('busy_timeout = 0')
  const writes: WriteCount = { count: 0 }
  const lockWaits: LockWaits = { waiting: 0, total: 0 }
  const db = new Kysely<Database>({
    dialect: new HubSqliteDialect({ database, busyMs: busyTimeoutMs, writes, lockWaits }),
  })
  const dataVersionStatement = database.prepare('pragma data_version').pluck()
  // Reading `data_version` takes a read transaction (locks on the WAL index: three system calls),
  // so a look serves all the reads of one request: it is set aside when the next request arrives
  // (`requestArrived`: what another process committed before a request is seen by it), and after
  // a millisecond for reads made outside a request. Setting it aside on the event loop's next turn
  // instead (setImmediate) cost more than it saved: the loop stopped waiting for several sockets.
  let seen: number | undefined
  let seenAt = 0
  const dataVersion = () => {
    const now = performance.now()
    if (seen !== undefined && now - seenAt < 1) return seen
    try {
      seen = database.open ? (dataVersionStatement.get() as number) : undefined
    } catch {
      seen = undefined
    }
    seenAt = now
    return seen
  }
  let checkpointer: Checkpointer | undefined
  return {
    db,
    capabilities: SQLITE_CAPABILITIES,
    describe: `sqlite ${file}`,
    lockWaits,
    upkeepOffThread: () => {
      if (file === ':memory:' || checkpointer) return
      checkpointer = startCheckpointer(file, () => {
        // Without the thread the WAL would grow without end: commits checkpoint again.
        if (database.open) database.pragma('wal_autocheckpoint = 1000')
      })
      database.pragma('wal_autocheckpoint = 0')
    },
    close: async () => {
      await checkpointer?.close()
      checkpointer = undefined
    },
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    // `data_version` moves when another connection (a second hub, `svc-hub admin`, a worker)
    // commits to the file; this connection's own commits leave it: the cache hears of those
    // itself.
    requestArrived: () => {
      seen = undefined
    },
    watchTokenChanges: async () => ({ version: dataVersion, close: async () => {} }),
    // The same, and every statement this process sent that may have written.
    watchChanges: async () => ({
      version: () => {
        const version = dataVersion()
        return version === undefined ? undefined : `${version}:${writes.count}`
      },
    }),
  }
}
