import type { Encoding, MediaType, RequestBody, Response } from '../model/operation.js'
import { setOwn } from '../model/own.js'
import type { Schema } from '../model/schema.js'
import { describeValue, isObject, type OasContext } from './context.js'
import { parseHeaders, readExamples } from './parameter.js'
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
  const example = readExamples(ctx, value, schema)
  if (example !== undefined) node.example = example
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

/** A request body object (inline, or under `components.requestBodies`). */
export function parseRequestBody(ctx: OasContext, value: unknown): RequestBody {
  if (!isObject(value))
    return ctx.fail(`Expected a request body object, got ${describeValue(value)}`)
  ctx.checkKeys(value, 'requestBody')
  if (value.required !== undefined && typeof value.required !== 'boolean') {
    ctx.fail(`"required" must be true or false, got ${describeValue(value.required)}`)
  }
  const node: Mutable<RequestBody> = {
    kind: 'requestBody',
    required: value.required === true,
    content: parseContent(ctx, value.content),
  }
  if (typeof value.description === 'string') node.description = value.description
  return Object.freeze(node)
}

/** A response object (inline under `responses`, or under `components.responses`). */
export function parseResponse(ctx: OasContext, value: unknown): Response {
  if (!isObject(value)) return ctx.fail(`Expected a response object, got ${describeValue(value)}`)
  ctx.checkKeys(value, 'response')
  return Object.freeze({
    kind: 'response',
    description: typeof value.description === 'string' ? value.description : '',
    headers: Object.freeze(parseHeaders(ctx, value.headers)),
    content: parseContent(ctx, value.content),
  })
}
