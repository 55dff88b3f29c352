import { describe, expect, it } from 'vitest'
import { diff, type Doc } from './test-documents.js'

const ok = { description: 'ok' }
const str = { type: 'string' }
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** `POST /pets` sends and receives `Pet`, whose properties are given. */
function pets(openapi: string, properties: Doc, required: string[] = [], schemas: Doc = {}): Doc {
  return {
    openapi,
    info: { title: 'Test', version: '1.0.0' },
    paths: {
      '/pets': {
        post: {
          requestBody: { content: { 'application/json': { schema: ref('Pet') } } },
          responses: { '200': { ...ok, content: { 'application/json': { schema: ref('Pet') } } } },
        },
      },
    },
    components: {
      schemas: {
        Pet: { type: 'object', properties, ...(required.length ? { required } : {}) },
        Id: str,
        Owner: { type: 'object', properties: { name: str } },
        ...schemas,
      },
    },
  }
}

async function verdicts(old: Doc, next: Doc) {
  const { changes } = await diff(old, next)
  return changes.map((change) => `${change.id} ${change.level}`).sort()
}

/** A property that is a `$ref` marked readOnly/writeOnly: 3.1 beside the ref, 3.0 by allOf. */
const MARKED = {
  '3.1.0': (name: string, marker: Doc) => ({ ...ref(name), ...marker }),
  '3.0.3': (name: string, marker: Doc) => ({ allOf: [ref(name)], ...marker }),
}

describe.each(Object.entries(MARKED))('a $ref property marked (OpenAPI %s)', (openapi, marked) => {
  const doc = (properties: Doc, required?: string[], schemas?: Doc) =>
    pets(openapi, properties, required, schemas)

  it('readOnly is reported as the property becoming readOnly, and the reverse', async () => {
    const [plain, readOnly] = [
      doc({ id: ref('Id') }),
      doc({ id: marked('Id', { readOnly: true }) }),
    ]
    expect(await verdicts(plain, readOnly)).toEqual([
      'request-body-property-became-read-only breaking',
      'response-body-property-became-read-only info',
    ])
    expect(await verdicts(readOnly, plain)).toEqual([
      'request-body-property-no-longer-read-only info',
      'response-body-property-no-longer-read-only info',
    ])
  })

  it('writeOnly is reported as the property becoming writeOnly, and the reverse', async () => {
    const [plain, writeOnly] = [
      doc({ secret: ref('Id') }),
      doc({ secret: marked('Id', { writeOnly: true }) }),
    ]
    expect(await verdicts(plain, writeOnly)).toEqual([
      'request-body-property-became-write-only info',
      'response-body-property-became-write-only breaking',
    ])
    expect(await verdicts(writeOnly, plain)).toEqual([
      'request-body-property-no-longer-write-only info',
      'response-body-property-no-longer-write-only info',
    ])
  })

  it('removed while writeOnly is a removal from requests only: responses never carried it', async () => {
    const before = doc({ name: str, secret: marked('Id', { writeOnly: true }) }, ['secret'])
    expect(await verdicts(before, doc({ name: str }))).toEqual([
      'request-body-property-removed warning',
    ])
  })

  it('removed while readOnly is a removal from responses only: requests never carried it', async () => {
    const before = doc({ name: str, id: marked('Id', { readOnly: true }) }, ['id'])
    expect(await verdicts(before, doc({ name: str }))).toEqual([
      'response-body-required-property-removed breaking',
    ])
  })

  it('readOnly keeps changes inside its target out of requests', async () => {
    const owner = doc({ owner: marked('Owner', { readOnly: true }) })
    const changed = doc({ owner: marked('Owner', { readOnly: true }) }, [], {
      Owner: { type: 'object', properties: { name: { type: 'integer' } } },
    })
    expect(await verdicts(owner, changed)).toEqual(['response-body-type-changed breaking'])
  })
})

describe('a required property that is no longer readOnly', () => {
  it('must now be sent, which only the request entry says', async () => {
    const doc = (id: Doc) => pets('3.1.0', { id }, ['id'])
    const { changes } = await diff(doc({ ...str, readOnly: true }), doc(str))
    expect(changes.map((change) => [change.id, change.level, change.message]).sort()).toEqual([
      [
        'request-body-property-became-required',
        'breaking',
        'Request body, schema `Pet` `id`: the property is no longer readOnly (it is required, so requests must send it).',
      ],
      [
        'response-body-property-no-longer-read-only',
        'info',
        'Response body, schema `Pet` `id`: the property is no longer readOnly.',
      ],
    ])
  })
})
