import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { openPostgres } from './postgres/postgres-dialect.js'
import { openSqlite } from './sqlite/sqlite-dialect.js'
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from './dialect.js'
import { Store } from './store.js'

export type StoreOptions = (
  | { readonly kind: 'sqlite'; readonly dataDir: string | ':memory:' }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string }
) & { readonly timeouts?: StoreTimeouts }

export class StoreConfigError extends Error {
  override readonly name = 'StoreConfigError'
}

/** Which store the environment asks for: PostgreSQL when `DATABASE_URL` is set, else SQLite. */
export function storeOptions(config: {
  databaseUrl: string | undefined
  dataDir: string
  databaseSchema?: string | undefined
  storeTimeouts?: StoreTimeouts
}): StoreOptions {
  const timeouts = config.storeTimeouts ? { timeouts: config.storeTimeouts } : {}
  if (!config.databaseUrl) return { kind: 'sqlite', dataDir: config.dataDir, ...timeouts }
  if (!/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new StoreConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL')
  }
  return {
    kind: 'postgres',
    url: config.databaseUrl,
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    ...timeouts,
  }
}

/** Opens the store and brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.kind === 'postgres' && options.schema) {
    await createSchema(
      options.url,
      options.schema,
      (options.timeouts ?? DEFAULT_STORE_TIMEOUTS).connectMs,
    )
  }
  const timeouts = options.timeouts ?? DEFAULT_STORE_TIMEOUTS
  const store = new Store(
    options.kind === 'sqlite'
      ? openSqlite(options.dataDir, timeouts.busyMs)
      : openPostgres(options.url, {
          timeouts,
          ...(options.schema ? { schema: options.schema } : {}),
        }),
  )
  try {
    await store.migrate()
  } catch (error) {
    await store.close().catch(() => {})
    const reason = error instanceof Error ? error.message : String(error)
    throw new StoreConfigError(`cannot open the store (${store.describe}): ${reason}`, {
      cause: error,
    })
  }
  return store
}

async function createSchema(url: string, schema: string, connectMs: number): Promise<void> {
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
