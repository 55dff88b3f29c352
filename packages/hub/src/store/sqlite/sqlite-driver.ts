import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from 'kysely'
import { Lru } from '../lru.js'
import { mayChangeReads, type WriteCount } from '../read-cache.js'
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
  readonly #writes: WriteCount

  /** `writes` counts every statement sent that may change a kept read (store/read-cache.ts). */
  constructor(config: SqliteDialectConfig, writes: WriteCount = { count: 0 }) {
    super(config)
    this.#config = config
    this.#writes = writes
  }

  override createDriver(): Driver {
    return new HubSqliteDriver(this.#config, this.#writes)
  }
}

class HubSqliteDriver extends SqliteDriver {
  readonly #writes: WriteCount
  #guarded: DatabaseConnection | undefined

  constructor(config: SqliteDialectConfig, writes: WriteCount) {
    super(config)
    this.#writes = writes
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection()
    this.#guarded ??= guarded(connection, this.#writes)
    return this.#guarded
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

function guarded(connection: DatabaseConnection, writes: WriteCount): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      // What may change a kept read (store/read-cache.ts): raw SQL included, `commit` too.
      if (query.query.kind !== 'SelectQueryNode' && mayChangeReads(query.sql)) writes.count++
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

/** How many distinct SQL texts keep their prepared statement; the hub's hot paths use a few dozen. */
export const STATEMENT_CACHE_SIZE = 256

/**
 * `database` with `prepare` answered from a bounded cache keyed by SQL text. Kysely's driver
 * prepares every statement anew, and preparing was a third of the hub's CPU time on a read;
 * a statement still iterating (a streamed select) is busy, so that caller gets a fresh one.
 */
export function reusingStatements(
  database: SqliteDatabase & { prepare(sql: string): SqliteStatement & { busy?: boolean } },
  size: number = STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const statements = new Lru<string, SqliteStatement & { busy?: boolean }>(size)
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql)
      if (cached !== undefined) return cached.busy === true ? database.prepare(sql) : cached
      const statement = database.prepare(sql)
      statements.set(sql, statement)
      return statement
    },
  }
}
