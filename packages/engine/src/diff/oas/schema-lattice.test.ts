import { describe, expect, it } from 'vitest'
import { api, diff, PLACEMENTS, type Doc } from './test-documents.js'

/**
 * The schema comparison reasons about the set of values a schema admits, by direction: what a
 * request admits is what the server accepts, what a response admits is what a client must handle.
 */
const str = { type: 'string' }
const obj = (properties: Doc, required: string[] = [], extra: Doc = {}) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
})
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

type Context = keyof typeof PLACEMENTS

/** `id level` of each change when `old` becomes `next` in the given context. */
async function verdicts(context: Context, old: Doc, next: Doc, components?: Doc) {
  const place = PLACEMENTS[context]
  const { changes } = await diff(place(old, components), place(next, components))
  return changes.map((change) => `${change.id} ${change.level}`)
}

describe('a schema wrapped in a oneOf/anyOf', () => {
  it('beside an alternative of another type widens: harmless to send, a new shape to receive', async () => {
    const [old, next] = [str, { oneOf: [str, { type: 'integer' }] }]
    expect(await verdicts('request-body', old, next)).toEqual([
      'request-body-wrapped-in-union info',
    ])
    expect(await verdicts('response-body', old, next)).toEqual([
      'response-body-wrapped-in-union breaking',
    ])
  })

  it('in a oneOf beside an object that also accepts {} rejects a payload that matches both', async () => {
    const [old, next] = [obj({ a: str }), { oneOf: [obj({ a: str }), obj({ b: str })] }]
    expect(await verdicts('request-body', old, next)).toEqual([
      'request-body-one-of-overlap-added breaking',
    ])
    expect(await verdicts('response-body', old, next)).toEqual([
      'response-body-one-of-overlap-added breaking',
    ])
    // anyOf accepts a value that matches both.
    expect(await verdicts('request-body', old, { anyOf: next.oneOf })).toEqual([
      'request-body-wrapped-in-union info',
    ])
  })

  it('names the union in its message: a 3.1 type list reads as an anyOf', async () => {
    const place = PLACEMENTS['request-body']
    const { changes } = await diff(place(str), place({ type: ['string', 'integer'] }))
    expect(changes.map(({ message }) => message)).toEqual([
      expect.stringContaining('the schema became an alternative of an anyOf beside integer'),
    ])
  })

  it('judges null once, at the union, when a nullable schema is wrapped', async () => {
    const next = { oneOf: [str, { type: 'integer' }, { type: 'null' }] }
    expect(await verdicts('request-body', { type: ['string', 'null'] }, next)).toEqual([
      'request-body-wrapped-in-union info',
    ])
  })

  it('keeps comparing the wrapped schema with the alternative that replaced it', async () => {
    const components = { schemas: { Pet: obj({ name: str }), Code: str } }
    const next = { oneOf: [ref('Pet'), ref('Code')] }
    const pet = obj({ name: str, age: { type: 'integer' } }, ['age'])
    expect(await verdicts('request-body', ref('Pet'), next, components)).toEqual([
      'request-body-wrapped-in-union info',
    ])
    expect(
      await verdicts('request-body', obj({ name: str }), { oneOf: [pet, { type: 'integer' }] }),
    ).toEqual([
      'request-body-required-property-added breaking',
      'request-body-wrapped-in-union info',
    ])
  })

  it('counts alternatives as disjoint when a required tag has distinct consts, or a discriminator tells them apart', async () => {
    const tagged = (kind: string) => obj({ kind: { ...str, const: kind } }, ['kind'])
    expect(
      await verdicts('request-body', tagged('a'), { oneOf: [tagged('a'), tagged('b')] }),
    ).toEqual(['request-body-wrapped-in-union info'])
    const components = { schemas: { Cat: obj({ kind: str }, ['kind']), Dog: obj({ kind: str }) } }
    const next = { oneOf: [ref('Cat'), ref('Dog')], discriminator: { propertyName: 'kind' } }
    expect(await verdicts('request-body', ref('Cat'), next, components)).toEqual([
      'request-body-wrapped-in-union info',
    ])
  })

  it('adding an alternative that overlaps another to a oneOf breaks a sender', async () => {
    const old = { oneOf: [str, { type: 'integer' }] }
    const next = { oneOf: [str, { type: 'integer' }, { ...str, format: 'email' }] }
    expect(await verdicts('request-body', old, next)).toEqual([
      'request-body-one-of-overlap-added breaking',
    ])
    expect(
      await verdicts('request-body', old, { oneOf: [...old.oneOf, { type: 'boolean' }] }),
    ).toEqual(['request-body-union-member-added info'])
  })
})

describe('a oneOf/anyOf unwrapped to one of its alternatives', () => {
  it('removes the other alternatives and compares the one kept', async () => {
    const components = { schemas: { Cat: obj({ meow: str }), Dog: obj({ bark: str }) } }
    const old = { oneOf: [ref('Cat'), ref('Dog')] }
    expect(await verdicts('request-body', old, ref('Cat'), components)).toEqual([
      'request-body-union-member-removed breaking',
    ])
    expect(await verdicts('response-body', old, ref('Cat'), components)).toEqual([
      'response-body-union-member-removed info',
    ])
  })
})

describe('oneOf versus anyOf on the same alternatives', () => {
  it('is no change when no two alternatives overlap (a 3.1 type array is an anyOf)', async () => {
    const oneOf = { oneOf: [str, { type: 'integer' }] }
    expect(await verdicts('request-body', { type: ['string', 'integer'] }, oneOf)).toEqual([])
    expect(await verdicts('response-body', oneOf, { type: ['string', 'integer'] })).toEqual([])
  })

  it('narrows (anyOf → oneOf) or widens (oneOf → anyOf) where alternatives overlap', async () => {
    const anyOf = { type: ['number', 'integer'] }
    const oneOf = { oneOf: [{ type: 'number' }, { type: 'integer' }] }
    expect(await verdicts('request-body', anyOf, oneOf)).toEqual([
      'request-body-any-of-became-one-of breaking',
    ])
    expect(await verdicts('response-body', oneOf, anyOf)).toEqual([
      'response-body-one-of-became-any-of warning',
    ])
    const components = { schemas: { Cat: obj({ kind: str }), Dog: obj({ kind: str }) } }
    const pets = [ref('Cat'), ref('Dog')]
    const discriminator = { propertyName: 'kind' }
    expect(
      await verdicts(
        'request-body',
        { anyOf: pets, discriminator },
        { oneOf: pets, discriminator },
        components,
      ),
    ).toEqual([])
    expect(await verdicts('request-body', { anyOf: pets }, { oneOf: pets }, components)).toEqual([
      'request-body-any-of-became-one-of breaking',
    ])
  })
})

describe('const', () => {
  it('changed is breaking both ways: the old value never comes back', async () => {
    const [old, next] = [
      { ...str, const: 'v1' },
      { ...str, const: 'v2' },
    ]
    expect(await verdicts('response-body', old, next)).toEqual([
      'response-body-const-changed breaking',
    ])
    expect(await verdicts('request-body', old, next)).toEqual([
      'request-body-const-changed breaking',
    ])
  })

  it('against an enum is a one-value enum', async () => {
    const [old, next] = [
      { ...str, enum: ['a', 'b'] },
      { ...str, const: 'a' },
    ]
    expect(await verdicts('request-body', old, next)).toEqual([
      'request-body-enum-value-removed breaking',
    ])
  })

  it('is seen on schemas without a type, and on objects', async () => {
    expect(await verdicts('response-body', {}, { const: 1 })).toEqual([
      'response-body-const-added info',
    ])
    expect(
      await verdicts(
        'request-body',
        obj({}, [], { const: { a: 1 } }),
        obj({}, [], { const: { a: 2 } }),
      ),
    ).toEqual(['request-body-const-changed breaking'])
  })
})

describe('default', () => {
  it('of a parameter is breaking however it changes; in a body a change or removal is a warning', async () => {
    const [a, b] = [
      { ...str, default: 'a' },
      { ...str, default: 'b' },
    ]
    expect(await verdicts('request-parameter', a, b)).toEqual([
      'request-parameter-default-changed breaking',
    ])
    expect(await verdicts('request-parameter', str, a)).toEqual([
      'request-parameter-default-added breaking',
    ])
    expect(await verdicts('request-parameter', a, str)).toEqual([
      'request-parameter-default-removed breaking',
    ])
    expect(await verdicts('request-body', a, b)).toEqual(['request-body-default-changed warning'])
    expect(await verdicts('request-body', str, a)).toEqual(['request-body-default-added info'])
    expect(await verdicts('response-body', a, str)).toEqual(['response-body-default-removed info'])
  })
})

describe('constraints', () => {
  it('tightened break requests, as a pattern added does', async () => {
    expect(await verdicts('request-body', str, { ...str, pattern: '^a' })).toEqual([
      'request-body-pattern-added breaking',
    ])
    expect(
      await verdicts('request-body', { ...str, maxLength: 10 }, { ...str, maxLength: 5 }),
    ).toEqual(['request-body-max-length-decreased breaking'])
    expect(await verdicts('request-body', str, { ...str, minLength: 1 })).toEqual([
      'request-body-min-length-increased breaking',
    ])
  })

  it('set where there was none warn senders (the server likely had a limit the document did not state) and are info to receivers', async () => {
    const integer = { type: 'integer' }
    const list = { type: 'array', items: str }
    const cases: [Doc, Doc, string][] = [
      [str, { ...str, maxLength: 5 }, 'max-length-set'],
      [integer, { ...integer, maximum: 5 }, 'max-set'],
      [integer, { ...integer, exclusiveMinimum: 0 }, 'min-set'],
      [list, { ...list, maxItems: 5 }, 'max-items-set'],
      [list, { ...list, minItems: 1 }, 'min-items-set'],
    ]
    for (const [old, next, kind] of cases) {
      for (const context of ['request-parameter', 'request-body'] as const)
        expect(await verdicts(context, old, next)).toEqual([`${context}-${kind} warning`])
      for (const context of ['response-body', 'response-header', 'webhook-payload'] as const)
        expect(await verdicts(context, old, next)).toEqual([`${context}-${kind} info`])
    }
  })

  it('set where there was none warn in a Swagger 2.0 query parameter and a 3.0 body too', async () => {
    const swagger = (maxLength?: number) => ({
      swagger: '2.0',
      info: { title: 'Test', version: '1.0.0' },
      paths: {
        '/items': {
          get: {
            parameters: [{ name: 'q', in: 'query', type: 'string', maxLength }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    })
    expect((await diff(swagger(), swagger(8))).changes.map((c) => `${c.id} ${c.level}`)).toEqual([
      'request-parameter-max-length-set warning',
    ])
    const body = (schema: Doc) => ({ ...PLACEMENTS['request-body'](schema), openapi: '3.0.3' })
    const number = { type: 'number' }
    expect(
      (await diff(body(number), body({ ...number, minimum: 0 }))).changes.map(
        (c) => `${c.id} ${c.level}`,
      ),
    ).toEqual(['request-body-min-set warning'])
  })

  it('a pattern removed breaks receivers (svc clients check responses against it) and frees senders', async () => {
    const [old, next] = [{ ...str, pattern: '^[a-z]+$' }, str]
    for (const context of ['response-body', 'response-header', 'webhook-payload'] as const)
      expect(await verdicts(context, old, next)).toEqual([`${context}-pattern-removed breaking`])
    for (const context of ['request-parameter', 'request-body'] as const)
      expect(await verdicts(context, old, next)).toEqual([`${context}-pattern-removed info`])
    // And the reverse, a pattern added: it narrows what senders may send.
    expect(await verdicts('request-body', next, old)).toEqual([
      'request-body-pattern-added breaking',
    ])
    expect(await verdicts('response-body', next, old)).toEqual(['response-body-pattern-added info'])
  })

  it('a pattern changed is a warning both ways: which of two patterns accepts more cannot be told', async () => {
    const [old, next] = [
      { ...str, pattern: '^[a-z]+$' },
      { ...str, pattern: '^[a-z0-9]+$' },
    ]
    expect(await verdicts('request-body', old, next)).toEqual([
      'request-body-pattern-changed warning',
    ])
    expect(await verdicts('response-body', old, next)).toEqual([
      'response-body-pattern-changed warning',
    ])
  })

  it('widened in a response are breaking: a client may rely on the old limit', async () => {
    expect(
      await verdicts('response-body', { ...str, maxLength: 5 }, { ...str, maxLength: 10 }),
    ).toEqual(['response-body-max-length-increased breaking'])
    expect(
      await verdicts('response-body', { type: 'integer', minimum: 1 }, { type: 'integer' }),
    ).toEqual(['response-body-min-decreased breaking'])
  })

  it('of another type are only noted: validators ignore them', async () => {
    expect(await verdicts('request-body', obj({}, [], { maxLength: 5 }), obj({}))).toEqual([
      'request-body-inapplicable-keyword-changed info',
    ])
    expect(
      await verdicts(
        'response-body',
        { type: 'array', items: str, maxLength: 1 },
        {
          type: 'array',
          items: str,
        },
      ),
    ).toEqual(['response-body-inapplicable-keyword-changed info'])
  })

  it('on a schema without a type hold for values of their type', async () => {
    expect(await verdicts('request-body', { maxLength: 5, minimum: 2 }, {})).toEqual([
      'request-body-max-length-increased info',
      'request-body-min-decreased info',
    ])
    expect(await verdicts('response-body', { maxLength: 5, minimum: 2 }, {})).toEqual([
      'response-body-max-length-increased breaking',
      'response-body-min-decreased breaking',
    ])
    // In a type array, maxLength holds for the string alternative only.
    expect(
      await verdicts(
        'response-body',
        { type: ['string', 'integer'], maxLength: 5 },
        {
          type: ['string', 'integer'],
        },
      ),
    ).toEqual(['response-body-max-length-increased breaking'])
  })
})

describe('readOnly, writeOnly and deprecated cleared', () => {
  it('a required readOnly property that is no longer readOnly becomes required in requests', async () => {
    const old = obj({ id: { ...str, readOnly: true } }, ['id'])
    const next = obj({ id: str }, ['id'])
    expect(await verdicts('request-body', old, next)).toEqual([
      'request-body-property-became-required breaking',
    ])
    expect(await verdicts('response-body', old, next)).toEqual([
      'response-body-property-no-longer-read-only info',
    ])
  })

  it('an x-extensible-enum value removed breaks a sender, and an added one is news only', async () => {
    const values = (...v: string[]) => ({ ...str, 'x-extensible-enum': v })
    expect(await verdicts('request-parameter', values('a', 'b'), values('a'))).toEqual([
      'request-parameter-extensible-enum-value-removed breaking',
    ])
    expect(await verdicts('response-body', values('a'), values('a', 'b'))).toEqual([
      'response-body-extensible-enum-value-added info',
    ])
  })
})

describe('allOf members, judged by their effect on the merged schema', () => {
  const base = obj({ name: str })
  it('a member that adds a required property is required-property-added in a request', async () => {
    const next = { allOf: [base, obj({ age: { type: 'integer' } }, ['age'])] }
    expect(await verdicts('request-body', base, next)).toEqual([
      'request-body-required-property-added breaking',
    ])
    expect(await verdicts('response-body', base, next)).toEqual([
      'response-body-property-added info',
    ])
  })

  it('a member removed that held a maxLength widens the values', async () => {
    const old = { allOf: [obj({ name: str }), obj({ name: { ...str, maxLength: 5 } })] }
    expect(await verdicts('request-body', old, base)).toEqual([
      'request-body-max-length-increased info',
    ])
  })
})

describe('null and any value (3.1)', () => {
  it('type [string, null] equals 3.0 nullable: true', async () => {
    const op = (schema: Doc, openapi: string) =>
      api({
        openapi,
        paths: {
          '/items': {
            get: {
              responses: {
                '200': { description: 'ok', content: { 'application/json': { schema } } },
              },
            },
          },
        },
      })
    const log = await diff(
      op({ ...str, nullable: true }, '3.0.3'),
      op({ type: ['string', 'null'] }, '3.1.0'),
    )
    expect(log.changes).toEqual([])
  })

  it('an untyped schema accepts null: typing it narrows a response without "became not nullable"', async () => {
    expect(await verdicts('response-body', {}, str)).toEqual(['response-body-type-narrowed info'])
    expect(await verdicts('request-body', {}, str)).toEqual(['request-body-type-changed breaking'])
    expect(await verdicts('request-body', str, {})).toEqual(['request-body-type-generalized info'])
    expect(await verdicts('response-body', str, {})).toEqual([
      'response-body-type-changed breaking',
    ])
  })
})

describe('formats', () => {
  const int = (format: string) => ({ type: 'integer', format })

  it('int32 → int64 widens what a client may send and what it may receive', async () => {
    expect(await verdicts('request-body', int('int32'), int('int64'))).toEqual([
      'request-body-type-generalized info',
    ])
    expect(await verdicts('response-body', int('int32'), int('int64'))).toEqual([
      'response-body-type-changed breaking',
    ])
  })

  it('int64 → int32 narrows them', async () => {
    expect(await verdicts('request-body', int('int64'), int('int32'))).toEqual([
      'request-body-type-changed breaking',
    ])
    expect(await verdicts('response-body', int('int64'), int('int32'))).toEqual([
      'response-body-type-narrowed info',
    ])
  })

  it('a format added narrows, one removed widens, one changed to an unrelated format breaks both', async () => {
    const email = { ...str, format: 'email' }
    expect(await verdicts('request-body', str, email)).toEqual([
      'request-body-format-added breaking',
    ])
    expect(await verdicts('response-body', str, email)).toEqual(['response-body-format-added info'])
    expect(await verdicts('request-body', email, str)).toEqual(['request-body-format-removed info'])
    expect(await verdicts('response-body', email, str)).toEqual([
      'response-body-format-removed breaking',
    ])
    expect(await verdicts('response-body', email, { ...str, format: 'uri' })).toEqual([
      'response-body-format-changed breaking',
    ])
  })
})

describe('a 3.1 type array', () => {
  const contexts = Object.keys(PLACEMENTS) as Context[]

  it('in another order is no change, in every context', async () => {
    const pairs: [Doc, Doc][] = [
      [{ type: ['string', 'null'] }, { type: ['null', 'string'] }],
      [{ type: ['string', 'integer', 'null'] }, { type: ['null', 'integer', 'string'] }],
      [
        obj({ tags: { type: ['array', 'null'], items: str } }),
        obj({ tags: { type: ['null', 'array'], items: str } }),
      ],
      [{ anyOf: [str, { type: 'null' }] }, { type: ['null', 'string'] }],
    ]
    for (const context of contexts)
      for (const [old, next] of pairs) {
        expect(await verdicts(context, old, next)).toEqual([])
        expect(await verdicts(context, next, old)).toEqual([])
      }
  })

  it('that gains or loses null is judged by direction', async () => {
    const [old, next] = [{ type: 'string' }, { type: ['null', 'string'] }]
    expect(await verdicts('response-body', old, next)).toEqual([
      'response-body-became-nullable breaking',
    ])
    expect(await verdicts('request-body', old, next)).toEqual(['request-body-became-nullable info'])
    expect(await verdicts('response-body', next, old)).toEqual([
      'response-body-became-not-nullable info',
    ])
    expect(await verdicts('request-body', next, old)).toEqual([
      'request-body-became-not-nullable breaking',
    ])
  })
})
