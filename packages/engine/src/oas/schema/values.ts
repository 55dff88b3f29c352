import { OAS_ISSUES } from '../../issues/index.js'
import type { Schema } from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'

/** The JSON type a value must have for a schema kind; undefined when any value passes. */
function conformsShallow(kind: Schema['kind'], value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string'
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'array':
      return Array.isArray(value)
    case 'object':
      return isObject(value)
    case 'void':
      return false
    default:
      return true
  }
}

/** Expected-type wording for messages. */
function expected(kind: Schema['kind']): string {
  return kind === 'unknown' || kind === 'ref' || kind === 'union' ? 'a value' : kind
}

/**
 * Whether `value` conforms to `schema`: its type, recursively through inline properties and
 * items, and enum membership. Refs are not followed (they are lazy), so they accept anything.
 */
export function conforms(schema: Schema, value: unknown, depth = 0): boolean {
  if (value === null) return schema.nullable || schema.kind === 'unknown' || schema.kind === 'ref' || schema.kind === 'union'
  if (!conformsShallow(schema.kind, value)) return false
  if (depth > 32) return true
  switch (schema.kind) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return schema.enum === undefined || (schema.enum as readonly unknown[]).includes(value)
    case 'array':
      return (value as unknown[]).every((item) => conforms(schema.items, item, depth + 1))
    case 'object': {
      const record = value as Record<string, unknown>
      for (const key in record) {
        const property = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined
        if (property && !conforms(property, record[key], depth + 1)) return false
      }
      return true
    }
    case 'union':
      return schema.members.some((member) => conforms(member, value, depth + 1))
    default:
      return true
  }
}

/** `nullable` must be a boolean (3.0). Returns its value, false when absent or invalid. */
export function readNullable(ctx: OasContext, nullable: unknown): boolean {
  if (nullable === undefined) return false
  if (typeof nullable === 'boolean') return nullable
  ctx.report(
    OAS_ISSUES.invalidNullable,
    `Invalid nullable: expected true or false, got ${describeValue(nullable)}; ignored.`,
    'nullable',
  )
  return false
}

/**
 * Checks `enum` members against the schema kind; one bad member drops the whole enum (INVALID_ENUM).
 * A null member is kept when the schema is nullable.
 */
export function readEnum<T>(
  ctx: OasContext,
  values: unknown,
  kind: Schema['kind'],
  nullable: boolean,
): readonly (T | null)[] | undefined {
  if (values === undefined) return undefined
  if (!Array.isArray(values)) {
    ctx.report(OAS_ISSUES.invalidEnum, `Removed invalid enum: expected an array, got ${describeValue(values)}.`, 'enum')
    return undefined
  }
  if (values.length === 0) {
    ctx.report(OAS_ISSUES.invalidEnum, 'Removed invalid enum: it has no members.', 'enum')
    return undefined
  }
  for (const member of values) {
    if (member === null ? nullable : conformsShallow(kind, member)) continue
    const why = member === null ? 'null in an enum of a schema that is not nullable' : describeValue(member)
    ctx.report(OAS_ISSUES.invalidEnum, `Removed invalid enum. Expected "${expected(kind)}", got: ${why}.`, 'enum')
    return undefined
  }
  return Object.freeze(values as (T | null)[])
}

/** Drops a `default` that does not match the declared type (INVALID_DEFAULT). */
export function readDefault(ctx: OasContext, value: unknown, schema: Schema): unknown {
  if (value === undefined) return undefined
  if (value === null ? schema.nullable || !typed(schema) : conformsShallow(schema.kind, value)) return value
  ctx.report(
    OAS_ISSUES.invalidDefault,
    `Removed invalid default. Expected "${expected(schema.kind)}", got: ${describeValue(value)}.`,
    'default',
  )
  return undefined
}

/** Drops an `example` that does not conform to the schema (INVALID_EXAMPLE). */
export function checkExample(ctx: OasContext, value: unknown, schema: Schema, segment: string): unknown {
  if (value === undefined) return undefined
  if (conforms(schema, value)) return value
  ctx.report(
    OAS_ISSUES.invalidExample,
    `Removed invalid example. Expected ${describeSchema(schema)}, got: ${describeValue(value)}.`,
    segment,
  )
  return undefined
}

function typed(schema: Schema): boolean {
  return schema.kind !== 'unknown' && schema.kind !== 'ref' && schema.kind !== 'union'
}

function describeSchema(schema: Schema): string {
  if ((schema.kind === 'string' || schema.kind === 'integer' || schema.kind === 'number') && schema.enum) {
    return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`
  }
  return `"${expected(schema.kind)}"${schema.kind === 'object' || schema.kind === 'array' ? ' matching its schema' : ''}`
}

const INTEGER_FORMATS = new Set(['int32', 'int64'])
const NUMBER_FORMATS = new Set(['float', 'double'])

/** Keeps a number/integer format the model can represent; others are dropped (INVALID_FORMAT, debug). */
export function readNumericFormat(ctx: OasContext, format: unknown, kind: 'integer' | 'number'): string | undefined {
  if (format === undefined) return undefined
  const valid = kind === 'integer' ? INTEGER_FORMATS : NUMBER_FORMATS
  if (typeof format === 'string' && valid.has(format)) return format
  ctx.report(OAS_ISSUES.invalidFormat, `Invalid format: ${String(format)}.`, 'format')
  return undefined
}
