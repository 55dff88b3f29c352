import type { Kysely, Migration } from 'kysely'

/**
 * `revision_acceptances`: a revision's breaking changes and warnings accepted as deliberate, by
 * whom, when and why (`POST …/revisions/{id}/acceptance`); one row at most per revision. A table
 * of its own, not columns of `revisions`, since a revision is never changed once stored and an
 * acceptance can be withdrawn.
 */
export function revisionAcceptances(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('revision_acceptances')
        .ifNotExists()
        .addColumn('revision_id', 'text', (c) => c.primaryKey().references('revisions.id'))
        .addColumn('accepted_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('accepted_at', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .execute()
    },
  }
}
