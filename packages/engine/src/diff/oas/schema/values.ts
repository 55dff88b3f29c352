import type { Schema } from '../../../model/index.js'
import type { SchemaKind } from '../rules.js'
import { canonical } from '../scope.js'
import { compareSetting, type Place, shown } from './place.js'

/** The default: what the server assumes when the value is left out. */
export function compareDefaults(place: Place, old: Schema, next: Schema): void {
  const [a, b] = [old.default ?? old.invalidDefault, next.default ?? next.invalidDefault]
  compareSetting(place, 'default', a, b, {
    added: 'default-added',
    removed: 'default-removed',
    changed: 'default-changed',
  })
}

function enumOf(schema: Schema): readonly unknown[] | undefined {
  return (schema as { enum?: readonly unknown[] }).enum
}

/**
 * The values a schema is restricted to: its `const`, its `enum`, and the open `x-extensible-enum`.
 * A const against a const, or against no restriction at all, is judged as a const (its old value
 * never comes back); a const against an enum is a one-value enum.
 */
export function compareValueSets(place: Place, old: Schema, next: Schema): void {
  compareExtensibleEnums(place, old, next)
  const [a, b] = [old.const, next.const]
  if (a !== undefined && b !== undefined) {
    if (canonical(a) !== canonical(b))
      place.fact(
        'const-changed',
        'const-changed',
        `the const changed from ${shown(a)} to ${shown(b)}`,
      )
    return
  }
  if (a === undefined && b !== undefined && enumOf(old) === undefined)
    return place.fact('const-added', 'const-added', `values became restricted to ${shown(b)}`)
  if (a !== undefined && b === undefined && enumOf(next) === undefined)
    return place.fact('const-removed', 'const-removed', `the const ${shown(a)} was removed`)
  compareEnums(place, enumOf(old), enumOf(next))
}

function compareEnums(
  place: Place,
  a: readonly unknown[] | undefined,
  b: readonly unknown[] | undefined,
): void {
  if (!a && !b) return
  if (!a)
    return place.fact(
      'became-enum',
      'became-enum',
      `values became restricted to ${b!.length} enum values`,
    )
  if (!b) return place.fact('enum-dropped', 'enum-dropped', 'the enum restriction was removed')
  compareValues(place, 'enum', a, b, { added: 'enum-value-added', removed: 'enum-value-removed' })
}

/** One fact per value of a list (`enum`, `x-extensible-enum`) added or removed, by content. */
function compareValues(
  place: Place,
  name: string,
  a: readonly unknown[],
  b: readonly unknown[],
  kinds: { readonly added: SchemaKind; readonly removed: SchemaKind },
): void {
  const before = new Set(a.map(canonical))
  const after = new Set(b.map(canonical))
  for (const value of b)
    if (!before.has(canonical(value)))
      place.fact(kinds.added, kinds.added, `the ${name} value ${shown(value)} was added`)
  for (const value of a)
    if (!after.has(canonical(value)))
      place.fact(kinds.removed, kinds.removed, `the ${name} value ${shown(value)} was removed`)
}

const EXTENSIBLE_ENUM = 'x-extensible-enum'

function extensibleEnum(schema: Schema): readonly unknown[] {
  const values = schema.extensions?.[EXTENSIBLE_ENUM]
  return Array.isArray(values) ? values : []
}

/**
 * `x-extensible-enum` lists the values known today of an open set: clients must expect others, so
 * a value added is news, while a value removed is one a sender can no longer use.
 */
function compareExtensibleEnums(place: Place, old: Schema, next: Schema): void {
  compareValues(place, EXTENSIBLE_ENUM, extensibleEnum(old), extensibleEnum(next), {
    added: 'extensible-enum-value-added',
    removed: 'extensible-enum-value-removed',
  })
}
