import {
  CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely'
import type { LockWaits } from '../dialect.js'
import { mayChangeReads, type WriteCount } from '../read-cache.js'
import { StoreUnavailable } from '../unavailable.js'
import type { ConnectionTurns } from './connection-turns.js'
import { isBusy, sqliteOutage } from './sqlite-outage.js'
import { reusingStatements } from './statement-cache.js'

/**
 * The pauses between tries of a statement that found another process's lock: SQLite's own busy
 * handler's (sqliteDefaultBusyCallback), then 100 ms each until the busy timeout.
 */
const PAUSES_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100] as const

/** What the hub's SQLite driver is given (store/sqlite/sqlite-dialect.ts opens the database). */
export type HubSqliteOptions = {
  /** The open better-sqlite3 database, with `busy_timeout = 0`: SQLite must never wait itself. */
  readonly database: SqliteDatabase & { readonly inTransaction: boolean }
  /** How long a statement, or a transaction's begin, waits for another process's lock. */
  readonly busyMs: number
  /** Counts every statement sent that may change a kept read (store/read-cache.ts). */
  readonly writes: WriteCount
  /** Counts the queries that found another process's lock (the hub's metrics show them). */
  readonly lockWaits: LockWaits
}

const BEGIN = CompiledQuery.raw('begin immediate')
const COMMIT = CompiledQuery.raw('commit')
const ROLLBACK = CompiledQuery.raw('rollback')

/** The one connection; only its holder (ConnectionTurns) calls it. */
export class HubSqliteConnection implements DatabaseConnection {
  readonly #options: HubSqliteOptions
  readonly #statements: SqliteDatabase
  readonly #turns: ConnectionTurns
  /** Whether a transaction this driver began is open (SQLite may have ended it on an error). */
  #inTransaction = false

  constructor(options: HubSqliteOptions, turns: ConnectionTurns) {
    this.#options = options
    this.#statements = reusingStatements(options.database)
    this.#turns = turns
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#inTransaction) return this.#waitingForLocks(() => this.#run<R>(query))
    if (!this.#options.database.inTransaction) {
      // Never run the rest of a transaction one statement at a time.
      throw new StoreUnavailable('SQLite ended the transaction after an earlier error', 'lost')
    }
    return this.#once<R>(query)
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (query.query.kind !== 'SelectQueryNode') {
      throw new Error('the SQLite driver streams select queries only')
    }
    const statement = this.#statements.prepare(query.sql) as unknown as {
      iterate(parameters: readonly unknown[]): IterableIterator<R>
    }
    try {
      for (const row of statement.iterate(query.parameters)) yield { rows: [row] }
    } catch (error) {
      throw sqliteOutage(error) ?? error
    }
  }

  async begin(): Promise<void> {
    await this.#waitingForLocks(() => this.#run(BEGIN))
    this.#inTransaction = true
  }

  async commit(): Promise<void> {
    await this.#once(COMMIT)
    this.#inTransaction = false
  }

  async rollback(): Promise<void> {
    this.#inTransaction = false
    if (!this.#options.database.inTransaction) return
    try {
      this.#run(ROLLBACK)
    } catch (error) {
      // A rollback that fails but leaves no transaction behind changes nothing; the error that
      // ended the transaction is the one to tell.
      if (this.#options.database.inTransaction) throw sqliteOutage(error) ?? error
    }
  }

  async #once<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return this.#run<R>(query)
    } catch (error) {
      throw sqliteOutage(error) ?? error
    }
  }

  /**
   * `attempt()`, tried again while another process holds a lock it needs, with the connection
   * given to others between tries, until the busy timeout.
   */
  async #waitingForLocks<T>(attempt: () => T): Promise<T> {
    const started = performance.now()
    let busy: unknown
    try {
      return attempt()
    } catch (error) {
      if (!isBusy(error)) throw sqliteOutage(error) ?? error
      busy = error
    }
    const { busyMs, lockWaits } = this.#options
    const deadline = started + busyMs
    lockWaits.total++
    lockWaits.waiting++
    try {
      for (let tries = 0; ; tries++) {
        const left = deadline - performance.now()
        if (left <= 0) {
          throw new StoreUnavailable(
            `SQLite: another process held the database for longer than the busy timeout (${busyMs} ms)`,
            'busy',
            { cause: busy },
          )
        }
        await this.#turns.pause(Math.min(PAUSES_MS[Math.min(tries, PAUSES_MS.length - 1)]!, left))
        try {
          return attempt()
        } catch (error) {
          if (!isBusy(error)) throw sqliteOutage(error) ?? error
          busy = error
        }
      }
    } finally {
      lockWaits.waiting--
    }
  }

  #run<R>(query: CompiledQuery): QueryResult<R> {
    // What may change a kept read (store/read-cache.ts): raw SQL included, `commit` too.
    if (query.query.kind !== 'SelectQueryNode' && mayChangeReads(query.sql)) {
      this.#options.writes.count++
    }
    const statement = this.#statements.prepare(query.sql)
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] }
    const { changes, lastInsertRowid } = statement.run(query.parameters)
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
  }
}
