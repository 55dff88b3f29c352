import { expect } from 'vitest'
import { sql } from 'kysely'
import type { Store } from '../../src/store/store.js'

const TABLES = [
  'accounts',
  'memberships',
  'tokens',
  'api_keys',
  'blobs',
  'stacks',
  'stack_versions',
  'stack_version_files',
  'apis',
  'revisions',
  'projects',
  'project_base_files',
] as const

/** Columns that change on reads (a token's last use), left out so "unchanged" means unchanged by writes. */
const VOLATILE = new Set(['last_used_at'])

/**
 * Every row of every table, in a stable order, with blobs as hashes: two snapshots are equal
 * exactly when no request wrote anything.
 */
export async function snapshotStore(store: Store): Promise<Record<string, unknown[]>> {
  const db = store.kysely
  const out: Record<string, unknown[]> = {}
  for (const table of TABLES) {
    const rows = (await sql`select * from ${sql.table(table)}`.execute(db)).rows as Record<
      string,
      unknown
    >[]
    out[table] = rows
      .map((row) =>
        Object.fromEntries(
          Object.entries(row)
            .filter(([key]) => !VOLATILE.has(key))
            .map(([key, value]) => [
              key,
              value instanceof Uint8Array ? `<${value.byteLength} bytes>` : value,
            ]),
        ),
      )
      .map((row) => JSON.stringify(row))
      .sort()
  }
  return out
}

/** Runs `action` and asserts that the hub's store holds exactly what it held before. */
export async function expectStoreUnchanged<T>(
  hub: { openStore(): Promise<Store> },
  action: () => Promise<T>,
): Promise<T> {
  const store = await hub.openStore()
  try {
    const before = await snapshotStore(store)
    const result = await action()
    expect(await snapshotStore(store)).toEqual(before)
    return result
  } finally {
    await store.close()
  }
}
