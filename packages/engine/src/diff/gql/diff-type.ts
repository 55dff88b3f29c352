import type { ChangeDelta, ChangelogBuilder } from '../changelog.js'
import { diffAppliedDirectives } from './diff-applied-directives.js'
import { diffDeprecation } from './diff-deprecation.js'
import { diffDescription } from './diff-descriptions.js'
import { diffFields, diffInputFields } from './diff-fields.js'
import { countDelta, shown } from './diff-input-values.js'
import { diffNames } from './diff-names.js'
import type { EnumValueShape, TypeShape } from './schema-shape.js'

const KIND_NAMES: Readonly<Record<TypeShape['kind'], string>> = {
  object: 'object',
  interface: 'interface',
  input: 'input object',
  enum: 'enum',
  union: 'union',
  scalar: 'scalar',
}

const ENUM_VALUE_DEPRECATION = {
  deprecated: 'enum-value-deprecated',
  undeprecated: 'enum-value-deprecation-removed',
  reasonChanged: 'enum-value-deprecation-reason-changed',
} as const

const TYPE_DIRECTIVES = {
  added: 'type-directive-added',
  removed: 'type-directive-removed',
  changed: 'type-directive-changed',
} as const

const ENUM_VALUE_DIRECTIVES = {
  added: 'enum-value-directive-added',
  removed: 'enum-value-directive-removed',
  changed: 'enum-value-directive-changed',
} as const

/** Reports what changed inside type `name`, present on both sides. Returns whether anything did. */
export function diffType(
  log: ChangelogBuilder,
  name: string,
  before: TypeShape,
  after: TypeShape,
): boolean {
  if (before.kind !== after.kind) {
    const [from, to] = [KIND_NAMES[before.kind], KIND_NAMES[after.kind]]
    log.add('type-kind-changed', name, `Type \`${name}\` changed kind from ${from} to ${to}.`)
    return true
  }
  const subject = `Type \`${name}\``
  diffDescription(
    log,
    'type-description-changed',
    subject,
    name,
    before.description,
    after.description,
  )
  const directives = diffAppliedDirectives(
    log,
    TYPE_DIRECTIVES,
    subject,
    name,
    before.directives,
    after.directives,
  )
  return diffContents(log, name, before, after) || directives
}

/** Reports what changed in the contents of type `name`, of one kind on both sides. */
function diffContents(
  log: ChangelogBuilder,
  name: string,
  before: TypeShape,
  after: TypeShape,
): boolean {
  if (
    (before.kind === 'object' || before.kind === 'interface') &&
    (after.kind === 'object' || after.kind === 'interface')
  ) {
    const interfaces = diffNames(
      log,
      ['object-interface-added', 'object-interface-removed'],
      name,
      before.interfaces,
      after.interfaces,
      (names, plural) => `Type \`${name}\` now implements interface${plural} ${names}.`,
      (names, plural) => `Type \`${name}\` no longer implements interface${plural} ${names}.`,
    )
    return diffFields(log, name, before.fields, after.fields) || interfaces
  }
  if (before.kind === 'input' && after.kind === 'input') {
    if (before.oneOf !== after.oneOf) {
      if (after.oneOf)
        log.add(
          'input-one-of-added',
          name,
          `Input object \`${name}\` became @oneOf: a value must now set exactly one of its fields.`,
        )
      else
        log.add(
          'input-one-of-removed',
          name,
          `Input object \`${name}\` is no longer @oneOf: a value may set several of its fields, or none.`,
        )
    }
    const fields = diffInputFields(log, name, before.fields, after.fields)
    return fields || before.oneOf !== after.oneOf
  }
  if (before.kind === 'enum' && after.kind === 'enum')
    return diffEnumValues(log, name, before.values, after.values)
  if (before.kind === 'union' && after.kind === 'union')
    return diffNames(
      log,
      ['union-member-added', 'union-member-removed'],
      name,
      before.members,
      after.members,
      (names, plural) => `Union \`${name}\` gained member${plural} ${names}.`,
      (names, plural) => `Union \`${name}\` lost member${plural} ${names}.`,
    )
  if (before.kind === 'scalar' && after.kind === 'scalar')
    return diffSpecifiedBy(log, name, before.specifiedBy, after.specifiedBy)
  return false
}

function diffSpecifiedBy(
  log: ChangelogBuilder,
  name: string,
  before: string | undefined,
  after: string | undefined,
): boolean {
  if (before === after) return false
  if (before === undefined)
    log.add(
      'scalar-specified-by-added',
      name,
      `Scalar \`${name}\` is now @specifiedBy ${shown(after)}.`,
    )
  else if (after === undefined)
    log.add(
      'scalar-specified-by-removed',
      name,
      `Scalar \`${name}\` is no longer @specifiedBy ${shown(before)}.`,
    )
  else
    log.add(
      'scalar-specified-by-changed',
      name,
      `Scalar \`${name}\` changed its @specifiedBy URL from ${shown(before)} to ${shown(after)}.`,
    )
  return true
}

function diffEnumValues(
  log: ChangelogBuilder,
  name: string,
  before: ReadonlyMap<string, EnumValueShape>,
  after: ReadonlyMap<string, EnumValueShape>,
): boolean {
  const delta: ChangeDelta = { added: 0, deleted: 0, modified: 0 }
  for (const [value, old] of before) {
    const at = `${name}.${value}`
    const next = after.get(value)
    if (next === undefined) {
      log.add('enum-value-removed', at, `Enum value \`${at}\` was removed.`)
      delta.deleted++
    } else if (diffEnumValue(log, at, old, next)) delta.modified++
  }
  for (const value of after.keys()) {
    if (before.has(value)) continue
    log.add('enum-value-added', `${name}.${value}`, `Enum value \`${name}.${value}\` was added.`)
    delta.added++
  }
  return countDelta(log, 'enumValues', delta)
}

function diffEnumValue(
  log: ChangelogBuilder,
  at: string,
  before: EnumValueShape,
  after: EnumValueShape,
): boolean {
  const subject = `Enum value \`${at}\``
  diffDescription(
    log,
    'enum-value-description-changed',
    subject,
    at,
    before.description,
    after.description,
  )
  const deprecation = diffDeprecation(
    log,
    ENUM_VALUE_DEPRECATION,
    'Enum value',
    at,
    before.deprecation,
    after.deprecation,
  )
  const directives = diffAppliedDirectives(
    log,
    ENUM_VALUE_DIRECTIVES,
    subject,
    at,
    before.directives,
    after.directives,
  )
  return deprecation || directives
}
