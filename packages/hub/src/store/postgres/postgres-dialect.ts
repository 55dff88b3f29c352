import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import {
  DEFAULT_STORE_TIMEOUTS,
  type DialectCapabilities,
  type StoreDialect,
  type StoreTimeouts,
} from '../dialect.js'
import type { Database } from '../schema.js'
import { guardedPool } from './guarded-pool.js'
import type { WriteCount } from '../read-cache.js'
import {
  listenForChanges,
  STORE_CHANGES_CHANNEL,
  TOKEN_CHANGES_CHANNEL,
  type ChangeNotices,
} from './changes.js'

export const POSTGRES_CAPABILITIES: DialectCapabilities = {
  name: 'postgres',
  blobType: 'bytea',
  isUniqueViolation: (error) => error instanceof Error && 'code' in error && error.code === '23505',
  skipLocked: true,
  rowLocks: true,
  dataModifyingCte: true,
  // gen_random_uuid() is built in (PostgreSQL 13+): 24 of its hex digits, as newId makes.
  randomId: (prefix) =>
    sql<string>`${prefix + '_'} || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24)`,
  recordSet: (rows, columns, alias) =>
    sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${sql.ref(alias)}(${sql.join(
      columns.map(([name, type]) => sql`${sql.ref(name)} ${sql.raw(type)}`),
    )})`,
}

export type PostgresOptions = {
  /** Schema to create and use instead of `public` (tests give each store its own). */
  readonly schema?: string
  readonly maxConnections?: number
  readonly timeouts?: StoreTimeouts
}

/** A client-side deadline a little past the server's, so that the server's cleaner cancel wins. */
const CLIENT_DEADLINE_MARGIN_MS = 500

/** Connects to `databaseUrl` (a `postgres://` or `postgresql://` URL) through a pool. */
export function openPostgres(databaseUrl: string, options: PostgresOptions = {}): StoreDialect {
  const timeouts = options.timeouts ?? DEFAULT_STORE_TIMEOUTS
  const connection = {
    connectionString: databaseUrl,
    connectionTimeoutMillis: timeouts.connectMs,
    // Finds a connection whose peer vanished without a word (a partition) while it sits idle.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  }
  const pool = new pg.Pool({
    ...connection,
    max: options.maxConnections ?? 10,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  })
  const writes: WriteCount = { count: 0 }
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: guardedPool(pool, timeouts.statementMs + CLIENT_DEADLINE_MARGIN_MS, writes),
    }),
  })
  const url = new URL(databaseUrl)
  url.password = ''
  const schema = async () => {
    if (options.schema) return options.schema
    const current = sql<{ name: string | null }>`select current_schema() as name`
    const { rows } = await current.execute(db)
    return rows[0]?.name ?? undefined
  }
  // Both feeds share one listening connection, ended when the last of them is closed.
  let notices: Promise<ChangeNotices> | undefined
  let listeners = 0
  const listen = async (): Promise<ChangeNotices> => {
    notices ??= schema().then((name) =>
      listenForChanges(connection, name ?? 'public', [
        TOKEN_CHANGES_CHANNEL,
        STORE_CHANGES_CHANNEL,
      ]),
    )
    try {
      const listening = await notices
      listeners++
      return listening
    } catch (error) {
      notices = undefined
      throw error
    }
  }
  const unlisten = async (): Promise<void> => {
    if (--listeners > 0 || !notices) return
    const last = notices
    notices = undefined
    await (await last).close()
  }
  return {
    db,
    capabilities: POSTGRES_CAPABILITIES,
    describe: `postgres ${url.host}${url.pathname}${options.schema ? ` (schema ${options.schema})` : ''}`,
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    schema,
    watchTokenChanges: async () => {
      const notices = await listen()
      return { version: () => notices.version(TOKEN_CHANGES_CHANNEL), close: unlisten }
    },
    // Another process's changes come as the tables' triggers' notices (0012-store-changes), a
    // few milliseconds after its commit; this process's own writes are counted as they are sent
    // and answered, so the next read here sees them.
    watchChanges: async () => {
      const notices = await listen()
      return {
        version: () => {
          const version = notices.version(STORE_CHANGES_CHANNEL)
          return version === undefined ? undefined : `${version}:${writes.count}`
        },
        close: unlisten,
      }
    },
  }
}
