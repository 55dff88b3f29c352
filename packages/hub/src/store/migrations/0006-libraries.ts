import type { Kysely, Migration } from 'kysely'

/**
 * Libraries of organisations, and the idempotency keys of the requests that create them: one
 * row per (scope, key), claimed by an INSERT that only the primary key lets through once.
 */
export function libraries(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('libraries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('ingestion_profile', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('accounts.id'))
        .addColumn('api_key_id', 'text', (c) => c.references('api_keys.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // The list of one organisation, oldest first.
      await db.schema
        .createIndex('libraries_org')
        .on('libraries')
        .columns(['org_id', 'created_at', 'id'])
        .execute()

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('claim_token', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
        .execute()
      // The lazy sweep of expired keys.
      await db.schema
        .createIndex('idempotency_keys_expiry')
        .on('idempotency_keys')
        .columns(['expires_at'])
        .execute()
    },
  }
}
