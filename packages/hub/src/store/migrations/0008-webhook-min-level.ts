import type { Kysely, Migration } from 'kysely'

/**
 * A webhook's minimum change level: a revision event is sent to it only when the revision has a
 * change at that level or above. Existing webhooks get `info`, which sends every event they got
 * before.
 */
export function webhookMinLevel(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('webhooks')
        .addColumn('min_level', 'text', (c) => c.notNull().defaultTo('info'))
        .execute()
    },
  }
}
