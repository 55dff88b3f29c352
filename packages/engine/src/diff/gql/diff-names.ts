import type { ChangelogBuilder } from '../changelog.js'
import type { GqlRuleId } from './rules.js'

/**
 * Reports the names added to and removed from a set that has no coordinate of its own (members,
 * interfaces, directive locations): one change per direction, at the owner, naming them all,
 * since the changelog keeps one change per rule and location. Returns whether any changed.
 */
export function diffNames(
  log: ChangelogBuilder,
  [addedRule, removedRule]: readonly [GqlRuleId, GqlRuleId],
  at: string,
  before: ReadonlySet<string>,
  after: ReadonlySet<string>,
  added: (names: string, plural: string) => string,
  removed: (names: string, plural: string) => string,
): boolean {
  const gone = [...before].filter((name) => !after.has(name))
  const fresh = [...after].filter((name) => !before.has(name))
  if (gone.length > 0) log.add(removedRule, at, removed(quoted(gone), gone.length > 1 ? 's' : ''))
  if (fresh.length > 0) log.add(addedRule, at, added(quoted(fresh), fresh.length > 1 ? 's' : ''))
  return gone.length + fresh.length > 0
}

/** Names in backticks, joined as `A`, `A and B`, `A, B and C`, sorted so that document order does not show. */
export function quoted(names: string[]): string {
  return joined(names.sort().map((name) => `\`${name}\``))
}

/** Items joined as `A`, `A and B`, `A, B and C`. */
export function joined(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
