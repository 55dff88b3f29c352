import { OAS_ISSUES } from '../issues/index.js'
import type { ComponentRef, Header, Parameter, ParameterLocation } from '../model/operation.js'
import { setOwn } from '../model/own.js'
import type { Schema } from '../model/schema.js'
import { parseMaybeRef } from './component-ref.js'
import { describeValue, isObject, type OasContext, type RawObject } from './context.js'
import type { ObjectKind } from './keys.js'
import { parseContent } from './media-type.js'
import { parseSchema } from './schema/parse-schema.js'
import { checkExample } from './schema/values.js'

const LOCATIONS: ReadonlySet<string> = new Set(['path', 'query', 'header', 'cookie'])
const UNKNOWN: Schema = Object.freeze({ kind: 'unknown', nullable: true })

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** A parameter object (inline in an operation, or under `components.parameters`). */
export function parseParameter(ctx: OasContext, value: unknown): Parameter {
  const raw = expectObject(ctx, value, 'parameter')
  if (typeof raw.name !== 'string' || raw.name === '')
    return ctx.fail(`Parameter needs a "name", got ${describeValue(raw.name)}`)
  if (typeof raw.in !== 'string' || !LOCATIONS.has(raw.in)) {
    return ctx.fail(
      `Parameter "${raw.name}" has "in" ${describeValue(raw.in)}; expected path, query, header or cookie`,
    )
  }
  const location = raw.in as ParameterLocation
  const fields = parseParameterFields(ctx, raw, 'parameter', location === 'path')
  const node: Mutable<Parameter> = { kind: 'parameter', name: raw.name, in: location, ...fields }
  return Object.freeze(node)
}

/** A header object: a parameter without `name` and `in`. */
export function parseHeader(ctx: OasContext, value: unknown): Header {
  const raw = expectObject(ctx, value, 'header')
  const { required, deprecated, description, schema } = parseParameterFields(
    ctx,
    raw,
    'header',
    false,
  )
  const node: Mutable<Header> = { kind: 'header', required, deprecated, schema }
  if (description !== undefined) node.description = description
  return Object.freeze(node)
}

/** `headers` of a response or an encoding: name → header or `$ref`. */
export function parseHeaders(
  ctx: OasContext,
  value: unknown,
): Record<string, Header | ComponentRef<'headers'>> {
  if (value === undefined) return {}
  if (!isObject(value)) return ctx.fail(`"headers" must be an object, got ${describeValue(value)}`)
  const headers: Record<string, Header | ComponentRef<'headers'>> = {}
  ctx.push('headers')
  for (const name in value) {
    ctx.push(name)
    setOwn(
      headers,
      name,
      parseMaybeRef(ctx, value[name], 'headers', (raw) => parseHeader(ctx, raw)),
    )
    ctx.pop()
  }
  ctx.pop()
  return headers
}

function expectObject(ctx: OasContext, value: unknown, what: string): RawObject {
  if (!isObject(value)) return ctx.fail(`Expected a ${what} object, got ${describeValue(value)}`)
  return value
}

type ParameterFields = Omit<Parameter, 'kind' | 'name' | 'in'>

function parseParameterFields(
  ctx: OasContext,
  raw: RawObject,
  kind: ObjectKind,
  isPath: boolean,
): ParameterFields {
  ctx.checkKeys(raw, kind)
  const required = readBoolean(ctx, raw, 'required') ?? isPath
  const fields: Mutable<ParameterFields> = {
    required,
    deprecated: readBoolean(ctx, raw, 'deprecated') ?? false,
    schema: UNKNOWN,
  }
  if (typeof raw.description === 'string') fields.description = raw.description
  if (raw.schema !== undefined) {
    ctx.push('schema')
    fields.schema = parseSchema(ctx, raw.schema)
    ctx.pop()
  } else if (raw.content !== undefined) {
    const [entry] = Object.entries(parseContent(ctx, raw.content))
    if (entry) {
      fields.mediaType = entry[0]
      fields.schema = entry[1].schema
    }
  }
  if (typeof raw.style === 'string') fields.style = raw.style
  const explode = readBoolean(ctx, raw, 'explode')
  if (explode !== undefined) fields.explode = explode
  const allowEmptyValue = readBoolean(ctx, raw, 'allowEmptyValue')
  if (allowEmptyValue !== undefined) fields.allowEmptyValue = allowEmptyValue
  const allowReserved = readBoolean(ctx, raw, 'allowReserved')
  if (allowReserved !== undefined) fields.allowReserved = allowReserved
  const example = readExamples(ctx, raw, fields.schema)
  if (example !== undefined) fields.example = example
  return fields
}

function readBoolean(ctx: OasContext, raw: RawObject, key: string): boolean | undefined {
  const value = raw[key]
  if (value === undefined) return undefined
  if (typeof value !== 'boolean')
    return ctx.fail(`"${key}" must be true or false, got ${describeValue(value)}`)
  return value
}

/**
 * The singular `example` of a parameter, header or media type, checked against its schema; both
 * `example` and `examples` on one node is EXAMPLE_AND_EXAMPLES_DEFINED and `example` wins.
 */
export function readExamples(ctx: OasContext, raw: RawObject, schema: Schema): unknown {
  if (raw.examples !== undefined) {
    if (!isObject(raw.examples))
      ctx.fail(`"examples" must be a map of example objects, got ${describeValue(raw.examples)}`)
    ctx.push('examples')
    for (const name in raw.examples) {
      const example = raw.examples[name]
      ctx.push(name)
      if (isObject(example) && typeof example.$ref !== 'string') ctx.checkKeys(example, 'example')
      ctx.pop()
    }
    ctx.pop()
  }
  if (raw.example === undefined) return undefined
  if (raw.examples !== undefined) {
    ctx.report(
      OAS_ISSUES.exampleAndExamples,
      'Both example and examples are defined; using example.',
      'example',
    )
  }
  return checkExample(ctx, raw.example, schema, 'example')
}
