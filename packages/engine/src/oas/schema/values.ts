import { OAS_ISSUES } from '../../issues/index.js'
import type { Schema } from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'
import type { SchemaFields } from './schema-fields.js'

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
 * Where `value` first fails to conform to `schema` (its type, recursively through inline
 * properties and items, and enum membership), or undefined when it conforms. Refs are lazy and
 * accept anything. The answer reads `at [0].w: expected "integer", got the string "1367712000"`.
 */
export function mismatch(schema: Schema, value: unknown, at = '', depth = 0): string | undefined {
  const where = at === '' ? '' : `at ${at}: `
  if (value === null) {
    const accepts =
      schema.nullable ||
      schema.kind === 'unknown' ||
      schema.kind === 'ref' ||
      schema.kind === 'union'
    return accepts ? undefined : `${where}expected ${describeSchema(schema)}, got null`
  }
  if (!conformsShallow(schema.kind, value))
    return `${where}expected ${describeSchema(schema)}, got ${describeValue(value)}`
  if (depth > 32) return undefined
  switch (schema.kind) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      if (schema.enum === undefined || (schema.enum as readonly unknown[]).includes(value))
        return undefined
      return `${where}expected ${describeSchema(schema)}, got ${describeValue(value)}`
    case 'array': {
      const items = value as unknown[]
      for (let i = 0; i < items.length; i++) {
        const found = mismatch(schema.items, items[i], `${at}[${i}]`, depth + 1)
        if (found) return found
      }
      return undefined
    }
    case 'object': {
      const record = value as Record<string, unknown>
      for (const key in record) {
        const property = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined
        const found =
          property && mismatch(property, record[key], at === '' ? key : `${at}.${key}`, depth + 1)
        if (found) return found
      }
      return undefined
    }
    case 'union':
      return schema.members.some((member) => mismatch(member, value, at, depth + 1) === undefined)
        ? undefined
        : `${where}matches none of the ${schema.members.length} alternatives`
    default:
      return undefined
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
    ctx.report(
      OAS_ISSUES.invalidEnum,
      `Removed invalid enum: expected an array, got ${describeValue(values)}.`,
      'enum',
    )
    return undefined
  }
  if (values.length === 0) {
    ctx.report(OAS_ISSUES.invalidEnum, 'Removed invalid enum: it has no members.', 'enum')
    return undefined
  }
  for (const member of values) {
    if (member === null ? nullable : conformsShallow(kind, member)) continue
    const why =
      member === null ? 'null in an enum of a schema that is not nullable' : describeValue(member)
    ctx.report(
      OAS_ISSUES.invalidEnum,
      `Removed invalid enum. Expected "${expected(kind)}", got: ${why}.`,
      'enum',
    )
    return undefined
  }
  return Object.freeze(values as (T | null)[])
}

/** Drops a `default` that does not match the declared type (INVALID_DEFAULT). */
export function readDefault(ctx: OasContext, value: unknown, schema: Schema): unknown {
  if (value === undefined) return undefined
  if (value === null ? schema.nullable || !typed(schema) : conformsShallow(schema.kind, value))
    return value
  ctx.report(
    OAS_ISSUES.invalidDefault,
    `Removed invalid default. Expected "${expected(schema.kind)}", got: ${describeValue(value)}.`,
    'default',
  )
  return undefined
}

/** Drops an `example` that does not conform to the schema (INVALID_EXAMPLE). */
export function checkExample(
  ctx: OasContext,
  value: unknown,
  schema: Schema,
  segment: string,
): unknown {
  if (value === undefined) return undefined
  const problem = mismatch(schema, value)
  if (problem === undefined) return value
  ctx.report(OAS_ISSUES.invalidExample, `Removed invalid example: ${problem}.`, segment)
  return undefined
}

function typed(schema: Schema): boolean {
  return schema.kind !== 'unknown' && schema.kind !== 'ref' && schema.kind !== 'union'
}

function describeSchema(schema: Schema): string {
  if (
    (schema.kind === 'string' || schema.kind === 'integer' || schema.kind === 'number') &&
    schema.enum
  ) {
    return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`
  }
  return `"${expected(schema.kind)}"`
}

const INTEGER_FORMATS = new Set(['int32', 'int64'])
const NUMBER_FORMATS = new Set(['float', 'double'])

/** Whether the model represents this format on a number/integer (int32, int64, float, double). */
export function isNumericFormat(kind: 'integer' | 'number', format: unknown): format is string {
  const valid = kind === 'integer' ? INTEGER_FORMATS : NUMBER_FORMATS
  return typeof format === 'string' && valid.has(format)
}

/**
 * Keeps a number/integer format the model can represent; others are dropped (INVALID_FORMAT,
 * debug) and kept as written among the node's unapplied keywords.
 */
export function readNumericFormat(
  ctx: OasContext,
  format: unknown,
  kind: 'integer' | 'number',
): string | undefined {
  if (format === undefined) return undefined
  if (isNumericFormat(kind, format)) return format
  ctx.report(OAS_ISSUES.invalidFormat, `Invalid format: ${String(format)}.`, 'format')
  return undefined
}

export function nullableOf(ctx: OasContext, f: SchemaFields): boolean {
  return ctx.dialect === '3.0' ? readNullable(ctx, f.nullable) : f.nullable === true
}

/** A count (`minItems`, `maxContains` …): a non-negative integer, or the schema fails. */
export function readCount(ctx: OasContext, value: unknown, key: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    return ctx.fail(`"${key}" must be a non-negative integer, got ${describeValue(value)}`)
  }
  return value
}
