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
import type { SchemaKind } from './rules.js'
import { canonical, escapePointer, READ_ONLY, Scope, Shared, WRITE_ONLY } from './scope.js'

/** Deeper than any real document nests inline schemas; a guard against pathological input. */
const MAX_DEPTH = 128

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
      compareSchemas(this, shared, old, next, shared.pointer, '', 0, 0)
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
 * Compares two schemas at one place and records what changed. Component refs on both sides are
 * compared once, as shared components; a ref against an inline schema compares the ref's target,
 * so a `$ref` and its inlined copy are equal.
 */
export function compareSchemas(
  cmp: Comparison,
  scope: Scope,
  o: Schema,
  n: Schema,
  pointer: string,
  at: string,
  mask: number,
  depth: number,
): void {
  if (depth > MAX_DEPTH) return
  if (o.kind === 'ref' && n.kind === 'ref') {
    compareNullable(scope, o.nullable, n.nullable, pointer, at, mask)
    scope.link(cmp.schemaComponent(o.refName, n.refName), undefined, mask)
    return
  }
  const old = resolved(cmp.old, o)
  const next = resolved(cmp.next, n)
  const fact = (inKind: SchemaKind, outKind: SchemaKind, text: string) =>
    scope.schema(inKind, outKind, pointer, at, text, mask)

  compareNullable(scope, old.nullable, next.nullable, pointer, at, mask)
  if (canonical(old.default) !== canonical(next.default))
    fact(
      'default-changed',
      'default-changed',
      `the default changed from ${shown(old.default)} to ${shown(next.default)}`,
    )
  if (old.kind !== next.kind) {
    const text = `the type changed from ${typeName(old)} to ${typeName(next)}`
    fact(generalizes(old, next) ? 'type-generalized' : 'type-changed', 'type-changed', text)
    return
  }
  if ('format' in old || 'format' in next) {
    const [a, b] = [(old as StringSchema).format, (next as StringSchema).format]
    if (a !== b)
      fact('format-changed', 'format-changed', `the format changed from ${shown(a)} to ${shown(b)}`)
  }
  if ('enum' in old || 'enum' in next) compareEnums(fact, old, next)
  switch (next.kind) {
    case 'string':
      compareStrings(fact, old as StringSchema, next)
      break
    case 'integer':
    case 'number':
      compareNumbers(fact, old as NumericConstraints, next)
      break
    case 'array':
      compareArrays(cmp, scope, fact, old as ArraySchema, next, pointer, at, mask, depth)
      break
    case 'object':
      compareObjects(cmp, scope, fact, old as ObjectSchema, next, pointer, at, mask, depth)
      break
    case 'union':
      compareUnions(cmp, scope, fact, old as UnionSchema, next, pointer, at, mask, depth)
      break
  }
}

type FactOf = (inKind: SchemaKind, outKind: SchemaKind, text: string) => void

function compareNullable(
  scope: Scope,
  old: boolean,
  next: boolean,
  pointer: string,
  at: string,
  mask: number,
): void {
  if (old === next) return
  if (next)
    scope.schema(
      'became-nullable',
      'became-nullable',
      pointer,
      at,
      'null became a valid value',
      mask,
    )
  else
    scope.schema(
      'became-not-nullable',
      'became-not-nullable',
      pointer,
      at,
      'null is no longer a valid value',
      mask,
    )
}

/** Every old value is still valid in the new schema, so a sender is unaffected. */
function generalizes(old: Schema, next: Schema): boolean {
  if (next.kind === 'unknown') return true
  if (old.kind === 'integer' && next.kind === 'number') return true
  return next.kind === 'union' && next.members.some((member) => member.kind === old.kind)
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

function compareEnums(fact: FactOf, old: Schema, next: Schema): void {
  const a = (old as { enum?: readonly unknown[] }).enum
  const b = (next as { enum?: readonly unknown[] }).enum
  if (!a && !b) return
  if (!a)
    return fact(
      'became-enum',
      'became-enum',
      `values became restricted to ${b!.length} enum values`,
    )
  if (!b) return fact('enum-dropped', 'enum-dropped', 'the enum restriction was removed')
  const before = new Set(a.map(canonical))
  const after = new Set(b.map(canonical))
  for (const value of b)
    if (!before.has(canonical(value)))
      fact('enum-value-added', 'enum-value-added', `the enum value ${shown(value)} was added`)
  for (const value of a)
    if (!after.has(canonical(value)))
      fact('enum-value-removed', 'enum-value-removed', `the enum value ${shown(value)} was removed`)
}

function compareStrings(fact: FactOf, old: StringSchema, next: StringSchema): void {
  if (old.pattern !== next.pattern) {
    if (old.pattern === undefined)
      fact('pattern-added', 'pattern-added', `the pattern ${shown(next.pattern)} was added`)
    else if (next.pattern === undefined)
      fact('pattern-removed', 'pattern-removed', `the pattern ${shown(old.pattern)} was removed`)
    else
      fact(
        'pattern-changed',
        'pattern-changed',
        `the pattern changed from ${shown(old.pattern)} to ${shown(next.pattern)}`,
      )
  }
  compareUpper(
    fact,
    'maxLength',
    old.maxLength,
    next.maxLength,
    'max-length-decreased',
    'max-length-increased',
  )
  compareLower(
    fact,
    'minLength',
    old.minLength ?? 0,
    next.minLength ?? 0,
    'min-length-increased',
    'min-length-decreased',
  )
}

/** An upper limit: lower or newly set narrows the values, higher or dropped widens them. */
function compareUpper(
  fact: FactOf,
  name: string,
  old: number | undefined,
  next: number | undefined,
  narrowed: SchemaKind,
  widened: SchemaKind,
): void {
  if (old === next) return
  const text = `${name} changed from ${shown(old)} to ${shown(next)}`
  if (next !== undefined && (old === undefined || next < old)) fact(narrowed, narrowed, text)
  else fact(widened, widened, text)
}

function compareLower(
  fact: FactOf,
  name: string,
  old: number | undefined,
  next: number | undefined,
  narrowed: SchemaKind,
  widened: SchemaKind,
): void {
  if (old === next) return
  const text = `${name} changed from ${shown(old)} to ${shown(next)}`
  if (next !== undefined && (old === undefined || next > old)) fact(narrowed, narrowed, text)
  else fact(widened, widened, text)
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

function compareNumbers(fact: FactOf, old: NumericConstraints, next: NumericConstraints): void {
  const [oldMax, newMax] = [upper(old), upper(next)]
  if (canonical(oldMax) !== canonical(newMax)) {
    const text = `the maximum changed from ${boundText(oldMax)} to ${boundText(newMax)}`
    const narrowed =
      newMax !== undefined &&
      (oldMax === undefined ||
        newMax.value < oldMax.value ||
        (newMax.value === oldMax.value && newMax.exclusive))
    if (narrowed) fact('max-decreased', 'max-decreased', text)
    else fact('max-increased', 'max-increased', text)
  }
  const [oldMin, newMin] = [lower(old), lower(next)]
  if (canonical(oldMin) !== canonical(newMin)) {
    const text = `the minimum changed from ${boundText(oldMin)} to ${boundText(newMin)}`
    const narrowed =
      newMin !== undefined &&
      (oldMin === undefined ||
        newMin.value > oldMin.value ||
        (newMin.value === oldMin.value && newMin.exclusive))
    if (narrowed) fact('min-increased', 'min-increased', text)
    else fact('min-decreased', 'min-decreased', text)
  }
  if (old.multipleOf !== next.multipleOf)
    fact(
      'multiple-of-changed',
      'multiple-of-changed',
      `multipleOf changed from ${shown(old.multipleOf)} to ${shown(next.multipleOf)}`,
    )
}

function compareArrays(
  cmp: Comparison,
  scope: Scope,
  fact: FactOf,
  old: ArraySchema,
  next: ArraySchema,
  pointer: string,
  at: string,
  mask: number,
  depth: number,
): void {
  compareUpper(
    fact,
    'maxItems',
    old.maxItems,
    next.maxItems,
    'max-items-decreased',
    'max-items-increased',
  )
  compareLower(
    fact,
    'minItems',
    old.minItems ?? 0,
    next.minItems ?? 0,
    'min-items-increased',
    'min-items-decreased',
  )
  compareSchemas(cmp, scope, old.items, next.items, `${pointer}/items`, `${at}[]`, mask, depth + 1)
}

function propertyPath(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`
}

function flags(schema: Schema): number {
  return (schema.readOnly ? READ_ONLY : 0) | (schema.writeOnly ? WRITE_ONLY : 0)
}

function compareObjects(
  cmp: Comparison,
  scope: Scope,
  fact: FactOf,
  old: ObjectSchema,
  next: ObjectSchema,
  pointer: string,
  at: string,
  mask: number,
  depth: number,
): void {
  const oldRequired = new Set(old.required)
  const newRequired = new Set(next.required)
  for (const name of Object.keys(next.properties)) {
    const property = next.properties[name]!
    const place = `${pointer}/properties/${escapePointer(name)}`
    const path = propertyPath(at, name)
    const propertyMask = mask | flags(resolved(cmp.next, property))
    if (!Object.hasOwn(old.properties, name)) {
      const required = newRequired.has(name)
      scope.schema(
        required ? 'required-property-added' : 'property-added',
        'property-added',
        place,
        path,
        `the ${required ? 'required' : 'optional'} property was added`,
        propertyMask,
      )
      continue
    }
    const before = old.properties[name]!
    const wasRequired = oldRequired.has(name)
    const isRequired = newRequired.has(name)
    if (!wasRequired && isRequired)
      scope.schema(
        'property-became-required',
        'property-became-required',
        place,
        path,
        'the property became required',
        propertyMask,
      )
    if (wasRequired && !isRequired)
      scope.schema(
        'property-became-optional',
        'property-became-optional',
        place,
        path,
        'the property became optional',
        propertyMask,
      )
    const [a, b] = [resolved(cmp.old, before), resolved(cmp.next, property)]
    if (!a.readOnly && b.readOnly)
      scope.schema(
        'property-became-read-only',
        'property-became-read-only',
        place,
        path,
        'the property became readOnly',
        mask,
      )
    if (!a.writeOnly && b.writeOnly)
      scope.schema(
        'property-became-write-only',
        'property-became-write-only',
        place,
        path,
        'the property became writeOnly',
        mask,
      )
    if (!a.deprecated && b.deprecated)
      scope.schema(
        'property-deprecated',
        'property-deprecated',
        place,
        path,
        'the property was deprecated',
        propertyMask,
      )
    compareSchemas(cmp, scope, before, property, place, path, propertyMask, depth + 1)
  }
  for (const name of Object.keys(old.properties)) {
    if (Object.hasOwn(next.properties, name)) continue
    const required = oldRequired.has(name)
    scope.schema(
      'property-removed',
      required ? 'required-property-removed' : 'property-removed',
      `${pointer}/properties/${escapePointer(name)}`,
      propertyPath(at, name),
      `the ${required ? 'required' : 'optional'} property was removed`,
      mask | flags(resolved(cmp.old, old.properties[name]!)),
    )
  }
  compareAdditional(cmp, scope, fact, old, next, pointer, at, mask, depth)
  compareDiscriminators(fact, old.discriminator, next.discriminator)
}

function compareAdditional(
  cmp: Comparison,
  scope: Scope,
  fact: FactOf,
  old: ObjectSchema,
  next: ObjectSchema,
  pointer: string,
  at: string,
  mask: number,
  depth: number,
): void {
  const [a, b] = [old.additionalProperties, next.additionalProperties]
  const closed = (value: typeof a) => value === false
  if (!closed(a) && closed(b))
    return fact(
      'additional-properties-closed',
      'additional-properties-closed',
      'additionalProperties became false',
    )
  if (closed(a) && !closed(b))
    return fact(
      'additional-properties-opened',
      'additional-properties-opened',
      'additionalProperties is no longer false',
    )
  if (typeof a === 'object' && typeof b === 'object')
    compareSchemas(cmp, scope, a, b, `${pointer}/additionalProperties`, `${at}{}`, mask, depth + 1)
}

function compareDiscriminators(
  fact: FactOf,
  old: Discriminator | undefined,
  next: Discriminator | undefined,
): void {
  if (canonical(old) === canonical(next)) return
  fact(
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
function compareUnions(
  cmp: Comparison,
  scope: Scope,
  fact: FactOf,
  old: UnionSchema,
  next: UnionSchema,
  pointer: string,
  at: string,
  mask: number,
  depth: number,
): void {
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
    if (before)
      compareSchemas(
        cmp,
        scope,
        before,
        member,
        `${pointer}/${next.mode}/${index}`,
        at,
        mask,
        depth + 1,
      )
    else
      fact(
        'union-member-added',
        'union-member-added',
        `the alternative ${memberName(member)} was added`,
      )
  }
  for (const member of left)
    fact(
      'union-member-removed',
      'union-member-removed',
      `the alternative ${memberName(member)} was removed`,
    )
  compareDiscriminators(fact, old.discriminator, next.discriminator)
}

function memberKey(schema: Schema): string {
  return schema.kind === 'ref' ? `ref:${schema.refName}` : schema.kind
}

function memberName(schema: Schema): string {
  return schema.kind === 'ref' ? `\`${schema.refName}\`` : typeName(schema)
}
