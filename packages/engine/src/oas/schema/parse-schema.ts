import { MAX_SCHEMA_DEPTH } from '../../input/limits.js'
import { OAS_ISSUES } from '../../issues/index.js'
import { setOwn } from '../../model/own.js'
import type {
  ArraySchema,
  BooleanSchema,
  Discriminator,
  IntegerSchema,
  NumberSchema,
  ObjectSchema,
  Schema,
  StringSchema,
  UnionSchema,
  UnknownSchema,
} from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'
import { AllOfCycleFailure, ParseFailure } from '../failures.js'
import { annotate, overlay, wrapperAnnotations, type Mutable } from './annotations.js'
import { inferType } from './infer-type.js'
import { mergeSchemas } from './merge.js'
import { readSchemaFields, type SchemaFields } from './schema-fields.js'
import { mergeResolver, parseSchemaRef } from './schema-ref.js'
import { readEnum, readNullable, readNumericFormat } from './values.js'

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean'
const TYPES: ReadonlySet<string> = new Set([
  'object',
  'array',
  'string',
  'integer',
  'number',
  'boolean',
])
const ANY: Schema = Object.freeze({ kind: 'unknown', nullable: true })

/**
 * Parses a schema at the current trail into the model. Refs to components stay lazy; `allOf` is
 * merged; problems that can be handled are logged, the rest throw to fail the enclosing unit.
 */
export function parseSchema(ctx: OasContext, value: unknown, depth = 0): Schema {
  if (depth > MAX_SCHEMA_DEPTH) ctx.fail(`Schema nesting exceeds ${MAX_SCHEMA_DEPTH} levels`)
  if (typeof value === 'boolean' && ctx.dialect === '3.1') {
    return Object.freeze(
      value ? { kind: 'unknown', nullable: true } : { kind: 'void', nullable: false },
    )
  }
  if (!isObject(value)) return ctx.fail(`Expected a schema object, got ${describeValue(value)}`)
  if (typeof value.$ref === 'string') return parseSchemaRef(ctx, value, depth)
  return parseFields(ctx, readSchemaFields(ctx, value), depth)
}

/** Everything after the keywords are read: composition first, then the (declared or inferred) type. */
export function parseFields(ctx: OasContext, f: SchemaFields, depth: number): Schema {
  if (depth > MAX_SCHEMA_DEPTH) ctx.fail(`Schema nesting exceeds ${MAX_SCHEMA_DEPTH} levels`)
  // While this schema is parsed its keyword record stays put; nested schemas use the next ones.
  ctx.fieldsDepth++
  try {
    return parseFieldsIn(ctx, f, depth)
  } finally {
    ctx.fieldsDepth--
  }
}

function parseFieldsIn(ctx: OasContext, f: SchemaFields, depth: number): Schema {
  if (f.allOf !== undefined) return parseAllOf(ctx, f, depth)
  if (f.oneOf !== undefined || f.anyOf !== undefined) return parseUnion(ctx, f, depth)
  const type = f.type
  if (Array.isArray(type)) return parseTypeArray(ctx, f, type, depth)
  if (type === 'null' && ctx.dialect === '3.1') return parseTypeArray(ctx, f, [type], depth)
  if (type === undefined) {
    const inferred = inferType(ctx, f)
    return inferred ? parseTyped(ctx, f, inferred, depth) : parseUnknown(ctx, f)
  }
  if (typeof type !== 'string' || !TYPES.has(type)) return failType(ctx, type)
  return parseTyped(ctx, f, type as SchemaType, depth)
}

function failType(ctx: OasContext, type: unknown): never {
  if (typeof type === 'string') return ctx.fail(`Unknown type "${type}"`)
  return ctx.fail(`"type" must name a type, got ${describeValue(type)}`)
}

function nullableOf(ctx: OasContext, f: SchemaFields): boolean {
  return ctx.dialect === '3.0' ? readNullable(ctx, f.nullable) : f.nullable === true
}

function parseUnknown(ctx: OasContext, f: SchemaFields): Schema {
  const nullable = nullableOf(ctx, f)
  if (nullable && ctx.dialect === '3.0') {
    ctx.report(
      OAS_ISSUES.invalidNullable,
      'nullable: true needs a type; without one the schema already accepts any value.',
      'nullable',
    )
  }
  const node: Mutable<UnknownSchema> = { kind: 'unknown', nullable }
  return annotate(ctx, f, node)
}

/** A 3.1 `type` array: `null` makes it nullable; several other types make a union. */
function parseTypeArray(ctx: OasContext, f: SchemaFields, types: unknown[], depth: number): Schema {
  for (const type of types)
    if (type !== 'null' && (typeof type !== 'string' || !TYPES.has(type))) failType(ctx, type)
  const nullable = types.includes('null')
  const rest = [...new Set(types.filter((type) => type !== 'null'))] as SchemaType[]
  const fields = f.without('type')
  fields.nullable = nullable
  if (rest.length === 0) return annotate(ctx, fields, { kind: 'unknown', nullable })
  if (rest.length === 1) return parseTyped(ctx, fields, rest[0]!, depth)
  const bare = bareOf(fields)
  const members = rest.map((type) => parseTyped(ctx, bare, type, depth))
  const node: Mutable<UnionSchema> = {
    kind: 'union',
    mode: 'anyOf',
    members: Object.freeze(members),
    nullable,
  }
  return annotate(ctx, fields, node)
}

function parseTyped(ctx: OasContext, f: SchemaFields, type: SchemaType, depth: number): Schema {
  const nullable = nullableOf(ctx, f)
  switch (type) {
    case 'object':
      return annotate(ctx, f, buildObject(ctx, f, nullable, depth))
    case 'array':
      return annotate(ctx, f, buildArray(ctx, f, nullable, depth))
    case 'string':
      return leaf(ctx, f, buildString(ctx, f, nullable))
    case 'integer':
    case 'number':
      return leaf(ctx, f, buildNumeric(ctx, f, type, nullable))
    case 'boolean': {
      const node: Mutable<BooleanSchema> = { kind: 'boolean', nullable }
      const values = readEnum<boolean>(ctx, f.enum, 'boolean', nullable)
      if (values) node.enum = values
      return leaf(ctx, f, node)
    }
  }
}

/** A scalar schema; a plain one (type, format and nullable only) is the shared node for those. */
function leaf(
  ctx: OasContext,
  f: SchemaFields,
  node: Mutable<StringSchema | IntegerSchema | NumberSchema | BooleanSchema>,
): Schema {
  if (!f.isPlain) return annotate(ctx, f, node)
  const format = 'format' in node ? node.format : undefined
  return ctx.shared(
    `${node.kind}${node.nullable ? '?' : ''}${format === undefined ? '' : `:${format}`}`,
    () => node,
  )
}

const NONE: readonly string[] = Object.freeze([])

function buildObject(
  ctx: OasContext,
  f: SchemaFields,
  nullable: boolean,
  depth: number,
): Mutable<ObjectSchema> {
  const properties: Record<string, Schema> = {}
  const raw = f.properties
  if (raw !== undefined) {
    if (!isObject(raw)) ctx.fail(`"properties" must be an object, got ${describeValue(raw)}`)
    ctx.push('properties')
    for (const name in raw) {
      ctx.push(name)
      setOwn(properties, name, parseSchema(ctx, raw[name], depth + 1))
      ctx.pop()
    }
    ctx.pop()
  }
  const node: Mutable<ObjectSchema> = {
    kind: 'object',
    nullable,
    properties: Object.freeze(properties),
    required: readRequired(ctx, f.required),
  }
  const extra = f.additionalProperties
  if (typeof extra === 'boolean') node.additionalProperties = extra
  else if (extra !== undefined) {
    ctx.push('additionalProperties')
    node.additionalProperties = parseSchema(ctx, extra, depth + 1)
    ctx.pop()
  }
  const minProperties = readCount(ctx, f.minProperties, 'minProperties')
  if (minProperties !== undefined) node.minProperties = minProperties
  const maxProperties = readCount(ctx, f.maxProperties, 'maxProperties')
  if (maxProperties !== undefined) node.maxProperties = maxProperties
  if (f.discriminator !== undefined) node.discriminator = readDiscriminator(ctx, f.discriminator)
  return node
}

function readRequired(ctx: OasContext, required: unknown): readonly string[] {
  if (required === undefined) return NONE
  const fail = () =>
    ctx.fail(`"required" must be an array of property names, got ${describeValue(required)}`)
  if (!Array.isArray(required)) return fail()
  for (const name of required) if (typeof name !== 'string') fail()
  const unique = new Set(required as string[])
  return Object.freeze(
    unique.size === required.length ? (required as string[]).slice() : [...unique],
  )
}

function buildArray(
  ctx: OasContext,
  f: SchemaFields,
  nullable: boolean,
  depth: number,
): Mutable<ArraySchema> {
  let items = ANY
  if (f.items === undefined) {
    ctx.report(
      OAS_ISSUES.arrayWithoutItems,
      'Array schema has no "items"; treating its items as unknown values.',
    )
  } else {
    ctx.push('items')
    items = parseSchema(ctx, f.items, depth + 1)
    ctx.pop()
  }
  const node: Mutable<ArraySchema> = { kind: 'array', nullable, items }
  const minItems = readCount(ctx, f.minItems, 'minItems')
  if (minItems !== undefined) node.minItems = minItems
  const maxItems = readCount(ctx, f.maxItems, 'maxItems')
  if (maxItems !== undefined) node.maxItems = maxItems
  if (f.uniqueItems !== undefined) {
    if (typeof f.uniqueItems !== 'boolean')
      ctx.fail(`"uniqueItems" must be a boolean, got ${describeValue(f.uniqueItems)}`)
    if (f.uniqueItems) node.uniqueItems = true
  }
  return node
}

function buildString(ctx: OasContext, f: SchemaFields, nullable: boolean): Mutable<StringSchema> {
  const node: Mutable<StringSchema> = { kind: 'string', nullable }
  if (f.format !== undefined) {
    if (typeof f.format !== 'string')
      ctx.fail(`"format" must be a string, got ${describeValue(f.format)}`)
    node.format = f.format
  }
  if (f.pattern !== undefined) {
    if (typeof f.pattern !== 'string')
      ctx.fail(`"pattern" must be a string, got ${describeValue(f.pattern)}`)
    node.pattern = f.pattern
  }
  const minLength = readCount(ctx, f.minLength, 'minLength')
  if (minLength !== undefined) node.minLength = minLength
  const maxLength = readCount(ctx, f.maxLength, 'maxLength')
  if (maxLength !== undefined) node.maxLength = maxLength
  const values = readEnum<string>(ctx, f.enum, 'string', nullable)
  if (values) node.enum = values
  return node
}

function buildNumeric(
  ctx: OasContext,
  f: SchemaFields,
  kind: 'integer' | 'number',
  nullable: boolean,
): Mutable<IntegerSchema | NumberSchema> {
  const node = { kind, nullable } as Mutable<IntegerSchema | NumberSchema>
  const format = readNumericFormat(ctx, f.format, kind)
  if (format !== undefined) node.format = format
  const minimum = readNumber(ctx, f.minimum, 'minimum')
  const maximum = readNumber(ctx, f.maximum, 'maximum')
  // 3.0 spells an exclusive bound as a boolean beside minimum/maximum; the model keeps 3.1's numbers.
  const exclusiveMinimum = readExclusive(ctx, f.exclusiveMinimum, 'exclusiveMinimum', minimum)
  const exclusiveMaximum = readExclusive(ctx, f.exclusiveMaximum, 'exclusiveMaximum', maximum)
  if (minimum !== undefined && exclusiveMinimum !== minimum) node.minimum = minimum
  if (maximum !== undefined && exclusiveMaximum !== maximum) node.maximum = maximum
  if (exclusiveMinimum !== undefined) node.exclusiveMinimum = exclusiveMinimum
  if (exclusiveMaximum !== undefined) node.exclusiveMaximum = exclusiveMaximum
  const multipleOf = readNumber(ctx, f.multipleOf, 'multipleOf')
  if (multipleOf !== undefined) {
    if (multipleOf <= 0) ctx.fail(`"multipleOf" must be above 0, got ${multipleOf}`)
    node.multipleOf = multipleOf
  }
  const values = readEnum<number>(ctx, f.enum, kind, nullable)
  if (values) node.enum = values
  return node
}

function readNumber(ctx: OasContext, value: unknown, key: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value))
    return ctx.fail(`"${key}" must be a number, got ${describeValue(value)}`)
  return value
}

function readExclusive(
  ctx: OasContext,
  value: unknown,
  key: string,
  bound: number | undefined,
): number | undefined {
  if (value === undefined || value === false) return undefined
  if (value === true) return bound
  return readNumber(ctx, value, key)
}

function readCount(ctx: OasContext, value: unknown, key: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    return ctx.fail(`"${key}" must be a non-negative integer, got ${describeValue(value)}`)
  }
  return value
}

export function readDiscriminator(ctx: OasContext, value: unknown): Discriminator {
  if (!isObject(value) || typeof value.propertyName !== 'string') {
    return ctx.fail(
      `"discriminator" must be an object with a string propertyName, got ${describeValue(value)}`,
    )
  }
  ctx.push('discriminator')
  ctx.checkKeys(value, 'discriminator')
  ctx.pop()
  const mapping = value.mapping
  if (mapping === undefined) return Object.freeze({ propertyName: value.propertyName })
  if (!isObject(mapping) || !Object.values(mapping).every((ref) => typeof ref === 'string')) {
    return ctx.fail(
      `"discriminator.mapping" must map values to schema names or refs, got ${describeValue(mapping)}`,
    )
  }
  return Object.freeze({
    propertyName: value.propertyName,
    mapping: Object.freeze({ ...(mapping as Record<string, string>) }),
  })
}

/**
 * `allOf`: one structural member (a `$ref` with a description or `nullable`, say) stays that
 * member with the wrapper's annotations, so a ref stays lazy; several are merged eagerly.
 */
function parseAllOf(ctx: OasContext, f: SchemaFields, depth: number): Schema {
  const list = f.allOf
  if (!Array.isArray(list)) return ctx.fail(`"allOf" must be an array, got ${describeValue(list)}`)
  const rest = f.without('allOf')
  ctx.push('allOf')
  const members: { index: number; schema: Schema }[] = []
  list.forEach((value, index) => {
    ctx.push(String(index))
    if (isObject(value) && typeof value.$ref !== 'string') {
      const fields = readSchemaFields(ctx, value)
      // A member with annotations only (a description, say) constrains nothing.
      if (
        fields.constraints > 0 ||
        fields.oneOf !== undefined ||
        fields.anyOf !== undefined ||
        fields.allOf !== undefined
      ) {
        members.push({ index, schema: parseFields(ctx, fields, depth + 1) })
      } else {
        rest.title ??= fields.title
        rest.description ??= fields.description
      }
    } else {
      members.push({ index, schema: parseSchema(ctx, value, depth + 1) })
    }
    ctx.pop()
  })
  ctx.pop()
  const restIsStructural =
    rest.constraints > 0 || rest.oneOf !== undefined || rest.anyOf !== undefined
  if (members.length === 0) return parseFields(ctx, rest, depth)
  const nullable = nullableOf(ctx, rest)
  if (members.length === 1 && !restIsStructural) {
    const only = members[0]!.schema
    return overlay(only, wrapperAnnotations(rest, only, nullable))
  }
  const parsed = members.map((member) => member.schema)
  if (restIsStructural) parsed.push(parseFields(ctx, bareOf(rest), depth))
  const resolve = mergeResolver(ctx)
  let merged = resolve(parsed[0]!)
  for (let i = 1; i < parsed.length; i++) {
    ctx.push('allOf')
    ctx.push(String(members[i]?.index ?? list.length))
    try {
      merged = mergeSchemas(merged, parsed[i]!, resolve)
    } catch (error) {
      // A merge conflict knows what clashed but not where: it happened at this member.
      if (error instanceof ParseFailure && !(error instanceof AllOfCycleFailure) && !error.at)
        ctx.fail(error.message)
      throw error
    } finally {
      ctx.pop()
      ctx.pop()
    }
  }
  const node = { ...merged } as Mutable<Schema>
  if (nullable) node.nullable = true
  if (rest.discriminator !== undefined && node.kind === 'object')
    node.discriminator = readDiscriminator(ctx, rest.discriminator)
  delete node.default
  delete node.example
  return annotate(ctx, rest, node)
}

/** The keywords of a schema without its annotations: what a wrapper adds to every member. */
export function bareOf(f: SchemaFields): SchemaFields {
  const bare = f.without(
    'title',
    'description',
    'default',
    'example',
    'examples',
    'deprecated',
    'readOnly',
    'writeOnly',
    'nullable',
    'discriminator',
  )
  bare.extensions = undefined
  return bare
}

function parseUnion(ctx: OasContext, f: SchemaFields, depth: number): Schema {
  let nullable = nullableOf(ctx, f)
  const groups: Schema[][] = []
  for (const mode of ['oneOf', 'anyOf'] as const) {
    const list = f[mode]
    if (list === undefined) continue
    if (!Array.isArray(list))
      return ctx.fail(`"${mode}" must be an array, got ${describeValue(list)}`)
    if (list.length === 0) return ctx.fail(`"${mode}" array is empty`)
    ctx.push(mode)
    const members: Schema[] = []
    list.forEach((value, index) => {
      if (
        ctx.dialect === '3.1' &&
        isObject(value) &&
        value.type === 'null' &&
        Object.keys(value).length === 1
      ) {
        nullable = true
        return
      }
      ctx.push(String(index))
      members.push(parseMember(ctx, f, value, depth + 1))
      ctx.pop()
    })
    ctx.pop()
    groups.push(members)
  }
  // Keywords beside oneOf/anyOf other than `type` (properties, required …) hold for every member.
  const sharedFields = f.without('oneOf', 'anyOf', 'type')
  const shared =
    sharedFields.constraints > 0
      ? parseFields(ctx, bareOf(withType(sharedFields, f.type)), depth)
      : undefined
  const resolve = mergeResolver(ctx)
  const unions = groups.map((members) =>
    toUnion(
      shared ? members.map((member) => mergeSchemas(member, shared, resolve)) : members,
      f.oneOf !== undefined ? 'oneOf' : 'anyOf',
      nullable,
    ),
  )
  let node = unions[0]!
  if (unions.length > 1) node = mergeSchemas(node, unions[1]!, resolve)
  if (node.kind === 'union') {
    const union = { ...node } as Mutable<UnionSchema>
    if (f.discriminator !== undefined) union.discriminator = readDiscriminator(ctx, f.discriminator)
    return annotate(ctx, f, union)
  }
  return overlay(node, wrapperAnnotations(f, node, nullable))
}

function withType(fields: SchemaFields, type: unknown): SchemaFields {
  if (typeof type === 'string') fields.type = type
  return fields
}

/** An inline member without a type takes the wrapper's `type` (`type: string, oneOf: [{enum}, …]`). */
function parseMember(
  ctx: OasContext,
  wrapper: SchemaFields,
  value: unknown,
  depth: number,
): Schema {
  if (typeof wrapper.type !== 'string' || !isObject(value) || typeof value.$ref === 'string')
    return parseSchema(ctx, value, depth)
  const fields = readSchemaFields(ctx, value)
  if (
    fields.type === undefined &&
    fields.allOf === undefined &&
    fields.oneOf === undefined &&
    fields.anyOf === undefined
  ) {
    fields.type = wrapper.type
  }
  return parseFields(ctx, fields, depth)
}

function toUnion(members: Schema[], mode: 'oneOf' | 'anyOf', nullable: boolean): Schema {
  if (members.length === 1)
    return overlay(members[0]!, { nullable: nullable || members[0]!.nullable })
  return Object.freeze({ kind: 'union', mode, members: Object.freeze(members), nullable })
}
