import { describe, expect, it } from 'vitest'
import type { Changelog } from '../changelog.js'
import { diff, PLACEMENTS, type Doc } from './test-documents.js'

/** An object property `tags` whose values are free, or typed by `additionalProperties`. */
const labels = (additional?: Doc | boolean): Doc => ({
  type: 'object',
  properties: {
    tags: { type: 'object', ...(additional !== undefined && { additionalProperties: additional }) },
  },
})
const STRINGS = { type: 'string' }

function levels(log: Changelog): string[] {
  return log.changes.map((change) => `${change.id} ${change.level}`)
}

/** The same API as Swagger 2.0: `tags` in a `put` body and its 200 response. */
function swagger(additional?: Doc | boolean): Doc {
  return {
    swagger: '2.0',
    info: { title: 'Test', version: '1' },
    consumes: ['application/json'],
    produces: ['application/json'],
    paths: {
      '/items': {
        put: {
          parameters: [{ name: 'item', in: 'body', schema: { $ref: '#/definitions/Item' } }],
          responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Item' } } },
        },
      },
    },
    definitions: { Item: labels(additional) },
  }
}

describe('additionalProperties set on or dropped from an object that allowed any value', () => {
  it.each(['3.0.3', '3.1.0'])(
    'types its values: a request sends narrower ones, a response returns wider ones (%s)',
    async (openapi) => {
      const at = (placement: 'request-body' | 'response-body', additional?: Doc | boolean) => ({
        ...PLACEMENTS[placement](labels(additional)),
        openapi,
      })
      // Set: a client that sent numbers is refused; one that reads them gets only strings.
      expect(levels(await diff(at('request-body'), at('request-body', STRINGS)))).toEqual([
        'request-body-type-changed breaking',
      ])
      expect(levels(await diff(at('response-body'), at('response-body', STRINGS)))).toEqual([
        'response-body-type-narrowed info',
      ])
      // Dropped: the other way round.
      expect(levels(await diff(at('request-body', STRINGS), at('request-body')))).toEqual([
        'request-body-type-generalized info',
      ])
      expect(levels(await diff(at('response-body', STRINGS), at('response-body')))).toEqual([
        'response-body-type-changed breaking',
      ])
      // `true` says what an absent keyword says.
      expect(levels(await diff(at('response-body', true), at('response-body')))).toEqual([])
      expect(levels(await diff(at('response-body', {}), at('response-body', true)))).toEqual([])
    },
  )

  it('is judged the same in a Swagger 2.0 definition used both ways', async () => {
    const set = await diff(swagger(), swagger(STRINGS))
    expect(levels(set).sort()).toEqual([
      'request-body-type-changed breaking',
      'response-body-type-narrowed info',
    ])
    expect(set.changes[0]!.location).toMatch(/\/properties\/tags\/additionalProperties$/)
    const dropped = await diff(swagger(STRINGS), swagger())
    expect(levels(dropped).sort()).toEqual([
      'request-body-type-generalized info',
      'response-body-type-changed breaking',
    ])
  })
})
