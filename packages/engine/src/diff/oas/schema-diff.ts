import type {
  ArraySchema,
  ComponentBucket,
  NumericConstraints,
  ObjectSchema,
  OasModel,
  Schema,
  StringSchema,
  UnionSchema,
} from '../../model/index.js'
import { MAX_SCHEMA_DEPTH } from '../../input/limits.js'
import { compareDiscriminators } from './schema/discriminator.js'
import { compareAllOf } from './schema/all-of.js'
import {
  compareCounts,
  compareNumbers,
  compareSizes,
  compareStrings,
  compareUniqueness,
} from './schema/limits.js'
import { mayOverlap } from './schema/overlap.js'
import { compareSetting, memberName, Place, resolved, shown, typeName } from './schema/place.js'
import { compareUnapplied, writtenFormat } from './schema/unapplied.js'
import { compareDefaults, compareValueSets } from './schema/values.js'
import { compareApplicators } from './applicators-diff.js'
import { compareSchemaDocs } from './documentation-diff.js'
import { canonical, escapePointer, READ_ONLY, type Scope, Shared, WRITE_ONLY } from './scope.js'

/** The parse keeps inline schemas to this depth; the comparison follows them as far. */
const MAX_DEPTH = MAX_SCHEMA_DEPTH

/** The two documents and the components compared so far, shared by every comparison. */
export class Comparison {
  readonly #shared = new Map<string, Shared>()
  /** Components an allOf merges: used wherever that allOf is, though never linked. */
  readonly allOfMembers = new Set<string>()

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
  const place = new Place(cmp, scope, pointer)
  // A property's flag is judged with the property; a component's, where the component is compared.
  if (old.kind !== 'ref' || next.kind !== 'ref')
    compareDeprecation(place, resolved(cmp.old, old), resolved(cmp.next, next))
  compareAt(place, old, next)
}

function compareDeprecation(place: Place, old: Schema, next: Schema): void {
  if (!old.deprecated && next.deprecated)
    place.fact('schema-deprecated', 'schema-deprecated', 'the schema was deprecated')
  if (old.deprecated && !next.deprecated)
    place.fact('schema-reactivated', 'schema-reactivated', 'the schema is no longer deprecated')
}

function compareAt(place: Place, o: Schema, n: Schema): void {
  if (place.depth > MAX_DEPTH) return
  const { cmp } = place
  compareSchemaDocs(cmp, place.scope, place.pointer, place.at, o, n)
  compareAllOf(place, o, n)
  if (o.kind === 'ref' && n.kind === 'ref') {
    compareNullable(place, o.nullable, n.nullable)
    place.scope.link(cmp.schemaComponent(o.refName, n.refName), undefined, place.mask)
    return
  }
  const old = resolved(cmp.old, o)
  const next = resolved(cmp.next, n)
  // Any value includes null: to or from it, the type change says all.
  if (old.kind !== 'unknown' && next.kind !== 'unknown')
    compareNullable(place, old.nullable, next.nullable)
  compareDefaults(place, old, next)
  if (old.kind !== next.kind) {
    if (next.kind === 'union' && compareWrapped(place, o, next)) return
    if (old.kind === 'union' && compareUnwrapped(place, old, n)) return
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
  const [oldFormat, newFormat] = [writtenFormat(old), writtenFormat(next)]
  if (oldFormat !== undefined || newFormat !== undefined)
    compareFormats(place, oldFormat, newFormat)
  compareValueSets(place, old, next)
  compareUnapplied(place, old, next)
  compareApplicators(place, old, next, compareAt)
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
      // Nothing beyond the kind, the values and nullability, compared above.
      break
  }
}

/** Formats whose values are all values of another: a sender of the first may send the second. */
const WIDER_FORMAT: Readonly<Record<string, string>> = { int32: 'int64', float: 'double' }

/**
 * A format narrows the values a schema allows (generated clients also map it to a type: `int64`,
 * `date-time`), so one added narrows, one removed widens, and any other change is breaking both
 * ways, except a numeric format widened to the one that holds all its values.
 */
function compareFormats(place: Place, a: string | undefined, b: string | undefined): void {
  const text = `the format changed from ${shown(a)} to ${shown(b)}`
  const widened = a !== undefined && b !== undefined && WIDER_FORMAT[a] === b
  const narrowed = a !== undefined && b !== undefined && WIDER_FORMAT[b] === a
  if (widened) place.fact('type-generalized', 'type-changed', text)
  else if (narrowed) place.fact('type-changed', 'type-narrowed', text)
  else
    compareSetting(place, 'format', a, b, {
      added: 'format-added',
      removed: 'format-removed',
      changed: 'format-changed',
    })
}

function compareNullable(place: Place, old: boolean, next: boolean): void {
  if (old === next) return
  if (next) place.fact('became-nullable', 'became-nullable', 'null became a valid value')
  else place.fact('became-not-nullable', 'became-not-nullable', 'null is no longer a valid value')
}

/** Every old value is still valid in the new schema, so a sender is unaffected. */
function generalizes(old: Schema, next: Schema): boolean {
  if (next.kind === 'unknown' || old.kind === 'void') return true
  if (old.kind === 'integer' && next.kind === 'number') return true
  return next.kind === 'union' && next.members.some((member) => member.kind === old.kind)
}

const SCALARS: ReadonlySet<Schema['kind']> = new Set(['string', 'integer', 'number', 'boolean'])

/**
 * Every new value was already valid in the old schema, so a receiver is unaffected. Objects and
 * arrays left alone of a union are not judged here: their own contents could differ.
 */
function narrows(old: Schema, next: Schema): boolean {
  if (old.kind === 'unknown' || next.kind === 'void') return true
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

/**
 * The alternative of a union that stands for a schema outside it: the same component, else the
 * only alternative of the same type (an integer is kept by a number alternative), else the one
 * of that type that is written the same.
 */
function keptAlternative(
  schema: Schema,
  outside: OasModel,
  members: readonly Schema[],
  memberModel: OasModel,
): number {
  if (schema.kind === 'ref') {
    const same = members.findIndex((m) => m.kind === 'ref' && m.refName === schema.refName)
    if (same >= 0) return same
  }
  const alone = resolved(outside, schema)
  const fits = (m: Schema) => {
    const k = resolved(memberModel, m).kind
    return k === alone.kind || (alone.kind === 'integer' && k === 'number')
  }
  const matches = members.flatMap((m, index) => (fits(m) ? [index] : []))
  if (matches.length === 1) return matches[0]!
  // Several of that type: the one written the same way, if there is one.
  const same = canonical(alone)
  return matches.find((index) => canonical(resolved(memberModel, members[index]!)) === same) ?? -1
}

/**
 * A schema that became one alternative of a oneOf/anyOf (X → oneOf[X, Y]): every old value still
 * matches X, so a sender is unaffected unless a oneOf's other alternatives may match it too (a
 * value valid against two alternatives of a oneOf is rejected). A receiver may now get Y.
 */
function compareWrapped(place: Place, o: Schema, next: UnionSchema): boolean {
  const { cmp } = place
  const index = keptAlternative(o, cmp.old, next.members, cmp.next)
  if (index < 0) return false
  const kept = next.members[index]!
  const others = next.members.filter((_, i) => i !== index)
  const overlaps =
    next.mode === 'oneOf' &&
    next.discriminator === undefined &&
    others.some((member) => mayOverlap(cmp.next, kept, member))
  const beside = others.map(memberName).join(', ')
  const kind = overlaps ? 'one-of-overlap-added' : 'wrapped-in-union'
  place.fact(
    kind,
    kind,
    overlaps
      ? `the schema became an alternative of a oneOf beside ${beside}, which may match the same values`
      : `the schema became an alternative of ${next.mode === 'anyOf' ? 'an' : 'a'} ${next.mode} beside ${beside}`,
  )
  compareAt(place.part(`/${next.mode}/${index}`, place.at), o, admittingNull(kept, next.nullable))
  return true
}

/**
 * A oneOf/anyOf down to one of its object or array alternatives (scalars are a type narrowing):
 * the other alternatives were removed, and the one kept is compared with what replaced it.
 */
function compareUnwrapped(place: Place, old: UnionSchema, n: Schema): boolean {
  const { cmp } = place
  if (SCALARS.has(resolved(cmp.next, n).kind)) return false
  const index = keptAlternative(n, cmp.next, old.members, cmp.old)
  if (index < 0) return false
  old.members.forEach((member, i) => {
    if (i !== index)
      place.fact(
        'union-member-removed',
        'union-member-removed',
        `the alternative ${memberName(member)} was removed (the ${old.mode} was unwrapped)`,
      )
  })
  compareAt(place.part('', place.at), admittingNull(old.members[index]!, old.nullable), n)
  return true
}

/** An alternative as its union admits it: null too if the union does (compared above). */
function admittingNull(member: Schema, nullable: boolean): Schema {
  return nullable && !member.nullable ? { ...member, nullable } : member
}

function compareArrays(place: Place, old: ArraySchema, next: ArraySchema): void {
  compareCounts(place, old, next)
  compareUniqueness(place, old, next)
  compareAt(place.part('/items', `${place.at}[]`), old.items, next.items)
}

function propertyPath(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`
}

function flags(schema: Schema): number {
  return (schema.readOnly ? READ_ONLY : 0) | (schema.writeOnly ? WRITE_ONLY : 0)
}

/**
 * A property's schema with the markers it carries: a `$ref` beside `readOnly`, `writeOnly` or
 * `deprecated` (3.1, or `allOf: [$ref]`) marks the property, whatever its target says.
 */
function marked(model: OasModel, schema: Schema): Schema {
  const target = resolved(model, schema)
  if (schema.kind !== 'ref' || !(schema.readOnly || schema.writeOnly || schema.deprecated))
    return target
  return {
    ...target,
    readOnly: schema.readOnly || target.readOnly,
    writeOnly: schema.writeOnly || target.writeOnly,
    deprecated: schema.deprecated || target.deprecated,
  }
}

function compareObjects(place: Place, old: ObjectSchema, next: ObjectSchema): void {
  const { cmp } = place
  const oldRequired = new Set(old.required)
  const newRequired = new Set(next.required)
  for (const name of Object.keys(next.properties)) {
    const property = next.properties[name]!
    const b = marked(cmp.next, property)
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
    const a = marked(cmp.old, before)
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
    compareFlags(place, here, a, b, wasRequired && isRequired)
    compareAt(here, before, property)
  }
  for (const name of Object.keys(old.properties)) {
    if (Object.hasOwn(next.properties, name)) continue
    const required = oldRequired.has(name)
    const mask = place.mask | flags(marked(cmp.old, old.properties[name]!))
    place
      .part(`/properties/${escapePointer(name)}`, propertyPath(place.at, name), mask)
      .fact(
        'property-removed',
        required ? 'required-property-removed' : 'property-removed',
        `the ${required ? 'required' : 'optional'} property was removed`,
      )
  }
  compareAdditional(place, old, next)
  compareSizes(place, old, next)
  compareDiscriminators(place, old.discriminator, next.discriminator)
}

/** readOnly, writeOnly and deprecated, set or cleared on a property that stays. */
function compareFlags(place: Place, here: Place, a: Schema, b: Schema, required: boolean): void {
  // Judged where the property was still sent (received): the mask it now has would hide them.
  if (!a.readOnly && b.readOnly)
    here.fact(
      'property-became-read-only',
      'property-became-read-only',
      'the property became readOnly',
      place.mask,
    )
  if (a.readOnly && !b.readOnly) {
    const text = 'the property is no longer readOnly'
    if (!required) here.fact('property-no-longer-read-only', 'property-no-longer-read-only', text)
    else {
      // A required readOnly property is not required in requests; no longer readOnly, it is. The
      // masks keep each wording to its direction (READ_ONLY hides requests, WRITE_ONLY responses).
      const [inKind, outKind] = [
        'property-became-required',
        'property-no-longer-read-only',
      ] as const
      here.fact(
        inKind,
        outKind,
        `${text} (it is required, so requests must send it)`,
        here.mask | WRITE_ONLY,
      )
      here.fact(inKind, outKind, text, here.mask | READ_ONLY)
    }
  }
  if (!a.writeOnly && b.writeOnly)
    here.fact(
      'property-became-write-only',
      'property-became-write-only',
      'the property became writeOnly',
      place.mask,
    )
  if (a.writeOnly && !b.writeOnly)
    here.fact(
      'property-no-longer-write-only',
      'property-no-longer-write-only',
      'the property is no longer writeOnly',
    )
  if (!a.deprecated && b.deprecated)
    here.fact('property-deprecated', 'property-deprecated', 'the property was deprecated')
  if (a.deprecated && !b.deprecated)
    here.fact(
      'property-reactivated',
      'property-reactivated',
      'the property is no longer deprecated',
    )
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
  // Absent (or `true`) allows any value: a schema set or dropped types the values, which narrows
  // or widens them like any type change.
  if (typeof a === 'object' || typeof b === 'object')
    compareAt(place.part('/additionalProperties', `${place.at}{}`), anyValue(a), anyValue(b))
}

function anyValue(additional: Schema | boolean | undefined): Schema {
  return typeof additional === 'object' ? additional : { kind: 'unknown', nullable: false }
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
  compareModes(place, old, next)
  // Where two old alternatives already overlapped, values could match two before: the document
  // does not rely on a oneOf matching exactly one, and one more such alternative is an addition.
  const exclusive =
    next.mode === 'oneOf' && next.discriminator === undefined && !ambiguous(cmp.old, old)
  for (const [before, member, index] of pairs) {
    if (before) compareAt(place.part(`/${next.mode}/${index}`, place.at), before, member)
    else if (
      exclusive &&
      next.members.some((other, i) => i !== index && mayOverlap(cmp.next, member, other))
    )
      place.fact(
        'one-of-overlap-added',
        'one-of-overlap-added',
        `the alternative ${memberName(member)} was added, and may match the same values as another`,
      )
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

/** A oneOf without a discriminator two of whose alternatives may match the same value. */
function ambiguous(model: OasModel, union: UnionSchema): boolean {
  if (union.mode !== 'oneOf' || union.discriminator !== undefined) return false
  const { members } = union
  return members.some((a, i) => members.some((b, j) => j > i && mayOverlap(model, a, b)))
}

/**
 * oneOf and anyOf accept the same values when no two alternatives overlap (or a discriminator
 * tells them apart); where some may, a oneOf rejects a value that matches two and an anyOf
 * accepts it.
 */
function compareModes(place: Place, old: UnionSchema, next: UnionSchema): void {
  if (old.mode === next.mode || next.discriminator !== undefined) return
  const { members } = next
  const overlap = members.some((a, i) =>
    members.some((b, j) => j > i && mayOverlap(place.cmp.next, a, b)),
  )
  if (!overlap) return
  const kind = next.mode === 'oneOf' ? 'any-of-became-one-of' : 'one-of-became-any-of'
  place.fact(
    kind,
    kind,
    `the ${old.mode} became a ${next.mode}, and some of its alternatives may match the same values`,
  )
}

function memberKey(schema: Schema): string {
  return schema.kind === 'ref' ? `ref:${schema.refName}` : schema.kind
}
