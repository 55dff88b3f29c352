import { StoreConfigError } from './config-error.js'
import { openPostgres } from './postgres/postgres-dialect.js'
import { createSchema } from './postgres/postgres-schema.js'
import { openSqlite } from './sqlite/sqlite-dialect.js'
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from './dialect.js'
import { postgresOutage } from './postgres/guarded-pool.js'
import { Store } from './store.js'

export type StoreOptions = (
  | { readonly kind: 'sqlite'; readonly dataDir: string | ':memory:' }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string }
) & { readonly timeouts?: StoreTimeouts }

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

/** How `openStore` waits for a database that does not answer yet (a hub starting before it). */
export type StartWait = {
  /** How long to keep trying; 0 fails at once. */
  readonly ms: number
  /** Told before each pause: why the last try failed and how long the pause is. */
  readonly onWait?: (error: Error, pauseMs: number) => void
}

/**
 * Opens the store and brings its schema up to date. While the database is unreachable it tries
 * again, pausing 0.5 s, then twice as long each time up to 5 s, for `wait.ms` in all; any other
 * failure (a wrong password, a bad schema) ends it at once.
 */
export async function openStore(
  options: StoreOptions,
  wait: StartWait = { ms: 0 },
): Promise<Store> {
  const deadline = Date.now() + wait.ms
  for (let pauseMs = 500; ; pauseMs = Math.min(pauseMs * 2, 5_000)) {
    try {
      return await openOnce(options)
    } catch (error) {
      const outage = outageIn(error)
      if (!outage || Date.now() + pauseMs > deadline) throw error
      wait.onWait?.(outage, pauseMs)
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
    }
  }
}

/**
 * The outage of the database that `error` is, or was caused by: a StoreUnavailable from either
 * dialect, or a raw pg error from making the schema (postgresOutage passes the first through).
 */
function outageIn(error: unknown): Error | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const outage = postgresOutage(e)
    if (outage) return outage
  }
  return undefined
}

async function openOnce(options: StoreOptions): Promise<Store> {
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
    if (options.kind === 'postgres' && options.schema) {
      await createSchema(options.url, options.schema, timeouts.connectMs)
    }
    await store.migrate()
  } catch (error) {
    await store.close().catch(() => {})
    if (error instanceof StoreConfigError) throw error
    const reason = error instanceof Error ? error.message : String(error)
    throw new StoreConfigError(`cannot open the store (${store.describe}): ${reason}`, {
      cause: error,
    })
  }
  return store
}

/** How `serve` and `worker` wait for their database at start: as configured, saying so in the log. */
export function startWait(
  config: { storeStartWaitMs: number },
  log: { warn(o: object, m: string): void },
): StartWait {
  return {
    ms: config.storeStartWaitMs,
    onWait: (error, pauseMs) =>
      log.warn({ err: error, retryInMs: pauseMs }, 'waiting for the database'),
  }
}
