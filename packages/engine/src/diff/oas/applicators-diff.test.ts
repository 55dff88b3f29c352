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
