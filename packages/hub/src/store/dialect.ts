import type { Kysely, RawBuilder } from 'kysely'
import type { Database } from './schema.js'
import type { StoreChangeFeed } from './read-cache.js'
import type { TokenChangeFeed } from './token-cache.js'

/** What differs between the engines, as data (the rest of the store never names an engine). */
export type DialectCapabilities = {
  readonly name: 'sqlite' | 'postgres'
  /** Column type of binary data. */
  readonly blobType: 'blob' | 'bytea'
  /** Whether `error` is a unique or primary key violation. */
  isUniqueViolation(error: unknown): boolean
  /** Whether `SELECT … FOR UPDATE SKIP LOCKED` exists (SQLite serialises writers instead). */
  readonly skipLocked: boolean
  /**
   * Whether a transaction can lock one row and keep it locked while the hub works outside the
   * database (PostgreSQL). SQLite's one connection per process would stall every other query.
   */
  readonly rowLocks: boolean
  /**
   * Whether `WITH x AS (UPDATE … RETURNING …)` works, so that what takes several statements
   * (and round trips) elsewhere is one statement.
   */
  readonly dataModifyingCte: boolean
  /**
   * A derived table `alias` with one row per element of `rows`, with the given columns (a row's
   * missing or undefined field is null), sent as one JSON parameter: how one statement updates
   * many rows with a value each, in one SQL text whatever their number.
   */
  recordSet(
    rows: readonly object[],
    columns: readonly RecordColumn[],
    alias: string,
  ): RawBuilder<unknown>
  /** An id like `newId` makes (`<prefix>_` and 24 hex digits), made by the database per row. */
  randomId(prefix: string): RawBuilder<string>
}

/** How long the store waits on its database before a request fails with 503 (docs/hub/running.md). */
export type StoreTimeouts = {
  /** PostgreSQL: opening a connection, or waiting for a free one in the pool. */
  readonly connectMs: number
  /**
   * PostgreSQL: one statement, ended by the server; the client gives up this long (and a little)
   * after sending it too, for a network that stops answering.
   */
  readonly statementMs: number
  /** PostgreSQL: a transaction left idle this long is ended by the server, with its locks. */
  readonly idleInTransactionMs: number
  /** SQLite: how long a write waits for another process's write to end. */
  readonly busyMs: number
}

export const DEFAULT_STORE_TIMEOUTS: StoreTimeouts = {
  connectMs: 5_000,
  statementMs: 10_000,
  idleInTransactionMs: 60_000,
  busyMs: 5_000,
}

/** Queries that found another process's lock on the store and waited for it (SQLite). */
export type LockWaits = {
  /** Waiting now. */
  waiting: number
  /** Since the store was opened. */
  total: number
}

export type RecordColumn = readonly [name: string, type: 'text' | 'integer']

/** An opened engine: its Kysely instance and what it can do. */
export type StoreDialect = {
  readonly db: Kysely<Database>
  readonly capabilities: DialectCapabilities
  /** Human-readable target for logs (never contains a password). */
  readonly describe: string
  /** Answers when the engine can serve queries (for `/readyz`). */
  ping(): Promise<void>
  /**
   * The schema that holds the store's tables, on engines that have schemas. Kysely's migrator
   * must be told it: left alone, it takes its bookkeeping tables in any schema for its own.
   */
  schema?(): Promise<string | undefined>
  /**
   * Told by the server of each request as it arrives: a change another process committed before
   * it must be seen by its reads (an engine that looks for such changes only now and then looks
   * again).
   */
  requestArrived?(): void
  /** Starts telling of token changes made by other processes (none: tokens are not cached). */
  watchTokenChanges?(): Promise<TokenChangeFeed>
  /**
   * Starts telling of any change to the tables hubs keep reads of, by this process or another
   * (none: reads are not cached).
   */
  watchChanges?(): Promise<StoreChangeFeed>
  /** The queries that waited for another process's lock (engines whose locks are per file). */
  readonly lockWaits?: Readonly<LockWaits>
  /**
   * Moves the engine's upkeep of its files off this thread, for a process that serves requests
   * (SQLite: copying the WAL into the database, which otherwise happens in a commit).
   */
  upkeepOffThread?(): void
  /** Ends what the dialect started besides its connections; called before they are closed. */
  close?(): Promise<void>
}
