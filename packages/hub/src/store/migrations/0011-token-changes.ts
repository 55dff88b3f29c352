import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectCapabilities } from '../dialect.js'

/**
 * On PostgreSQL, every change of a token that decides whether it is accepted (revoked, expiry,
 * scopes, hash, user; or the row deleted) notifies `svc_token_changes` with the table's schema,
 * whoever makes it: another hub, `svc-hub admin`, SQL typed by hand. Hubs cache token lookups
 * for a few seconds and drop them when told (store/postgres/token-changes.ts). SQLite needs
 * nothing: its `data_version` moves on every commit of another connection.
 */
export function tokenChanges(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<any>) {
      if (caps.name !== 'postgres') return
      await sql`
        create or replace function svc_token_changed() returns trigger language plpgsql as $$
        begin
          perform pg_notify('svc_token_changes', tg_table_schema);
          return null;
        end
        $$`.execute(db)
      // Idempotent, as a test replays the migrations after 0007 on a schema that has them.
      await sql`drop trigger if exists tokens_changed on tokens`.execute(db)
      await sql`
        create trigger tokens_changed
        after update of revoked_at, expires_at, scopes, token_hash, user_id or delete on tokens
        for each statement execute function svc_token_changed()`.execute(db)
    },
  }
}
