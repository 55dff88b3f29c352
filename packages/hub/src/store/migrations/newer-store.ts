import { sql, type Kysely } from 'kysely'
import { StoreConfigError } from '../config-error.js'
import type { Database } from '../schema.js'

/**
 * Refuses a store that a newer svc-hub migrated: one whose migration table names migrations this
 * hub does not have. Kysely's migrator refuses it too, in words that sound like damage
 * ("corrupted migrations: previously executed migration … is missing"); this says what happened
 * and what to do. Nothing is changed either way.
 *
 * @param known the names of this hub's migrations
 * @param schema the schema of the migration table (PostgreSQL), if not the default
 */
export async function refuseNewerStore(
  db: Kysely<Database>,
  known: readonly string[],
  schema?: string,
): Promise<void> {
  const table = sql.table(schema ? `${schema}.kysely_migration` : 'kysely_migration')
  let executed: string[]
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db)
    executed = rows.map((row) => row.name)
  } catch {
    return // No migration table (a new store), or the store fails: the migrator tells.
  }
  const ours = new Set(known)
  const newest = executed
    .filter((name) => !ours.has(name))
    .sort()
    .at(-1)
  if (newest === undefined) return
  throw new StoreConfigError(
    `this store was migrated by a newer svc-hub (${newest}); upgrade the hub, or restore a backup`,
  )
}
