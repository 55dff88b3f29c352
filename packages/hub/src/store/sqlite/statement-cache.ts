import type { SqliteDatabase, SqliteStatement } from 'kysely'
import { Lru } from '../lru.js'

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
