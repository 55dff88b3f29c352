import type { Kysely, Migration } from 'kysely'

/**
 * Organisations' rate-limit overrides: one row per organisation and route (method and path
 * pattern as the default table names it) replaces that route's default limit for the
 * organisation (docs/api/rate-limits.md).
 */
export function rateLimits(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('rate_limit_overrides')
        .addColumn('org_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('max', 'integer', (c) => c.notNull())
        .addColumn('window_seconds', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_overrides_pk', ['org_id', 'method', 'path'])
        .execute()
    },
  }
}
