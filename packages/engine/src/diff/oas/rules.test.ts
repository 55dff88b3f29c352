import { describe, expect, it } from 'vitest'
import { RULES } from '../rules.js'
import { OAS_RULES, SCHEMA_CONTEXTS, SCHEMA_KINDS, type SchemaKind } from './rules.js'
import { api, diff, PLACEMENTS, withOperation, type Doc } from './test-documents.js'

type Pair = readonly [old: Doc, next: Doc]

const str = { type: 'string' }
const obj = (properties: Doc, required: string[] = [], extra: Doc = {}) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
})
const pets = {
  Cat: obj({ kind: str }, ['kind']),
  Dog: obj({ kind: str }, ['kind']),
}
const pet = (propertyName: string) => ({
  oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
  discriminator: { propertyName },
})

/** For each schema kind: two schemas (and components) whose difference is that kind. */
const SCHEMA_PAIRS: Record<SchemaKind, { old: Doc; next: Doc; components?: Doc }> = {
  'type-changed': { old: str, next: { type: 'boolean' } },
  'type-generalized': { old: { type: 'integer' }, next: { type: 'number' } },
  'type-narrowed': { old: { type: 'number' }, next: { type: 'integer' } },
  'format-changed': { old: { ...str, format: 'date' }, next: { ...str, format: 'date-time' } },
  'became-nullable': { old: str, next: { type: ['string', 'null'] } },
  'became-not-nullable': { old: { type: ['string', 'null'] }, next: str },
  'enum-value-added': { old: { ...str, enum: ['a'] }, next: { ...str, enum: ['a', 'b'] } },
  'enum-value-removed': { old: { ...str, enum: ['a', 'b'] }, next: { ...str, enum: ['a'] } },
  'became-enum': { old: str, next: { ...str, enum: ['a'] } },
  'enum-dropped': { old: { ...str, enum: ['a'] }, next: str },
  'pattern-added': { old: str, next: { ...str, pattern: '^a' } },
  'pattern-changed': { old: { ...str, pattern: '^a' }, next: { ...str, pattern: '^b' } },
  'pattern-removed': { old: { ...str, pattern: '^a' }, next: str },
  'max-length-decreased': { old: { ...str, maxLength: 10 }, next: { ...str, maxLength: 5 } },
  'max-length-increased': { old: { ...str, maxLength: 5 }, next: { ...str, maxLength: 10 } },
  'min-length-increased': { old: { ...str, minLength: 1 }, next: { ...str, minLength: 2 } },
  'min-length-decreased': { old: { ...str, minLength: 2 }, next: { ...str, minLength: 1 } },
  'max-decreased': { old: { type: 'integer', maximum: 10 }, next: { type: 'integer', maximum: 5 } },
  'max-increased': { old: { type: 'integer', maximum: 5 }, next: { type: 'integer' } },
  'min-increased': {
    old: { type: 'integer', minimum: 0 },
    next: { type: 'integer', exclusiveMinimum: 0 },
  },
  'min-decreased': { old: { type: 'integer', minimum: 5 }, next: { type: 'integer', minimum: 1 } },
  'multiple-of-changed': {
    old: { type: 'integer', multipleOf: 2 },
    next: { type: 'integer', multipleOf: 3 },
  },
  'max-items-decreased': {
    old: { type: 'array', items: str, maxItems: 10 },
    next: { type: 'array', items: str, maxItems: 5 },
  },
  'max-items-increased': {
    old: { type: 'array', items: str, maxItems: 5 },
    next: { type: 'array', items: str, maxItems: 10 },
  },
  'min-items-increased': {
    old: { type: 'array', items: str },
    next: { type: 'array', items: str, minItems: 1 },
  },
  'min-items-decreased': {
    old: { type: 'array', items: str, minItems: 2 },
    next: { type: 'array', items: str, minItems: 1 },
  },
  'property-added': { old: obj({ a: str }), next: obj({ a: str, b: str }) },
  'required-property-added': { old: obj({ a: str }), next: obj({ a: str, b: str }, ['b']) },
  'property-removed': { old: obj({ a: str, b: str }), next: obj({ a: str }) },
  'required-property-removed': { old: obj({ a: str, b: str }, ['b']), next: obj({ a: str }) },
  'property-became-required': { old: obj({ a: str }), next: obj({ a: str }, ['a']) },
  'property-became-optional': { old: obj({ a: str }, ['a']), next: obj({ a: str }) },
  'property-became-read-only': {
    old: obj({ a: str }),
    next: obj({ a: { ...str, readOnly: true } }),
  },
  'property-became-write-only': {
    old: obj({ a: str }),
    next: obj({ a: { ...str, writeOnly: true } }),
  },
  'property-deprecated': { old: obj({ a: str }), next: obj({ a: { ...str, deprecated: true } }) },
  'additional-properties-closed': {
    old: obj({ a: str }),
    next: obj({ a: str }, [], { additionalProperties: false }),
  },
  'additional-properties-opened': {
    old: obj({ a: str }, [], { additionalProperties: false }),
    next: obj({ a: str }),
  },
  'union-member-added': {
    old: { oneOf: [str, { type: 'integer' }] },
    next: { oneOf: [str, { type: 'integer' }, { type: 'boolean' }] },
  },
  'union-member-removed': {
    old: { oneOf: [str, { type: 'integer' }, { type: 'boolean' }] },
    next: { oneOf: [str, { type: 'integer' }] },
  },
  'discriminator-changed': { old: pet('kind'), next: pet('type'), components: { schemas: pets } },
  'default-changed': { old: { ...str, default: 'a' }, next: { ...str, default: 'b' } },
}

const schemaCases = Object.entries(SCHEMA_CONTEXTS).flatMap(([context, { direction }]) =>
  (Object.keys(SCHEMA_KINDS) as SchemaKind[])
    .filter((kind) => direction in SCHEMA_KINDS[kind])
    .map((kind) => ({
      id: `${context}-${kind}`,
      context: context as keyof typeof PLACEMENTS,
      kind,
    })),
)

const parameter = (extra: Doc = {}) => ({
  name: 'limit',
  in: 'query',
  schema: { type: 'integer' },
  ...extra,
})
const jsonBody = (schema: Doc = str) => ({ content: { 'application/json': { schema } } })
const ok = { description: 'ok' }
const oauth = (flows: Doc) => ({
  components: { securitySchemes: { oauth: { type: 'oauth2', flows } } },
})
const codeFlow = (scopes: Doc, tokenUrl = 'https://a.example/token') => ({
  authorizationCode: { authorizationUrl: 'https://a.example/auth', tokenUrl, scopes },
})
const schemes = {
  components: {
    securitySchemes: {
      key: { type: 'apiKey', name: 'X-Key', in: 'header' },
      basic: { type: 'http', scheme: 'basic' },
    },
  },
}

/** A pair of documents for every rule that does not come from a schema kind. */
const FIXED_PAIRS: Record<string, Pair> = {
  'endpoint-added': [api(), withOperation({})],
  'endpoint-removed': [withOperation({}), api()],
  'deprecated-endpoint-removed': [withOperation({ deprecated: true }), api()],
  'endpoint-deprecated': [withOperation({}), withOperation({ deprecated: true })],
  'endpoint-reactivated': [withOperation({ deprecated: true }), withOperation({})],
  'operation-id-added': [withOperation({}), withOperation({ operationId: 'list' })],
  'operation-id-changed': [
    withOperation({ operationId: 'list' }),
    withOperation({ operationId: 'listItems' }),
  ],
  'operation-id-removed': [withOperation({ operationId: 'list' }), withOperation({})],
  'operation-tag-added': [withOperation({}), withOperation({ tags: ['items'] })],
  'operation-tag-removed': [withOperation({ tags: ['items'] }), withOperation({})],
  'new-required-request-parameter': [
    withOperation({}),
    withOperation({ parameters: [parameter({ required: true })] }),
  ],
  'new-optional-request-parameter': [
    withOperation({}),
    withOperation({ parameters: [parameter()] }),
  ],
  'request-parameter-removed': [withOperation({ parameters: [parameter()] }), withOperation({})],
  'request-parameter-became-required': [
    withOperation({ parameters: [parameter()] }),
    withOperation({ parameters: [parameter({ required: true })] }),
  ],
  'request-parameter-became-optional': [
    withOperation({ parameters: [parameter({ required: true })] }),
    withOperation({ parameters: [parameter()] }),
  ],
  'request-parameter-deprecated': [
    withOperation({ parameters: [parameter()] }),
    withOperation({ parameters: [parameter({ deprecated: true })] }),
  ],
  'request-parameter-style-changed': [
    withOperation({ parameters: [parameter()] }),
    withOperation({ parameters: [parameter({ explode: false })] }),
  ],
  'request-parameter-media-type-changed': [
    withOperation({
      parameters: [{ name: 'f', in: 'query', content: { 'application/json': { schema: str } } }],
    }),
    withOperation({ parameters: [{ name: 'f', in: 'query', schema: str }] }),
  ],
  'new-required-request-body': [
    withOperation({}, {}, 'post'),
    withOperation({ requestBody: { ...jsonBody(), required: true } }, {}, 'post'),
  ],
  'new-optional-request-body': [
    withOperation({}, {}, 'post'),
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
  ],
  'request-body-removed': [
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
    withOperation({}, {}, 'post'),
  ],
  'request-body-became-required': [
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
    withOperation({ requestBody: { ...jsonBody(), required: true } }, {}, 'post'),
  ],
  'request-body-became-optional': [
    withOperation({ requestBody: { ...jsonBody(), required: true } }, {}, 'post'),
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
  ],
  'request-body-media-type-added': [
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
    withOperation(
      {
        requestBody: {
          content: { 'application/json': { schema: str }, 'text/plain': { schema: str } },
        },
      },
      {},
      'post',
    ),
  ],
  'request-body-media-type-removed': [
    withOperation(
      {
        requestBody: {
          content: { 'application/json': { schema: str }, 'text/plain': { schema: str } },
        },
      },
      {},
      'post',
    ),
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
  ],
  'response-status-added': [
    withOperation({}),
    withOperation({ responses: { '200': ok, '404': ok } }),
  ],
  'response-success-status-removed': [
    withOperation({ responses: { '200': ok, '201': ok } }),
    withOperation({}),
  ],
  'response-non-success-status-removed': [
    withOperation({ responses: { '200': ok, '404': ok } }),
    withOperation({}),
  ],
  'response-media-type-added': [
    withOperation({ responses: { '200': { ...ok, ...jsonBody() } } }),
    withOperation({
      responses: {
        '200': {
          ...ok,
          content: { 'application/json': { schema: str }, 'text/csv': { schema: str } },
        },
      },
    }),
  ],
  'response-media-type-removed': [
    withOperation({ responses: { '200': { ...ok, ...jsonBody() } } }),
    withOperation({}),
  ],
  'response-header-added': [
    withOperation({}),
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str } } } } }),
  ],
  'response-required-header-removed': [
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str, required: true } } } },
    }),
    withOperation({}),
  ],
  'response-optional-header-removed': [
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str } } } } }),
    withOperation({}),
  ],
  'response-header-became-optional': [
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str, required: true } } } },
    }),
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str } } } } }),
  ],
  'response-header-became-required': [
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str } } } } }),
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str, required: true } } } },
    }),
  ],
  'endpoint-security-added': [
    withOperation({}, schemes),
    withOperation({ security: [{ key: [] }] }, schemes),
  ],
  'endpoint-security-removed': [
    withOperation({ security: [{ key: [] }] }, schemes),
    withOperation({}, schemes),
  ],
  'endpoint-security-alternative-added': [
    withOperation({ security: [{ key: [] }] }, schemes),
    withOperation({ security: [{ key: [] }, { basic: [] }] }, schemes),
  ],
  'endpoint-security-alternative-removed': [
    withOperation({ security: [{ key: [] }, { basic: [] }] }, schemes),
    withOperation({ security: [{ key: [] }] }, schemes),
  ],
  'endpoint-security-scope-added': [
    withOperation({ security: [{ oauth: ['read'] }] }, oauth(codeFlow({ read: 'r', write: 'w' }))),
    withOperation(
      { security: [{ oauth: ['read', 'write'] }] },
      oauth(codeFlow({ read: 'r', write: 'w' })),
    ),
  ],
  'endpoint-security-scope-removed': [
    withOperation(
      { security: [{ oauth: ['read', 'write'] }] },
      oauth(codeFlow({ read: 'r', write: 'w' })),
    ),
    withOperation({ security: [{ oauth: ['read'] }] }, oauth(codeFlow({ read: 'r', write: 'w' }))),
  ],
  'webhook-added': [api(), PLACEMENTS['webhook-payload'](str)],
  'webhook-removed': [PLACEMENTS['webhook-payload'](str), api()],
  'webhook-deprecated': [
    api({ webhooks: { hook: { post: { responses: { '200': ok } } } } }),
    api({ webhooks: { hook: { post: { deprecated: true, responses: { '200': ok } } } } }),
  ],
  'webhook-payload-added': [
    api({ webhooks: { hook: { post: { responses: { '200': ok } } } } }),
    api({ webhooks: { hook: { post: { requestBody: jsonBody(), responses: { '200': ok } } } } }),
  ],
  'webhook-payload-removed': [
    api({ webhooks: { hook: { post: { requestBody: jsonBody(), responses: { '200': ok } } } } }),
    api({ webhooks: { hook: { post: { responses: { '200': ok } } } } }),
  ],
  'webhook-payload-media-type-added': [
    api({ webhooks: { hook: { post: { requestBody: jsonBody(), responses: { '200': ok } } } } }),
    api({
      webhooks: {
        hook: {
          post: {
            requestBody: {
              content: { 'application/json': { schema: str }, 'text/plain': { schema: str } },
            },
            responses: { '200': ok },
          },
        },
      },
    }),
  ],
  'webhook-payload-media-type-removed': [
    api({
      webhooks: {
        hook: {
          post: {
            requestBody: {
              content: { 'application/json': { schema: str }, 'text/plain': { schema: str } },
            },
            responses: { '200': ok },
          },
        },
      },
    }),
    api({ webhooks: { hook: { post: { requestBody: jsonBody(), responses: { '200': ok } } } } }),
  ],
  'security-scheme-added': [api(), api(schemes)],
  'security-scheme-removed': [api(schemes), api()],
  'security-scheme-type-changed': [
    api({ components: { securitySchemes: { s: { type: 'http', scheme: 'basic' } } } }),
    api({ components: { securitySchemes: { s: { type: 'http', scheme: 'bearer' } } } }),
  ],
  'security-scheme-api-key-changed': [
    api({
      components: { securitySchemes: { s: { type: 'apiKey', name: 'X-Key', in: 'header' } } },
    }),
    api({ components: { securitySchemes: { s: { type: 'apiKey', name: 'key', in: 'query' } } } }),
  ],
  'security-scheme-url-changed': [
    api(oauth(codeFlow({ read: 'r' }))),
    api(oauth(codeFlow({ read: 'r' }, 'https://b.example/token'))),
  ],
  'oauth-flow-added': [
    api(oauth(codeFlow({ read: 'r' }))),
    api(
      oauth({
        ...codeFlow({ read: 'r' }),
        clientCredentials: { tokenUrl: 'https://a.example/token', scopes: {} },
      }),
    ),
  ],
  'oauth-flow-removed': [
    api(
      oauth({
        ...codeFlow({ read: 'r' }),
        clientCredentials: { tokenUrl: 'https://a.example/token', scopes: {} },
      }),
    ),
    api(oauth(codeFlow({ read: 'r' }))),
  ],
  'oauth-scope-added': [
    api(oauth(codeFlow({ read: 'r' }))),
    api(oauth(codeFlow({ read: 'r', write: 'w' }))),
  ],
  'oauth-scope-removed': [
    api(oauth(codeFlow({ read: 'r', write: 'w' }))),
    api(oauth(codeFlow({ read: 'r' }))),
  ],
  'server-added': [api(), api({ servers: [{ url: 'https://api.example.com' }] })],
  'server-removed': [api({ servers: [{ url: 'https://api.example.com' }] }), api()],
  'tag-added': [api(), api({ tags: [{ name: 'items' }] })],
  'tag-removed': [api({ tags: [{ name: 'items' }] }), api()],
  'schema-added': [api(), api({ components: { schemas: { Item: str } } })],
  'schema-removed': [api({ components: { schemas: { Item: str } } }), api()],
  'component-added': [api(), api({ components: { parameters: { limit: parameter() } } })],
  'component-removed': [api({ components: { parameters: { limit: parameter() } } }), api()],
  'unused-component-changed': [
    api({ components: { schemas: { Item: str } } }),
    api({ components: { schemas: { Item: { type: 'integer' } } } }),
  ],
  'api-info-changed': [api(), api({ info: { title: 'Test', version: '1.0.0', summary: 'Items' } })],
  'operation-summary-changed': [withOperation({}), withOperation({ summary: 'List the items' })],
  'operation-description-changed': [
    withOperation({ description: 'Lists the items.' }),
    withOperation({ description: 'Lists every item.' }),
  ],
  'parameter-description-changed': [
    withOperation({ parameters: [parameter()] }),
    withOperation({ parameters: [parameter({ description: 'How many' })] }),
  ],
  'request-body-description-changed': [
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
    withOperation({ requestBody: { ...jsonBody(), description: 'An item' } }, {}, 'post'),
  ],
  'response-description-changed': [
    withOperation({}),
    withOperation({ responses: { '200': { description: 'The items' } } }),
  ],
  'header-description-changed': [
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str } } } } }),
    withOperation({
      responses: {
        '200': { ...ok, headers: { 'X-Rate': { schema: str, description: 'Calls left' } } },
      },
    }),
  ],
  'schema-description-changed': [
    api({ components: { schemas: { Item: str } } }),
    api({ components: { schemas: { Item: { ...str, title: 'Item' } } } }),
  ],
  'example-changed': [
    withOperation({ parameters: [parameter({ example: 10 })] }),
    withOperation({ parameters: [parameter({ example: 20 })] }),
  ],
  'external-docs-changed': [
    withOperation({}),
    withOperation({ externalDocs: { url: 'https://docs.example.com/items' } }),
  ],
  'tag-description-changed': [
    api({ tags: [{ name: 'items' }] }),
    api({ tags: [{ name: 'items', description: 'Things' }] }),
  ],
  'server-description-changed': [
    api({ servers: [{ url: 'https://api.example.com' }] }),
    api({ servers: [{ url: 'https://api.example.com', description: 'Production' }] }),
  ],
  'security-scheme-description-changed': [
    api(schemes),
    api({
      components: {
        securitySchemes: {
          ...schemes.components.securitySchemes,
          basic: { type: 'http', scheme: 'basic', description: 'A user name and password' },
        },
      },
    }),
  ],
}

describe('the OpenAPI rule catalogue', () => {
  it('has a document pair for every rule', () => {
    const tested = new Set([...Object.keys(FIXED_PAIRS), ...schemaCases.map(({ id }) => id)])
    expect(Object.keys(OAS_RULES).filter((id) => !tested.has(id))).toEqual([])
    expect([...tested].filter((id) => !(id in OAS_RULES))).toEqual([])
  })

  it.each(Object.entries(FIXED_PAIRS))('%s fires with its level', async (id, [old, next]) => {
    const { changes } = await diff(old, next)
    const hit = changes.find((change) => change.id === id)
    expect(hit, JSON.stringify(changes, null, 2)).toBeDefined()
    expect(hit!.level).toBe(RULES[id as keyof typeof RULES].level)
    expect(hit!.message).toMatch(/\.$/)
  })

  it.each(schemaCases)('$id fires with its level', async ({ id, context, kind }) => {
    const pair = SCHEMA_PAIRS[kind]
    const place = PLACEMENTS[context]
    const { changes } = await diff(
      place(pair.old, pair.components),
      place(pair.next, pair.components),
    )
    const hit = changes.find((change) => change.id === id)
    expect(hit, JSON.stringify(changes, null, 2)).toBeDefined()
    expect(hit!.level).toBe(RULES[id as keyof typeof RULES].level)
  })
})

describe('a type that narrows', () => {
  const ids = async (context: 'request-body' | 'response-body', old: Doc, next: Doc) => {
    const place = PLACEMENTS[context]
    const { changes } = await diff(place(old), place(next))
    return changes.map((change) => `${change.id} ${change.level}`)
  }
  const oneOf = (...members: Doc[]) => ({ oneOf: members })

  it('to one scalar alternative of a oneOf is safe to receive and breaks a sender', async () => {
    const [old, next] = [oneOf(str, { type: 'integer' }), str]
    expect(await ids('response-body', old, next)).toEqual(['response-body-type-narrowed info'])
    expect(await ids('request-body', old, next)).toEqual(['request-body-type-changed breaking'])
  })

  it('to one object alternative is a type change both ways: that object may not be the one known', async () => {
    const [old, next] = [oneOf(obj({ a: str }), obj({ b: str })), obj({ c: str })]
    expect(await ids('response-body', old, next)).toContain('response-body-type-changed breaking')
  })
})

describe('a pattern that every string matches', () => {
  it("constrains nothing: adding '' or '.*' is no change, replacing it with a real one is pattern-added", async () => {
    const place = PLACEMENTS['request-body']
    const ids = async (old: Doc, next: Doc) =>
      (await diff(place(old), place(next))).changes.map((change) => change.id)
    expect(await ids(str, { ...str, pattern: '' })).toEqual([])
    expect(await ids({ ...str, pattern: '.*' }, str)).toEqual([])
    expect(await ids({ ...str, pattern: '' }, { ...str, pattern: '^a' })).toEqual([
      'request-body-pattern-added',
    ])
  })
})
