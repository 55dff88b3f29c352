import type { RequestBody, Response } from '../model/operation.js'
import { describeValue, isObject, type OasContext } from './context.js'
import { parseContent, parseHeaders } from './content.js'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

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
