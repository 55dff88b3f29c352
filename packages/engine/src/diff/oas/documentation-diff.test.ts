import { describe, expect, it } from 'vitest'
import { api, diff, withOperation, type Doc } from './test-documents.js'

const str = { type: 'string' }
const ok = { description: 'ok' }
const json = (schema: Doc, extra: Doc = {}) => ({
  content: { 'application/json': { schema, ...extra } },
})
const itemRef = { $ref: '#/components/schemas/Item' }
const item = (extra: Doc = {}) => ({ type: 'object', properties: { name: str }, ...extra })

/** Two operations that return the component `Item`, and the component itself. */
const items = (schema: Doc) =>
  api({
    paths: {
      '/items': { get: { responses: { '200': { ...ok, ...json(itemRef) } } } },
      '/items/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: str }],
          responses: { '200': { ...ok, ...json(itemRef) } },
        },
      },
    },
    components: { schemas: { Item: schema } },
  })

const entries = async (old: Doc | string, next: Doc | string) =>
  (await diff(old, next)).changes.map((change) => `${change.id} ${change.location}`)

describe('documentation changes', () => {
  it('are info entries of their own section: the operation is not modified', async () => {
    const log = await diff(
      withOperation({ description: 'Lists the items.' }),
      withOperation({ description: 'Lists every item.' }),
    )
    expect(log.summary).toEqual({
      diff: true,
      details: { documentation: { added: 0, deleted: 0, modified: 1 } },
    })
    expect(log.counts).toEqual({ breaking: 0, warning: 0, info: 1 })
    expect(log.changes).toEqual([
      {
        id: 'operation-description-changed',
        level: 'info',
        message: 'The description of GET /items changed.',
        location: '/paths/~1items/get/description',
        path: 'GET /items › description',
        operation: 'GET /items',
      },
    ])
  })

  it('count a text that appears as added, one that goes as deleted', async () => {
    const log = await diff(
      withOperation({ summary: 'List', externalDocs: { url: 'https://docs.example.com/a' } }),
      withOperation({ description: 'Lists the items.' }),
    )
    expect(log.summary.details).toEqual({ documentation: { added: 1, deleted: 2, modified: 0 } })
    expect(log.changes.map((change) => change.message)).toEqual([
      'The description of GET /items was added.',
      'The external documentation of GET /items was removed.',
      'The summary of GET /items was removed.',
    ])
  })

  it('sit beside the changes of the same operation, which alone make it modified', async () => {
    const log = await diff(
      withOperation({ summary: 'a' }),
      withOperation({ summary: 'b', deprecated: true }),
    )
    expect(log.summary.details).toEqual({
      documentation: { added: 0, deleted: 0, modified: 1 },
      operations: { added: 0, deleted: 0, modified: 1 },
    })
  })

  it('inside a shared schema are listed once, at the component, with the operations that reach it', async () => {
    const log = await diff(
      items(item()),
      items(item({ properties: { name: { ...str, description: 'What it is called' } } })),
    )
    expect(log.summary.details).toEqual({ documentation: { added: 1, deleted: 0, modified: 0 } })
    expect(log.changes).toEqual([
      {
        id: 'schema-description-changed',
        level: 'info',
        message: 'The description of property `name` of schema `Item` was added.',
        location: '/components/schemas/Item/properties/name/description',
        path: 'components › schemas › Item › name › description',
        operations: ['GET /items', 'GET /items/{id}'],
      },
    ])
  })

  it('in a component no operation uses are listed without operations, and the component is not modified', async () => {
    const log = await diff(
      api({ components: { schemas: { Item: item() } } }),
      api({ components: { schemas: { Item: item({ title: 'Item' }) } } }),
    )
    expect(log.summary.details).toEqual({ documentation: { added: 1, deleted: 0, modified: 0 } })
    expect(log.changes).toEqual([
      {
        id: 'schema-description-changed',
        level: 'info',
        message: 'The title of schema `Item` was added.',
        location: '/components/schemas/Item/title',
        path: 'components › schemas › Item › title',
      },
    ])
  })

  it('in an inline schema name the place and the property path', async () => {
    const response = (description?: string) =>
      withOperation({
        responses: {
          '200': {
            ...ok,
            ...json({
              type: 'object',
              properties: {
                owner: { type: 'object', properties: { login: { ...str, description } } },
              },
            }),
          },
        },
      })
    const log = await diff(response('The login'), response('The user name'))
    expect(log.changes.map((change) => change.message)).toEqual([
      'The description of property `owner.login` of the schema of response 200 changed.',
    ])
  })

  it('list each named example of a media type apart, following $refs', async () => {
    const examples = (one: unknown, two: unknown) =>
      withOperation(
        {
          responses: {
            '200': {
              ...ok,
              ...json(str, {
                examples: { one: { $ref: '#/components/examples/One' }, two: { value: two } },
              }),
            },
          },
        },
        { components: { examples: { One: { value: one } } } },
      )
    expect(await entries(examples('a', 'b'), examples('a', 'b'))).toEqual([])
    expect(await entries(examples('a', 'b'), examples('A', 'b'))).toEqual([
      'example-changed /paths/~1items/get/responses/200/content/application~1json/examples/one',
    ])
  })

  it('name the document parts they belong to', async () => {
    const document = (description?: string, url = 'https://docs.example.com/v1') =>
      api({
        info: { title: 'Items', version: '1.0.0', description },
        externalDocs: { url },
        tags: [{ name: 'items', description }],
        servers: [
          {
            url: 'https://{region}.example.com',
            description,
            variables: { region: { default: 'eu', description } },
          },
        ],
        components: {
          securitySchemes: { key: { type: 'apiKey', name: 'K', in: 'header', description } },
        },
      })
    const log = await diff(document('One'), document('Two', 'https://docs.example.com/v2'))
    expect(log.changes.map((change) => `${change.location}: ${change.message}`)).toEqual([
      '/components/securitySchemes/key/description: The description of security scheme `key` changed.',
      '/externalDocs: The external documentation of the API changed.',
      '/info/description: The API description changed.',
      '/servers/0/description: The description of server `https://{region}.example.com` changed.',
      '/servers/0/variables/region/description: The description of variable `region` of server `https://{region}.example.com` changed.',
      '/tags/0/description: The description of tag `items` changed.',
    ])
    expect(log.summary.details).toEqual({ documentation: { added: 0, deleted: 0, modified: 6 } })
  })

  it('in the info block: terms of service, contact and license', async () => {
    const info = (url: string) => ({
      title: 'Items',
      version: '1.0.0',
      termsOfService: `${url}/terms`,
      contact: { name: 'Support', url },
      license: { name: 'MIT', identifier: 'MIT' },
    })
    const before = info('https://a.example')
    const log = await diff(
      api({ info: before }),
      api({ info: { ...info('https://b.example'), license: undefined } }),
    )
    expect(log.changes.map((change) => `${change.location}: ${change.message}`)).toEqual([
      '/info/contact: The API contact changed.',
      '/info/license: The API license was removed.',
      '/info/termsOfService: The API terms of service changed.',
    ])
  })

  it('of response headers, media types and webhooks', async () => {
    const webhook = (description: string, example: unknown) =>
      api({
        webhooks: {
          itemCreated: { post: { description, responses: { '200': ok } } },
        },
        paths: {
          '/items': {
            get: {
              responses: {
                '200': {
                  ...ok,
                  headers: { 'X-Rate': { schema: { type: 'integer' }, example } },
                  ...json(str, { example: `item ${String(example)}` }),
                },
              },
            },
          },
        },
      })
    const log = await diff(
      webhook('Sent when an item is made.', 1),
      webhook('Sent for each new item.', 2),
    )
    expect(log.changes.map((change) => `${change.operation}: ${change.message}`)).toEqual([
      'GET /items: The example of `application/json` in response 200 changed.',
      'GET /items: The example of response 200 header `X-Rate` changed.',
      'webhook itemCreated (POST): The description of webhook itemCreated (POST) changed.',
    ])
  })

  it('show the API title and version, which are short', async () => {
    const log = await diff(
      api({ info: { title: 'Items', version: '1.0.0' } }),
      api({ info: { title: 'Things', version: '1.1.0' } }),
    )
    expect(log.changes.map((change) => change.message)).toEqual([
      'The API title changed from `Items` to `Things`.',
      'The API version changed from `1.0.0` to `1.1.0`.',
    ])
  })
})

describe('what is not a documentation change', () => {
  it('the order of keys', async () => {
    const old = withOperation({
      summary: 'List',
      description: 'Lists the items.',
      externalDocs: { url: 'https://docs.example.com', description: 'More' },
      parameters: [{ name: 'q', in: 'query', schema: str, example: { a: 1, b: [1, 2] } }],
    })
    const next = withOperation({
      parameters: [{ example: { b: [1, 2], a: 1 }, schema: str, in: 'query', name: 'q' }],
      externalDocs: { description: 'More', url: 'https://docs.example.com' },
      description: 'Lists the items.',
      summary: 'List',
    })
    expect(await entries(old, next)).toEqual([])
  })

  it('a $ref against its inlined target, descriptions and examples included', async () => {
    const described = item({ description: 'An item', example: { name: 'pen' } })
    const inlined = JSON.parse(
      JSON.stringify(items(described)).replaceAll(
        JSON.stringify(itemRef),
        JSON.stringify(described),
      ),
    )
    expect(await entries(items(described), inlined)).toEqual([])
  })

  it('a 3.1 description beside a $ref, against the same description inline', async () => {
    const limit = { name: 'limit', in: 'query', schema: { type: 'integer' } }
    const viaRef = withOperation(
      { parameters: [{ $ref: '#/components/parameters/limit', description: 'How many' }] },
      { components: { parameters: { limit: { ...limit, description: 'A limit' } } } },
    )
    const inline = withOperation(
      { parameters: [{ ...limit, description: 'How many' }] },
      { components: { parameters: { limit: { ...limit, description: 'A limit' } } } },
    )
    expect(await entries(viaRef, inline)).toEqual([])
  })

  it('whitespace: YAML folded, literal and plain scalars of the same words', async () => {
    const yaml = (description: string) =>
      [
        'openapi: 3.1.0',
        'info: { title: Test, version: 1.0.0 }',
        'paths:',
        '  /items:',
        '    get:',
        `      description: ${description}`,
        '      responses:',
        "        '200': { description: ok }",
        '',
      ].join('\n')
    const plain = yaml('Lists the items of the store.')
    expect(await entries(plain, yaml('>\n        Lists the items\n        of the store.'))).toEqual(
      [],
    )
    expect(
      await entries(plain, yaml('|\n        Lists the items\n        of the store.\n')),
    ).toEqual([])
    expect(await entries(plain, yaml('Lists the items of the shop.'))).toEqual([
      'operation-description-changed /paths/~1items/get/description',
    ])
  })

  it('an empty description and none', async () => {
    expect(
      await entries(withOperation({ description: '' }), withOperation({ description: '  ' })),
    ).toEqual([])
    expect(await entries(withOperation({ description: '' }), withOperation({}))).toEqual([])
  })
})
