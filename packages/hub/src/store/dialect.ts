import type { Kysely, RawBuilder } from 'kysely'
import type { Database } from './schema.js'

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
   * Whether `WITH x AS (UPDATE … RETURNING …)` works, so that what takes several statements
   * (and round trips) elsewhere is one statement.
   */
  readonly dataModifyingCte: boolean
  /**
   * A derived table `alias` with one row per element of the JSON array `json` (objects with the
   * given columns): how one statement updates many rows with a value each.
   */
  recordSet(json: string, columns: readonly RecordColumn[], alias: string): RawBuilder<unknown>
  /** An id like `newId` makes (`<prefix>_` and 24 hex digits), made by the database per row. */
  randomId(prefix: string): RawBuilder<string>
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
}
