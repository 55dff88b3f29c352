import { describe, expect, it } from 'vitest'
import { diff, PLACEMENTS, type Doc } from './test-documents.js'

const str = { type: 'string' }
const obj = (properties: Doc, extra: Doc = {}) => ({ type: 'object', properties, ...extra })

/** `id level message` of each change between two schemas placed in one context. */
async function changes(
  context: 'request-body' | 'response-body',
  old: Doc,
  next: Doc,
  openapi = '3.1.0',
) {
  const place = (schema: Doc) => ({ ...PLACEMENTS[context](schema), openapi })
  const { changes } = await diff(place(old), place(next))
  return changes.map((change) => `${change.id} ${change.level} ${change.message}`)
}

describe('JSON Schema 2020-12 subschemas are compared by their effect', () => {
  it('compares prefixItems position by position', async () => {
    const tuple = (...items: Doc[]) => obj({ pair: { type: 'array', prefixItems: items } })
    expect(await changes('request-body', tuple(str), tuple({ type: 'integer' }))).toEqual([
      'request-body-type-changed breaking Request body `pair[0]`: the type changed from string to integer.',
    ])
  })

  it('judges a new position against the items that governed it', async () => {
    const [old, next] = [
      { type: 'array', items: { ...str, maxLength: 10 } },
      { type: 'array', items: { ...str, maxLength: 10 }, prefixItems: [{ ...str, maxLength: 5 }] },
    ]
    expect(await changes('request-body', old, next)).toEqual([
      'request-body-max-length-decreased breaking Request body `[0]`: maxLength changed from `10` to `5`.',
    ])
    expect(await changes('response-body', old, next)).toEqual([
      'response-body-max-length-decreased info Response 200 `[0]`: maxLength changed from `10` to `5`.',
    ])
  })

  it('compares contains, patternProperties and the branches of an unchanged if', async () => {
    const shape = (inner: Doc) =>
      obj(
        { a: str, tags: { type: 'array', items: str, contains: inner } },
        {
          patternProperties: { '^x-': inner },
          if: { required: ['a'] },
          then: { properties: { a: inner } },
        },
      )
    const found = await changes('request-body', shape(str), shape({ type: 'integer' }))
    expect(found.sort()).toEqual([
      'request-body-type-changed breaking Request body `a`: the type changed from string to integer.',
      'request-body-type-changed breaking Request body `tags[contains]`: the type changed from string to integer.',
      'request-body-type-changed breaking Request body `{/^x-/}`: the type changed from string to integer.',
    ])
  })

  it('names each dependentRequired pair', async () => {
    const [old, next] = [
      obj({ a: str, b: str, c: str }, { dependentRequired: { a: ['b'] } }),
      obj({ a: str, b: str, c: str }, { dependentRequired: { a: ['c'] } }),
    ]
    expect(await changes('request-body', old, next)).toEqual([
      'request-body-dependent-required-added breaking Request body: `c` became required when `a` is present.',
      'request-body-dependent-required-removed info Request body: `b` is no longer required when `a` is present.',
    ])
  })

  it('finds a not added in a 3.0 document too', async () => {
    const next = { ...str, not: { ...str, enum: ['x'] } }
    expect(await changes('request-body', str, next, '3.0.3')).toEqual([
      'request-body-not-schema-added breaking Request body: a `not` schema was added.',
    ])
  })

  it('sees no change when the keywords only moved into an allOf member', async () => {
    const inline = obj({ a: str }, { not: { required: ['a'] }, patternProperties: { '^x-': str } })
    const split = {
      allOf: [
        obj({ a: str }),
        { type: 'object', not: { required: ['a'] }, patternProperties: { '^x-': str } },
      ],
    }
    expect(await changes('request-body', inline, split)).toEqual([])
  })
})

describe('a not or an if that only changed its wording', () => {
  it('is no change', async () => {
    const worded = (description: string) => ({
      ...obj({ a: str }),
      not: { ...obj({ kind: { ...str, description } }), required: ['kind'] },
      if: { required: ['a'], description },
      then: { required: ['a'] },
    })
    expect(await changes('request-body', worded('old'), worded('new'))).toEqual([])
  })
})

describe('contains and prefixItems are judged by the direction of their context', () => {
  const CONTEXTS = [
    ['request-parameter', 'in'],
    ['request-body', 'in'],
    ['response-body', 'out'],
    ['response-header', 'out'],
    ['webhook-payload', 'out'],
  ] as const
  const list = (extra: Doc = {}) => ({ type: 'array', items: str, ...extra })
  const tuple = (...items: Doc[]) => ({ type: 'array', prefixItems: items, items: false })
  /** kind, old, new, and the level where a client sends the value and where it receives it. */
  const CASES: [string, Doc, Doc, string, string][] = [
    ['contains-added', list(), list({ contains: str }), 'breaking', 'info'],
    ['contains-removed', list({ contains: str }), list(), 'info', 'breaking'],
    [
      'min-contains-increased',
      list({ contains: str, minContains: 1 }),
      list({ contains: str, minContains: 2 }),
      'breaking',
      'info',
    ],
    [
      'min-contains-decreased',
      list({ contains: str, minContains: 2 }),
      list({ contains: str, minContains: 1 }),
      'info',
      'breaking',
    ],
    [
      'max-contains-decreased',
      list({ contains: str, maxContains: 3 }),
      list({ contains: str, maxContains: 2 }),
      'breaking',
      'info',
    ],
    [
      'max-contains-increased',
      list({ contains: str, maxContains: 2 }),
      list({ contains: str }),
      'info',
      'breaking',
    ],
    ['prefix-item-added', tuple(str), tuple(str, str), 'info', 'breaking'],
    ['prefix-item-removed', tuple(str, str), tuple(str), 'breaking', 'info'],
  ]

  for (const [context, direction] of CONTEXTS)
    it.each(CASES)(`${context}: %s`, async (kind, old, next, sent, received) => {
      const place = (schema: Doc) => ({ ...PLACEMENTS[context](schema), openapi: '3.1.0' })
      const { changes } = await diff(place(old), place(next))
      expect(changes.map((change) => `${change.id} ${change.level}`)).toEqual([
        `${context}-${kind} ${direction === 'in' ? sent : received}`,
      ])
    })

  it('a request and a response that change alike are each listed under their own context', async () => {
    const [old, next] = [list(), list({ contains: str, minContains: 2 })]
    const both = (schema: Doc) => ({
      openapi: '3.1.0',
      info: { title: 'Test', version: '1.0.0' },
      paths: {
        '/items': {
          post: {
            requestBody: { content: { 'application/json': { schema } } },
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema } } },
            },
          },
        },
      },
    })
    const { changes } = await diff(both(old), both(next))
    expect(changes.map((change) => [change.id, change.level, change.location])).toEqual([
      [
        'request-body-contains-added',
        'breaking',
        '/paths/~1items/post/requestBody/content/application~1json/schema',
      ],
      [
        'response-body-contains-added',
        'info',
        '/paths/~1items/post/responses/200/content/application~1json/schema',
      ],
    ])
  })
})
