import type { Kysely, Migration } from 'kysely'

/**
 * Revisions of APIs, each with its changelog against the revision that was latest before it.
 * The API's latest revision is the one with the highest `seq`; the unique (api_id, seq) pair is
 * what makes two concurrent pushes onto the same latest revision collide instead of both landing.
 */
export function revisions(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('revisions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull().references('blobs.sha256'))
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('media_type', 'text', (c) => c.notNull())
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('spec_version', 'text', (c) => c.notNull())
        .addColumn('version', 'text')
        .addColumn('published_at', 'text')
        .addColumn('retrieved_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('previous_revision_id', 'text', (c) => c.references('revisions.id'))
        .addColumn('issue_errors', 'integer', (c) => c.notNull())
        .addColumn('issue_warnings', 'integer', (c) => c.notNull())
        .addColumn('issue_debug', 'integer', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('breaking', 'integer', (c) => c.notNull())
        .addColumn('warning', 'integer', (c) => c.notNull())
        .addColumn('info', 'integer', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addUniqueConstraint('revisions_api_seq', ['api_id', 'seq'])
        .execute()
    },
  }
}
