import { expressionBuilder, type Expression, type SqlBool } from 'kysely'
import type { Database } from './schema.js'

const eb = expressionBuilder<Database, never>()

/** The ids of the organisations `userId` belongs to, as a subquery. */
export function orgIdsOf(userId: string) {
  return eb.selectFrom('memberships').select('org_id').where('user_id', '=', userId)
}

/**
 * Rows whose owning `account` (an `account_id` column) `readerId` can read: its own account's,
 * and those of the organisations it belongs to.
 *
 * @example
 * db.selectFrom('stacks').where((eb) => readableBy(eb.ref('stacks.account_id'), readerId))
 */
export function readableBy(account: Expression<string>, readerId: string): Expression<SqlBool> {
  return eb.or([eb(account, '=', readerId), eb(account, 'in', orgIdsOf(readerId))])
}
