import { Kind } from 'graphql'
import type { ChangeDelta, ChangelogBuilder, GqlSection } from '../changelog.js'
import { diffAppliedDirectives, type AppliedDirectiveRules } from './diff-applied-directives.js'
import { diffDeprecation, type DeprecationRules } from './diff-deprecation.js'
import { diffDescription } from './diff-descriptions.js'
import type { GqlRuleId } from './rules.js'
import type { InputValueShape } from './schema-shape.js'
import { isSafeInputChange } from './type-expressions.js'

/** The rules and wording of one kind of input value: argument, input field, directive argument. */
export type InputValueRules = {
  /** How a message names one: `Argument`. */
  readonly what: string
  readonly requiredAdded: GqlRuleId
  readonly optionalAdded: GqlRuleId
  readonly removed: GqlRuleId
  readonly typeChanged: GqlRuleId
  readonly typeWidened: GqlRuleId
  readonly defaultChanged: GqlRuleId
  readonly description: GqlRuleId
  readonly deprecation?: DeprecationRules
  readonly directives?: AppliedDirectiveRules
}

/**
 * Reports the input values added, removed and changed between two sets of one owner (a field's
 * arguments, an input object's fields, a directive's arguments); `locate` gives the coordinate of
 * one by name. Returns how many were added, deleted and modified.
 */
export function diffInputValues(
  log: ChangelogBuilder,
  rules: InputValueRules,
  before: ReadonlyMap<string, InputValueShape>,
  after: ReadonlyMap<string, InputValueShape>,
  locate: (name: string) => string,
): ChangeDelta {
  const delta: ChangeDelta = { added: 0, deleted: 0, modified: 0 }
  if (before.size === 0 && after.size === 0) return delta
  for (const [name, old] of before) {
    const at = locate(name)
    const next = after.get(name)
    if (next === undefined) {
      log.add(rules.removed, at, `${rules.what} \`${at}\` was removed.`)
      delta.deleted++
    } else if (diffInputValue(log, rules, at, old, next)) delta.modified++
  }
  for (const [name, next] of after) {
    if (before.has(name)) continue
    const at = locate(name)
    const required = next.type.kind === Kind.NON_NULL_TYPE && next.defaultValue === undefined
    const what = `${required ? 'Required' : 'Optional'} ${rules.what.toLowerCase()}`
    log.add(
      required ? rules.requiredAdded : rules.optionalAdded,
      at,
      `${what} \`${at}\` of type \`${next.typeText}\` was added.`,
    )
    delta.added++
  }
  return delta
}

/** Adds a delta to a section's counts; returns whether anything was counted. */
export function countDelta(
  log: ChangelogBuilder,
  section: GqlSection,
  delta: ChangeDelta,
): boolean {
  log.count(section, 'added', delta.added)
  log.count(section, 'deleted', delta.deleted)
  log.count(section, 'modified', delta.modified)
  return delta.added + delta.deleted + delta.modified > 0
}

function diffInputValue(
  log: ChangelogBuilder,
  rules: InputValueRules,
  at: string,
  before: InputValueShape,
  after: InputValueShape,
): boolean {
  let changed = false
  if (before.typeText !== after.typeText) {
    log.add(
      isSafeInputChange(before.type, after.type) ? rules.typeWidened : rules.typeChanged,
      at,
      `${rules.what} \`${at}\` changed type from \`${before.typeText}\` to \`${after.typeText}\`.`,
    )
    changed = true
  }
  if (before.defaultValue !== after.defaultValue) {
    const [from, to] = [shown(before.defaultValue), shown(after.defaultValue)]
    log.add(
      rules.defaultChanged,
      at,
      `${rules.what} \`${at}\` changed its default value from ${from} to ${to}.`,
    )
    changed = true
  }
  const subject = `${rules.what} \`${at}\``
  if (rules.deprecation)
    changed =
      diffDeprecation(
        log,
        rules.deprecation,
        rules.what,
        at,
        before.deprecation,
        after.deprecation,
      ) || changed
  if (rules.directives)
    changed =
      diffAppliedDirectives(
        log,
        rules.directives,
        subject,
        at,
        before.directives,
        after.directives,
      ) || changed
  diffDescription(log, rules.description, subject, at, before.description, after.description)
  return changed
}

/** A value in a message: quoted, or `none`. */
export function shown(value: string | undefined): string {
  return value === undefined ? 'none' : `\`${value}\``
}
