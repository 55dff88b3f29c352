import type { ChangelogBuilder } from '../changelog.js'
import type { GqlRuleId } from './rules.js'

/** The rules one kind of deprecatable thing reports under. */
export type DeprecationRules = {
  readonly deprecated: GqlRuleId
  readonly undeprecated: GqlRuleId
  readonly reasonChanged: GqlRuleId
}

/**
 * Reports a change of `@deprecated` on one field, argument, input field or enum value, given its
 * reason before and after (`undefined`: not deprecated). Returns whether anything changed.
 */
export function diffDeprecation(
  log: ChangelogBuilder,
  rules: DeprecationRules,
  what: string,
  at: string,
  before: string | undefined,
  after: string | undefined,
): boolean {
  if (before === after) return false
  if (before === undefined)
    log.add(rules.deprecated, at, `${what} \`${at}\` was deprecated with reason \`${after}\`.`)
  else if (after === undefined)
    log.add(rules.undeprecated, at, `${what} \`${at}\` is no longer deprecated.`)
  else
    log.add(
      rules.reasonChanged,
      at,
      `${what} \`${at}\` changed its deprecation reason from \`${before}\` to \`${after}\`.`,
    )
  return true
}
