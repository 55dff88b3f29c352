import type { ChangeDelta, ChangelogBuilder } from '../changelog.js'
import { diffAppliedDirectives } from './diff-applied-directives.js'
import { diffDeprecation } from './diff-deprecation.js'
import { diffDescription } from './diff-descriptions.js'
import { countDelta, diffInputValues, type InputValueRules } from './diff-input-values.js'
import type { FieldShape, InputValueShape } from './schema-shape.js'
import { isSafeOutputChange } from './type-expressions.js'

const ARGUMENT_RULES: InputValueRules = {
  what: 'Argument',
  requiredAdded: 'required-argument-added',
  optionalAdded: 'optional-argument-added',
  removed: 'argument-removed',
  typeChanged: 'argument-type-changed',
  typeWidened: 'argument-type-widened',
  defaultChanged: 'argument-default-changed',
  description: 'argument-description-changed',
  directives: {
    added: 'argument-directive-added',
    removed: 'argument-directive-removed',
    changed: 'argument-directive-changed',
  },
  deprecation: {
    deprecated: 'argument-deprecated',
    undeprecated: 'argument-deprecation-removed',
    reasonChanged: 'argument-deprecation-reason-changed',
  },
}

const INPUT_FIELD_RULES: InputValueRules = {
  what: 'Input field',
  requiredAdded: 'required-input-field-added',
  optionalAdded: 'optional-input-field-added',
  removed: 'input-field-removed',
  typeChanged: 'input-field-type-changed',
  typeWidened: 'input-field-type-widened',
  defaultChanged: 'input-field-default-changed',
  description: 'input-field-description-changed',
  directives: {
    added: 'input-field-directive-added',
    removed: 'input-field-directive-removed',
    changed: 'input-field-directive-changed',
  },
  deprecation: {
    deprecated: 'input-field-deprecated',
    undeprecated: 'input-field-deprecation-removed',
    reasonChanged: 'input-field-deprecation-reason-changed',
  },
}

const FIELD_DEPRECATION = {
  deprecated: 'field-deprecated',
  undeprecated: 'field-deprecation-removed',
  reasonChanged: 'field-deprecation-reason-changed',
} as const

const FIELD_DIRECTIVES = {
  added: 'field-directive-added',
  removed: 'field-directive-removed',
  changed: 'field-directive-changed',
} as const

/**
 * Reports the fields of an object or interface type `typeName` that were added, removed or
 * changed, arguments included, and counts them. Returns whether any did.
 */
export function diffFields(
  log: ChangelogBuilder,
  typeName: string,
  before: ReadonlyMap<string, FieldShape>,
  after: ReadonlyMap<string, FieldShape>,
): boolean {
  const delta: ChangeDelta = { added: 0, deleted: 0, modified: 0 }
  for (const [name, old] of before) {
    const at = `${typeName}.${name}`
    const next = after.get(name)
    if (next === undefined) {
      const what = old.deprecation === undefined ? 'Field' : 'Deprecated field'
      log.add('field-removed', at, `${what} \`${at}\` was removed.`)
      delta.deleted++
    } else if (diffField(log, at, old, next)) delta.modified++
  }
  for (const [name, next] of after) {
    if (before.has(name)) continue
    const at = `${typeName}.${name}`
    log.add('field-added', at, `Field \`${at}\` of type \`${next.typeText}\` was added.`)
    delta.added++
  }
  return countDelta(log, 'fields', delta)
}

/** Reports the fields of input object `typeName` that changed, and counts them. */
export function diffInputFields(
  log: ChangelogBuilder,
  typeName: string,
  before: ReadonlyMap<string, InputValueShape>,
  after: ReadonlyMap<string, InputValueShape>,
): boolean {
  const delta = diffInputValues(
    log,
    INPUT_FIELD_RULES,
    before,
    after,
    (name) => `${typeName}.${name}`,
  )
  return countDelta(log, 'fields', delta)
}

function diffField(
  log: ChangelogBuilder,
  at: string,
  before: FieldShape,
  after: FieldShape,
): boolean {
  let changed = false
  if (before.typeText !== after.typeText) {
    log.add(
      isSafeOutputChange(before.type, after.type) ? 'field-type-narrowed' : 'field-type-changed',
      at,
      `Field \`${at}\` changed type from \`${before.typeText}\` to \`${after.typeText}\`.`,
    )
    changed = true
  }
  changed =
    diffDeprecation(log, FIELD_DEPRECATION, 'Field', at, before.deprecation, after.deprecation) ||
    changed
  const subject = `Field \`${at}\``
  changed =
    diffAppliedDirectives(
      log,
      FIELD_DIRECTIVES,
      subject,
      at,
      before.directives,
      after.directives,
    ) || changed
  diffDescription(
    log,
    'field-description-changed',
    subject,
    at,
    before.description,
    after.description,
  )
  const args = diffInputValues(
    log,
    ARGUMENT_RULES,
    before.args,
    after.args,
    (name) => `${at}(${name}:)`,
  )
  return countDelta(log, 'arguments', args) || changed
}
