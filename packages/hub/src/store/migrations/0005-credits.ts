import { sql, type Kysely, type Migration } from 'kysely'

/**
 * The credits ledger: one row per grant, charge or refund of an organisation. The balance is
 * the sum of the rows and is never stored, so it cannot drift from its history. `seq` numbers an
 * organisation's entries 1, 2, 3 … under its lock; being unique, it also makes two writes that
 * read the same ledger collide instead of both landing. A refund names the charge it gives
 * back, at most once (`refund_of` is unique).
 */
export function credits(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('credit_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('request_id', 'text')
        .addColumn('refund_of', 'text', (c) => c.unique().references('credit_entries.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('credit_entries_org_seq', ['org_id', 'seq'])
        .addCheckConstraint('credit_entries_amount', sql`amount > 0`)
        .addCheckConstraint('credit_entries_kind', sql`kind in ('grant', 'charge', 'refund')`)
        .execute()

      // One row per organisation that changed a default; no row means the defaults.
      await db.schema
        .createTable('credit_settings')
        .addColumn('org_id', 'text', (c) => c.primaryKey().references('accounts.id'))
        .addColumn('low_credit_threshold', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addCheckConstraint('credit_settings_threshold', sql`low_credit_threshold >= 0`)
        .execute()
    },
  }
}
