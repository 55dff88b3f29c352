import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely'
import { StoreUnavailable } from '../unavailable.js'

/**
 * Result codes that say the database file, not the statement, failed: another process kept the
 * write lock past the busy timeout (BUSY, LOCKED), the disk is full or failing (FULL, IOERR), or
 * the file cannot be opened (CANTOPEN).
 */
const OUTAGE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL)/

/** `error` as a StoreUnavailable when it is an outage of the database file, else undefined. */
export function sqliteOutage(error: unknown): StoreUnavailable | undefined {
  if (error instanceof StoreUnavailable) return error
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') {
    return undefined
  }
  if (!OUTAGE_CODES.test(error.code)) return undefined
  const busy = /^SQLITE_(BUSY|LOCKED)/.test(error.code)
  return new StoreUnavailable(`SQLite: ${error.message} (${error.code})`, busy ? 'busy' : 'lost', {
    cause: error,
  })
}

/**
 * Kysely's SQLite dialect with two changes. Transactions begin `IMMEDIATE`: they take the write
 * lock first and wait for it (the busy timeout) when another process holds it; a deferred one
 * that reads, then writes, fails at once with SQLITE_BUSY when another process wrote meanwhile,
 * since WAL cannot upgrade its stale snapshot. And outages come out as StoreUnavailable.
 */
export class HubSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new HubSqliteDriver(this.#config)
  }
}

class HubSqliteDriver extends SqliteDriver {
  #guarded: DatabaseConnection | undefined

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection()
    this.#guarded ??= guarded(connection)
    return this.#guarded
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

function guarded(connection: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      try {
        return await connection.executeQuery<R>(query)
      } catch (error) {
        throw sqliteOutage(error) ?? error
      }
    },
    streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
      connection.streamQuery<R>(query, chunkSize),
  }
}
