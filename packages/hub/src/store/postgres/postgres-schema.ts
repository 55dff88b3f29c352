import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { StoreConfigError } from '../config-error.js'

/** Makes the PostgreSQL schema a hub keeps its tables in, when it is not there yet. */
export async function createSchema(url: string, schema: string, connectMs: number): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new StoreConfigError(`database schema '${schema}' must match [a-z_][a-z0-9_]*`)
  }
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: connectMs }),
    }),
  })
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db)
  } catch (error) {
    // Hubs starting together race here, and `if not exists` does not spare the loser a
    // unique violation: the schema being there is what counts.
    const found = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(db)
    if (found.rows.length === 0) throw error
  } finally {
    await db.destroy()
  }
}
