import { describe, expect, it } from 'vitest'
import { RULES } from '../rules.js'
import { OAS_RULES, SCHEMA_CONTEXTS, SCHEMA_KINDS, type SchemaKind } from './rules.js'
import type { DiffPolicy } from '../policies.js'
import { api, diff, PLACEMENTS, withOperation, type Doc } from './test-documents.js'
import { SDK_RULES } from './sdk-rules.js'

type Pair = readonly [old: Doc, next: Doc]

const str = { type: 'string' }
const obj = (properties: Doc, required: string[] = [], extra: Doc = {}) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
})
const list = (extra: Doc = {}) => ({ type: 'array', items: str, ...extra })
const pets = {
  Cat: obj({ kind: str }, ['kind']),
  Dog: obj({ kind: str }, ['kind']),
}
const pet = (propertyName: string, mapping?: Record<string, string>) => ({
  oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
  discriminator: { propertyName, ...(mapping ? { mapping } : {}) },
})

/** For each schema kind: two schemas (and components) whose difference is that kind. */
const SCHEMA_PAIRS: Record<SchemaKind, { old: Doc; next: Doc; components?: Doc }> = {
  'type-changed': { old: str, next: { type: 'boolean' } },
  'type-generalized': { old: { type: 'integer' }, next: { type: 'number' } },
  'type-narrowed': { old: { type: 'number' }, next: { type: 'integer' } },
  'format-changed': { old: { ...str, format: 'date' }, next: { ...str, format: 'date-time' } },
  'format-added': { old: str, next: { ...str, format: 'email' } },
  'format-removed': { old: { ...str, format: 'email' }, next: str },
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
  'max-length-set': { old: str, next: { ...str, maxLength: 10 } },
  'max-length-increased': { old: { ...str, maxLength: 5 }, next: { ...str, maxLength: 10 } },
  'min-length-increased': { old: { ...str, minLength: 1 }, next: { ...str, minLength: 2 } },
  'min-length-decreased': { old: { ...str, minLength: 2 }, next: { ...str, minLength: 1 } },
  'max-decreased': { old: { type: 'integer', maximum: 10 }, next: { type: 'integer', maximum: 5 } },
  'max-increased': { old: { type: 'integer', maximum: 5 }, next: { type: 'integer' } },
  'min-increased': {
    old: { type: 'integer', minimum: 0 },
    next: { type: 'integer', exclusiveMinimum: 0 },
  },
  'max-set': { old: { type: 'integer' }, next: { type: 'integer', exclusiveMaximum: 10 } },
  'min-set': { old: { type: 'number' }, next: { type: 'number', minimum: 0 } },
  'min-decreased': { old: { type: 'integer', minimum: 5 }, next: { type: 'integer', minimum: 1 } },
  'multiple-of-changed': {
    old: { type: 'integer', multipleOf: 2 },
    next: { type: 'integer', multipleOf: 3 },
  },
  'schema-deprecated': { old: obj({ a: str }), next: obj({ a: str }, [], { deprecated: true }) },
  'schema-reactivated': { old: obj({ a: str }, [], { deprecated: true }), next: obj({ a: str }) },
  'multiple-of-narrowed': {
    old: { type: 'number', multipleOf: 0.01 },
    next: { type: 'number', multipleOf: 0.1 },
  },
  'multiple-of-widened': { old: { type: 'integer', multipleOf: 20 }, next: { type: 'integer' } },
  'unique-items-added': { old: list(), next: list({ uniqueItems: true }) },
  'unique-items-removed': { old: list({ uniqueItems: true }), next: list({ uniqueItems: false }) },
  'max-items-decreased': {
    old: { type: 'array', items: str, maxItems: 10 },
    next: { type: 'array', items: str, maxItems: 5 },
  },
  'max-items-increased': {
    old: { type: 'array', items: str, maxItems: 5 },
    next: { type: 'array', items: str, maxItems: 10 },
  },
  'min-items-increased': {
    old: { type: 'array', items: str, minItems: 1 },
    next: { type: 'array', items: str, minItems: 2 },
  },
  'min-items-set': {
    old: { type: 'array', items: str },
    next: { type: 'array', items: str, minItems: 1 },
  },
  'max-items-set': {
    old: { type: 'array', items: str, minItems: 0 },
    next: { type: 'array', items: str, maxItems: 250 },
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
  'default-changed': { old: { ...str, default: 'a' }, next: { ...str, default: 'b' } },
  'default-added': { old: str, next: { ...str, default: 'a' } },
  'default-removed': { old: { ...str, default: 'a' }, next: str },
  'const-added': { old: str, next: { ...str, const: 'a' } },
  'const-changed': { old: { ...str, const: 'a' }, next: { ...str, const: 'b' } },
  'const-removed': { old: { const: { a: 1 } }, next: {} },
  'property-no-longer-read-only': {
    old: obj({ a: { ...str, readOnly: true } }),
    next: obj({ a: str }),
  },
  'property-no-longer-write-only': {
    old: obj({ a: { ...str, writeOnly: true } }),
    next: obj({ a: str }),
  },
  'property-reactivated': { old: obj({ a: { ...str, deprecated: true } }), next: obj({ a: str }) },
  'extensible-enum-value-added': {
    old: { ...str, 'x-extensible-enum': ['a'] },
    next: { ...str, 'x-extensible-enum': ['a', 'b'] },
  },
  'extensible-enum-value-removed': {
    old: { ...str, 'x-extensible-enum': ['a', 'b'] },
    next: { ...str, 'x-extensible-enum': ['a'] },
  },
  'discriminator-added': {
    old: { oneOf: pet('kind').oneOf },
    next: pet('kind'),
    components: { schemas: pets },
  },
  'discriminator-removed': {
    old: pet('kind'),
    next: { oneOf: pet('kind').oneOf },
    components: { schemas: pets },
  },
  'discriminator-property-changed': {
    old: pet('kind'),
    next: pet('type'),
    components: { schemas: pets },
  },
  'discriminator-mapping-added': {
    old: pet('kind'),
    next: pet('kind', { cat: 'Cat' }),
    components: { schemas: pets },
  },
  'discriminator-mapping-removed': {
    old: pet('kind', { cat: 'Cat' }),
    next: pet('kind'),
    components: { schemas: pets },
  },
  'discriminator-mapping-changed': {
    old: pet('kind', { cat: 'Cat' }),
    next: pet('kind', { cat: '#/components/schemas/Dog' }),
    components: { schemas: pets },
  },
  'wrapped-in-union': { old: str, next: { type: ['string', 'integer'] } },
  'one-of-overlap-added': { old: str, next: { oneOf: [str, { ...str, format: 'email' }] } },
  'any-of-became-one-of': {
    old: { anyOf: [{ type: 'number' }, { type: 'integer' }] },
    next: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
  },
  'one-of-became-any-of': {
    old: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
    next: { anyOf: [{ type: 'number' }, { type: 'integer' }] },
  },

  // JSON Schema 2020-12 applicators
  'prefix-item-added': {
    old: { type: 'array', prefixItems: [str], items: false },
    next: { type: 'array', prefixItems: [str, { type: 'integer' }], items: false },
  },
  'prefix-item-removed': {
    old: { type: 'array', prefixItems: [str, { type: 'integer' }], items: false },
    next: { type: 'array', prefixItems: [str], items: false },
  },
  'contains-added': { old: list(), next: list({ contains: str }) },
  'contains-removed': { old: list({ contains: str }), next: list() },
  'min-contains-increased': {
    old: list({ contains: str }),
    next: list({ contains: str, minContains: 2 }),
  },
  'min-contains-decreased': {
    old: list({ contains: str, minContains: 2 }),
    next: list({ contains: str }),
  },
  'max-contains-decreased': {
    old: list({ contains: str }),
    next: list({ contains: str, maxContains: 3 }),
  },
  'max-contains-increased': {
    old: list({ contains: str, maxContains: 3 }),
    next: list({ contains: str, maxContains: 5 }),
  },
  'unevaluated-items-closed': { old: list(), next: list({ unevaluatedItems: false }) },
  'unevaluated-items-opened': { old: list({ unevaluatedItems: false }), next: list() },
  'pattern-property-added': {
    old: obj({ a: str }),
    next: obj({ a: str }, [], { patternProperties: { '^x-': str } }),
  },
  'pattern-property-removed': {
    old: obj({ a: str }, [], { patternProperties: { '^x-': str } }),
    next: obj({ a: str }),
  },
  'property-names-added': {
    old: obj({ a: str }),
    next: obj({ a: str }, [], { propertyNames: { ...str, maxLength: 10 } }),
  },
  'property-names-removed': {
    old: obj({ a: str }, [], { propertyNames: { ...str, maxLength: 10 } }),
    next: obj({ a: str }),
  },
  'dependent-required-added': {
    old: obj({ a: str, b: str }),
    next: obj({ a: str, b: str }, [], { dependentRequired: { a: ['b'] } }),
  },
  'dependent-required-removed': {
    old: obj({ a: str, b: str }, [], { dependentRequired: { a: ['b'] } }),
    next: obj({ a: str, b: str }),
  },
  'dependent-schema-added': {
    old: obj({ a: str, b: str }),
    next: obj({ a: str, b: str }, [], { dependentSchemas: { a: { required: ['b'] } } }),
  },
  'dependent-schema-removed': {
    old: obj({ a: str, b: str }, [], { dependentSchemas: { a: { required: ['b'] } } }),
    next: obj({ a: str, b: str }),
  },
  'unevaluated-properties-closed': {
    old: obj({ a: str }),
    next: obj({ a: str }, [], { unevaluatedProperties: false }),
  },
  'unevaluated-properties-opened': {
    old: obj({ a: str }, [], { unevaluatedProperties: false }),
    next: obj({ a: str }),
  },
  'content-media-type-changed': {
    old: { ...str, contentMediaType: 'image/png' },
    next: { ...str, contentMediaType: 'image/jpeg' },
  },
  'content-encoding-changed': { old: str, next: { ...str, contentEncoding: 'base64' } },
  'content-schema-added': {
    old: { ...str, contentMediaType: 'application/json' },
    next: { ...str, contentMediaType: 'application/json', contentSchema: { type: 'object' } },
  },
  'content-schema-removed': {
    old: { ...str, contentMediaType: 'application/json', contentSchema: { type: 'object' } },
    next: { ...str, contentMediaType: 'application/json' },
  },
  'not-schema-added': { old: str, next: { ...str, not: { ...str, enum: ['x'] } } },
  'not-schema-removed': { old: { ...str, not: { ...str, enum: ['x'] } }, next: str },
  'not-schema-changed': {
    old: { ...str, not: { ...str, enum: ['x'] } },
    next: { ...str, not: { ...str, enum: ['y'] } },
  },
  'conditional-added': {
    old: obj({ a: str, b: str }),
    next: obj({ a: str, b: str }, [], { if: { required: ['a'] }, then: { required: ['b'] } }),
  },
  'conditional-removed': {
    old: obj({ a: str, b: str }, [], { if: { required: ['a'] }, then: { required: ['b'] } }),
    next: obj({ a: str, b: str }),
  },
  'conditional-changed': {
    old: obj({ a: str, b: str }, [], { if: { required: ['a'] }, then: { required: ['b'] } }),
    next: obj({ a: str, b: str }, [], { if: { required: ['b'] }, then: { required: ['a'] } }),
  },
  'max-properties-decreased': {
    old: obj({ a: str }, [], { maxProperties: 5 }),
    next: obj({ a: str }, [], { maxProperties: 3 }),
  },
  'max-properties-increased': {
    old: obj({ a: str }, [], { maxProperties: 3 }),
    next: obj({ a: str }),
  },
  'max-properties-set': { old: obj({ a: str }), next: obj({ a: str }, [], { maxProperties: 3 }) },
  'min-properties-increased': {
    old: obj({ a: str }, [], { minProperties: 1 }),
    next: obj({ a: str }, [], { minProperties: 2 }),
  },
  'min-properties-decreased': {
    old: obj({ a: str }, [], { minProperties: 2 }),
    next: obj({ a: str }),
  },
  'min-properties-set': { old: obj({ a: str }), next: obj({ a: str }, [], { minProperties: 1 }) },
  'inapplicable-keyword-changed': {
    old: { ...str, minItems: 13 },
    next: { ...str, minItems: 11 },
  },
  'all-of-member-added': {
    old: { allOf: [{ $ref: '#/components/schemas/Cat' }] },
    next: { allOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
    components: { schemas: pets },
  },
  'all-of-member-removed': {
    old: { allOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
    next: { allOf: [{ $ref: '#/components/schemas/Cat' }] },
    components: { schemas: pets },
  },
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
const sunsetParameter = (sunset: string) => parameter({ deprecated: true, 'x-sunset': sunset })
const jsonBody = (schema: Doc = str) => ({ content: { 'application/json': { schema } } })
const ok = { description: 'ok' }
const oauth = (flows: Doc) => ({
  components: { securitySchemes: { oauth: { type: 'oauth2', flows } } },
})
const codeFlow = (scopes: Doc, tokenUrl = 'https://a.example/token') => ({
  authorizationCode: { authorizationUrl: 'https://a.example/auth', tokenUrl, scopes },
})
const op = (extra: Doc = {}) => withOperation(extra)
/** A media type without a schema: any value. */
const untyped = { content: { 'application/json': {} } }
const hook = (requestBody: Doc, extra: Doc = {}) =>
  api({ webhooks: { hook: { post: { requestBody, responses: { '200': ok }, ...extra } } } })
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
    withOperation({ parameters: [parameter({ schema: list() })] }),
    withOperation({ parameters: [parameter({ schema: list(), explode: false })] }),
  ],
  'request-parameter-explode-changed': [
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
  'response-header-deprecated': [
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str } } } } }),
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str, deprecated: true } } } },
    }),
  ],
  'response-header-reactivated': [
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str, deprecated: true } } } },
    }),
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str, deprecated: false } } } },
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
  'endpoint-security-alternative-relaxed': [
    withOperation({ security: [{ key: [], basic: [] }] }, schemes),
    withOperation({ security: [{ key: [] }] }, schemes),
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
  'api-security-added': [
    withOperation({}, schemes),
    withOperation({}, { ...schemes, security: [{ key: [] }] }),
  ],
  'api-security-removed': [
    withOperation({}, { ...schemes, security: [{ key: [] }] }),
    withOperation({}, schemes),
  ],
  'api-security-alternative-added': [
    withOperation({}, { ...schemes, security: [{ key: [] }] }),
    withOperation({}, { ...schemes, security: [{ key: [] }, { basic: [] }] }),
  ],
  'api-security-alternative-relaxed': [
    withOperation({}, { ...schemes, security: [{ key: [], basic: [] }] }),
    withOperation({}, { ...schemes, security: [{ key: [] }] }),
  ],
  'api-security-alternative-removed': [
    withOperation({}, { ...schemes, security: [{ key: [] }, { basic: [] }] }),
    withOperation({}, { ...schemes, security: [{ key: [] }] }),
  ],
  'api-security-scope-added': [
    withOperation(
      {},
      { ...oauth(codeFlow({ read: 'r', write: 'w' })), security: [{ oauth: ['read'] }] },
    ),
    withOperation(
      {},
      { ...oauth(codeFlow({ read: 'r', write: 'w' })), security: [{ oauth: ['read', 'write'] }] },
    ),
  ],
  'api-security-scope-removed': [
    withOperation(
      {},
      { ...oauth(codeFlow({ read: 'r', write: 'w' })), security: [{ oauth: ['read', 'write'] }] },
    ),
    withOperation(
      {},
      { ...oauth(codeFlow({ read: 'r', write: 'w' })), security: [{ oauth: ['read'] }] },
    ),
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
  'security-scheme-bearer-format-changed': [
    api({
      components: {
        securitySchemes: { s: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    }),
    api({ components: { securitySchemes: { s: { type: 'http', scheme: 'bearer' } } } }),
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
  'request-parameter-reactivated': [
    withOperation({ parameters: [parameter({ deprecated: true })] }),
    withOperation({ parameters: [parameter()] }),
  ],
  'deprecated-request-parameter-removed': [
    withOperation({ parameters: [parameter({ deprecated: true })] }),
    withOperation({}),
  ],
  'request-body-media-type-schema-added': [
    withOperation({ requestBody: untyped }, {}, 'post'),
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
  ],
  'request-body-media-type-schema-removed': [
    withOperation({ requestBody: jsonBody() }, {}, 'post'),
    withOperation({ requestBody: untyped }, {}, 'post'),
  ],
  'response-media-type-schema-added': [
    withOperation({ responses: { '200': { ...ok, ...untyped } } }),
    withOperation({ responses: { '200': { ...ok, ...jsonBody() } } }),
  ],
  'response-media-type-schema-removed': [
    withOperation({ responses: { '200': { ...ok, ...jsonBody() } } }),
    withOperation({ responses: { '200': { ...ok, ...untyped } } }),
  ],
  'webhook-payload-media-type-schema-added': [hook(untyped), hook(jsonBody())],
  'webhook-payload-media-type-schema-removed': [hook(jsonBody()), hook(untyped)],
  'deprecated-webhook-removed': [hook(jsonBody(), { deprecated: true }), api()],
  'oauth-scope-description-changed': [
    api(oauth(codeFlow({ read: 'Read items' }))),
    api(oauth(codeFlow({ read: 'Read items and their owners' }))),
  ],
  'endpoint-sunset-removed': [
    op({ deprecated: true, 'x-sunset': '2027-01-01' }),
    op({ deprecated: true }),
  ],
  'endpoint-sunset-moved-earlier': [
    op({ deprecated: true, 'x-sunset': '2027-01-01' }),
    op({ deprecated: true, 'x-sunset': '2026-09-01' }),
  ],
  'request-parameter-removed-before-sunset': [
    withOperation({ parameters: [sunsetParameter('2999-01-01')] }),
    withOperation({}),
  ],
  'request-parameter-sunset-removed': [
    withOperation({ parameters: [sunsetParameter('2999-01-01')] }),
    withOperation({ parameters: [parameter({ deprecated: true })] }),
  ],
  'request-parameter-sunset-moved-earlier': [
    withOperation({ parameters: [sunsetParameter('2999-01-01')] }),
    withOperation({ parameters: [sunsetParameter('2998-01-01')] }),
  ],
  'endpoint-sunset-in-past': [op(), op({ deprecated: true, 'x-sunset': '2000-01-01' })],
  'request-parameter-sunset-in-past': [
    withOperation({ parameters: [parameter()] }),
    withOperation({ parameters: [sunsetParameter('2000-01-01')] }),
  ],
  'endpoint-removed-before-sunset': [op({ deprecated: true, 'x-sunset': '2999-01-01' }), api()],
  'endpoint-stability-decreased': [op(), op({ 'x-stability-level': 'beta' })],
  'endpoint-stability-increased': [
    op({ 'x-stability-level': 'alpha' }),
    op({ 'x-stability-level': 'beta' }),
  ],
  'unstable-endpoint-removed': [op({ 'x-stability-level': 'draft' }), api()],
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
  'request-parameter-allow-empty-value-set': [
    withOperation({ parameters: [parameter()] }),
    withOperation({ parameters: [parameter({ allowEmptyValue: true })] }),
  ],
  'request-parameter-allow-empty-value-cleared': [
    withOperation({ parameters: [parameter({ allowEmptyValue: true })] }),
    withOperation({ parameters: [parameter()] }),
  ],
  'request-parameter-allow-reserved-set': [
    withOperation({ parameters: [parameter()] }),
    withOperation({ parameters: [parameter({ allowReserved: true })] }),
  ],
  'request-parameter-allow-reserved-cleared': [
    withOperation({ parameters: [parameter({ allowReserved: true })] }),
    withOperation({ parameters: [parameter()] }),
  ],
  'response-media-type-narrowed': [
    withOperation({
      responses: { '200': { ...ok, content: { 'application/json': { schema: str } } } },
    }),
    withOperation({
      responses: { '200': { ...ok, content: { 'application/problem+json': { schema: str } } } },
    }),
  ],
  'response-media-type-widened': [
    withOperation({
      responses: {
        '200': { ...ok, content: { 'application/json;charset=utf-8': { schema: str } } },
      },
    }),
    withOperation({
      responses: { '200': { ...ok, content: { 'application/json': { schema: str } } } },
    }),
  ],
  'response-media-type-parameter-changed': [
    withOperation({
      responses: { '200': { ...ok, content: { 'text/plain;charset=utf-8': { schema: str } } } },
    }),
    withOperation({
      responses: { '200': { ...ok, content: { 'text/plain;charset=utf-16': { schema: str } } } },
    }),
  ],
  'response-media-type-changed': [
    withOperation({
      responses: { '200': { ...ok, content: { 'application/json': { schema: str } } } },
    }),
    withOperation({
      responses: { '200': { ...ok, content: { 'application/problem+json;q=1': { schema: str } } } },
    }),
  ],
  'response-header-style-changed': [
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: obj({}) } } } } }),
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: obj({}), explode: true } } } },
    }),
  ],
  'response-header-explode-changed': [
    withOperation({ responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str } } } } }),
    withOperation({
      responses: { '200': { ...ok, headers: { 'X-Rate': { schema: str, explode: true } } } },
    }),
  ],
}

const TODAY = new Date('2026-06-01T12:00:00Z')

/** Rules that only a policy turns on: the policy, and a pair whose difference is the rule. */
const POLICY_PAIRS: Record<string, { policy: DiffPolicy; pair: Pair }> = {
  'endpoint-deprecated-without-sunset': {
    policy: 'sunset',
    pair: [op(), op({ deprecated: true })],
  },
  'endpoint-sunset-invalid': {
    policy: 'sunset',
    pair: [op(), op({ deprecated: true, 'x-sunset': 'next spring' })],
  },
  'request-parameter-deprecated-without-sunset': {
    policy: 'sunset',
    pair: [
      withOperation({ parameters: [parameter()] }),
      withOperation({ parameters: [parameter({ deprecated: true })] }),
    ],
  },
  'request-parameter-sunset-invalid': {
    policy: 'sunset',
    pair: [
      withOperation({ parameters: [parameter()] }),
      withOperation({ parameters: [sunsetParameter('31/12/2026')] }),
    ],
  },
  'endpoint-stability-invalid': {
    policy: 'stability',
    pair: [op(), op({ 'x-stability-level': 'experimental' })],
  },
  'api-version-not-bumped': { policy: 'version', pair: [op(), api()] },
  'api-major-version-not-bumped': {
    policy: 'version',
    pair: [op(), api({ info: { title: 'Test', version: '1.1.0' } })],
  },
  'api-version-decreased': {
    policy: 'version',
    pair: [op(), api({ info: { title: 'Test', version: '0.9.0' } })],
  },
}

describe('the OpenAPI rule catalogue', () => {
  it('has a document pair for every rule', () => {
    const tested = new Set([
      ...Object.keys(FIXED_PAIRS),
      ...Object.keys(POLICY_PAIRS),
      ...schemaCases.map(({ id }) => id),
      // Each with its pair on 2.0, 3.0 and 3.1 in sdk-diff.test.ts.
      ...Object.keys(SDK_RULES),
    ])
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

  it.each(Object.entries(POLICY_PAIRS))(
    '%s fires with its level under its policy, and not without it',
    async (id, { policy, pair: [old, next] }) => {
      const { changes } = await diff(old, next, { policies: new Set([policy]), now: TODAY })
      const hit = changes.find((change) => change.id === id)
      expect(hit, JSON.stringify(changes, null, 2)).toBeDefined()
      expect(hit!.level).toBe(RULES[id as keyof typeof RULES].level)
      expect(hit!.message).toMatch(/\.$/)
      const plain = await diff(old, next, { now: TODAY })
      expect(plain.changes.map((change) => change.id)).not.toContain(id)
    },
  )

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

describe('a response header deprecated in OpenAPI 3.0', () => {
  it('is told, and so is its return', async () => {
    const header = (deprecated?: boolean) => ({
      ...withOperation({
        responses: {
          '200': { description: 'ok', headers: { 'X-Rate': { schema: str, deprecated } } },
        },
      }),
      openapi: '3.0.3',
    })
    const ids = async (old: Doc, next: Doc) =>
      (await diff(old, next)).changes.map((change) => `${change.id} ${change.level}`)
    expect(await ids(header(), header(true))).toEqual(['response-header-deprecated info'])
    expect(await ids(header(true), header(false))).toEqual(['response-header-reactivated info'])
  })
})

describe('a security requirement that asks for more schemes than before', () => {
  it('removes the old alternative (its clients lack the new credential), OpenAPI 3.0', async () => {
    const doc = (security: Doc[]) => ({ ...withOperation({ security }, schemes), openapi: '3.0.3' })
    const ids = async (old: Doc, next: Doc) =>
      (await diff(old, next)).changes.map((change) => `${change.id} ${change.level}`)
    expect(await ids(doc([{ key: [] }]), doc([{ key: [], basic: [] }]))).toEqual([
      'endpoint-security-alternative-removed breaking',
      'endpoint-security-alternative-added info',
    ])
    expect(await ids(doc([{ key: [], basic: [] }]), doc([{ key: [] }]))).toEqual([
      'endpoint-security-alternative-relaxed info',
    ])
  })
})
