import type { Kysely, Migration } from 'kysely'

/**
 * A revision's changelog also keeps the error-level parse issues of the two documents it
 * compares (JSON, null when neither has one), which the changes endpoint serves as `issues`.
 */
export function changelogIssues(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('revisions').addColumn('changelog_issues', 'text').execute()
    },
  }
}
