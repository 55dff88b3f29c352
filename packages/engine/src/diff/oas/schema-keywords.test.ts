import { describe, expect, it } from 'vitest'
import { diff, type Doc } from './test-documents.js'

/**
 * Schema keywords the comparison once passed over: minProperties/maxProperties, uniqueItems, the
 * direction of a multipleOf change, keywords written on a schema without a type (alone or as an
 * allOf member), keywords of another type, formats the model does not represent, and allOf members. Each is checked where a client sends the value
 * and where it receives it, in Swagger 2.0, OpenAPI 3.0 and 3.1 documents.
 */
const VERSIONS = ['2.0', '3.0', '3.1'] as const
type Version = (typeof VERSIONS)[number]
type Side = 'request' | 'response'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const str = { type: 'string' }
const obj = (properties: Doc, extra: Doc = {}) => ({ type: 'object', properties, ...extra })

/** 2.0 names components `definitions`; the schemas here are written with 3.x refs. */
function forVersion(version: Version, value: unknown): unknown {
  if (version !== '2.0') return value
  return JSON.parse(JSON.stringify(value).replaceAll('#/components/schemas/', '#/definitions/'))
}

/** A document whose `POST /items` sends the schema (request) or returns it (response). */
function document(version: Version, side: Side, schema: Doc, schemas: Doc = {}): Doc {
  const info = { title: 'Test', version: '1.0.0' }
  if (version === '2.0') {
    const operation =
      side === 'request'
        ? {
            parameters: [{ name: 'body', in: 'body', schema }],
            responses: { '200': { description: 'ok' } },
          }
        : { responses: { '200': { description: 'ok', schema } } }
    return forVersion(version, {
      swagger: '2.0',
      info,
      consumes: ['application/json'],
      produces: ['application/json'],
      paths: { '/items': { post: operation } },
      definitions: schemas,
    }) as Doc
  }
  const content = { 'application/json': { schema } }
  const operation =
    side === 'request'
      ? { requestBody: { content }, responses: { '200': { description: 'ok' } } }
      : { responses: { '200': { description: 'ok', content } } }
  return {
    openapi: version === '3.0' ? '3.0.3' : '3.1.0',
    info,
    paths: { '/items': { post: operation } },
    components: { schemas },
  }
}

/** `id level` of each change when the schema `old` becomes `next`. */
async function verdicts(version: Version, side: Side, old: Doc, next: Doc, schemas?: Doc) {
  const { changes } = await diff(
    document(version, side, old, schemas),
    document(version, side, next, schemas),
  )
  return changes.map((change) => `${change.id} ${change.level}`)
}

describe.each(VERSIONS)('OpenAPI %s', (version) => {
  describe('uniqueItems and multipleOf', () => {
    const list = (extra: Doc) => ({ type: 'array', items: str, ...extra })
    const num = (extra: Doc) => ({ type: 'number', ...extra })

    it.each([
      [
        'uniqueItems set',
        list({}),
        list({ uniqueItems: true }),
        'unique-items-added',
        'breaking',
        'info',
      ],
      [
        'uniqueItems cleared',
        list({ uniqueItems: true }),
        list({ uniqueItems: false }),
        'unique-items-removed',
        'info',
        'warning',
      ],
      [
        'multipleOf added',
        num({}),
        num({ multipleOf: 10 }),
        'multiple-of-narrowed',
        'breaking',
        'info',
      ],
      [
        'multipleOf changed to a multiple',
        num({ multipleOf: 0.01 }),
        num({ multipleOf: 0.1 }),
        'multiple-of-narrowed',
        'breaking',
        'info',
      ],
      [
        'multipleOf changed to a divisor',
        num({ multipleOf: 20 }),
        num({ multipleOf: 10 }),
        'multiple-of-widened',
        'info',
        'warning',
      ],
      [
        'multipleOf removed',
        num({ multipleOf: 10 }),
        num({}),
        'multiple-of-widened',
        'info',
        'warning',
      ],
      [
        'multipleOf changed across',
        num({ multipleOf: 2 }),
        num({ multipleOf: 3 }),
        'multiple-of-changed',
        'breaking',
        'warning',
      ],
    ] as const)('%s', async (_, old, next, kind, sent, received) => {
      expect(await verdicts(version, 'request', old, next)).toEqual([
        `request-body-${kind} ${sent}`,
      ])
      expect(await verdicts(version, 'response', old, next)).toEqual([
        `response-body-${kind} ${received}`,
      ])
    })
  })

  describe('minProperties and maxProperties', () => {
    const sized = (extra: Doc) => obj({ a: str }, extra)

    it.each([
      [
        'maxProperties lowered',
        { maxProperties: 5 },
        { maxProperties: 3 },
        'max-properties-decreased',
        'breaking',
        'info',
      ],
      [
        'maxProperties removed',
        { maxProperties: 5 },
        {},
        'max-properties-increased',
        'info',
        'breaking',
      ],
      ['maxProperties added', {}, { maxProperties: 5 }, 'max-properties-set', 'warning', 'info'],
      [
        'minProperties raised',
        { minProperties: 1 },
        { minProperties: 2 },
        'min-properties-increased',
        'breaking',
        'info',
      ],
      [
        'minProperties lowered to 0',
        { minProperties: 2 },
        { minProperties: 0 },
        'min-properties-decreased',
        'info',
        'breaking',
      ],
      ['minProperties added', {}, { minProperties: 1 }, 'min-properties-set', 'warning', 'info'],
    ] as const)('%s', async (_, old, next, kind, sent, received) => {
      expect(await verdicts(version, 'request', sized(old), sized(next))).toEqual([
        `request-body-${kind} ${sent}`,
      ])
      expect(await verdicts(version, 'response', sized(old), sized(next))).toEqual([
        `response-body-${kind} ${received}`,
      ])
    })

    it('are compared on a property and on an allOf member without a type', async () => {
      const owner = (extra: Doc) => obj({ tags: obj({}, extra) })
      expect(
        await verdicts(
          version,
          'request',
          owner({ maxProperties: 5 }),
          owner({ maxProperties: 2 }),
        ),
      ).toEqual(['request-body-max-properties-decreased breaking'])
      const limited = (extra: Doc) => ({ allOf: [ref('Map'), extra] })
      const schemas = { Map: obj({ a: str }) }
      expect(
        await verdicts(
          version,
          'response',
          limited({ minProperties: 2 }),
          limited({ minProperties: 1 }),
          schemas,
        ),
      ).toEqual(['response-body-min-properties-decreased breaking'])
    })

    it('is no change while equal, and 0 minProperties is none', async () => {
      expect(await verdicts(version, 'request', sized({ minProperties: 0 }), sized({}))).toEqual([])
    })
  })

  describe('a pattern on a request property', () => {
    it('added to a property without a type holds for the strings it is given', async () => {
      const [old, next] = [obj({ name: {} }), obj({ name: { pattern: '^\\w+$' } })]
      expect(await verdicts(version, 'request', old, next)).toEqual([
        'request-body-pattern-added breaking',
      ])
      expect(await verdicts(version, 'response', old, next)).toEqual([
        'response-body-pattern-added info',
      ])
      expect(
        await verdicts(version, 'request', next, obj({ name: { pattern: '^\\d+$' } })),
      ).toEqual(['request-body-pattern-changed warning'])
    })

    it('added by an allOf member without a type constrains the type its sibling sets', async () => {
      const name = (...members: Doc[]) => obj({ name: { allOf: [ref('Name'), ...members] } })
      const schemas = { Name: { ...str, maxLength: 40 } }
      const [old, next] = [name(), name({ pattern: '^[a-z]+$' })]
      expect(await verdicts(version, 'request', old, next, schemas)).toEqual([
        'request-body-pattern-added breaking',
      ])
      expect(await verdicts(version, 'response', old, next, schemas)).toEqual([
        'response-body-pattern-added info',
      ])
      // The member's own maxLength is tighter than the component's.
      expect(await verdicts(version, 'request', old, name({ maxLength: 10 }), schemas)).toEqual([
        'request-body-max-length-decreased breaking',
      ])
    })

    it('beside the pattern of another allOf member: a value must match both', async () => {
      const name = (...members: Doc[]) =>
        obj({ name: { allOf: [{ ...str, pattern: '^a' }, ...members] } })
      expect(await verdicts(version, 'request', name(), name({ pattern: 'z$' }))).toEqual([
        'request-body-pattern-changed warning',
      ])
    })
  })

  describe('minItems of a response', () => {
    it('lowered on an array is breaking for a receiver, and so is lowering it to 0', async () => {
      const list = (minItems: number) => ({ type: 'array', items: str, minItems })
      expect(await verdicts(version, 'response', list(13), list(11))).toEqual([
        'response-body-min-items-decreased breaking',
      ])
      expect(await verdicts(version, 'response', list(1), list(0))).toEqual([
        'response-body-min-items-decreased breaking',
      ])
      expect(await verdicts(version, 'request', list(13), list(11))).toEqual([
        'request-body-min-items-decreased info',
      ])
    })

    it('changed on a string is noted: it does not apply to strings (oasdiff fixture)', async () => {
      const text = (minItems: number) => ({ ...str, minItems })
      expect(await verdicts(version, 'response', text(13), text(11))).toEqual([
        'response-body-inapplicable-keyword-changed info',
      ])
      expect(await verdicts(version, 'request', text(13), text(14))).toEqual([
        'request-body-inapplicable-keyword-changed info',
      ])
    })
  })

  describe('formats', () => {
    const integer = (format?: string) => ({ type: 'integer', ...(format ? { format } : {}) })

    it('a number format the model does not represent is still compared', async () => {
      expect(await verdicts(version, 'request', integer('int64'), integer('uint64'))).toEqual([
        'request-body-format-changed breaking',
      ])
      expect(await verdicts(version, 'response', integer('int64'), integer('uint64'))).toEqual([
        'response-body-format-changed breaking',
      ])
      expect(await verdicts(version, 'request', integer(), integer('unix-time'))).toEqual([
        'request-body-format-added breaking',
      ])
      expect(await verdicts(version, 'response', integer(), integer('unix-time'))).toEqual([
        'response-body-format-added info',
      ])
      expect(await verdicts(version, 'response', integer('unix-time'), integer())).toEqual([
        'response-body-format-removed breaking',
      ])
    })

    it('a format on a schema without a type, or on a boolean, is compared as any format', async () => {
      expect(await verdicts(version, 'request', { format: 'int64' }, { format: 'money' })).toEqual([
        'request-body-format-changed breaking',
      ])
      const flag = (format?: string) => ({ type: 'boolean', ...(format ? { format } : {}) })
      expect(await verdicts(version, 'response', flag('yes-no'), flag())).toEqual([
        'response-body-format-removed breaking',
      ])
    })

    it('on a query parameter', async () => {
      const query = (schema: Doc) => {
        const parameter =
          version === '2.0'
            ? { name: 'since', in: 'query', ...schema }
            : { name: 'since', in: 'query', schema }
        const doc = document(version, 'request', obj({}))
        const operation = (doc.paths as Doc)['/items'] as { post: Doc }
        operation.post = { ...operation.post, parameters: [parameter] }
        return doc
      }
      const { changes } = await diff(query(integer('int64')), query(integer('timestamp')))
      expect(changes.map((change) => `${change.id} ${change.level}`)).toEqual([
        'request-parameter-format-changed breaking',
      ])
    })
  })

  describe('allOf members', () => {
    // oasdiff's fixture: every member has the same shape, so the merged schema does not change.
    const same = obj({ name: str })
    const schemas = { Dog: same, Cat: same, Rabbit: same, Breed1: same, Breed2: same, Breed3: same }
    const pet = (members: string[], breeds: string[]) => ({
      allOf: members.map(ref),
      properties: { breed: { allOf: breeds.map(ref) } },
    })
    const [old, next] = [
      pet(['Dog', 'Cat'], ['Breed1', 'Breed2']),
      pet(['Dog', 'Cat', 'Rabbit'], ['Breed1', 'Breed2', 'Breed3']),
    ]

    it('added or removed are noted even when the merged schema is the same', async () => {
      expect(await verdicts(version, 'request', old, next, schemas)).toEqual([
        'request-body-all-of-member-added info',
        'request-body-all-of-member-added info',
      ])
      expect(await verdicts(version, 'response', next, old, schemas)).toEqual([
        'response-body-all-of-member-removed info',
        'response-body-all-of-member-removed info',
      ])
    })

    it('a member that brings a required property breaks a sender', async () => {
      const withAge = { ...schemas, Aged: obj({ age: { type: 'integer' } }, { required: ['age'] }) }
      const [before, after] = [{ allOf: [ref('Dog')] }, { allOf: [ref('Dog'), ref('Aged')] }]
      expect(await verdicts(version, 'request', before, after, withAge)).toEqual([
        'request-body-required-property-added breaking',
        'request-body-all-of-member-added info',
      ])
      expect(await verdicts(version, 'response', after, before, withAge)).toEqual([
        'response-body-required-property-removed breaking',
        'response-body-all-of-member-removed info',
      ])
    })

    it('a member with only required makes the property required', async () => {
      const [before, after] = [
        { allOf: [ref('Dog')] },
        { allOf: [ref('Dog'), { required: ['name'] }] },
      ]
      expect(await verdicts(version, 'request', before, after, schemas)).toEqual([
        'request-body-property-became-required breaking',
      ])
      expect(await verdicts(version, 'response', after, before, schemas)).toEqual([
        'response-body-property-became-optional breaking',
      ])
    })

    it('a change inside a member is judged in the merged schema; the member is not unused', async () => {
      const body = { allOf: [ref('Dog'), ref('Cat')] }
      const grown = { ...schemas, Dog: obj({ name: str, age: { type: 'integer' } }) }
      const { changes } = await diff(
        document(version, 'request', body, schemas),
        document(version, 'request', body, grown),
      )
      expect(changes.map((change) => `${change.id} ${change.level}`)).toEqual([
        'request-body-property-added info',
      ])
    })

    it('is no change when members are reordered, or a $ref member is inlined', async () => {
      const base = obj({ id: { type: 'integer' } })
      const extra = obj({ name: str })
      const components = { ...schemas, Base: base }
      const [old, next] = [{ allOf: [ref('Base'), extra] }, { allOf: [extra, ref('Base')] }]
      expect(await verdicts(version, 'request', old, next, components)).toEqual([])
      expect(
        await verdicts(version, 'response', old, { allOf: [base, extra] }, components),
      ).toEqual([])
    })

    it('a $ref and the same ref as the only member of an allOf are one schema', async () => {
      expect(
        await verdicts(version, 'request', ref('Dog'), { allOf: [ref('Dog')] }, schemas),
      ).toEqual([])
    })
  })
})

describe('a body schema deprecated (OpenAPI 3.0)', () => {
  it('is told for an inline body and for the component it names, once', async () => {
    const body = obj({ a: str })
    expect(await verdicts('3.0', 'request', body, { ...body, deprecated: true })).toEqual([
      'request-body-schema-deprecated info',
    ])
    const schemas = (deprecated: boolean) => ({ Pet: { ...body, deprecated } })
    const { changes } = await diff(
      document('3.0', 'response', ref('Pet'), schemas(true)),
      document('3.0', 'response', ref('Pet'), schemas(false)),
    )
    expect(changes.map((change) => `${change.id} ${change.level}`)).toEqual([
      'response-body-schema-reactivated info',
    ])
  })
})

describe.each(['3.0', '3.1'] as const)('a oneOf alternative added (OpenAPI %s)', (version) => {
  const open = (name: string) => obj({ [name]: str })
  const closed = (name: string) =>
    obj({ [name]: str }, { required: [name], additionalProperties: false })
  const oneOf = (...members: Doc[]) => ({ oneOf: members })

  it('that may match what another matches breaks a sender when the others were disjoint', async () => {
    const [old, next] = [
      oneOf(closed('a'), closed('b')),
      oneOf(closed('a'), closed('b'), open('c')),
    ]
    expect(await verdicts(version, 'request', old, next)).toEqual([
      'request-body-one-of-overlap-added breaking',
    ])
  })

  it('is an addition where two old alternatives already overlapped', async () => {
    const [old, next] = [oneOf(open('a'), open('b')), oneOf(open('a'), open('b'), open('c'))]
    expect(await verdicts(version, 'request', old, next)).toEqual([
      'request-body-union-member-added info',
    ])
  })
})
