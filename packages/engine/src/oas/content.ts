// Content maps, headers and parameter fields recurse into each other (a header carries content,
// whose encodings carry headers), so they live in one module.
import type { ComponentRef, Encoding, Header, MediaType, Parameter } from '../model/operation.js'
import { setOwn } from '../model/own.js'
import type { Schema } from '../model/schema.js'
import { parseMaybeRef } from './component-ref.js'
import { describeValue, isObject, type OasContext, type RawObject } from './context.js'
import { namedExamples, readExamples } from './examples.js'
import type { ObjectKind } from './keys.js'
import { parseSchema } from './schema/parse-schema.js'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const ANY: Schema = Object.freeze({ kind: 'unknown', nullable: true })

/** `content`: media type → schema, example and encoding. */
export function parseContent(ctx: OasContext, value: unknown): Record<string, MediaType> {
  if (value === undefined) return {}
  if (!isObject(value)) return ctx.fail(`"content" must be an object, got ${describeValue(value)}`)
  const content: Record<string, MediaType> = {}
  ctx.push('content')
  for (const mediaType in value) {
    ctx.push(mediaType)
    setOwn(content, mediaType, parseMediaType(ctx, value[mediaType]))
    ctx.pop()
  }
  ctx.pop()
  return Object.freeze(content)
}

function parseMediaType(ctx: OasContext, value: unknown): MediaType {
  if (!isObject(value)) return ctx.fail(`Expected a media type object, got ${describeValue(value)}`)
  ctx.checkKeys(value, 'mediaType')
  let schema = ANY
  if (value.schema !== undefined) {
    ctx.push('schema')
    schema = parseSchema(ctx, value.schema)
    ctx.pop()
  }
  const node: Mutable<MediaType> = { schema }
  if (value.schema === undefined) node.schemaOmitted = true
  const example = readExamples(ctx, value, schema)
  if (example !== undefined) node.example = example
  const examples = namedExamples(ctx, value)
  if (examples) node.examples = examples
  if (value.encoding !== undefined) node.encoding = parseEncodings(ctx, value.encoding)
  return Object.freeze(node)
}

function parseEncodings(ctx: OasContext, value: unknown): Record<string, Encoding> {
  if (!isObject(value)) return ctx.fail(`"encoding" must be an object, got ${describeValue(value)}`)
  const encodings: Record<string, Encoding> = {}
  ctx.push('encoding')
  for (const property in value) {
    const raw = value[property]
    ctx.push(property)
    if (!isObject(raw)) ctx.fail(`Expected an encoding object, got ${describeValue(raw)}`)
    ctx.checkKeys(raw, 'encoding')
    const encoding: Mutable<Encoding> = {}
    if (typeof raw.contentType === 'string') encoding.contentType = raw.contentType
    if (typeof raw.style === 'string') encoding.style = raw.style
    if (typeof raw.explode === 'boolean') encoding.explode = raw.explode
    if (typeof raw.allowReserved === 'boolean') encoding.allowReserved = raw.allowReserved
    if (raw.headers !== undefined) encoding.headers = Object.freeze(parseHeaders(ctx, raw.headers))
    setOwn(encodings, property, Object.freeze(encoding))
    ctx.pop()
  }
  ctx.pop()
  return Object.freeze(encodings)
}

/** A header object: a parameter without `name` and `in`. */
export function parseHeader(ctx: OasContext, value: unknown): Header {
  const raw = expectObject(ctx, value, 'header')
  const {
    required,
    deprecated,
    description,
    schema,
    style,
    explode,
    example,
    examples,
    extensions,
  } = parseParameterFields(ctx, raw, 'header', false)
  const node: Mutable<Header> = { kind: 'header', required, deprecated, schema }
  if (description !== undefined) node.description = description
  if (style !== undefined) node.style = style
  if (explode !== undefined) node.explode = explode
  if (extensions) node.extensions = extensions
  if (example !== undefined) node.example = example
  if (examples) node.examples = examples
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

export function expectObject(ctx: OasContext, value: unknown, what: string): RawObject {
  if (!isObject(value)) return ctx.fail(`Expected a ${what} object, got ${describeValue(value)}`)
  return value
}

type ParameterFields = Omit<Parameter, 'kind' | 'name' | 'in'>

/** What a parameter and a header share: `required`, `schema` or `content`, `style`, examples … */
export function parseParameterFields(
  ctx: OasContext,
  raw: RawObject,
  kind: ObjectKind,
  isPath: boolean,
): ParameterFields {
  const extensions = ctx.checkKeys(raw, kind)
  const required = readBoolean(ctx, raw, 'required') ?? isPath
  const fields: Mutable<ParameterFields> = {
    required,
    deprecated: readBoolean(ctx, raw, 'deprecated') ?? false,
    schema: ANY,
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
  if (extensions) fields.extensions = Object.freeze(extensions)
  const examples = namedExamples(ctx, raw)
  if (examples) fields.examples = examples
  return fields
}

function readBoolean(ctx: OasContext, raw: RawObject, key: string): boolean | undefined {
  const value = raw[key]
  if (value === undefined) return undefined
  if (typeof value !== 'boolean')
    return ctx.fail(`"${key}" must be true or false, got ${describeValue(value)}`)
  return value
}
