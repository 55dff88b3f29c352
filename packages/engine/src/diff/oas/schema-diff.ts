import type {
  ArraySchema,
  ComponentBucket,
  Discriminator,
  NumericConstraints,
  ObjectSchema,
  OasModel,
  Schema,
  StringSchema,
  UnionSchema,
} from '../../model/index.js'
import { MAX_SCHEMA_DEPTH } from '../../input/limits.js'
import { compareSchemaDocs } from './documentation-diff.js'
import type { SchemaKind } from './rules.js'
import { canonical, escapePointer, READ_ONLY, type Scope, Shared, WRITE_ONLY } from './scope.js'

/** The parse keeps inline schemas to this depth; the comparison follows them as far. */
const MAX_DEPTH = MAX_SCHEMA_DEPTH

/** The two documents and the components compared so far, shared by every comparison. */
export class Comparison {
  readonly #shared = new Map<string, Shared>()

  constructor(
    readonly old: OasModel,
    readonly next: OasModel,
  ) {}

  /**
   * The comparison of two components, done on first use: `compare` fills the shared scope. A
   * component met again while it is being compared (recursion) is linked, not compared again.
   */
  shared(
    bucket: ComponentBucket,
    oldName: string,
    newName: string,
    compare: (shared: Shared) => void,
  ): Shared {
    const key = `${bucket}\u0000${oldName}\u0000${newName}`
    let shared = this.#shared.get(key)
    if (!shared) {
      shared = new Shared(bucket, oldName, newName)
      this.#shared.set(key, shared)
    }
    if (shared.state === 'fresh') {
      shared.state = 'comparing'
      compare(shared)
      shared.state = 'done'
    }
    return shared
  }

  get allShared(): Iterable<Shared> {
    return this.#shared.values()
  }

  /** A component schema pair, compared once. */
  schemaComponent(oldName: string, newName: string): Shared {
    return this.shared('schemas', oldName, newName, (shared) => {
      const old = componentSchema(this.old, oldName)
      const next = componentSchema(this.next, newName)
      compareSchemas(this, shared, old, next, shared.pointer)
    })
  }
}

function componentSchema(model: OasModel, name: string): Schema {
  return Object.hasOwn(model.components.schemas, name)
    ? model.components.schemas[name]!
    : { kind: 'unknown', nullable: false }
}

function resolved(model: OasModel, schema: Schema): Schema {
  if (schema.kind !== 'ref') return schema
  const seen = new Set<string>()
  let current: Schema = schema
  let nullable = schema.nullable
  while (current.kind === 'ref') {
    if (seen.has(current.refName) || !Object.hasOwn(model.components.schemas, current.refName))
      return { kind: 'unknown', nullable: true }
    seen.add(current.refName)
    current = model.components.schemas[current.refName]!
    nullable ||= current.nullable
  }
  return nullable === current.nullable ? current : { ...current, nullable }
}

/**
 * Where two schemas are compared: the comparison, the scope that collects what differs, the
 * JSON pointer and property path of the place, what masks it (readOnly, writeOnly) and how deep
 * it is.
 */
class Place {
  constructor(
    readonly cmp: Comparison,
    readonly scope: Scope,
    readonly pointer: string,
    readonly at = '',
    readonly mask = 0,
    readonly depth = 0,
  ) {}

  fact(inKind: SchemaKind, outKind: SchemaKind, text: string, mask = this.mask): void {
    this.scope.schema(inKind, outKind, this.pointer, this.at, text, mask)
  }

  /** A part of the schema here: `/items`, `/properties/name` … */
  part(pointer: string, at: string, mask = this.mask): Place {
    return new Place(this.cmp, this.scope, `${this.pointer}${pointer}`, at, mask, this.depth + 1)
  }
}

/**
 * Compares two schemas at one place and records what changed. Component refs on both sides are
 * compared once, as shared components; a ref against an inline schema compares the ref's target,
 * so a `$ref` and its inlined copy are equal.
 */
export function compareSchemas(
  cmp: Comparison,
  scope: Scope,
  old: Schema,
  next: Schema,
  pointer: string,
): void {
  compareAt(new Place(cmp, scope, pointer), old, next)
}

function compareAt(place: Place, o: Schema, n: Schema): void {
  if (place.depth > MAX_DEPTH) return
  const { cmp } = place
  compareSchemaDocs(cmp, place.scope, place.pointer, place.at, o, n)
  if (o.kind === 'ref' && n.kind === 'ref') {
    compareNullable(place, o.nullable, n.nullable)
    place.scope.link(cmp.schemaComponent(o.refName, n.refName), undefined, place.mask)
    return
  }
  const old = resolved(cmp.old, o)
  const next = resolved(cmp.next, n)
  compareNullable(place, old.nullable, next.nullable)
  if (canonical(old.default) !== canonical(next.default))
    place.fact(
      'default-changed',
      'default-changed',
      `the default changed from ${shown(old.default)} to ${shown(next.default)}`,
    )
  if (old.kind !== next.kind) {
    const text = `the type changed from ${typeName(old)} to ${typeName(next)}`
    // Where a client sends the value, only a wider type is harmless; where it receives it, only a
    // narrower one.
    place.fact(
      generalizes(old, next) ? 'type-generalized' : 'type-changed',
      narrows(old, next) ? 'type-narrowed' : 'type-changed',
      text,
    )
    return
  }
  if ('format' in old || 'format' in next) {
    const [a, b] = [(old as StringSchema).format, (next as StringSchema).format]
    if (a !== b)
      place.fact(
        'format-changed',
        'format-changed',
        `the format changed from ${shown(a)} to ${shown(b)}`,
      )
  }
  if ('enum' in old || 'enum' in next) compareEnums(place, old, next)
  switch (next.kind) {
    case 'string':
      compareStrings(place, old as StringSchema, next)
      break
    case 'integer':
    case 'number':
      compareNumbers(place, old as NumericConstraints, next)
      break
    case 'array':
      compareArrays(place, old as ArraySchema, next)
      break
    case 'object':
      compareObjects(place, old as ObjectSchema, next)
      break
    case 'union':
      compareUnions(place, old as UnionSchema, next)
      break
    case 'boolean':
    case 'ref':
    case 'unknown':
    case 'void':
      // Nothing beyond the kind, the enum and nullability, compared above.
      break
  }
}

function compareNullable(place: Place, old: boolean, next: boolean): void {
  if (old === next) return
  if (next) place.fact('became-nullable', 'became-nullable', 'null became a valid value')
  else place.fact('became-not-nullable', 'became-not-nullable', 'null is no longer a valid value')
}

/** Every old value is still valid in the new schema, so a sender is unaffected. */
function generalizes(old: Schema, next: Schema): boolean {
  if (next.kind === 'unknown') return true
  if (old.kind === 'integer' && next.kind === 'number') return true
  return next.kind === 'union' && next.members.some((member) => member.kind === old.kind)
}

const SCALARS: ReadonlySet<Schema['kind']> = new Set(['string', 'integer', 'number', 'boolean'])

/**
 * Every new value was already valid in the old schema, so a receiver is unaffected. Objects and
 * arrays left alone of a union are not judged here: their own contents could differ.
 */
function narrows(old: Schema, next: Schema): boolean {
  if (old.kind === 'unknown') return true
  if (old.kind === 'number' && next.kind === 'integer') return true
  return (
    old.kind === 'union' &&
    SCALARS.has(next.kind) &&
    old.members.some(
      (member) =>
        member.kind === next.kind || (member.kind === 'number' && next.kind === 'integer'),
    )
  )
}

function typeName(schema: Schema): string {
  switch (schema.kind) {
    case 'unknown':
      return 'any value'
    case 'void':
      return 'no value'
    case 'union':
      return schema.mode
    default:
      return schema.kind
  }
}

function shown(value: unknown): string {
  return value === undefined ? 'none' : `\`${JSON.stringify(value)}\``
}

function compareEnums(place: Place, old: Schema, next: Schema): void {
  const a = (old as { enum?: readonly unknown[] }).enum
  const b = (next as { enum?: readonly unknown[] }).enum
  if (!a && !b) return
  if (!a)
    return place.fact(
      'became-enum',
      'became-enum',
      `values became restricted to ${b!.length} enum values`,
    )
  if (!b) return place.fact('enum-dropped', 'enum-dropped', 'the enum restriction was removed')
  const before = new Set(a.map(canonical))
  const after = new Set(b.map(canonical))
  for (const value of b)
    if (!before.has(canonical(value)))
      place.fact('enum-value-added', 'enum-value-added', `the enum value ${shown(value)} was added`)
  for (const value of a)
    if (!after.has(canonical(value)))
      place.fact(
        'enum-value-removed',
        'enum-value-removed',
        `the enum value ${shown(value)} was removed`,
      )
}

/**
 * A pattern that every string matches constrains nothing: JSON Schema patterns are unanchored, so
 * an empty one, or `.*`, finds a match in any string.
 */
function constraining(pattern: string | undefined): string | undefined {
  return pattern === '' || pattern === '.*' ? undefined : pattern
}

function compareStrings(place: Place, old: StringSchema, next: StringSchema): void {
  const [before, after] = [constraining(old.pattern), constraining(next.pattern)]
  if (before !== after) {
    if (before === undefined)
      place.fact('pattern-added', 'pattern-added', `the pattern ${shown(after)} was added`)
    else if (after === undefined)
      place.fact('pattern-removed', 'pattern-removed', `the pattern ${shown(before)} was removed`)
    else
      place.fact(
        'pattern-changed',
        'pattern-changed',
        `the pattern changed from ${shown(before)} to ${shown(after)}`,
      )
  }
  compareLimit(
    place,
    'maxLength',
    'upper',
    old.maxLength,
    next.maxLength,
    'max-length-decreased',
    'max-length-increased',
  )
  compareLimit(
    place,
    'minLength',
    'lower',
    old.minLength ?? 0,
    next.minLength ?? 0,
    'min-length-increased',
    'min-length-decreased',
  )
}

/**
 * A length or item count limit: lowering (raising) an upper (lower) one, or setting it, narrows
 * the values; the opposite widens them.
 */
function compareLimit(
  place: Place,
  name: string,
  bound: 'upper' | 'lower',
  old: number | undefined,
  next: number | undefined,
  narrowed: SchemaKind,
  widened: SchemaKind,
): void {
  if (old === next) return
  const tighter =
    next !== undefined && (old === undefined || (bound === 'upper' ? next < old : next > old))
  const kind = tighter ? narrowed : widened
  place.fact(kind, kind, `${name} changed from ${shown(old)} to ${shown(next)}`)
}

type Bound = { value: number; exclusive: boolean } | undefined

function upper(schema: NumericConstraints): Bound {
  return tighter(schema.maximum, schema.exclusiveMaximum, (a, b) => a < b)
}

function lower(schema: NumericConstraints): Bound {
  return tighter(schema.minimum, schema.exclusiveMinimum, (a, b) => a > b)
}

function tighter(
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

function compareNumbers(place: Place, old: NumericConstraints, next: NumericConstraints): void {
  const [oldMax, newMax] = [upper(old), upper(next)]
  if (canonical(oldMax) !== canonical(newMax)) {
    const text = `the maximum changed from ${boundText(oldMax)} to ${boundText(newMax)}`
    const narrowed =
      newMax !== undefined &&
      (oldMax === undefined ||
        newMax.value < oldMax.value ||
        (newMax.value === oldMax.value && newMax.exclusive))
    if (narrowed) place.fact('max-decreased', 'max-decreased', text)
    else place.fact('max-increased', 'max-increased', text)
  }
  const [oldMin, newMin] = [lower(old), lower(next)]
  if (canonical(oldMin) !== canonical(newMin)) {
    const text = `the minimum changed from ${boundText(oldMin)} to ${boundText(newMin)}`
    const narrowed =
      newMin !== undefined &&
      (oldMin === undefined ||
        newMin.value > oldMin.value ||
        (newMin.value === oldMin.value && newMin.exclusive))
    if (narrowed) place.fact('min-increased', 'min-increased', text)
    else place.fact('min-decreased', 'min-decreased', text)
  }
  if (old.multipleOf !== next.multipleOf)
    place.fact(
      'multiple-of-changed',
      'multiple-of-changed',
      `multipleOf changed from ${shown(old.multipleOf)} to ${shown(next.multipleOf)}`,
    )
}

function compareArrays(place: Place, old: ArraySchema, next: ArraySchema): void {
  compareLimit(
    place,
    'maxItems',
    'upper',
    old.maxItems,
    next.maxItems,
    'max-items-decreased',
    'max-items-increased',
  )
  compareLimit(
    place,
    'minItems',
    'lower',
    old.minItems ?? 0,
    next.minItems ?? 0,
    'min-items-increased',
    'min-items-decreased',
  )
  compareAt(place.part('/items', `${place.at}[]`), old.items, next.items)
}

function propertyPath(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`
}

function flags(schema: Schema): number {
  return (schema.readOnly ? READ_ONLY : 0) | (schema.writeOnly ? WRITE_ONLY : 0)
}

function compareObjects(place: Place, old: ObjectSchema, next: ObjectSchema): void {
  const { cmp } = place
  const oldRequired = new Set(old.required)
  const newRequired = new Set(next.required)
  for (const name of Object.keys(next.properties)) {
    const property = next.properties[name]!
    const b = resolved(cmp.next, property)
    const here = place.part(
      `/properties/${escapePointer(name)}`,
      propertyPath(place.at, name),
      place.mask | flags(b),
    )
    if (!Object.hasOwn(old.properties, name)) {
      const required = newRequired.has(name)
      here.fact(
        required ? 'required-property-added' : 'property-added',
        'property-added',
        `the ${required ? 'required' : 'optional'} property was added`,
      )
      continue
    }
    const before = old.properties[name]!
    const a = resolved(cmp.old, before)
    const [wasRequired, isRequired] = [oldRequired.has(name), newRequired.has(name)]
    if (!wasRequired && isRequired)
      here.fact(
        'property-became-required',
        'property-became-required',
        'the property became required',
      )
    if (wasRequired && !isRequired)
      here.fact(
        'property-became-optional',
        'property-became-optional',
        'the property became optional',
      )
    // Judged where the property was still sent (received): the mask it now has would hide them.
    if (!a.readOnly && b.readOnly)
      here.fact(
        'property-became-read-only',
        'property-became-read-only',
        'the property became readOnly',
        place.mask,
      )
    if (!a.writeOnly && b.writeOnly)
      here.fact(
        'property-became-write-only',
        'property-became-write-only',
        'the property became writeOnly',
        place.mask,
      )
    if (!a.deprecated && b.deprecated)
      here.fact('property-deprecated', 'property-deprecated', 'the property was deprecated')
    compareAt(here, before, property)
  }
  for (const name of Object.keys(old.properties)) {
    if (Object.hasOwn(next.properties, name)) continue
    const required = oldRequired.has(name)
    const mask = place.mask | flags(resolved(cmp.old, old.properties[name]!))
    place
      .part(`/properties/${escapePointer(name)}`, propertyPath(place.at, name), mask)
      .fact(
        'property-removed',
        required ? 'required-property-removed' : 'property-removed',
        `the ${required ? 'required' : 'optional'} property was removed`,
      )
  }
  compareAdditional(place, old, next)
  compareDiscriminators(place, old.discriminator, next.discriminator)
}

function compareAdditional(place: Place, old: ObjectSchema, next: ObjectSchema): void {
  const [a, b] = [old.additionalProperties, next.additionalProperties]
  if (a !== false && b === false)
    return place.fact(
      'additional-properties-closed',
      'additional-properties-closed',
      'additionalProperties became false',
    )
  if (a === false && b !== false)
    return place.fact(
      'additional-properties-opened',
      'additional-properties-opened',
      'additionalProperties is no longer false',
    )
  if (typeof a === 'object' && typeof b === 'object')
    compareAt(place.part('/additionalProperties', `${place.at}{}`), a, b)
}

function compareDiscriminators(
  place: Place,
  old: Discriminator | undefined,
  next: Discriminator | undefined,
): void {
  if (canonical(old) === canonical(next)) return
  place.fact(
    'discriminator-changed',
    'discriminator-changed',
    `the discriminator changed from ${shown(old?.propertyName)} to ${shown(next?.propertyName)}${
      old?.propertyName === next?.propertyName ? ' (its mapping changed)' : ''
    }`,
  )
}

/**
 * Members are matched by the component they name, then, for what is left, by their kind after
 * resolving refs (so a member inlined in place of its `$ref` still matches).
 */
function compareUnions(place: Place, old: UnionSchema, next: UnionSchema): void {
  const { cmp } = place
  const left = [...old.members]
  const pairs: [Schema | undefined, Schema, number][] = next.members.map((member, index) => {
    const match = left.findIndex((candidate) => memberKey(candidate) === memberKey(member))
    return [match < 0 ? undefined : left.splice(match, 1)[0], member, index]
  })
  for (const pair of pairs) {
    if (pair[0]) continue
    const kind = resolved(cmp.next, pair[1]).kind
    const match = left.findIndex((candidate) => resolved(cmp.old, candidate).kind === kind)
    if (match >= 0) pair[0] = left.splice(match, 1)[0]
  }
  for (const [before, member, index] of pairs) {
    if (before) compareAt(place.part(`/${next.mode}/${index}`, place.at), before, member)
    else
      place.fact(
        'union-member-added',
        'union-member-added',
        `the alternative ${memberName(member)} was added`,
      )
  }
  for (const member of left)
    place.fact(
      'union-member-removed',
      'union-member-removed',
      `the alternative ${memberName(member)} was removed`,
    )
  compareDiscriminators(place, old.discriminator, next.discriminator)
}

function memberKey(schema: Schema): string {
  return schema.kind === 'ref' ? `ref:${schema.refName}` : schema.kind
}

function memberName(schema: Schema): string {
  return schema.kind === 'ref' ? `\`${schema.refName}\`` : typeName(schema)
}
