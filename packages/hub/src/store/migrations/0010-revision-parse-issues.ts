import type { Kysely, Migration } from 'kysely'

/**
 * A revision keeps its document's parse issues (JSON, every level), which the issues endpoint
 * lists; null for the revisions stored before, whose issues are found again when first asked.
 */
export function revisionParseIssues(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('revisions').addColumn('parse_issues', 'text').execute()
    },
  }
}
