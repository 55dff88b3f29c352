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
  const [from, to] = [shown(before), shown(after)]
  if (from === to) return
  if (from === undefined) {
    log.add(rule, at, `${subject} gained a description.`)
    log.count('documentation', 'added')
  } else if (to === undefined) {
    log.add(rule, at, `${subject} lost its description.`)
    log.count('documentation', 'deleted')
  } else {
    log.add(rule, at, `${subject} changed its description.`)
    log.count('documentation', 'modified')
  }
}

/**
 * A description as a reader sees it: without whitespace at the ends of lines and of the text
 * (graphql-js has already removed a block string's common indentation), and none when blank.
 */
function shown(description: string | undefined): string | undefined {
  return description?.replace(/[ \t]+$/gm, '').trim() || undefined
}
