import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectCapabilities } from '../dialect.js'

/** The tables a project route's first read joins (projects-repo.ts `findWithAccess`). */
const READ_TABLES = ['accounts', 'memberships', 'projects', 'stacks', 'apis'] as const

/**
 * On PostgreSQL, every statement that changes a table a hub keeps reads of notifies
 * `svc_store_changes` with the table's schema, whoever runs it, so that every hub sets its kept
 * reads aside (store/read-cache.ts, store/postgres/changes.ts). SQLite needs nothing: its
 * `data_version` moves on every commit of another connection.
 */
export function storeChanges(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<any>) {
      if (caps.name !== 'postgres') return
      await sql`
        create or replace function svc_store_changed() returns trigger language plpgsql as $$
        begin
          perform pg_notify('svc_store_changes', tg_table_schema);
          return null;
        end
        $$`.execute(db)
      for (const table of READ_TABLES) {
        const trigger = sql.id(`${table}_changed`)
        // Idempotent, as a test replays the migrations after 0007 on a schema that has them.
        await sql`drop trigger if exists ${trigger} on ${sql.table(table)}`.execute(db)
        await sql`
          create trigger ${trigger}
          after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function svc_store_changed()`.execute(db)
      }
    },
  }
}
