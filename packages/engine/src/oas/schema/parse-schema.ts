import { MAX_SCHEMA_DEPTH } from '../../input/limits.js'
import { OAS_ISSUES } from '../../issues/index.js'
import type {
  ArraySchema,
  BooleanSchema,
  IntegerSchema,
  NumberSchema,
  ObjectSchema,
  Schema,
  StringSchema,
  UnionSchema,
  UnknownSchema,
} from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'
import { parseAllOf } from './all-of.js'
import { annotate, type Mutable } from './annotations.js'
import { readConditions } from './applicators.js'
import { inferType } from './infer-type.js'
import { bareOf, readSchemaFields, type SchemaFields } from './schema-fields.js'
import { parseSchemaRef } from './schema-ref.js'
import { buildArray, buildNumeric, buildObject, buildString } from './type-builders.js'
import { readUnapplied } from './unapplied.js'
import { parseUnion } from './union.js'
import { nullableOf, readEnum } from './values.js'

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean'
const TYPES: ReadonlySet<string> = new Set([
  'object',
  'array',
  'string',
  'integer',
  'number',
  'boolean',
])

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
    return inferred ? parseTyped(ctx, f, inferred, depth) : parseUnknown(ctx, f, depth)
  }
  if (typeof type !== 'string' || !TYPES.has(type)) return failType(ctx, type)
  return parseTyped(ctx, f, type as SchemaType, depth)
}

function failType(ctx: OasContext, type: unknown): never {
  if (typeof type === 'string') return ctx.fail(`Unknown type "${type}"`)
  return ctx.fail(`"type" must name a type, got ${describeValue(type)}`)
}

function parseUnknown(ctx: OasContext, f: SchemaFields, depth: number): Schema {
  const nullable = nullableOf(ctx, f)
  if (nullable && ctx.dialect === '3.0') {
    ctx.report(
      OAS_ISSUES.invalidNullable,
      'nullable: true needs a type; without one the schema already accepts any value.',
      'nullable',
    )
  }
  const node: Mutable<UnknownSchema> = { kind: 'unknown', nullable }
  readUnapplied(f, node)
  readConditions(ctx, f, node, depth)
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
  if (rest.length === 0) return parseUnknown(ctx, fields, depth)
  if (rest.length === 1) return parseTyped(ctx, fields, rest[0]!, depth)
  const bare = bareOf(fields)
  // Each keyword holds for the members of its type: the others do not carry it as unapplied.
  const members = rest.map((type) => parseTyped(ctx, bare, type, depth, false))
  const node: Mutable<UnionSchema> = {
    kind: 'union',
    mode: 'anyOf',
    members: Object.freeze(members),
    nullable,
  }
  return annotate(ctx, fields, node)
}

function parseTyped(
  ctx: OasContext,
  f: SchemaFields,
  type: SchemaType,
  depth: number,
  keepUnapplied = true,
): Schema {
  const nullable = nullableOf(ctx, f)
  const kept = <N extends Mutable<Schema>>(node: N): N => {
    if (keepUnapplied) readUnapplied(f, node)
    return node
  }
  switch (type) {
    case 'object':
      return structured(ctx, f, kept(buildObject(ctx, f, nullable, depth)), depth)
    case 'array':
      return structured(ctx, f, kept(buildArray(ctx, f, nullable, depth)), depth)
    case 'string':
      return leaf(ctx, f, kept(buildString(ctx, f, nullable, depth)), depth)
    case 'integer':
    case 'number':
      return leaf(ctx, f, kept(buildNumeric(ctx, f, type, nullable)), depth)
    case 'boolean': {
      const node: Mutable<BooleanSchema> = { kind: 'boolean', nullable }
      const values = readEnum<boolean>(ctx, f.enum, 'boolean', nullable)
      if (values) node.enum = values
      return leaf(ctx, f, kept(node), depth)
    }
  }
}

function structured(
  ctx: OasContext,
  f: SchemaFields,
  node: Mutable<ObjectSchema | ArraySchema>,
  depth: number,
): Schema {
  readConditions(ctx, f, node, depth)
  return annotate(ctx, f, node)
}

/** A scalar schema; a plain one (type, format and nullable only) is the shared node for those. */
function leaf(
  ctx: OasContext,
  f: SchemaFields,
  node: Mutable<StringSchema | IntegerSchema | NumberSchema | BooleanSchema>,
  depth: number,
): Schema {
  if (!f.isPlain || node.unapplied) {
    readConditions(ctx, f, node, depth)
    return annotate(ctx, f, node)
  }
  const format = 'format' in node ? node.format : undefined
  return ctx.shared(
    `${node.kind}${node.nullable ? '?' : ''}${format === undefined ? '' : `:${format}`}`,
    () => node,
  )
}
