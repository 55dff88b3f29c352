import { setOwn } from '../../model/own.js'
import type {
  ArraySchema,
  Conditional,
  ObjectSchema,
  Schema,
  SchemaConditions,
  StringSchema,
} from '../../model/schema.js'
import { describeValue, isObject, type OasContext } from '../context.js'
import type { Mutable } from './annotations.js'
import type { SchemaFields } from './schema-fields.js'
import { readCount } from './values.js'

/**
 * JSON Schema 2020-12 keywords beyond OpenAPI 3.0's, read into the node being built. Only 3.1
 * documents get here with them (3.0 reports them as UNEXPECTED_PROPERTY), except `not`, which
 * both define. A malformed value fails the schema like any wrongly typed keyword.
 */

function subschema(ctx: OasContext, value: unknown, depth: number, ...at: string[]): Schema {
  for (const segment of at) ctx.push(segment)
  try {
    return ctx.schemas.schema(ctx, value, depth + 1)
  } finally {
    for (let i = 0; i < at.length; i++) ctx.pop()
  }
}

function schemaMap(
  ctx: OasContext,
  value: unknown,
  key: string,
  depth: number,
): Readonly<Record<string, Schema>> {
  if (!isObject(value)) return ctx.fail(`"${key}" must be an object, got ${describeValue(value)}`)
  const schemas: Record<string, Schema> = {}
  for (const name in value) setOwn(schemas, name, subschema(ctx, value[name], depth, key, name))
  return Object.freeze(schemas)
}

/** `true` constrains nothing (undefined); `false` stays `false`; anything else is a schema. */
function unevaluated(
  ctx: OasContext,
  value: unknown,
  key: string,
  depth: number,
): Schema | false | undefined {
  if (value === undefined || value === true) return undefined
  if (value === false) return false
  return subschema(ctx, value, depth, key)
}

/** `not` and `if`/`then`/`else`, which hold whatever the type. */
export function readConditions(
  ctx: OasContext,
  f: SchemaFields,
  node: Mutable<SchemaConditions>,
  depth: number,
): void {
  if (f.not !== undefined) node.not = subschema(ctx, f.not, depth, 'not')
  if (f.if === undefined) return
  const conditional: Mutable<Conditional> = { if: subschema(ctx, f.if, depth, 'if') }
  if (f.then !== undefined) conditional.then = subschema(ctx, f.then, depth, 'then')
  if (f.else !== undefined) conditional.else = subschema(ctx, f.else, depth, 'else')
  node.conditions = Object.freeze([Object.freeze(conditional)])
}

export function readArrayApplicators(
  ctx: OasContext,
  f: SchemaFields,
  node: Mutable<ArraySchema>,
  depth: number,
): void {
  const prefix = f.prefixItems
  if (prefix !== undefined) {
    if (!Array.isArray(prefix) || prefix.length === 0)
      ctx.fail(`"prefixItems" must be a non-empty array of schemas, got ${describeValue(prefix)}`)
    node.prefixItems = Object.freeze(
      prefix.map((value, index) => subschema(ctx, value, depth, 'prefixItems', String(index))),
    )
  }
  if (f.contains !== undefined) node.contains = subschema(ctx, f.contains, depth, 'contains')
  const minContains = readCount(ctx, f.minContains, 'minContains')
  if (minContains !== undefined) node.minContains = minContains
  const maxContains = readCount(ctx, f.maxContains, 'maxContains')
  if (maxContains !== undefined) node.maxContains = maxContains
  const items = unevaluated(ctx, f.unevaluatedItems, 'unevaluatedItems', depth)
  if (items !== undefined) node.unevaluatedItems = items
}

export function readObjectApplicators(
  ctx: OasContext,
  f: SchemaFields,
  node: Mutable<ObjectSchema>,
  depth: number,
): void {
  if (f.patternProperties !== undefined)
    node.patternProperties = schemaMap(ctx, f.patternProperties, 'patternProperties', depth)
  if (f.propertyNames !== undefined)
    node.propertyNames = subschema(ctx, f.propertyNames, depth, 'propertyNames')
  if (f.dependentRequired !== undefined)
    node.dependentRequired = readDependentRequired(ctx, f.dependentRequired)
  if (f.dependentSchemas !== undefined)
    node.dependentSchemas = schemaMap(ctx, f.dependentSchemas, 'dependentSchemas', depth)
  const properties = unevaluated(ctx, f.unevaluatedProperties, 'unevaluatedProperties', depth)
  if (properties !== undefined) node.unevaluatedProperties = properties
}

function readDependentRequired(
  ctx: OasContext,
  value: unknown,
): Readonly<Record<string, readonly string[]>> {
  const fail = () =>
    ctx.fail(
      `"dependentRequired" must map property names to arrays of property names, got ${describeValue(value)}`,
    )
  if (!isObject(value)) return fail()
  const dependencies: Record<string, readonly string[]> = {}
  for (const name in value) {
    const names = value[name]
    if (!Array.isArray(names) || !names.every((entry) => typeof entry === 'string')) fail()
    setOwn(dependencies, name, Object.freeze([...new Set(names as string[])]))
  }
  return Object.freeze(dependencies)
}

export function readContent(
  ctx: OasContext,
  f: SchemaFields,
  node: Mutable<StringSchema>,
  depth: number,
): void {
  for (const key of ['contentMediaType', 'contentEncoding'] as const) {
    const value = f[key]
    if (value === undefined) continue
    if (typeof value !== 'string')
      ctx.fail(`"${key}" must be a string, got ${describeValue(value)}`)
    node[key] = value
  }
  if (f.contentSchema !== undefined)
    node.contentSchema = subschema(ctx, f.contentSchema, depth, 'contentSchema')
}
