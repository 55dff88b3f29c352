import { OAS_ISSUES } from '../../issues/index.js'
import { setOwn } from '../../model/own.js'
import type {
  ArraySchema,
  Discriminator,
  IntegerSchema,
  NumberSchema,
  ObjectSchema,
  Schema,
  StringSchema,
} from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'
import type { Mutable } from './annotations.js'
import { readArrayApplicators, readContent, readObjectApplicators } from './applicators.js'
import type { SchemaFields } from './schema-fields.js'
import { readCount, readEnum, readNumericFormat } from './values.js'

const ANY: Schema = Object.freeze({ kind: 'unknown', nullable: true })
const NONE: readonly string[] = Object.freeze([])

export function buildObject(
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
      setOwn(properties, name, ctx.schemas.schema(ctx, raw[name], depth + 1))
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
    node.additionalProperties = ctx.schemas.schema(ctx, extra, depth + 1)
    ctx.pop()
  }
  const minProperties = readCount(ctx, f.minProperties, 'minProperties')
  if (minProperties !== undefined) node.minProperties = minProperties
  const maxProperties = readCount(ctx, f.maxProperties, 'maxProperties')
  if (maxProperties !== undefined) node.maxProperties = maxProperties
  if (f.discriminator !== undefined) node.discriminator = readDiscriminator(ctx, f.discriminator)
  readObjectApplicators(ctx, f, node, depth)
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

export function buildArray(
  ctx: OasContext,
  f: SchemaFields,
  nullable: boolean,
  depth: number,
): Mutable<ArraySchema> {
  let items = ANY
  // With `prefixItems`, `items` only speaks of the items after them: leaving it out is normal.
  if (f.items === undefined) {
    if (f.prefixItems === undefined)
      ctx.report(
        OAS_ISSUES.arrayWithoutItems,
        'Array schema has no "items"; treating its items as unknown values.',
      )
  } else {
    ctx.push('items')
    items = ctx.schemas.schema(ctx, f.items, depth + 1)
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
  readArrayApplicators(ctx, f, node, depth)
  return node
}

export function buildString(
  ctx: OasContext,
  f: SchemaFields,
  nullable: boolean,
  depth: number,
): Mutable<StringSchema> {
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
  readContent(ctx, f, node, depth)
  return node
}

export function buildNumeric(
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
