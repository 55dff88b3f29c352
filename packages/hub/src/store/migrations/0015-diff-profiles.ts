import type { Kysely, Migration } from 'kysely'

/**
 * Diff profiles (`wire`, `sdk`): an API's `diff_profile`, the one its revisions' changelogs are
 * computed with; a webhook's `profile` (null: the API's), the one its events are judged with; a
 * revision's `profile`, the one its stored changelog was computed with (existing ones: `wire`).
 *
 * `revision_changelogs` holds a revision's changelog under another profile than its own, computed
 * with the revision when a push asked for it (`?profile=`) or a webhook needs it, so that the
 * gate and the webhook events read it without diffing again.
 */
export function diffProfiles(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('apis')
        .addColumn('diff_profile', 'text', (c) => c.notNull().defaultTo('wire'))
        .execute()
      await db.schema.alterTable('webhooks').addColumn('profile', 'text').execute()
      await db.schema
        .alterTable('revisions')
        .addColumn('profile', 'text', (c) => c.notNull().defaultTo('wire'))
        .execute()
      await db.schema
        .createTable('revision_changelogs')
        .ifNotExists()
        .addColumn('revision_id', 'text', (c) => c.notNull().references('revisions.id'))
        .addColumn('profile', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('breaking', 'integer', (c) => c.notNull())
        .addColumn('warning', 'integer', (c) => c.notNull())
        .addColumn('info', 'integer', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('changelog_issues', 'text')
        .addPrimaryKeyConstraint('revision_changelogs_pk', ['revision_id', 'profile'])
        .execute()
    },
  }
}
