import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
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

/**
 * Empty stores for one test after another on one PostgreSQL schema, migrated once: each
 * `next()` deletes every row (children before the rows they reference) and hands out the same
 * open store, or a new one after a test closed it. `close` ends it and drops the schema.
 */
export function emptiedStores(): {
  next: () => Promise<{ store: Store; options: StoreOptions; cleanup: () => Promise<void> }>
  close: () => Promise<void>
} {
  const options: StoreOptions = { kind: 'postgres', url: postgresUrl(), schema: newSchemaName() }
  const schema = options.schema!
  let open: Store | undefined
  let order: string[] | undefined
  const usable = async (store: Store) =>
    store.ping().then(
      () => true,
      () => false,
    )
  return {
    next: async () => {
      if (!open || !(await usable(open))) open = await openStore(options)
      const store = open
      order ??= await deletionOrder(store, schema)
      await sql
        .raw(order.map((table) => `delete from "${schema}"."${table}"`).join(';\n'))
        .execute(store.kysely)
      // The test may close it (the lifecycle tests do): `next` then opens another.
      return { store, options, cleanup: async () => {} }
    },
    close: async () => {
      await open?.close().catch(() => {})
      await dropSchema(schema)
    },
  }
}

/** The tables of `schema` but the migrations' own, each after every table that references it. */
async function deletionOrder(store: Store, schema: string): Promise<string[]> {
  const tables = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = ${schema} and tablename not like 'kysely_migration%'`.execute(store.kysely)
  const references = await sql<{ child: string; parent: string }>`
    select c.relname as child, p.relname as parent from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = k.connamespace
    where k.contype = 'f' and n.nspname = ${schema} and c.oid <> p.oid`.execute(store.kysely)
  const left = new Set(tables.rows.map((t) => t.name))
  const order: string[] = []
  while (left.size > 0) {
    const free = [...left].filter(
      (table) => !references.rows.some((r) => r.parent === table && left.has(r.child)),
    )
    if (free.length === 0) throw new Error(`foreign keys in a cycle among ${[...left].join(', ')}`)
    for (const table of free) {
      order.push(table)
      left.delete(table)
    }
  }
  return order
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
