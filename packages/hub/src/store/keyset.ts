import { expressionBuilder, type Expression, type SqlBool } from 'kysely'
import type { Database } from './schema.js'

const eb = expressionBuilder<Database, never>()

/** Where a page of a list ordered by account handle and slug starts: after this one. */
export type HandleSlugCursor = { readonly account: string; readonly slug: string }

/**
 * The rows past `position` in a list ordered by two columns (a page's last row): `first` beyond
 * it, or equal and `second` beyond. `>` for a list in ascending order, `<` for descending.
 *
 * @example
 * select.where((eb) => pastKeyset([eb.ref('created_at'), eb.ref('id')], [after.createdAt, after.id]))
 */
export function pastKeyset(
  [first, second]: readonly [Expression<string>, Expression<string>],
  [firstValue, secondValue]: readonly [string, string],
  direction: '>' | '<' = '>',
): Expression<SqlBool> {
  return eb.or([
    eb(first, direction, firstValue),
    eb.and([eb(first, '=', firstValue), eb(second, direction, secondValue)]),
  ])
}
