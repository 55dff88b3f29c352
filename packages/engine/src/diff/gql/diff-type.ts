import type { ChangeDelta, ChangelogBuilder } from '../changelog.js'
import { diffDeprecation } from './diff-deprecation.js'
import { diffFields, diffInputFields } from './diff-fields.js'
import { countDelta, shown } from './diff-input-values.js'
import { diffNames } from './diff-names.js'
import type { TypeShape } from './schema-shape.js'

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
  if (before.kind === 'scalar' && after.kind === 'scalar') {
    if (before.specifiedBy === after.specifiedBy) return false
    const [from, to] = [shown(before.specifiedBy), shown(after.specifiedBy)]
    log.add(
      'scalar-specified-by-changed',
      name,
      `Scalar \`${name}\` changed its @specifiedBy URL from ${from} to ${to}.`,
    )
    return true
  }
  return false
}

function diffEnumValues(
  log: ChangelogBuilder,
  name: string,
  before: ReadonlyMap<string, string | undefined>,
  after: ReadonlyMap<string, string | undefined>,
): boolean {
  const delta: ChangeDelta = { added: 0, deleted: 0, modified: 0 }
  for (const [value, deprecation] of before) {
    const at = `${name}.${value}`
    if (!after.has(value)) {
      log.add('enum-value-removed', at, `Enum value \`${at}\` was removed.`)
      delta.deleted++
    } else if (
      diffDeprecation(log, ENUM_VALUE_DEPRECATION, 'Enum value', at, deprecation, after.get(value))
    )
      delta.modified++
  }
  for (const value of after.keys()) {
    if (before.has(value)) continue
    log.add('enum-value-added', `${name}.${value}`, `Enum value \`${name}.${value}\` was added.`)
    delta.added++
  }
  return countDelta(log, 'enumValues', delta)
}
