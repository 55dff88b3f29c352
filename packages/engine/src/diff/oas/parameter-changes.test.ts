import { describe, expect, it } from 'vitest'
import { diff, type Doc } from './test-documents.js'

/** Parameter, header and default changes, on each OpenAPI version that has the feature. */

const ok = { description: 'ok' }

function openapi(version: '3.0.3' | '3.1.0', operation: Doc, components: Doc = {}): Doc {
  return {
    openapi: version,
    info: { title: 'Test', version: '1.0.0' },
    paths: { '/items': { get: { responses: { '200': ok }, ...operation } } },
    components,
  }
}

function swagger(operation: Doc, extra: Doc = {}): Doc {
  return {
    swagger: '2.0',
    info: { title: 'Test', version: '1.0.0' },
    paths: { '/items/{ids}': { get: { responses: { '200': ok }, ...operation } } },
    ...extra,
  }
}

async function found(old: Doc, next: Doc) {
  const { changes } = await diff(old, next)
  return changes.map(({ id, level, location }) => ({ id, level, location }))
}

const VERSIONS = ['3.0.3', '3.1.0'] as const

describe('allowEmptyValue of a query parameter', () => {
  const query = (extra: Doc = {}) => ({
    name: 'q',
    in: 'query',
    schema: { type: 'string' },
    ...extra,
  })
  const at = '/paths/~1items/get/parameters/query/q'

  it.each(VERSIONS)('%s: cleared is breaking (a client that sends ?q= is rejected)', async (v) => {
    const old = openapi(v, { parameters: [query({ allowEmptyValue: true })] })
    expect(await found(old, openapi(v, { parameters: [query()] }))).toEqual([
      { id: 'request-parameter-allow-empty-value-cleared', level: 'breaking', location: at },
    ])
    const explicit = openapi(v, { parameters: [query({ allowEmptyValue: false })] })
    expect((await found(old, explicit)).map(({ id }) => id)).toEqual([
      'request-parameter-allow-empty-value-cleared',
    ])
  })

  it.each(VERSIONS)('%s: set is info', async (v) => {
    const old = openapi(v, { parameters: [query()] })
    const next = openapi(v, { parameters: [query({ allowEmptyValue: true })] })
    expect(await found(old, next)).toEqual([
      { id: 'request-parameter-allow-empty-value-set', level: 'info', location: at },
    ])
  })

  it('2.0: judged on the query parameter as written', async () => {
    const q = (extra: Doc = {}) => ({ name: 'q', in: 'query', type: 'string', ...extra })
    const path = { name: 'ids', in: 'path', required: true, type: 'string' }
    const old = swagger({ parameters: [path, q({ allowEmptyValue: true })] })
    const next = swagger({ parameters: [path, q()] })
    const location = '/paths/~1items~1{ids}/get/parameters/query/q'
    expect(await found(old, next)).toEqual([
      { id: 'request-parameter-allow-empty-value-cleared', level: 'breaking', location },
    ])
    expect(await found(next, old)).toEqual([
      { id: 'request-parameter-allow-empty-value-set', level: 'info', location },
    ])
  })

  it('means nothing outside a query, so a header parameter is not judged', async () => {
    const header = (extra: Doc = {}) => ({
      name: 'X-Q',
      in: 'header',
      schema: { type: 'string' },
      ...extra,
    })
    const old = openapi('3.0.3', { parameters: [header({ allowEmptyValue: true })] })
    expect(await found(old, openapi('3.0.3', { parameters: [header()] }))).toEqual([])
  })
})

describe('style and explode of a response header', () => {
  const withHeader = (v: (typeof VERSIONS)[number], header: Doc, components: Doc = {}) =>
    openapi(v, { responses: { '200': { ...ok, headers: { 'X-Page': header } } } }, components)
  const object = { type: 'object', properties: { next: { type: 'string' } } }
  const at = '/paths/~1items/get/responses/200/headers/X-Page'

  it.each(VERSIONS)('%s: explode of an object value is breaking, either way', async (v) => {
    const plain = withHeader(v, { schema: object })
    const exploded = withHeader(v, { schema: object, explode: true })
    const expected = [{ id: 'response-header-style-changed', level: 'breaking', location: at }]
    expect(await found(plain, exploded)).toEqual(expected)
    expect(await found(exploded, plain)).toEqual(expected)
  })

  it.each(VERSIONS)('%s: explode of a scalar or an array is info', async (v) => {
    for (const schema of [{ type: 'integer' }, { type: 'array', items: { type: 'string' } }]) {
      const plain = withHeader(v, { schema, explode: false })
      const exploded = withHeader(v, { schema, explode: true })
      const expected = [{ id: 'response-header-explode-changed', level: 'info', location: at }]
      expect(await found(plain, exploded)).toEqual(expected)
      expect(await found(exploded, plain)).toEqual(expected)
    }
  })

  it.each(VERSIONS)('%s: follows a schema ref to see an object', async (v) => {
    const components = { schemas: { Page: object } }
    const ref = { $ref: '#/components/schemas/Page' }
    const old = withHeader(v, { schema: ref }, components)
    const next = withHeader(v, { schema: ref, explode: true }, components)
    expect((await found(old, next)).map(({ id }) => id)).toEqual(['response-header-style-changed'])
  })

  it.each(VERSIONS)('%s: writing out the defaults is no change', async (v) => {
    const old = withHeader(v, { schema: object })
    const next = withHeader(v, { schema: object, style: 'simple', explode: false })
    expect(await found(old, next)).toEqual([])
  })

  it('is judged in a shared header component', async () => {
    const doc = (header: Doc) =>
      openapi(
        '3.0.3',
        {
          responses: {
            '200': { ...ok, headers: { 'X-Page': { $ref: '#/components/headers/Page' } } },
          },
        },
        { headers: { Page: header } },
      )
    const changes = await found(doc({ schema: object }), doc({ schema: object, explode: true }))
    expect(changes).toEqual([
      {
        id: 'response-header-style-changed',
        level: 'breaking',
        location: '/components/headers/Page',
      },
    ])
  })
})

describe('collectionFormat of a Swagger 2.0 array', () => {
  const array = (name: string, place: string, collectionFormat?: string) => ({
    name,
    in: place,
    ...(place === 'path' ? { required: true } : {}),
    type: 'array',
    items: { type: 'string' },
    ...(collectionFormat ? { collectionFormat } : {}),
  })
  const base = '/paths/~1items~1{ids}/get'

  it.each([
    ['header', 'X-Ids', 'csv', 'pipes'],
    ['header', 'X-Ids', 'pipes', 'ssv'],
    ['path', 'ids', undefined, 'ssv'],
    ['query', 'ids', 'multi', 'tsv'],
  ])('a %s parameter %s from %s to %s is a style change', async (place, name, from, to) => {
    const path = array('ids', 'path')
    const others = place === 'path' ? [] : [path]
    const old = swagger({ parameters: [...others, array(name, place, from)] })
    const next = swagger({ parameters: [...others, array(name, place, to)] })
    const location = `${base}/parameters/${place}/${name}`
    const expected = [{ id: 'request-parameter-style-changed', level: 'breaking', location }]
    expect(await found(old, next)).toEqual(expected)
    expect(await found(next, old)).toEqual(expected)
  })

  it('the same collectionFormat on both sides is no change', async () => {
    const doc = swagger({
      parameters: [array('ids', 'path', 'pipes'), array('X-Ids', 'header', 'tsv')],
    })
    expect(await found(doc, structuredClone(doc))).toEqual([])
  })

  it('a response header from csv to pipes is a style change', async () => {
    const header = (collectionFormat: string) => ({
      type: 'array',
      items: { type: 'string' },
      collectionFormat,
    })
    const doc = (collectionFormat: string) =>
      swagger({
        parameters: [array('ids', 'path')],
        responses: { '200': { ...ok, headers: { 'X-Next': header(collectionFormat) } } },
      })
    const location = `${base}/responses/200/headers/X-Next`
    const expected = [{ id: 'response-header-style-changed', level: 'breaking', location }]
    expect(await found(doc('csv'), doc('pipes'))).toEqual(expected)
    expect(await found(doc('pipes'), doc('csv'))).toEqual(expected)
  })

  it('a shared parameter and a shared response are marked too', async () => {
    const doc = (collectionFormat: string) =>
      swagger(
        {
          parameters: [array('ids', 'path'), { $ref: '#/parameters/Ids' }],
          responses: { '200': { $ref: '#/responses/Page' } },
        },
        {
          parameters: { Ids: array('X-Ids', 'header', collectionFormat) },
          responses: {
            Page: {
              ...ok,
              headers: { 'X-Next': { type: 'array', items: { type: 'string' }, collectionFormat } },
            },
          },
        },
      )
    const ids = (await found(doc('csv'), doc('pipes'))).map(({ id, location }) => [id, location])
    expect(ids).toEqual(
      expect.arrayContaining([
        ['request-parameter-style-changed', '/components/parameters/Ids'],
        ['response-header-style-changed', '/components/responses/Page/headers/X-Next'],
      ]),
    )
  })
})

describe("a parameter's default", () => {
  const at = '/paths/~1items/get/parameters/query/limit/schema'
  const limit = (schema: Doc) => ({ name: 'limit', in: 'query', schema })

  it.each(VERSIONS)('%s: added, changed and removed are breaking', async (v) => {
    const doc = (schema: Doc) => openapi(v, { parameters: [limit(schema)] })
    const none = doc({ type: 'integer' })
    const ten = doc({ type: 'integer', default: 10 })
    const twenty = doc({ type: 'integer', default: 20 })
    expect(await found(none, ten)).toEqual([
      { id: 'request-parameter-default-added', level: 'breaking', location: at },
    ])
    expect(await found(ten, twenty)).toEqual([
      { id: 'request-parameter-default-changed', level: 'breaking', location: at },
    ])
    expect(await found(ten, none)).toEqual([
      { id: 'request-parameter-default-removed', level: 'breaking', location: at },
    ])
  })

  it('2.0: the default written on the parameter itself', async () => {
    const path = { name: 'ids', in: 'path', required: true, type: 'string' }
    const doc = (extra: Doc) =>
      swagger({ parameters: [path, { name: 'limit', in: 'query', type: 'integer', ...extra }] })
    const location = '/paths/~1items~1{ids}/get/parameters/query/limit/schema'
    expect(await found(doc({}), doc({ default: 10 }))).toEqual([
      { id: 'request-parameter-default-added', level: 'breaking', location },
    ])
    expect(await found(doc({ default: 10 }), doc({ default: 20 }))).toEqual([
      { id: 'request-parameter-default-changed', level: 'breaking', location },
    ])
    expect(await found(doc({ default: 10 }), doc({}))).toEqual([
      { id: 'request-parameter-default-removed', level: 'breaking', location },
    ])
  })

  it.each(VERSIONS)(
    '%s: a default of the wrong type (INVALID_DEFAULT) is still compared',
    async (v) => {
      // oasdiff's own case: a string default on a header whose schema is an object.
      const doc = (extra: Doc) =>
        openapi(
          v,
          {
            parameters: [
              {
                name: 'network-policies',
                in: 'header',
                schema: { $ref: '#/components/schemas/Policies' },
              },
            ],
          },
          {
            schemas: {
              Policies: { type: 'object', properties: { netpols: { type: 'string' } }, ...extra },
            },
          },
        )
      const location = '/components/schemas/Policies'
      expect(await found(doc({ default: 'X' }), doc({ default: 'Y' }))).toEqual([
        { id: 'request-parameter-default-changed', level: 'breaking', location },
      ])
      expect(await found(doc({}), doc({ default: 'Y' }))).toEqual([
        { id: 'request-parameter-default-added', level: 'breaking', location },
      ])
      expect(await found(doc({ default: 'Y' }), doc({}))).toEqual([
        { id: 'request-parameter-default-removed', level: 'breaking', location },
      ])
    },
  )
})
