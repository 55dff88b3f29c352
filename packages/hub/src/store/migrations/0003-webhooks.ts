import type { Kysely, Migration } from 'kysely'

/**
 * Webhooks, the events sent to them, and the delivery rows that are at once the outbox (written
 * in the transaction of the revision that caused them) and the dispatcher's queue.
 */
export function webhooks(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('secret_rotated_at', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('webhooks_api').on('webhooks').columns(['api_id']).execute()

      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('revision_id', 'text', (c) => c.references('revisions.id'))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
        .addColumn('webhook_id', 'text', (c) =>
          c.notNull().references('webhooks.id').onDelete('cascade'),
        )
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text')
        .addColumn('next_trigger', 'text', (c) => c.notNull())
        .addColumn('claim_token', 'text')
        .addColumn('window_started_at', 'text')
        .addColumn('window_attempts', 'integer', (c) => c.notNull())
        .addColumn('attempt_count', 'integer', (c) => c.notNull())
        .addColumn('last_attempt_at', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('completed_at', 'text')
        .execute()
      // The dispatcher's claim: due pending rows, oldest due first.
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute()
      await db.schema
        .createIndex('webhook_deliveries_webhook')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'created_at'])
        .execute()

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('delivery_id', 'text', (c) =>
          c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
        )
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('redirects', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('error', 'text')
        .addColumn('response_excerpt', 'text')
        .addColumn('next_attempt_at', 'text')
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'number'])
        .execute()
    },
  }
}
