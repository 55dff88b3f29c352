import { describe, expect, it } from 'vitest'
import { diff, type Doc } from './test-documents.js'

/** The boolean schema `false` admits no value: what it means to become it, or stop being it. */

const object = { type: 'object', properties: { a: { type: 'string' } } }

/** A 3.1 document whose request and response bodies carry `body` (a media type object). */
function api(body: Doc, property?: Doc | boolean): Doc {
  const content = {
    'application/json':
      property !== undefined ? { schema: { type: 'object', properties: { p: property } } } : body,
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Test', version: '1.0.0' },
    paths: {
      '/items': {
        post: {
          requestBody: { content },
          responses: { '200': { description: 'ok', content } },
        },
      },
    },
  }
}

async function found(old: Doc, next: Doc) {
  const { changes } = await diff(old, next)
  return changes.map(({ id, level }) => `${id} ${level}`).sort()
}

describe('a body schema that became false', () => {
  it('withdraws a response media type (breaking) and rejects every request (breaking)', async () => {
    expect(await found(api({ schema: object }), api({ schema: false }))).toEqual([
      'request-body-type-changed breaking',
      'response-media-type-removed breaking',
    ])
    expect(await found(api({}), api({ schema: false }))).toEqual([
      'request-body-media-type-schema-added breaking',
      'response-media-type-removed breaking',
    ])
  })

  it('that stopped being false offers the response media type again and widens the request: info', async () => {
    expect(await found(api({ schema: false }), api({ schema: object }))).toEqual([
      'request-body-type-generalized info',
      'response-media-type-added info',
    ])
  })

  it('a property that became false narrows a response (info) and breaks a request', async () => {
    expect(await found(api({}, { type: 'string' }), api({}, false))).toEqual([
      'request-body-type-changed breaking',
      'response-body-type-narrowed info',
    ])
    expect(await found(api({}, false), api({}, { type: 'string' }))).toEqual([
      'request-body-type-generalized info',
      'response-body-type-changed breaking',
    ])
  })
})
