import type {
  ArraySchema,
  NumericConstraints,
  ObjectSchema,
  StringSchema,
} from '../../../model/index.js'
import type { SchemaKind } from '../rules.js'
import { canonical } from '../scope.js'
import { compareSetting, type Place, shown } from './place.js'

/**
 * A pattern that every string matches constrains nothing: JSON Schema patterns are unanchored, so
 * an empty one, or `.*`, finds a match in any string.
 */
function constraining(pattern: string | undefined): string | undefined {
  return pattern === '' || pattern === '.*' ? undefined : pattern
}

export function compareStrings(place: Place, old: StringSchema, next: StringSchema): void {
  compareSetting(place, 'pattern', constraining(old.pattern), constraining(next.pattern), {
    added: 'pattern-added',
    removed: 'pattern-removed',
    changed: 'pattern-changed',
  })
  compareLimit(place, 'maxLength', 'upper', old.maxLength, next.maxLength, {
    narrowed: 'max-length-decreased',
    widened: 'max-length-increased',
    set: 'max-length-set',
  })
  // A minimum length or count of 0 is no minimum.
  compareLimit(
    place,
    'minLength',
    'lower',
    old.minLength || undefined,
    next.minLength || undefined,
    {
      narrowed: 'min-length-increased',
      widened: 'min-length-decreased',
    },
  )
}

export function compareCounts(
  place: Place,
  old: Pick<ArraySchema, 'minItems' | 'maxItems'>,
  next: Pick<ArraySchema, 'minItems' | 'maxItems'>,
): void {
  compareLimit(place, 'maxItems', 'upper', old.maxItems, next.maxItems, {
    narrowed: 'max-items-decreased',
    widened: 'max-items-increased',
    set: 'max-items-set',
  })
  compareLimit(place, 'minItems', 'lower', old.minItems || undefined, next.minItems || undefined, {
    narrowed: 'min-items-increased',
    widened: 'min-items-decreased',
    set: 'min-items-set',
  })
}

export function compareSizes(
  place: Place,
  old: Pick<ObjectSchema, 'minProperties' | 'maxProperties'>,
  next: Pick<ObjectSchema, 'minProperties' | 'maxProperties'>,
): void {
  compareLimit(place, 'maxProperties', 'upper', old.maxProperties, next.maxProperties, {
    narrowed: 'max-properties-decreased',
    widened: 'max-properties-increased',
    set: 'max-properties-set',
  })
  compareLimit(
    place,
    'minProperties',
    'lower',
    old.minProperties || undefined,
    next.minProperties || undefined,
    {
      narrowed: 'min-properties-increased',
      widened: 'min-properties-decreased',
      set: 'min-properties-set',
    },
  )
}

type LimitKinds = { narrowed: SchemaKind; widened: SchemaKind; set?: SchemaKind }

/**
 * A length or item count limit: lowering (raising) an upper (lower) one narrows the values, the
 * opposite or removing it widens them. Setting one where there was none is its own kind where the
 * peers' verdict differs (a server likely enforced some limit already), else a narrowing.
 */
function compareLimit(
  place: Place,
  name: string,
  bound: 'upper' | 'lower',
  old: number | undefined,
  next: number | undefined,
  kinds: LimitKinds,
): void {
  if (old === next) return
  const tighter =
    next !== undefined && (old === undefined || (bound === 'upper' ? next < old : next > old))
  const kind = old === undefined && kinds.set ? kinds.set : tighter ? kinds.narrowed : kinds.widened
  place.fact(kind, kind, `${name} changed from ${shown(old)} to ${shown(next)}`)
}

type Bound = { value: number; exclusive: boolean } | undefined

function upper(schema: NumericConstraints): Bound {
  return tighterOf(schema.maximum, schema.exclusiveMaximum, (a, b) => a < b)
}

function lower(schema: NumericConstraints): Bound {
  return tighterOf(schema.minimum, schema.exclusiveMinimum, (a, b) => a > b)
}

function tighterOf(
  inclusive: number | undefined,
  exclusive: number | undefined,
  stricter: (a: number, b: number) => boolean,
): Bound {
  if (exclusive === undefined)
    return inclusive === undefined ? undefined : { value: inclusive, exclusive: false }
  if (inclusive === undefined || !stricter(inclusive, exclusive))
    return { value: exclusive, exclusive: true }
  return { value: inclusive, exclusive: false }
}

function boundText(bound: Bound): string {
  return bound ? `${bound.exclusive ? 'exclusive ' : ''}${bound.value}` : 'none'
}

function compareBound(
  place: Place,
  name: string,
  old: Bound,
  next: Bound,
  narrower: (a: number, b: number) => boolean,
  kinds: Required<LimitKinds>,
): void {
  if (canonical(old) === canonical(next)) return
  const text = `the ${name} changed from ${boundText(old)} to ${boundText(next)}`
  if (old === undefined) return place.fact(kinds.set, kinds.set, text)
  const narrowed =
    next !== undefined &&
    (narrower(next.value, old.value) || (next.value === old.value && next.exclusive))
  const kind = narrowed ? kinds.narrowed : kinds.widened
  place.fact(kind, kind, text)
}

export function compareNumbers(
  place: Place,
  old: NumericConstraints,
  next: NumericConstraints,
): void {
  compareBound(place, 'maximum', upper(old), upper(next), (a, b) => a < b, {
    narrowed: 'max-decreased',
    widened: 'max-increased',
    set: 'max-set',
  })
  compareBound(place, 'minimum', lower(old), lower(next), (a, b) => a > b, {
    narrowed: 'min-increased',
    widened: 'min-decreased',
    set: 'min-set',
  })
  if (old.multipleOf === next.multipleOf) return
  const kind = multipleOfKind(old.multipleOf, next.multipleOf)
  place.fact(
    kind,
    kind,
    `multipleOf changed from ${shown(old.multipleOf)} to ${shown(next.multipleOf)}`,
  )
}

/** Whether `a` is a whole multiple of `b` (decimals such as 0.1 and 0.01 compared with a tolerance). */
function isMultiple(a: number, b: number): boolean {
  const ratio = a / b
  return ratio >= 1 && Math.abs(ratio - Math.round(ratio)) < 1e-9
}

/**
 * Every multiple of 20 is a multiple of 10: a step changed to a multiple of the old admits fewer
 * values, one changed to a divisor admits more; other changes (2 to 3) move values both ways.
 */
function multipleOfKind(
  old: number | undefined,
  next: number | undefined,
): 'multiple-of-changed' | 'multiple-of-narrowed' | 'multiple-of-widened' {
  if (old === undefined || (next !== undefined && isMultiple(next, old)))
    return 'multiple-of-narrowed'
  if (next === undefined || isMultiple(old, next)) return 'multiple-of-widened'
  return 'multiple-of-changed'
}

export function compareUniqueness(place: Place, old: ArraySchema, next: ArraySchema): void {
  if (Boolean(old.uniqueItems) === Boolean(next.uniqueItems)) return
  const kind = next.uniqueItems ? 'unique-items-added' : 'unique-items-removed'
  place.fact(
    kind,
    kind,
    `uniqueItems changed from ${shown(old.uniqueItems ?? false)} to ${shown(next.uniqueItems ?? false)}`,
  )
}
