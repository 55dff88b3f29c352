import { describe, expect, it } from 'vitest'
import { diff, type Doc } from './test-documents.js'

/** How a request parameter is written on the wire: explode where it matters, allowReserved. */

const VERSIONS = ['3.0.3', '3.1.0'] as const

function openapi(version: (typeof VERSIONS)[number], parameters: Doc[], components: Doc = {}): Doc {
  return {
    openapi: version,
    info: { title: 'Test', version: '1.0.0' },
    paths: {
      '/items/{id}': { get: { parameters, responses: { '200': { description: 'ok' } } } },
    },
    components,
  }
}

async function found(old: Doc, next: Doc) {
  const { changes } = await diff(old, next)
  return changes.map(({ id, level, location }) => ({ id, level, location }))
}

const path = (schema: Doc, extra: Doc = {}) => ({
  name: 'id',
  in: 'path',
  required: true,
  schema,
  ...extra,
})
const query = (schema: Doc, extra: Doc = {}) => ({ name: 'q', in: 'query', schema, ...extra })
const array = { type: 'array', items: { type: 'string' } }
const object = { type: 'object', properties: { a: { type: 'string' } } }
const atQuery = '/paths/~1items~1{id}/get/parameters/query/q'
const atPath = '/paths/~1items~1{id}/get/parameters/path/id'

describe('explode of a request parameter', () => {
  it.each(VERSIONS)('%s: on a scalar it changes nothing on the wire: info', async (v) => {
    const plain = openapi(v, [path({ type: 'string' }), query({ type: 'integer' })])
    const exploded = openapi(v, [
      path({ type: 'string' }),
      query({ type: 'integer' }, { explode: false }),
    ])
    const expected = [{ id: 'request-parameter-explode-changed', level: 'info', location: atQuery }]
    expect(await found(plain, exploded)).toEqual(expected)
    expect(await found(exploded, plain)).toEqual(expected)
  })

  it.each(VERSIONS)('%s: on an array or object in a query it is breaking', async (v) => {
    for (const schema of [array, object, {}]) {
      const plain = openapi(v, [path({ type: 'string' }), query(schema)])
      const flat = openapi(v, [path({ type: 'string' }), query(schema, { explode: false })])
      const expected = [
        { id: 'request-parameter-style-changed', level: 'breaking', location: atQuery },
      ]
      expect(await found(plain, flat)).toEqual(expected)
      expect(await found(flat, plain)).toEqual(expected)
    }
  })

  it.each(VERSIONS)('%s: style simple writes an array alike, not an object', async (v) => {
    const arrays = [openapi(v, [path(array)]), openapi(v, [path(array, { explode: true })])]
    expect(await found(arrays[0]!, arrays[1]!)).toEqual([
      { id: 'request-parameter-explode-changed', level: 'info', location: atPath },
    ])
    const objects = [openapi(v, [path(object)]), openapi(v, [path(object, { explode: true })])]
    expect(await found(objects[0]!, objects[1]!)).toEqual([
      { id: 'request-parameter-style-changed', level: 'breaking', location: atPath },
    ])
  })

  it.each(VERSIONS)('%s: follows a schema ref to see an array', async (v) => {
    const components = { schemas: { Tags: array } }
    const ref = { $ref: '#/components/schemas/Tags' }
    const plain = openapi(v, [path({ type: 'string' }), query(ref)], components)
    const flat = openapi(v, [path({ type: 'string' }), query(ref, { explode: false })], components)
    expect((await found(plain, flat)).map(({ id }) => id)).toEqual([
      'request-parameter-style-changed',
    ])
  })

  it.each(VERSIONS)('%s: a style change on a scalar is still breaking', async (v) => {
    const simple = openapi(v, [path({ type: 'string' })])
    const label = openapi(v, [path({ type: 'string' }, { style: 'label' })])
    expect(await found(simple, label)).toEqual([
      { id: 'request-parameter-style-changed', level: 'breaking', location: atPath },
    ])
  })

  it('2.0: a collectionFormat change of an array stays breaking', async () => {
    const swagger = (extra: Doc) => ({
      swagger: '2.0',
      info: { title: 'Test', version: '1.0.0' },
      paths: {
        '/items': {
          get: {
            parameters: [
              { name: 'q', in: 'query', type: 'array', items: { type: 'string' }, ...extra },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    })
    expect(
      (await found(swagger({}), swagger({ collectionFormat: 'multi' }))).map(({ id }) => id),
    ).toEqual(['request-parameter-style-changed'])
  })
})

describe('allowReserved of a request parameter', () => {
  const doc = (v: (typeof VERSIONS)[number], extra: Doc = {}) =>
    openapi(v, [path({ type: 'string' }), query({ type: 'string' }, extra)])

  it.each(VERSIONS)(
    '%s: cleared is breaking (a request sending `/` as written is rejected)',
    async (v) => {
      expect(await found(doc(v, { allowReserved: true }), doc(v))).toEqual([
        { id: 'request-parameter-allow-reserved-cleared', level: 'breaking', location: atQuery },
      ])
    },
  )

  it.each(VERSIONS)('%s: set is info', async (v) => {
    expect(await found(doc(v), doc(v, { allowReserved: true }))).toEqual([
      { id: 'request-parameter-allow-reserved-set', level: 'info', location: atQuery },
    ])
    expect(await found(doc(v, { allowReserved: false }), doc(v))).toEqual([])
  })

  it('means nothing outside a query, so a header parameter is not judged', async () => {
    const header = (extra: Doc = {}) => ({
      name: 'X-Q',
      in: 'header',
      schema: { type: 'string' },
      ...extra,
    })
    const old = openapi('3.0.3', [path({ type: 'string' }), header({ allowReserved: true })])
    expect(await found(old, openapi('3.0.3', [path({ type: 'string' }), header()]))).toEqual([])
  })
})
