import type { ChangelogBuilder } from '../changelog.js'
import { joined, quoted } from './diff-names.js'
import type { GqlRuleId } from './rules.js'
import type { AppliedDirective } from './schema-shape.js'

/** The rules the applied directives of one kind of definition report under. */
export type AppliedDirectiveRules = {
  readonly added: GqlRuleId
  readonly removed: GqlRuleId
  readonly changed: GqlRuleId
}

/**
 * Reports the directives applied to one definition that were added, removed, or given other
 * arguments, one change per rule naming them all (as for union members). A directive applied once
 * on each side is compared by its arguments; one applied several times (`repeatable`) is compared
 * as a multiset of its printed usages. `subject` names the definition in messages. Returns whether
 * anything changed.
 */
export function diffAppliedDirectives(
  log: ChangelogBuilder,
  rules: AppliedDirectiveRules,
  subject: string,
  at: string,
  before: readonly AppliedDirective[],
  after: readonly AppliedDirective[],
): boolean {
  if (before === after || (before.length === 0 && after.length === 0)) return false
  const added: string[] = []
  const removed: string[] = []
  const changed: string[] = []
  for (const name of new Set([...before, ...after].map((directive) => directive.name))) {
    const old = textsNamed(before, name)
    const now = textsNamed(after, name)
    if (old.length === 1 && now.length === 1) {
      if (old[0] !== now[0]) changed.push(`\`${now[0]}\` instead of \`${old[0]}\``)
      continue
    }
    for (const text of old) {
      const index = now.indexOf(text)
      if (index < 0) removed.push(text)
      else now.splice(index, 1)
    }
    added.push(...now)
  }
  const plural = (texts: string[]) => (texts.length > 1 ? 's' : '')
  if (removed.length > 0)
    log.add(rules.removed, at, `${subject} lost directive${plural(removed)} ${quoted(removed)}.`)
  if (added.length > 0)
    log.add(rules.added, at, `${subject} gained directive${plural(added)} ${quoted(added)}.`)
  if (changed.length > 0)
    log.add(rules.changed, at, `${subject} now applies ${joined(changed.sort())}.`)
  return added.length + removed.length + changed.length > 0
}

function textsNamed(directives: readonly AppliedDirective[], name: string): string[] {
  return directives.filter((directive) => directive.name === name).map(({ text }) => text)
}
