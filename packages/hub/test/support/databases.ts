import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openStore, type Store, type StoreOptions } from '../../src/store/index.js'

export type StoreKind = 'sqlite' | 'postgres'

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test'

/** The PostgreSQL the tests use: `SVC_TEST_DATABASE_URL` (set by CI), else the local default. */
export function postgresUrl(): string {
  return process.env.SVC_TEST_DATABASE_URL || DEFAULT_URL
}

let reachable: Promise<boolean> | undefined

/**
 * The store kinds to run: SQLite always; PostgreSQL when it answers. When CI sets
 * SVC_TEST_DATABASE_URL and PostgreSQL does not answer, that is a failure, never a skip.
 */
export async function storeKinds(): Promise<StoreKind[]> {
  reachable ??= probe()
  if (await reachable) return ['sqlite', 'postgres']
  if (process.env.SVC_TEST_DATABASE_URL) {
    throw new Error(
      `SVC_TEST_DATABASE_URL is set but PostgreSQL at ${redact(postgresUrl())} does not answer`,
    )
  }
  console.warn(
    `[hub tests] skipping the PostgreSQL half: nothing answers at ${redact(postgresUrl())} (set SVC_TEST_DATABASE_URL)`,
  )
  return ['sqlite']
}

async function probe(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl(), connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** A fresh, empty PostgreSQL schema name for one store under test. */
export function newSchemaName(): string {
  return `svc_test_${randomBytes(6).toString('hex')}`
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl() })
  await client.connect()
  try {
    await client.query(`drop schema if exists "${schema}" cascade`)
  } finally {
    await client.end()
  }
}

/** Store options for a new, empty store of `kind` (a temp dir or a new schema). */
export function freshStoreOptions(kind: StoreKind, dataDir: string): StoreOptions {
  return kind === 'sqlite'
    ? { kind: 'sqlite', dataDir }
    : { kind: 'postgres', url: postgresUrl(), schema: newSchemaName() }
}

/**
 * Opens a new, empty, migrated store; `options` opens another store on the same data (for
 * example to migrate it again); `cleanup` closes the store and drops what it made.
 */
export async function openFreshStore(
  kind: StoreKind,
  dataDir: string | ':memory:' = ':memory:',
): Promise<{ store: Store; options: StoreOptions; cleanup: () => Promise<void> }> {
  const options: StoreOptions =
    kind === 'sqlite'
      ? { kind: 'sqlite', dataDir }
      : { kind: 'postgres', url: postgresUrl(), schema: newSchemaName() }
  const store = await openStore(options)
  return {
    store,
    options,
    cleanup: async () => {
      await store.close()
      if (options.kind === 'postgres' && options.schema) await dropSchema(options.schema)
    },
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url)
    u.password = ''
    return u.href
  } catch {
    return '(unparseable URL)'
  }
}
