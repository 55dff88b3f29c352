import { parseApi } from '../../parse-api.js'
import type { Changelog } from '../changelog.js'
import type { OasModel } from '../../model/index.js'
import type { PolicyOptions } from '../policies.js'
import { diffOas } from './diff-oas.js'

/** Test support: small OpenAPI 3.1 documents and their diff. */
export type Doc = Record<string, unknown>

export function api(parts: Doc = {}): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'Test', version: '1.0.0' },
    paths: {},
    ...parts,
  }
}

const ok = { description: 'ok' }

/** A document with one operation, `get /items` unless the method is given. */
export function withOperation(operation: Doc, extra: Doc = {}, method = 'get'): Doc {
  return api({
    paths: { '/items': { [method]: { responses: { '200': ok }, ...operation } } },
    ...extra,
  })
}

export async function model(doc: Doc | string): Promise<OasModel> {
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc)
  const { model } = await parseApi({ text }, { positions: false })
  if (model.protocol !== 'oas') throw new Error('not OpenAPI')
  return model
}

export async function diff(
  old: Doc | string,
  next: Doc | string,
  options: PolicyOptions = {},
): Promise<Changelog> {
  return diffOas(await model(old), await model(next), options)
}

export type SchemaPlacement = (schema: Doc, components?: Doc) => Doc

/** Puts a schema where each schema context reads it. */
export const PLACEMENTS = {
  'request-parameter': (schema, components = {}) =>
    withOperation(
      { parameters: [{ name: 'q', in: 'query', required: false, schema }] },
      { components },
    ),
  'request-body': (schema, components = {}) =>
    withOperation(
      { requestBody: { content: { 'application/json': { schema } } } },
      { components },
      'post',
    ),
  'response-body': (schema, components = {}) =>
    withOperation(
      { responses: { '200': { ...ok, content: { 'application/json': { schema } } } } },
      { components },
    ),
  'response-header': (schema, components = {}) =>
    withOperation(
      { responses: { '200': { ...ok, headers: { 'X-Thing': { schema } } } } },
      { components },
    ),
  'webhook-payload': (schema, components = {}) =>
    api({
      webhooks: {
        itemCreated: {
          post: {
            requestBody: { content: { 'application/json': { schema } } },
            responses: { '200': ok },
          },
        },
      },
      components,
    }),
} satisfies Record<string, SchemaPlacement>
