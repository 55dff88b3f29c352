import { SqliteDialect, type DatabaseConnection, type Driver, type SqliteDatabase } from 'kysely'
import { ConnectionTurns } from './connection-turns.js'
import { HubSqliteConnection, type HubSqliteOptions } from './sqlite-connection.js'

export type { HubSqliteOptions } from './sqlite-connection.js'

/**
 * Kysely's SQLite dialect with the hub's driver, which differs from Kysely's in three ways.
 *
 * It waits for another process's lock without blocking the event loop: better-sqlite3 calls
 * SQLite synchronously, so SQLite's own busy timeout would stop every request of the process
 * while it waits. The driver tries instead, and on SQLITE_BUSY gives the connection to other
 * queries for a pause and tries again, until `busyMs`; then the query fails as StoreUnavailable
 * ('busy'). This covers statements outside a transaction (writes; reads, which WAL makes wait in
 * rare cases: recovery, a checkpoint on close) and the `begin` of a transaction.
 *
 * Transactions begin IMMEDIATE: they take the write lock first; a deferred one that reads, then
 * writes, fails at once with SQLITE_BUSY when another process wrote meanwhile, since WAL cannot
 * upgrade its stale snapshot.
 *
 * A transaction that SQLite ended itself (it rolls back on a full disk, an I/O error) fails with
 * that error: the driver does not send a ROLLBACK that would fail ("no transaction is active")
 * and hide it. Outages come out as StoreUnavailable.
 */
export class HubSqliteDialect extends SqliteDialect {
  readonly #options: HubSqliteOptions

  constructor(options: HubSqliteOptions) {
    super({ database: options.database })
    this.#options = options
  }

  override createDriver(): Driver {
    return new HubSqliteDriver(this.#options)
  }
}

class HubSqliteDriver implements Driver {
  readonly #turns = new ConnectionTurns()
  readonly #database: SqliteDatabase
  readonly #connection: HubSqliteConnection

  constructor(options: HubSqliteOptions) {
    this.#database = options.database
    this.#connection = new HubSqliteConnection(options, this.#turns)
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#turns.take()
    return this.#connection
  }

  async releaseConnection(): Promise<void> {
    this.#turns.give()
  }

  beginTransaction(): Promise<void> {
    return this.#connection.begin()
  }

  commitTransaction(): Promise<void> {
    return this.#connection.commit()
  }

  rollbackTransaction(): Promise<void> {
    return this.#connection.rollback()
  }

  async destroy(): Promise<void> {
    this.#database.close()
  }
}
