import type {
  ArraySchema,
  Conditional,
  ObjectSchema,
  Schema,
  SchemaConditions,
  StringSchema,
} from '../../model/index.js'
import type { SchemaKind } from './rules.js'
import { canonical, escapePointer } from './scope.js'

/** Where a change is recorded: by its kind where a client sends the value and where it receives it. */
interface Facts {
  fact(inKind: SchemaKind, outKind: SchemaKind, text: string): void
}

/** What this module needs of the place two schemas are compared at. */
export interface ApplicatorPlace<P extends ApplicatorPlace<P>> extends Facts {
  /** The property path inside the schema (`owner.login`, `items[]`). */
  readonly at: string
  part(pointer: string, at: string): P
}

/** The schema comparison itself, for keywords whose subschemas narrow the value as they do. */
export type CompareSchemas<P> = (place: P, old: Schema, next: Schema) => void

/**
 * The JSON Schema 2020-12 keywords of two schemas of the same kind. A subschema in a place where
 * narrowing it narrows the value (prefixItems, contains, patternProperties, propertyNames,
 * dependentSchemas, unevaluated*, then/else, contentSchema) is compared with `compare`, so its
 * changes are judged like any other; `not` inverts the direction and an `if` decides where its
 * branches hold, so changes to those are reported as such.
 */
export function compareApplicators<P extends ApplicatorPlace<P>>(
  place: P,
  old: Schema,
  next: Schema,
  compare: CompareSchemas<P>,
): void {
  compareNot(place, conditionsOf(old).not, conditionsOf(next).not)
  compareConditionals(place, conditionsOf(old).conditions, conditionsOf(next).conditions, compare)
  if (old.kind === 'array' && next.kind === 'array') compareArrays(place, old, next, compare)
  else if (old.kind === 'object' && next.kind === 'object')
    compareObjects(place, old, next, compare)
  else if (old.kind === 'string' && next.kind === 'string')
    compareContent(place, old, next, compare)
}

const NONE: SchemaConditions = {}

function conditionsOf(schema: Schema): SchemaConditions {
  return schema.kind === 'ref' || schema.kind === 'void' ? NONE : schema
}

function shown(value: unknown): string {
  return value === undefined ? 'none' : `\`${JSON.stringify(value)}\``
}

const ANNOTATIONS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'deprecated',
  'readOnly',
  'writeOnly',
  'default',
  'example',
  'extensions',
])

/** The schema without its annotations, which do not change what it matches. */
function constraints(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(constraints)
  const record = value as Record<string, unknown>
  // A schema node has a string `kind`; records of properties or patterns hold nodes by name.
  const node = typeof record.kind === 'string'
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(record))
    if (!node || !ANNOTATIONS.has(key)) copy[key] = constraints(record[key])
  return copy
}

/** Whether two subschemas match the same values as far as their keywords tell. */
function same(a: Schema, b: Schema): boolean {
  return a === b || canonical(constraints(a)) === canonical(constraints(b))
}

function compareNot(place: Facts, old?: Schema, next?: Schema): void {
  if (!old && !next) return
  if (!old) place.fact('not-schema-added', 'not-schema-added', 'a `not` schema was added')
  else if (!next)
    place.fact('not-schema-removed', 'not-schema-removed', 'the `not` schema was removed')
  else if (!same(old, next))
    place.fact('not-schema-changed', 'not-schema-changed', 'the `not` schema changed')
}

function constrains(conditional: Conditional): boolean {
  return conditional.then !== undefined || conditional.else !== undefined
}

/** Conditions are paired in order (a schema has one; `allOf` members can bring more). */
function compareConditionals<P extends ApplicatorPlace<P>>(
  place: P,
  old: readonly Conditional[] = [],
  next: readonly Conditional[] = [],
  compare: CompareSchemas<P>,
): void {
  const count = Math.max(old.length, next.length)
  for (let index = 0; index < count; index++) {
    const [a, b] = [old[index], next[index]]
    if (!a || !b) {
      const present = (a ?? b)!
      if (!constrains(present)) continue
      if (b)
        place.fact(
          'conditional-added',
          'conditional-added',
          'an `if`/`then`/`else` condition was added',
        )
      else
        place.fact(
          'conditional-removed',
          'conditional-removed',
          'an `if`/`then`/`else` condition was removed',
        )
      continue
    }
    if (!same(a.if, b.if)) {
      place.fact('conditional-changed', 'conditional-changed', 'the `if` of a condition changed')
      continue
    }
    for (const branch of ['then', 'else'] as const) {
      const [before, after] = [a[branch], b[branch]]
      if (before && after) compare(place.part(`/${branch}`, place.at), before, after)
      else if (after)
        place.fact('conditional-added', 'conditional-added', `an \`${branch}\` branch was added`)
      else if (before)
        place.fact(
          'conditional-removed',
          'conditional-removed',
          `the \`${branch}\` branch was removed`,
        )
    }
  }
}

function compareArrays<P extends ApplicatorPlace<P>>(
  place: P,
  old: ArraySchema,
  next: ArraySchema,
  compare: CompareSchemas<P>,
): void {
  const [a, b] = [old.prefixItems ?? [], next.prefixItems ?? []]
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const here = place.part(`/prefixItems/${index}`, `${place.at}[${index}]`)
    const [before, after] = [a[index], b[index]]
    // A position outside prefixItems is governed by `items`: compare against that, unless
    // `items: false` closed the tuple there (then the tuple itself grew or shrank).
    if (before && after) compare(here, before, after)
    else if (after) {
      if (old.items.kind === 'void')
        place.fact('prefix-item-added', 'prefix-item-added', `the tuple got position ${index}`)
      else compare(here, old.items, after)
    } else if (before) {
      if (next.items.kind === 'void')
        place.fact('prefix-item-removed', 'prefix-item-removed', `the tuple lost position ${index}`)
      else compare(here, before, next.items)
    }
  }
  compareContains(place, old, next, compare)
  compareUnevaluated(
    place,
    'unevaluatedItems',
    old.unevaluatedItems,
    next.unevaluatedItems,
    ['unevaluated-items-closed', 'unevaluated-items-opened'],
    `${place.at}[]`,
    compare,
  )
}

function compareContains<P extends ApplicatorPlace<P>>(
  place: P,
  old: ArraySchema,
  next: ArraySchema,
  compare: CompareSchemas<P>,
): void {
  if (!old.contains && !next.contains) return
  if (!old.contains) return place.fact('contains-added', 'contains-added', '`contains` was added')
  if (!next.contains)
    return place.fact('contains-removed', 'contains-removed', '`contains` was removed')
  compare(place.part('/contains', `${place.at}[contains]`), old.contains, next.contains)
  const [oldMin, newMin] = [old.minContains ?? 1, next.minContains ?? 1]
  if (oldMin !== newMin) {
    const kind = newMin > oldMin ? 'min-contains-increased' : 'min-contains-decreased'
    place.fact(kind, kind, `minContains changed from ${oldMin} to ${newMin}`)
  }
  const [oldMax, newMax] = [old.maxContains, next.maxContains]
  if (oldMax !== newMax) {
    const lower = newMax !== undefined && (oldMax === undefined || newMax < oldMax)
    const kind = lower ? 'max-contains-decreased' : 'max-contains-increased'
    place.fact(kind, kind, `maxContains changed from ${shown(oldMax)} to ${shown(newMax)}`)
  }
}

/**
 * `unevaluatedItems`/`unevaluatedProperties`: absent accepts anything, a schema restricts, `false`
 * rejects everything; two schemas are compared.
 */
function compareUnevaluated<P extends ApplicatorPlace<P>>(
  place: P,
  name: string,
  old: Schema | false | undefined,
  next: Schema | false | undefined,
  [closed, opened]: [SchemaKind, SchemaKind],
  at: string,
  compare: CompareSchemas<P>,
): void {
  if (old === next) return
  const rank = (value: Schema | false | undefined) =>
    value === undefined ? 0 : value === false ? 2 : 1
  const text = `${name} changed from ${describe(old)} to ${describe(next)}`
  if (rank(next) > rank(old)) place.fact(closed, closed, text)
  else if (rank(next) < rank(old)) place.fact(opened, opened, text)
  else if (old && next) compare(place.part(`/${name}`, at), old, next)
}

function describe(value: Schema | false | undefined): string {
  return value === undefined ? 'none' : value === false ? '`false`' : 'a schema'
}

function compareObjects<P extends ApplicatorPlace<P>>(
  place: P,
  old: ObjectSchema,
  next: ObjectSchema,
  compare: CompareSchemas<P>,
): void {
  compareSchemaMap(
    place,
    'patternProperties',
    old.patternProperties,
    next.patternProperties,
    (pattern) => `${place.at}{/${pattern}/}`,
    ['pattern-property-added', 'pattern-property-removed'],
    (pattern) => `the pattern property \`${pattern}\``,
    compare,
  )
  if (old.propertyNames || next.propertyNames) {
    if (!old.propertyNames)
      place.fact('property-names-added', 'property-names-added', '`propertyNames` was added')
    else if (!next.propertyNames)
      place.fact('property-names-removed', 'property-names-removed', '`propertyNames` was removed')
    else compare(place.part('/propertyNames', place.at), old.propertyNames, next.propertyNames)
  }
  compareDependentRequired(place, old.dependentRequired ?? {}, next.dependentRequired ?? {})
  compareSchemaMap(
    place,
    'dependentSchemas',
    old.dependentSchemas,
    next.dependentSchemas,
    () => place.at,
    ['dependent-schema-added', 'dependent-schema-removed'],
    (name) => `the schema that applies when \`${name}\` is present`,
    compare,
  )
  compareUnevaluated(
    place,
    'unevaluatedProperties',
    old.unevaluatedProperties,
    next.unevaluatedProperties,
    ['unevaluated-properties-closed', 'unevaluated-properties-opened'],
    `${place.at}{}`,
    compare,
  )
}

function compareSchemaMap<P extends ApplicatorPlace<P>>(
  place: P,
  keyword: string,
  old: Readonly<Record<string, Schema>> = {},
  next: Readonly<Record<string, Schema>> = {},
  at: (key: string) => string,
  [added, removed]: [SchemaKind, SchemaKind],
  name: (key: string) => string,
  compare: CompareSchemas<P>,
): void {
  for (const key of Object.keys(next)) {
    if (Object.hasOwn(old, key))
      compare(place.part(`/${keyword}/${escapePointer(key)}`, at(key)), old[key]!, next[key]!)
    else place.fact(added, added, `${name(key)} was added`)
  }
  for (const key of Object.keys(old))
    if (!Object.hasOwn(next, key)) place.fact(removed, removed, `${name(key)} was removed`)
}

function compareDependentRequired(
  place: Facts,
  old: Readonly<Record<string, readonly string[]>>,
  next: Readonly<Record<string, readonly string[]>>,
): void {
  const pairs = (record: Readonly<Record<string, readonly string[]>>) =>
    new Set(
      Object.entries(record).flatMap(([key, names]) => names.map((name) => `${key}\u0000${name}`)),
    )
  const [before, after] = [pairs(old), pairs(next)]
  const text = (pair: string, verb: string) => {
    const [key, name] = pair.split('\u0000')
    return `\`${name}\` ${verb} required when \`${key}\` is present`
  }
  for (const pair of after)
    if (!before.has(pair))
      place.fact('dependent-required-added', 'dependent-required-added', text(pair, 'became'))
  for (const pair of before)
    if (!after.has(pair))
      place.fact(
        'dependent-required-removed',
        'dependent-required-removed',
        text(pair, 'is no longer'),
      )
}

function compareContent<P extends ApplicatorPlace<P>>(
  place: P,
  old: StringSchema,
  next: StringSchema,
  compare: CompareSchemas<P>,
): void {
  for (const [key, kind] of [
    ['contentMediaType', 'content-media-type-changed'],
    ['contentEncoding', 'content-encoding-changed'],
  ] as const) {
    if (old[key] !== next[key])
      place.fact(kind, kind, `${key} changed from ${shown(old[key])} to ${shown(next[key])}`)
  }
  if (!old.contentSchema && !next.contentSchema) return
  if (!old.contentSchema)
    place.fact('content-schema-added', 'content-schema-added', '`contentSchema` was added')
  else if (!next.contentSchema)
    place.fact('content-schema-removed', 'content-schema-removed', '`contentSchema` was removed')
  else compare(place.part('/contentSchema', place.at), old.contentSchema, next.contentSchema)
}
