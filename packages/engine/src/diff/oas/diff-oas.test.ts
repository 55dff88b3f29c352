import { describe, expect, it } from 'vitest'
import { api, diff, withOperation } from './test-documents.js'

const str = { type: 'string' }
const ok = { description: 'ok' }
const petRef = { $ref: '#/components/schemas/Pet' }
const json = (schema: object) => ({ content: { 'application/json': { schema } } })

const petstore = (pet: object, extra: object = {}) =>
  api({
    servers: [{ url: 'https://api.example.com/v1' }],
    tags: [{ name: 'pets' }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          responses: { '200': { ...ok, ...json({ type: 'array', items: petRef }) } },
        },
        post: {
          requestBody: { required: true, ...json(petRef) },
          responses: { '201': { ...ok, ...json(petRef) } },
        },
      },
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: str }],
        get: { responses: { '200': { ...ok, ...json(petRef) }, '404': ok } },
      },
    },
    components: { schemas: { Pet: pet } },
    ...extra,
  })

const pet = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer', readOnly: true }, name: str, tag: str },
}

describe('diffOas', () => {
  it('finds nothing between a document and itself', async () => {
    const log = await diff(petstore(pet), petstore(pet))
    expect(log).toEqual({
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      changes: [],
    })
  })

  it('lists descriptions, summaries, titles and examples as documentation: nothing else is modified', async () => {
    const described = petstore(
      {
        ...pet,
        description: 'A pet',
        title: 'Pet',
        example: { id: 1, name: 'Rex' },
        properties: {
          ...pet.properties,
          name: { ...str, description: 'Its name', example: 'Rex' },
        },
      },
      {
        info: { title: 'Renamed', version: '2.0.0', description: 'New words' },
        tags: [{ name: 'pets', description: 'Pets!' }],
      },
    )
    const doc = described as {
      paths: Record<string, Record<string, { summary?: string; description?: string }>>
    }
    doc.paths['/pets']!['get']!.summary = 'List all pets'
    doc.paths['/pets']!['get']!.description = 'Lists them.'
    const log = await diff(petstore(pet), described)
    expect(log.summary).toEqual({
      diff: true,
      details: { documentation: { added: 9, deleted: 0, modified: 2 } },
    })
    expect(log.counts).toEqual({ breaking: 0, warning: 0, info: 11 })
    expect(log.changes.map((change) => [change.id, change.location])).toEqual([
      ['schema-description-changed', '/components/schemas/Pet/description'],
      ['example-changed', '/components/schemas/Pet/example'],
      ['schema-description-changed', '/components/schemas/Pet/properties/name/description'],
      ['example-changed', '/components/schemas/Pet/properties/name/example'],
      ['schema-description-changed', '/components/schemas/Pet/title'],
      ['api-info-changed', '/info/description'],
      ['api-info-changed', '/info/title'],
      ['api-info-changed', '/info/version'],
      ['tag-description-changed', '/tags/0/description'],
      ['operation-description-changed', '/paths/~1pets/get/description'],
      ['operation-summary-changed', '/paths/~1pets/get/summary'],
    ])
    // Listed once at the shared component, with every operation that reaches it.
    expect(log.changes[0]).toMatchObject({
      message: 'The description of schema `Pet` was added.',
      operations: ['GET /pets', 'GET /pets/{petId}', 'POST /pets'],
    })
  })

  it('ignores the order of paths, properties, parameters, enum values and media types', async () => {
    const old = withOperation({
      parameters: [
        { name: 'a', in: 'query', schema: { type: 'string', enum: ['x', 'y'] } },
        { name: 'b', in: 'header', schema: str },
      ],
      responses: {
        '200': {
          ...ok,
          content: {
            'application/json': { schema: { type: 'object', properties: { p: str, q: str } } },
            'text/plain': { schema: str },
          },
        },
      },
    })
    const next = withOperation({
      parameters: [
        { name: 'B', in: 'header', schema: str },
        { name: 'a', in: 'query', schema: { type: 'string', enum: ['y', 'x'] } },
      ],
      responses: {
        '200': {
          ...ok,
          content: {
            'text/plain': { schema: str },
            'application/json': { schema: { type: 'object', properties: { q: str, p: str } } },
          },
        },
      },
    })
    expect((await diff(old, next)).summary.diff).toBe(false)
  })

  it('compares a $ref and its inlined target as equal, and path parameter names do not matter', async () => {
    const inlined = JSON.parse(
      JSON.stringify(petstore(pet)).replaceAll(JSON.stringify(petRef), JSON.stringify(pet)),
    )
    inlined.paths['/pets/{id}'] = inlined.paths['/pets/{petId}']
    delete inlined.paths['/pets/{petId}']
    inlined.paths['/pets/{id}'].parameters[0].name = 'id'
    const log = await diff(petstore(pet), inlined)
    expect(log.changes).toEqual([])
    expect(log.summary.diff).toBe(false)
  })

  it('lists a change in a shared schema once, with every operation that reaches it, per direction', async () => {
    const next = { ...pet, required: ['id'] }
    const log = await diff(petstore(pet), petstore(next))
    expect(log.changes).toEqual([
      {
        id: 'response-body-property-became-optional',
        level: 'breaking',
        message: 'Response body, schema `Pet` `name`: the property became optional.',
        location: '/components/schemas/Pet/properties/name',
        path: 'components › schemas › Pet › name',
        operations: ['GET /pets', 'GET /pets/{petId}', 'POST /pets'],
      },
      {
        id: 'request-body-property-became-optional',
        level: 'info',
        message: 'Request body, schema `Pet` `name`: the property became optional.',
        location: '/components/schemas/Pet/properties/name',
        path: 'components › schemas › Pet › name',
        operations: ['POST /pets'],
      },
    ])
    expect(log.summary.details).toEqual({
      operations: { added: 0, deleted: 0, modified: 3 },
      schemas: { added: 0, deleted: 0, modified: 1 },
    })
    expect(log.counts).toEqual({ breaking: 1, warning: 0, info: 1 })
  })

  it('does not judge a readOnly property as part of requests, nor a writeOnly one as part of responses', async () => {
    const next = {
      ...pet,
      properties: { ...pet.properties, id: { type: 'string', readOnly: true } },
    }
    const ids = (await diff(petstore(pet), petstore(next))).changes.map((change) => change.id)
    expect(ids).toEqual(['response-body-type-changed'])
  })

  it('counts each section on a hand-worked pair', async () => {
    const old = petstore(pet, {
      components: {
        schemas: {
          Pet: pet,
          Error: { type: 'object', properties: { code: { type: 'integer' } } },
          Old: str,
        },
        parameters: { limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } },
        securitySchemes: { key: { type: 'apiKey', name: 'X-Key', in: 'header' } },
      },
    })
    const next = petstore(pet, {
      servers: [{ url: 'https://api.example.com/v1' }, { url: 'https://eu.api.example.com/v1' }],
      tags: [],
      components: {
        schemas: {
          Pet: { ...pet, properties: { ...pet.properties, age: { type: 'integer' } } },
          Error: { type: 'object', properties: { code: str } },
          New: str,
        },
        parameters: {
          limit: { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } },
        },
        securitySchemes: {
          key: { type: 'apiKey', name: 'X-Key', in: 'header' },
          basic: { type: 'http', scheme: 'basic' },
        },
      },
    })
    const paths = (next as { paths: Record<string, unknown> }).paths
    paths['/pets/{petId}'] = {
      ...(paths['/pets/{petId}'] as object),
      delete: { responses: { '204': ok } },
    }
    delete (paths['/pets'] as Record<string, unknown>)['post']
    const log = await diff(old, next)
    expect(log.summary).toEqual({
      diff: true,
      details: {
        // +DELETE /pets/{petId}; −POST /pets; both GETs reach Pet, which gained a property
        operations: { added: 1, deleted: 1, modified: 2 },
        // +New −Old; Pet (age) and Error (code type) modified
        schemas: { added: 1, deleted: 1, modified: 2 },
        parameters: { added: 0, deleted: 0, modified: 1 },
        securitySchemes: { added: 1, deleted: 0, modified: 0 },
        servers: { added: 1, deleted: 0, modified: 0 },
        tags: { added: 0, deleted: 1, modified: 0 },
      },
    })
    expect(log.counts).toEqual({ breaking: 1, warning: 0, info: 9 })
    expect(log.changes.map((change) => change.id).sort()).toEqual(
      [
        'endpoint-removed',
        'endpoint-added',
        'response-body-property-added',
        'schema-added',
        'schema-removed',
        'unused-component-changed',
        'unused-component-changed',
        'security-scheme-added',
        'server-added',
        'tag-removed',
      ].sort(),
    )
  })

  it('orders changes breaking first, then warnings, then info', async () => {
    const old = withOperation(
      { parameters: [{ name: 'a', in: 'query', schema: str }] },
      { tags: [] },
    )
    const next = withOperation(
      { deprecated: true, parameters: [{ name: 'b', in: 'query', required: true, schema: str }] },
      { tags: [{ name: 't' }] },
    )
    const levels = (await diff(old, next)).changes.map((change) => change.level)
    // new required parameter, parameter removed; deprecated, tag added
    expect(levels).toEqual(['breaking', 'warning', 'info', 'info'])
  })

  it('survives recursive schemas on both sides', async () => {
    const node = (extra: object) => ({
      type: 'object',
      properties: {
        children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        ...extra,
      },
    })
    const old = withOperation(
      { responses: { '200': { ...ok, ...json({ $ref: '#/components/schemas/Node' }) } } },
      { components: { schemas: { Node: node({}) } } },
    )
    const next = withOperation(
      { responses: { '200': { ...ok, ...json({ $ref: '#/components/schemas/Node' }) } } },
      { components: { schemas: { Node: node({ label: str }) } } },
    )
    const log = await diff(old, next)
    expect(log.changes.map((change) => [change.id, change.location])).toEqual([
      ['response-body-property-added', '/components/schemas/Node/properties/label'],
    ])
  })

  it('sees no change when the same API moves from Swagger 2.0 to OpenAPI 3', async () => {
    const swagger = {
      swagger: '2.0',
      info: { title: 'Pets', version: '1' },
      host: 'api.example.com',
      basePath: '/v1',
      schemes: ['https'],
      paths: {
        '/pets': {
          get: {
            produces: ['application/json'],
            parameters: [{ name: 'limit', in: 'query', type: 'integer', maximum: 100 }],
            responses: {
              '200': {
                description: 'ok',
                schema: { type: 'array', items: { $ref: '#/definitions/Pet' } },
              },
            },
          },
        },
      },
      definitions: { Pet: pet },
    }
    const openapi = api({
      info: swagger.info,
      servers: [{ url: 'https://api.example.com/v1' }],
      paths: {
        '/pets': {
          get: {
            parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }],
            responses: { '200': { ...ok, ...json({ type: 'array', items: petRef }) } },
          },
        },
      },
      components: { schemas: { Pet: pet } },
    })
    const log = await diff(swagger, openapi)
    expect(log.changes).toEqual([])
    expect(log.summary.diff).toBe(false)
  })
})

describe('a media type schema', () => {
  const response = (media: object) =>
    withOperation({ responses: { '200': { ...ok, content: { 'application/json': media } } } })

  it('that appears or disappears is one change, not a type narrowed or widened', async () => {
    const added = await diff(response({}), response({ schema: str }))
    expect(added.changes.map((change) => [change.id, change.location])).toEqual([
      [
        'response-media-type-schema-added',
        '/paths/~1items/get/responses/200/content/application~1json/schema',
      ],
    ])
    const removed = await diff(response({ schema: str }), response({}))
    expect(removed.changes.map((change) => [change.id, change.level])).toEqual([
      ['response-media-type-schema-removed', 'breaking'],
    ])
  })

  it('written as {} says the same as none', async () => {
    const log = await diff(response({}), response({ schema: {} }))
    expect(log.changes).toEqual([])
  })
})
