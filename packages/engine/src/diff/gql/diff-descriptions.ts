import type { ChangelogBuilder } from '../changelog.js'
import type { GqlRuleId } from './rules.js'

/**
 * Reports a description added, changed or removed under `rule`, and counts it in the
 * `documentation` section only: a description tells readers something, it does not change what
 * clients send or receive, so the thing it describes is not counted as modified. `subject` names
 * the thing in the message (“Field `User.email`”).
 */
export function diffDescription(
  log: ChangelogBuilder,
  rule: GqlRuleId,
  subject: string,
  at: string,
  before: string | undefined,
  after: string | undefined,
): void {
  if (before === after) return
  if (before === undefined) {
    log.add(rule, at, `${subject} gained a description.`)
    log.count('documentation', 'added')
  } else if (after === undefined) {
    log.add(rule, at, `${subject} lost its description.`)
    log.count('documentation', 'deleted')
  } else if (normalised(before) !== normalised(after)) {
    log.add(rule, at, `${subject} changed its description.`)
    log.count('documentation', 'modified')
  }
}

/**
 * A description without the whitespace that does not show when it is rendered: at the ends of
 * lines and of the text. graphql-js has already removed a block string's common indentation.
 */
function normalised(description: string): string {
  return description.replace(/[ \t]+$/gm, '').trim()
}
