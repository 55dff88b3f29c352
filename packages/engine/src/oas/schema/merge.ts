import type {
  ArraySchema,
  BooleanSchema,
  IntegerSchema,
  NumberSchema,
  ObjectSchema,
  Schema,
  SchemaConditions,
  StringSchema,
  UnionSchema,
} from '../../model/schema.js'
import { setOwn } from '../../model/own.js'
import { ParseFailure } from '../failures.js'
import type { Mutable } from './annotations.js'
import { typedAs } from './unapplied.js'

/** Turns a lazy ref into the schema it names, for merging. */
export type MergeResolver = (schema: Schema) => Schema

const MAX_CROSS_PRODUCT = 256
const MAX_DEPTH = 64
/** Node merges one `allOf` may take: recursive schemas under unions can otherwise explode. */
const MAX_STEPS = 20_000

/** Two members that no value can satisfy: a union member that conflicts simply drops out. */
export class MergeConflict extends ParseFailure {
  /** The property path, inside the merged schemas, where they clash. */
  readonly inside: string[] = []

  constructor(readonly reason: string) {
    super(`Cannot merge schemas: ${reason}`)
  }

  /** Records that the clash happened under `key`, and says so in the message. */
  under(key: string): this {
    this.inside.unshift(key)
    this.message = `Cannot merge schemas: ${this.reason} in property '${this.inside.join('.')}'`
    return this
  }
}

function conflict(message: string): never {
  throw new MergeConflict(message)
}

type MergeState = {
  readonly resolve: MergeResolver
  /** Takes a clash of an optional property, which then is `void`; without it every clash throws. */
  readonly onConflict: ((conflict: MergeConflict) => void) | undefined
  /** The properties being merged, outermost first: where a clash taken by `onConflict` is. */
  readonly inside: string[]
  /** Union members being distributed: a clash there drops the member, so it must throw. */
  unions: number
  steps: number
  /** Pairs of schemas being merged further up: meeting one again means the schemas recurse. */
  readonly active: Map<Schema, Set<Schema>>
}

/**
 * Merges two `allOf` members into one schema, as a value must satisfy both. Properties and
 * `required` are united, numeric and length bounds tightened, enums intersected; a union is
 * distributed over the other side. Incompatible members throw a {@link MergeConflict}, except,
 * when `onConflict` is given, a clash in a property that neither side requires (outside unions):
 * an object without it satisfies both, so that property becomes `void` and `onConflict` hears why.
 */
export function mergeSchemas(
  a: Schema,
  b: Schema,
  resolve: MergeResolver,
  onConflict?: (conflict: MergeConflict) => void,
): Schema {
  return merge({ resolve, onConflict, inside: [], unions: 0, steps: 0, active: new Map() }, a, b, 0)
}

/** A property no value can fill, documented as the first member documents it. */
function noValue(property: Schema): Schema {
  const node: Mutable<Schema> = { kind: 'void', nullable: false }
  if (property.title !== undefined) node.title = property.title
  if (property.description !== undefined) node.description = property.description
  if (property.deprecated) node.deprecated = true
  return Object.freeze(node)
}

function merge(state: MergeState, a: Schema, b: Schema, depth: number): Schema {
  if (++state.steps > MAX_STEPS) throw new ParseFailure('allOf is too complex to merge')
  if (depth > MAX_DEPTH) throw new ParseFailure('allOf nests too deeply to merge')
  if (a.kind === 'ref' && b.kind === 'ref' && a.$ref === b.$ref)
    return a.nullable && !b.nullable ? b : a
  const left = state.resolve(a)
  const right = state.resolve(b)
  // Recursive schemas (a tree node merged with its extension) meet the same pair of components
  // again further down; there the left side stays as it is rather than being expanded forever.
  if (state.active.get(left)?.has(right) || state.active.get(right)?.has(left)) return a
  let partners = state.active.get(left)
  if (!partners) state.active.set(left, (partners = new Set()))
  partners.add(right)
  try {
    return mergeResolved(state, left, right, depth)
  } finally {
    partners.delete(right)
  }
}

function mergeResolved(state: MergeState, left: Schema, right: Schema, depth: number): Schema {
  // A member without a type (`allOf: [$ref, {pattern: …}]`) constrains the type its sibling sets.
  if (left.kind === 'unknown' && right.kind !== 'union') {
    const typed = typedAs(left, right.kind)
    if (typed) return withAnnotations(mergeSameKind(state, typed, right, depth), left, right)
    return withAnnotations(right, left, right)
  }
  if (right.kind === 'unknown' && left.kind !== 'union') {
    const typed = typedAs(right, left.kind)
    if (typed) return withAnnotations(mergeSameKind(state, left, typed, depth), left, right)
    return withAnnotations(left, left, right)
  }
  if (left.kind === 'union') return distribute(state, left, right, depth, false)
  if (right.kind === 'union') return distribute(state, right, left, depth, true)
  return withAnnotations(mergeSameKind(state, left, right, depth), left, right)
}

function mergeSameKind(state: MergeState, left: Schema, right: Schema, depth: number): Schema {
  if (left.kind === 'object' && right.kind === 'object')
    return mergeObjects(state, left, right, depth)
  if (left.kind === 'array' && right.kind === 'array') {
    const node: Mutable<ArraySchema> = {
      ...left,
      ...right,
      items: merge(state, left.items, right.items, depth + 1),
    }
    tighten(node, left, right, 'minItems', 'maxItems')
    if (left.uniqueItems || right.uniqueItems) node.uniqueItems = true
    const prefixItems = mergePrefixItems(state, left, right, depth)
    if (prefixItems) node.prefixItems = prefixItems
    if (left.unevaluatedItems === false || right.unevaluatedItems === false)
      node.unevaluatedItems = false
    return node
  }
  if (left.kind === 'string' && right.kind === 'string') {
    const node: Mutable<StringSchema> = { ...left, ...right }
    same(node, left, right, 'format', 'formats')
    const pattern = bothPatterns(left.pattern, right.pattern)
    if (pattern !== undefined) node.pattern = pattern
    tighten(node, left, right, 'minLength', 'maxLength')
    intersectEnums(node, left.enum, right.enum)
    return node
  }
  if (isNumeric(left) && isNumeric(right)) {
    const kind = left.kind === 'integer' || right.kind === 'integer' ? 'integer' : 'number'
    const node = { ...left, ...right, kind } as Mutable<IntegerSchema | NumberSchema>
    if (left.format !== undefined && right.format !== undefined && left.format !== right.format) {
      if (left.kind === right.kind)
        conflict(`conflicting formats '${left.format}' and '${right.format}'`)
      node.format = left.kind === 'integer' ? left.format : right.format
    }
    tighten(node, left, right, 'minimum', 'maximum')
    tighten(node, left, right, 'exclusiveMinimum', 'exclusiveMaximum')
    const low = Math.max(node.minimum ?? -Infinity, node.exclusiveMinimum ?? -Infinity)
    const high = Math.min(node.maximum ?? Infinity, node.exclusiveMaximum ?? Infinity)
    if (low > high)
      conflict(`incompatible number ranges: nothing is above ${low} and below ${high}`)
    intersectEnums(node, left.enum, right.enum)
    return node
  }
  if (left.kind === 'boolean' && right.kind === 'boolean') {
    const node: Mutable<BooleanSchema> = { ...left, ...right }
    intersectEnums(node, left.enum, right.enum)
    return node
  }
  if (left.kind === 'void' && right.kind === 'void') return { ...left, ...right }
  return conflict(`conflicting types '${left.kind}' and '${right.kind}'`)
}

function mergeObjects(
  state: MergeState,
  left: ObjectSchema,
  right: ObjectSchema,
  depth: number,
): ObjectSchema {
  const properties: Record<string, Schema> = {}
  for (const key in left.properties) setOwn(properties, key, left.properties[key]!)
  for (const key in right.properties) {
    const schema = right.properties[key]!
    if (!Object.hasOwn(properties, key)) {
      setOwn(properties, key, schema)
      continue
    }
    state.inside.push(key)
    try {
      setOwn(properties, key, merge(state, properties[key]!, schema, depth + 1))
    } catch (error) {
      if (!(error instanceof MergeConflict)) throw error
      const optional = !left.required.includes(key) && !right.required.includes(key)
      if (!optional || state.onConflict === undefined || state.unions > 0) throw error.under(key)
      for (const name of [...state.inside].reverse()) error.under(name)
      state.onConflict(error)
      setOwn(properties, key, noValue(properties[key]!))
    } finally {
      state.inside.pop()
    }
  }
  const node: Mutable<ObjectSchema> = {
    ...left,
    ...right,
    properties: Object.freeze(properties),
    required: Object.freeze([...new Set([...left.required, ...right.required])]),
  }
  const extraLeft = left.additionalProperties
  const extraRight = right.additionalProperties
  if (extraLeft === false || extraRight === false) node.additionalProperties = false
  else if (typeof extraLeft === 'object' && typeof extraRight === 'object') {
    node.additionalProperties = merge(state, extraLeft, extraRight, depth + 1)
  } else if (typeof extraLeft === 'object') node.additionalProperties = extraLeft
  else if (extraRight !== undefined) node.additionalProperties = extraRight
  tighten(node, left, right, 'minProperties', 'maxProperties')
  const discriminator = left.discriminator ?? right.discriminator
  if (discriminator) node.discriminator = discriminator
  const patterns = mergeSchemaMaps(state, left.patternProperties, right.patternProperties, depth)
  if (patterns) node.patternProperties = patterns
  const dependents = mergeSchemaMaps(state, left.dependentSchemas, right.dependentSchemas, depth)
  if (dependents) node.dependentSchemas = dependents
  if (left.propertyNames && right.propertyNames)
    node.propertyNames = merge(state, left.propertyNames, right.propertyNames, depth + 1)
  if (left.dependentRequired && right.dependentRequired) {
    const both: Record<string, readonly string[]> = { ...left.dependentRequired }
    for (const [name, names] of Object.entries(right.dependentRequired))
      setOwn(both, name, Object.freeze([...new Set([...(both[name] ?? []), ...names])]))
    node.dependentRequired = Object.freeze(both)
  }
  if (left.unevaluatedProperties === false || right.unevaluatedProperties === false)
    node.unevaluatedProperties = false
  return node
}

/** Both members' entries; an entry both have must hold twice, so its schemas are merged. */
function mergeSchemaMaps(
  state: MergeState,
  left: Readonly<Record<string, Schema>> | undefined,
  right: Readonly<Record<string, Schema>> | undefined,
  depth: number,
): Readonly<Record<string, Schema>> | undefined {
  if (!left || !right) return left ?? right
  const merged: Record<string, Schema> = { ...left }
  for (const [key, schema] of Object.entries(right))
    setOwn(
      merged,
      key,
      Object.hasOwn(merged, key) ? merge(state, merged[key]!, schema, depth + 1) : schema,
    )
  return Object.freeze(merged)
}

/** Position by position; past one member's prefixItems (or without any) its `items` holds there. */
function mergePrefixItems(
  state: MergeState,
  left: ArraySchema,
  right: ArraySchema,
  depth: number,
): readonly Schema[] | undefined {
  if (!left.prefixItems && !right.prefixItems) return undefined
  const [a, b] = [left.prefixItems ?? [], right.prefixItems ?? []]
  return Object.freeze(
    Array.from({ length: Math.max(a.length, b.length) }, (_, index) =>
      merge(state, a[index] ?? left.items, b[index] ?? right.items, depth + 1),
    ),
  )
}

/** allOf over a union: every member of the union merged with the other side; failing members drop out. */
function distribute(
  state: MergeState,
  union: UnionSchema,
  other: Schema,
  depth: number,
  unionFirst: boolean,
): Schema {
  if (
    union.members.length * (other.kind === 'union' ? other.members.length : 1) >
    MAX_CROSS_PRODUCT
  ) {
    // A limit, not a contradiction: the unit fails instead of becoming `never`.
    throw new ParseFailure(`allOf over unions expands to more than ${MAX_CROSS_PRODUCT} members`)
  }
  const members: Schema[] = []
  let lastError: unknown
  for (const member of union.members) {
    state.unions++
    try {
      members.push(
        unionFirst
          ? merge(state, other, member, depth + 1)
          : merge(state, member, other, depth + 1),
      )
    } catch (error) {
      if (!(error instanceof MergeConflict)) throw error
      lastError = error
    } finally {
      state.unions--
    }
  }
  if (members.length === 0) throw lastError
  if (members.length === 1) return members[0]!
  const node: Mutable<UnionSchema> = {
    ...union,
    members: Object.freeze(members),
    nullable: union.nullable && other.nullable,
  }
  return Object.freeze(node)
}

/** Merged annotations: both members must accept null; readOnly and writeOnly cannot both hold. */
function withAnnotations(node: Schema, left: Schema, right: Schema): Schema {
  const copy = { ...node } as Mutable<Schema>
  copy.nullable = left.nullable && right.nullable
  if ((left.readOnly || right.readOnly) && (left.writeOnly || right.writeOnly)) {
    conflict('property cannot be both readOnly and writeOnly')
  }
  if (left.readOnly || right.readOnly) copy.readOnly = true
  if (left.writeOnly || right.writeOnly) copy.writeOnly = true
  if (left.deprecated || right.deprecated) copy.deprecated = true
  if (copy.kind !== 'void' && copy.kind !== 'ref') mergeConditions(copy, left, right)
  const unapplied = { ...left.unapplied, ...right.unapplied, ...node.unapplied }
  if (Object.keys(unapplied).length > 0 && copy.kind !== 'unknown') {
    // Only the keywords the merged type does not hold stay unapplied.
    for (const key of Object.keys(unapplied)) if (key in copy) delete unapplied[key]
  }
  if (Object.keys(unapplied).length > 0) copy.unapplied = Object.freeze(unapplied)
  else delete copy.unapplied
  // The merge is not the allOf as written: the schema that merged its members records those.
  delete copy.allOfRefs
  return Object.freeze(copy)
}

/** A value must match neither `not`: one `not` of an `anyOf`; every `if` of both still applies. */
function mergeConditions(node: Mutable<SchemaConditions>, left: Schema, right: Schema): void {
  const a = 'not' in left ? left.not : undefined
  const b = 'not' in right ? right.not : undefined
  if (a && b && a !== b)
    node.not = Object.freeze({
      kind: 'union',
      mode: 'anyOf',
      members: Object.freeze([a, b]),
      nullable: a.nullable || b.nullable,
    })
  else if (a ?? b) node.not = a ?? b
  const conditions = [
    ...(('conditions' in left && left.conditions) || []),
    ...(('conditions' in right && right.conditions) || []),
  ]
  if (conditions.length > 0) node.conditions = Object.freeze([...new Set(conditions)])
}

type Bounded = { minimum?: number; maximum?: number } & Record<string, unknown>

function tighten<T extends object>(node: T, left: T, right: T, low: keyof T, high: keyof T): void {
  const l = left as Bounded
  const r = right as Bounded
  const n = node as Bounded
  const lowKey = low as string
  const highKey = high as string
  const lows = [l[lowKey], r[lowKey]].filter((v): v is number => typeof v === 'number')
  const highs = [l[highKey], r[highKey]].filter((v): v is number => typeof v === 'number')
  if (lows.length > 0) n[lowKey] = Math.max(...lows)
  if (highs.length > 0) n[highKey] = Math.min(...highs)
  if (lows.length > 0 && highs.length > 0 && (n[lowKey] as number) > (n[highKey] as number)) {
    conflict(`${lowKey} ${String(n[lowKey])} is above ${highKey} ${String(n[highKey])}`)
  }
}

function same<T extends object>(node: T, left: T, right: T, key: keyof T, plural: string): void {
  const a = left[key]
  const b = right[key]
  if (a !== undefined && b !== undefined && a !== b)
    conflict(`conflicting ${plural} '${String(a)}' and '${String(b)}'`)
  if (a !== undefined) node[key] = a
}

/**
 * A value must match both patterns: one pattern that finds each (patterns are unanchored, so
 * each is looked for from the start, anywhere in the string).
 */
function bothPatterns(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined || a === b) return a ?? b
  return `^(?=[\\s\\S]*?(?:${a}))(?=[\\s\\S]*?(?:${b}))`
}

function intersectEnums<V>(
  node: { enum?: readonly V[] },
  a: readonly V[] | undefined,
  b: readonly V[] | undefined,
): void {
  if (!a || !b) return
  const both = a.filter((value) => b.includes(value))
  if (both.length === 0)
    conflict(`enum values have no intersection: [${a.join(', ')}] and [${b.join(', ')}]`)
  node.enum = Object.freeze(both)
}

function isNumeric(schema: Schema): schema is IntegerSchema | NumberSchema {
  return schema.kind === 'integer' || schema.kind === 'number'
}
