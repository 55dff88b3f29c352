import { expect } from 'vitest'
import { sql } from 'kysely'
import { eventually } from './poll.js'
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
  'revision_acceptances',
  'revision_changelogs',
  'projects',
  'project_base_files',
  'webhooks',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
  'credit_entries',
  'credit_settings',
  'rate_limit_overrides',
  'libraries',
  'idempotency_keys',
  'passwords',
  'sessions',
  'deployments',
  'runs',
  'run_artifacts',
  'project_aliases',
  'account_usage',
  'quota_overrides',
] as const

/** Columns that change on reads (a token's last use), left out so "unchanged" means unchanged by writes. */
const VOLATILE = new Set(['last_used_at', 'last_seen_at'])

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

/**
 * Runs `action` and asserts that the hub's store holds exactly what it held before. The webhook
 * dispatcher writes on its own, so this first waits until no delivery is being attempted or due
 * within minutes (one waiting for a retry an hour away holds still).
 */
export async function expectStoreUnchanged<T>(
  hub: { sharedStore(): Promise<Store> },
  action: () => Promise<T>,
): Promise<T> {
  const store = await hub.sharedStore()
  await deliveriesAtRest(store)
  const before = await snapshotStore(store)
  const result = await action()
  expect(await snapshotStore(store)).toEqual(before)
  return result
}

/** Waits until no webhook delivery is in flight or due in the next five minutes. */
async function deliveriesAtRest(store: Store): Promise<void> {
  await eventually(async () => {
    const soon = new Date(Date.now() + 5 * 60_000).toISOString()
    const busy = await store.kysely
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<', soon)
      .execute()
    return busy.length === 0 ? true : undefined
  }, 'the webhook deliveries in flight to finish')
}
