import { describe, expect, it } from 'vitest'
import type { Changelog } from '../changelog.js'
import { RULES } from '../rules.js'
import { SDK_RULES, type SdkRuleId } from './sdk-rules.js'
import { diff, withOperation, type Doc } from './test-documents.js'

/**
 * An API written once and printed as OpenAPI 2.0, 3.0 or 3.1: `{ $ref: 'Pet' }` names a
 * component schema, a parameter carries its `schema`, a body and each response a JSON schema.
 */
type Spec = {
  readonly operations: Record<string, Op>
  readonly schemas?: Record<string, Doc>
}
type Op = {
  readonly operationId?: string
  readonly parameters?: readonly Param[]
  readonly body?: Doc
  readonly responses?: Record<string, Doc | { headers: Record<string, Doc> } | null>
  readonly extensions?: Doc
}
type Param = { name: string; in: string; required?: boolean; schema: Doc } & Doc

const VERSIONS = ['2.0', '3.0', '3.1'] as const
type Version = (typeof VERSIONS)[number]

function print(spec: Spec, version: Version): Doc {
  const refs = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(refs)
    if (value === null || typeof value !== 'object') return value
    const entries = Object.entries(value).map(([key, inner]) =>
      key === '$ref'
        ? [key, version === '2.0' ? `#/definitions/${inner}` : `#/components/schemas/${inner}`]
        : [key, refs(inner)],
    )
    return Object.fromEntries(entries)
  }
  const paths: Record<string, Record<string, Doc>> = {}
  for (const [route, op] of Object.entries(spec.operations)) {
    const [method, path] = route.split(' ') as [string, string]
    const parameters = (op.parameters ?? []).map(({ schema, ...rest }) =>
      version === '2.0' ? { ...rest, ...(refs(schema) as Doc) } : { ...rest, schema: refs(schema) },
    )
    const responses: Record<string, Doc> = {}
    for (const [status, body] of Object.entries(op.responses ?? { '200': null })) {
      const response: Doc = { description: status }
      if (body && 'headers' in body)
        response['headers'] = Object.fromEntries(
          Object.entries(body['headers'] as Record<string, Doc>).map(([name, schema]) => [
            name,
            version === '2.0' ? schema : { schema },
          ]),
        )
      else if (body && version === '2.0') response['schema'] = refs(body)
      else if (body) response['content'] = { 'application/json': { schema: refs(body) } }
      responses[status] = response
    }
    if (op.body && version === '2.0')
      parameters.push({ name: 'body', in: 'body', required: true, schema: refs(op.body) })
    paths[path] ??= {}
    paths[path][method] = {
      ...(op.operationId && { operationId: op.operationId }),
      ...op.extensions,
      ...(parameters.length > 0 && { parameters }),
      ...(op.body &&
        version !== '2.0' && {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: refs(op.body) } },
          },
        }),
      responses,
    }
  }
  const info = { title: 'Pets', version: '1.0.0' }
  const schemas = refs(spec.schemas ?? {})
  if (version === '2.0')
    return {
      swagger: '2.0',
      info,
      consumes: ['application/json'],
      produces: ['application/json'],
      paths,
      definitions: schemas,
    }
  return {
    openapi: version === '3.0' ? '3.0.3' : '3.1.0',
    info,
    paths,
    components: { schemas },
  }
}

const pet = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
}
const error = { type: 'object', properties: { message: { type: 'string' } } }
const limit: Param = { name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }
const tags: Param = { name: 'tags', in: 'query', required: false, schema: { type: 'string' } }
const withPets = (op: Op, schemas: Record<string, Doc> = { Pet: pet }): Spec => ({
  operations: { 'get /pets': op },
  schemas,
})
const kind = (extension: Doc) => ({
  Pet: {
    ...pet,
    properties: { ...pet.properties, kind: { type: 'string', enum: ['dog', 'cat'], ...extension } },
  },
})
const hierarchy = (extended: boolean, version: Version): Record<string, Doc> => ({
  Pet: {
    type: 'object',
    discriminator: version === '2.0' ? 'petType' : { propertyName: 'petType' },
    required: ['petType'],
    properties: { petType: { type: 'string' }, name: { type: 'string' } },
  },
  Dog: extended
    ? { allOf: [{ $ref: 'Pet' }, { type: 'object', properties: { bark: { type: 'boolean' } } }] }
    : {
        type: 'object',
        properties: {
          petType: { type: 'string' },
          name: { type: 'string' },
          bark: { type: 'boolean' },
        },
        required: ['petType'],
      },
})

/** `Pet` with its properties from a base `Named`, or the same properties written in place. */
const expanded = (inPlace: boolean): Record<string, Doc> => ({
  Named: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
  Pet: inPlace
    ? {
        type: 'object',
        required: ['name', 'id'],
        properties: { name: { type: 'string' }, id: { type: 'integer' } },
      }
    : {
        allOf: [
          { $ref: 'Named' },
          { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
        ],
      },
})

/** An old and a new API for each SDK rule, where the wire profile sees nothing of it. */
const cases = (version: Version): Record<SdkRuleId, readonly [Spec, Spec]> => ({
  'sdk-operation-renamed': [
    withPets({ operationId: 'listPets', responses: { '200': { $ref: 'Pet' } } }),
    withPets({ operationId: 'findPets', responses: { '200': { $ref: 'Pet' } } }),
  ],
  'sdk-schema-renamed': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }),
    withPets({ responses: { '200': { $ref: 'Animal' } } }, { Animal: pet }),
  ],
  'sdk-schema-removed': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }),
    withPets({ responses: { '200': pet } }, {}),
  ],
  'sdk-schema-left-hierarchy': [
    withPets({ responses: { '200': { $ref: 'Dog' } } }, hierarchy(true, version)),
    withPets({ responses: { '200': { $ref: 'Dog' } } }, hierarchy(false, version)),
  ],
  'sdk-schema-base-removed': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }, expanded(false)),
    withPets({ responses: { '200': { $ref: 'Pet' } } }, expanded(true)),
  ],
  'sdk-enum-names-changed': [
    withPets(
      { responses: { '200': { $ref: 'Pet' } } },
      kind({ 'x-ms-enum': { name: 'Kind', modelAsString: false } }),
    ),
    withPets(
      { responses: { '200': { $ref: 'Pet' } } },
      kind({ 'x-ms-enum': { name: 'PetKind', modelAsString: false } }),
    ),
  ],
  'sdk-parameter-order-changed': [
    withPets({ parameters: [limit, tags] }),
    withPets({ parameters: [tags, limit] }),
  ],
  'sdk-operation-kind-changed': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }),
    withPets({
      responses: { '200': { $ref: 'Pet' } },
      extensions: { 'x-ms-long-running-operation': true },
    }),
  ],
  'sdk-optional-parameter-added': [
    withPets({ parameters: [limit] }),
    withPets({ parameters: [limit, tags] }),
  ],
  'sdk-client-parameter-changed': [
    withPets({ parameters: [limit] }),
    withPets({ parameters: [{ ...limit, 'x-ms-parameter-location': 'client' }] }),
  ],
  'sdk-body-model-changed': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }, { Pet: pet, Animal: pet }),
    withPets({ responses: { '200': { $ref: 'Animal' } } }, { Pet: pet, Animal: pet }),
  ],
  'sdk-parameter-location-changed': [
    withPets({ parameters: [limit] }),
    withPets({ parameters: [{ ...limit, in: 'header' }] }),
  ],
  'sdk-success-status-changed': [
    withPets({ responses: { '201': { type: 'array', items: { $ref: 'Pet' } } } }),
    withPets({
      responses: {
        '200': { type: 'array', items: { $ref: 'Pet' } },
        '201': { type: 'array', items: { $ref: 'Pet' } },
      },
    }),
  ],
  'sdk-response-status-added': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }),
    withPets({ responses: { '200': { $ref: 'Pet' }, '404': error } }),
  ],
  'sdk-success-data-widened': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }),
    withPets({ responses: { '200': { $ref: 'Pet' }, '202': error } }),
  ],
  'sdk-response-status-removed': [
    withPets({ responses: { '200': { $ref: 'Pet' }, '404': error } }),
    withPets({ responses: { '200': { $ref: 'Pet' } } }),
  ],
  'sdk-property-became-required': [
    withPets({ responses: { '200': { $ref: 'Pet' } } }),
    withPets(
      { responses: { '200': { $ref: 'Pet' } } },
      { Pet: { ...pet, required: ['id', 'name'] } },
    ),
  ],
  'sdk-property-became-optional': [
    { operations: { 'post /pets': { body: { $ref: 'Pet' } } }, schemas: { Pet: pet } },
    {
      operations: { 'post /pets': { body: { $ref: 'Pet' } } },
      schemas: { Pet: { ...pet, required: [] } },
    },
  ],
})
const CASES = cases('3.1')

function ids(log: Changelog): string[] {
  return log.changes.map((change) => change.id)
}

function sdkIds(log: Changelog): string[] {
  return ids(log).filter((id) => id.startsWith('sdk-'))
}

describe.each(VERSIONS)('the SDK profile on OpenAPI %s', (version) => {
  it.each(Object.keys(CASES) as SdkRuleId[])(
    'reports %s under sdk, and not under wire',
    async (id) => {
      const [a, b] = cases(version)[id]
      const sdk = await diff(print(a, version), print(b, version), { profile: 'sdk' })
      const change = sdk.changes.find((entry) => entry.id === id)
      expect(change, `${id} in ${JSON.stringify(ids(sdk))}`).toBeDefined()
      expect(change!.level).toBe(SDK_RULES[id].level)
      const wire = await diff(print(a, version), print(b, version))
      expect(sdkIds(wire)).toEqual([])
      expect(ids(wire)).not.toContain(id)
    },
  )

  it('reports nothing more under sdk for a change that leaves generated code as it was', async () => {
    const same: [Spec, Spec][] = [
      // `list-pets` and `listPets` name the same function.
      [withPets({ operationId: 'list-pets' }), withPets({ operationId: 'listPets' })],
      // A schema whose generated type keeps its name (`pet_owner`, `PetOwner`).
      [
        withPets({ responses: { '200': { $ref: 'pet_owner' } } }, { pet_owner: pet }),
        withPets({ responses: { '200': { $ref: 'PetOwner' } } }, { PetOwner: pet }),
      ],
      // A 2XX status beside another with the same body: the union member is shared.
      [
        withPets({ responses: { '200': { $ref: 'Pet' } } }),
        withPets({ responses: { '200': { $ref: 'Pet' }, '203': { $ref: 'Pet' } } }),
      ],
      // A 4XX status without a body is typed as every undocumented status is.
      [
        withPets({ responses: { '200': { $ref: 'Pet' } } }),
        withPets({ responses: { '200': { $ref: 'Pet' }, '404': null } }),
      ],
    ]
    for (const [a, b] of same) {
      const sdk = await diff(print(a, version), print(b, version), { profile: 'sdk' })
      expect(sdkIds(sdk), JSON.stringify(b)).toEqual([])
    }
  })
})

describe('the SDK profile', () => {
  it('reports a renamed schema whose uses follow it, which the wire does not see at all', async () => {
    const [a, b] = CASES['sdk-schema-renamed']
    const wire = await diff(print(a, '3.1'), print(b, '3.1'))
    expect(wire.changes.filter((change) => change.level !== 'info')).toEqual([])
    const sdk = await diff(print(a, '3.1'), print(b, '3.1'), { profile: 'sdk' })
    expect(sdk.changes.find((change) => change.id === 'sdk-schema-renamed')).toMatchObject({
      level: 'breaking',
      location: '/components/schemas/Animal',
      message:
        'The schema `Pet` was renamed `Animal`: its generated type is `Animal` (zod: `animalSchema`), no longer `Pet`.',
    })
    expect(sdk.counts.breaking).toBe(1)
  })

  it('names the old and new function of a renamed operation, and counts an operationId added', async () => {
    const sdk = await diff(
      print(withPets({}), '3.0'),
      print(withPets({ operationId: 'listPets' }), '3.0'),
      { profile: 'sdk' },
    )
    expect(sdk.changes.find((change) => change.id === 'sdk-operation-renamed')).toMatchObject({
      operation: 'GET /pets',
      location: '/paths/~1pets/get',
      message:
        'The generated function of GET /pets is now `listPets`, not `getPets` (operationId none → `listPets`), and its TanStack options `listPetsQuery`, not `getPetsQuery`.',
    })
  })

  it('judges a required move by direction: received and required, or sent and optional', async () => {
    // A request property becoming required breaks on the wire already; no SDK entry repeats it.
    const [a, b] = CASES['sdk-property-became-optional']
    const backwards = await diff(print(b, '3.1'), print(a, '3.1'), { profile: 'sdk' })
    expect(ids(backwards)).toContain('request-body-property-became-required')
    expect(sdkIds(backwards)).toEqual([])
    const [c, d] = CASES['sdk-property-became-required']
    const optional = await diff(print(d, '3.1'), print(c, '3.1'), { profile: 'sdk' })
    expect(ids(optional)).toContain('response-body-property-became-optional')
    expect(sdkIds(optional)).toEqual([])
  })

  it('judges a response header becoming required as its generated member losing `?`', async () => {
    const header = (required: boolean) =>
      withOperation({
        responses: {
          '200': {
            description: 'ok',
            headers: { 'X-Rate-Limit': { required, schema: { type: 'integer' } } },
          },
        },
      })
    const sdk = await diff(header(false), header(true), { profile: 'sdk' })
    expect(ids(sdk)).toEqual(['sdk-property-became-required', 'response-header-became-required'])
  })

  it('keeps a rule silent when none of the generators in use emits what it judges', async () => {
    const [a, b] = CASES['sdk-enum-names-changed']
    const run = (sdkGenerators?: readonly string[]) =>
      diff(print(a, '2.0'), print(b, '2.0'), {
        profile: 'sdk',
        ...(sdkGenerators && { sdkGenerators }),
      }).then(sdkIds)
    // svc's generators type an enum as a union of its values: they never read these names.
    expect(await run(['@svc/gen-typescript', '@svc/gen-fetch-client'])).toEqual([])
    expect(await run(['@svc/gen-fetch-client', 'autorest'])).toEqual(['sdk-enum-names-changed'])
    expect(await run()).toEqual(['sdk-enum-names-changed'])
  })

  it('ties result-union rules to the client generators (TanStack Query runs on the fetch client)', async () => {
    const [a, b] = CASES['sdk-response-status-removed']
    const run = (sdkGenerators: readonly string[]) =>
      diff(print(a, '3.0'), print(b, '3.0'), { profile: 'sdk', sdkGenerators }).then(sdkIds)
    expect(await run(['@svc/gen-zod'])).toEqual([])
    expect(await run(['@svc/gen-tanstack-query'])).toEqual(['sdk-response-status-removed'])
  })

  it("reads x-ms-enum where AutoRest's Swagger 2.0 documents put it: on a query parameter", async () => {
    const parameter = (name: string, modelAsString: boolean) =>
      withPets({
        parameters: [
          {
            name: 'kind',
            in: 'query',
            schema: { type: 'string', enum: ['dog', 'cat'] },
            'x-ms-enum': { name, modelAsString },
          },
        ],
      })
    const sdk = await diff(
      print(parameter('Kind', false), '2.0'),
      print(parameter('Kind', true), '2.0'),
      {
        profile: 'sdk',
      },
    )
    expect(sdk.changes).toMatchObject([
      {
        id: 'sdk-enum-names-changed',
        location: '/paths/~1pets/get/parameters/query/kind',
        message:
          'The names an enum is generated with changed: `x-ms-enum` modelAsString `false` → `true`.',
      },
    ])
  })

  it("orders a method's own parameters: AutoRest makes shared ones client properties unless they say `method`", async () => {
    const shared = (location?: string) => ({
      in: 'query',
      required: true,
      type: 'string',
      ...(location && { 'x-ms-parameter-location': location }),
    })
    const document = (order: readonly string[]) => ({
      swagger: '2.0',
      info: { title: 'Parameters', version: '1.0' },
      paths: {
        '/things': {
          get: {
            operationId: 'Things_Get',
            parameters: order.map((name) => ({ $ref: `#/parameters/${name}` })),
            responses: { '200': { description: 'ok' } },
          },
        },
      },
      parameters: {
        Implicit: { name: 'implicit', ...shared() },
        Client: { name: 'client', ...shared('client') },
        First: { name: 'first', ...shared('method') },
        Second: { name: 'second', ...shared('method') },
      },
    })
    const order = async (next: readonly string[]) =>
      sdkIds(
        await diff(document(['Implicit', 'First', 'Client', 'Second']), document(next), {
          profile: 'sdk',
        }),
      )
    expect(await order(['First', 'Client', 'Second', 'Implicit'])).toEqual([])
    expect(await order(['Second', 'Implicit', 'First', 'Client'])).toEqual([
      'sdk-parameter-order-changed',
    ])
  })

  it('has every SDK rule in the catalogue, for OpenAPI', () => {
    for (const id of Object.keys(SDK_RULES)) expect(RULES[id as SdkRuleId].protocol).toBe('oas')
  })
})

describe('sdk-operation-kind-changed', () => {
  const listed = (extensions?: Doc): Spec =>
    withPets({ responses: { '200': { $ref: 'Pet' } }, ...(extensions && { extensions }) })
  const kindIds = async (a: Spec, b: Spec, version: Version, sdkGenerators?: string[]) =>
    sdkIds(
      await diff(print(a, version), print(b, version), {
        profile: 'sdk',
        ...(sdkGenerators && { sdkGenerators }),
      }),
    )

  it.each(VERSIONS)(
    'reports an operation that becomes or stops being long-running or pageable (%s)',
    async (version) => {
      const lro = { 'x-ms-long-running-operation': true }
      const pageable = { 'x-ms-pageable': { nextLinkName: 'nextLink' } }
      const changed: [Spec, Spec][] = [
        [listed(), listed(lro)],
        [listed(lro), listed()],
        [listed(), listed(pageable)],
        [listed(pageable), listed()],
        [listed(pageable), listed({ 'x-ms-pageable': { nextLinkName: null } })],
        [
          listed(lro),
          listed({
            ...lro,
            'x-ms-long-running-operation-options': { 'final-state-via': 'location' },
          }),
        ],
      ]
      for (const [a, b] of changed)
        expect(await kindIds(a, b, version), JSON.stringify(b)).toEqual([
          'sdk-operation-kind-changed',
        ])
      // `false` is no long-running operation; an unchanged kind is nothing.
      expect(
        await kindIds(listed(), listed({ 'x-ms-long-running-operation': false }), version),
      ).toEqual([])
      expect(await kindIds(listed(pageable), listed(pageable), version)).toEqual([])
    },
  )

  it("is silent for svc's generators, which read neither extension", async () => {
    const a = listed()
    const b = listed({ 'x-ms-long-running-operation': true })
    expect(await kindIds(a, b, '3.0', ['@svc/gen-fetch-client', '@svc/gen-typescript'])).toEqual([])
    expect(await kindIds(a, b, '3.0', ['autorest'])).toEqual(['sdk-operation-kind-changed'])
  })
})

describe('parameters added to or moved off a positional signature', () => {
  const sdk = async (a: Spec, b: Spec, version: Version) =>
    sdkIds(await diff(print(a, version), print(b, version), { profile: 'sdk' }))
  const required: Param = { name: 'owner', in: 'query', required: true, schema: { type: 'string' } }

  it.each(VERSIONS)(
    'reports an optional argument added, and a parameter moved to or from the client (%s)',
    async (version) => {
      const client = { ...limit, 'x-ms-parameter-location': 'client' }
      expect(await sdk(withPets({}), withPets({ parameters: [limit] }), version)).toEqual([
        'sdk-optional-parameter-added',
      ])
      expect(
        await sdk(withPets({ parameters: [client] }), withPets({ parameters: [limit] }), version),
      ).toEqual(['sdk-client-parameter-changed'])
      // A client parameter added is no argument; a required one breaks the wire already.
      expect(await sdk(withPets({}), withPets({ parameters: [client] }), version)).toEqual([])
      expect(await sdk(withPets({}), withPets({ parameters: [required] }), version)).toEqual([])
      // A parameter that moved to another location is that rule alone.
      expect(
        await sdk(
          withPets({ parameters: [limit] }),
          withPets({ parameters: [{ ...limit, in: 'header' }] }),
          version,
        ),
      ).toEqual(['sdk-parameter-location-changed'])
    },
  )

  it("is silent for svc's generators, whose argument names every parameter", async () => {
    const run = (sdkGenerators: string[]) =>
      diff(print(withPets({}), '3.0'), print(withPets({ parameters: [limit] }), '3.0'), {
        profile: 'sdk',
        sdkGenerators,
      }).then(sdkIds)
    expect(await run(['@svc/gen-fetch-client', '@svc/gen-tanstack-query'])).toEqual([])
    expect(await run(['openapi-generator-java'])).toEqual(['sdk-optional-parameter-added'])
  })
})

describe('sdk-schema-base-removed', () => {
  it.each(VERSIONS)(
    'reports a base dropped from allOf, not one added, and only for other generators (%s)',
    async (version) => {
      const run = (a: Spec, b: Spec, sdkGenerators?: string[]) =>
        diff(print(a, version), print(b, version), {
          profile: 'sdk',
          ...(sdkGenerators && { sdkGenerators }),
        }).then(sdkIds)
      const a = withPets({ responses: { '200': { $ref: 'Pet' } } }, expanded(false))
      const b = withPets({ responses: { '200': { $ref: 'Pet' } } }, expanded(true))
      expect(await run(a, b)).toEqual(['sdk-schema-base-removed'])
      // A supertype gained still accepts every use of the type.
      expect(await run(b, a)).toEqual([])
      // svc's generators merge allOf: the same properties are the same type.
      expect(await run(a, b, ['@svc/gen-typescript', '@svc/gen-zod'])).toEqual([])
    },
  )
})

describe('sdk-body-model-changed', () => {
  it.each(VERSIONS)(
    'reports a body that names another existing model, in a request and a response (%s)',
    async (version) => {
      const run = (a: Spec, b: Spec, sdkGenerators?: string[]) =>
        diff(print(a, version), print(b, version), {
          profile: 'sdk',
          ...(sdkGenerators && { sdkGenerators }),
        }).then(sdkIds)
      const both = { Pet: pet, Animal: pet }
      const post = (model: string, list = false): Spec => ({
        operations: {
          'post /pets': {
            body: { $ref: model },
            responses: {
              '200': list ? { type: 'array', items: { $ref: model } } : { $ref: model },
            },
          },
        },
        schemas: both,
      })
      expect(await run(post('Pet'), post('Animal'))).toEqual([
        'sdk-body-model-changed',
        'sdk-body-model-changed',
      ])
      expect(await run(post('Pet', true), post('Animal', true))).toEqual([
        'sdk-body-model-changed',
        'sdk-body-model-changed',
      ])
      // A model renamed is sdk-schema-renamed alone; svc's structural types see the same shape.
      expect(
        await run(
          { ...post('Pet'), schemas: { Pet: pet } },
          { ...post('Animal'), schemas: { Animal: pet } },
        ),
      ).toEqual(['sdk-schema-renamed'])
      expect(
        await run(post('Pet'), post('Animal'), ['@svc/gen-typescript', '@svc/gen-fetch-client']),
      ).toEqual([])
    },
  )
})

describe('sdk-body-model-changed without a JSON media type', () => {
  it('reads a Swagger 2.0 response that declares no produces (*/*)', async () => {
    const swagger = (model: string): Doc => ({
      swagger: '2.0',
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pets': {
          get: {
            responses: { '200': { description: 'ok', schema: { $ref: `#/definitions/${model}` } } },
          },
        },
      },
      definitions: { Pet: pet, Animal: pet },
    })
    const log = await diff(swagger('Pet'), swagger('Animal'), { profile: 'sdk' })
    expect(sdkIds(log)).toEqual(['sdk-body-model-changed'])
  })
})
