import { describe, expect, it } from 'vitest'
import { diff, type Doc } from './test-documents.js'

/** A response media type renamed into a related one: narrowed, widened, or neither. */

const VERSIONS = ['3.0.3', '3.1.0'] as const
const schema = { type: 'object', properties: { a: { type: 'string' } } }

function openapi(version: (typeof VERSIONS)[number], types: string[], body: Doc = schema): Doc {
  const content = Object.fromEntries(types.map((type) => [type, { schema: body }]))
  return {
    openapi: version,
    info: { title: 'Test', version: '1.0.0' },
    paths: { '/items': { get: { responses: { '200': { description: 'ok', content } } } } },
  }
}

async function found(old: Doc, next: Doc) {
  const { changes } = await diff(old, next)
  return changes.map(({ id, level, location }) => ({ id, level, location }))
}

const at = (type: string) =>
  `/paths/~1items/get/responses/200/content/${type.replaceAll('/', '~1')}`

describe('a response media type renamed', () => {
  it.each(VERSIONS)(
    '%s: a structured-syntax specialisation is info, its reverse breaking',
    async (v) => {
      const [json, problem] = [
        openapi(v, ['application/json']),
        openapi(v, ['application/problem+json']),
      ]
      expect(await found(json, problem)).toEqual([
        {
          id: 'response-media-type-narrowed',
          level: 'info',
          location: at('application/problem+json'),
        },
      ])
      expect(await found(problem, json)).toEqual([
        { id: 'response-media-type-widened', level: 'breaking', location: at('application/json') },
      ])
    },
  )

  it.each(VERSIONS)(
    '%s: a parameter added is info, removed breaking, changed breaking',
    async (v) => {
      const plain = openapi(v, ['application/json'])
      const utf8 = openapi(v, ['application/json; charset=utf-8'])
      const utf16 = openapi(v, ['application/json; charset="UTF-16"'])
      expect(await found(plain, utf8)).toEqual([
        {
          id: 'response-media-type-narrowed',
          level: 'info',
          location: at('application/json; charset=utf-8'),
        },
      ])
      expect(await found(utf8, plain)).toEqual([
        { id: 'response-media-type-widened', level: 'breaking', location: at('application/json') },
      ])
      expect((await found(utf8, utf16)).map(({ id, level }) => ({ id, level }))).toEqual([
        { id: 'response-media-type-parameter-changed', level: 'breaking' },
      ])
    },
  )

  it.each(VERSIONS)('%s: a name and its parameters moving together is a warning', async (v) => {
    const old = openapi(v, ['application/json'])
    const next = openapi(v, ['application/problem+json;q=1'])
    expect((await found(old, next)).map(({ id, level }) => ({ id, level }))).toEqual([
      { id: 'response-media-type-changed', level: 'warning' },
    ])
  })

  it.each(VERSIONS)('%s: the renamed media types still compare their schemas', async (v) => {
    const old = openapi(v, ['application/json'])
    const next = openapi(v, ['application/problem+json'], { type: 'object' })
    expect((await found(old, next)).map(({ id }) => id)).toContain('response-media-type-narrowed')
    expect((await found(old, next)).map(({ id }) => id)).not.toContain(
      'response-media-type-removed',
    )
    expect((await found(old, next)).length).toBeGreaterThan(1)
  })

  it.each(VERSIONS)('%s: unrelated media types are a removal and an addition', async (v) => {
    const old = openapi(v, ['application/json'])
    const next = openapi(v, ['application/xml'])
    expect((await found(old, next)).map(({ id }) => id).sort()).toEqual([
      'response-media-type-added',
      'response-media-type-removed',
    ])
  })

  it.each(VERSIONS)('%s: a media type kept as written is not paired with a new one', async (v) => {
    const old = openapi(v, ['application/json'])
    const next = openapi(v, ['application/json', 'application/problem+json'])
    expect((await found(old, next)).map(({ id }) => id)).toEqual(['response-media-type-added'])
  })

  it('2.0: a produces parameter added is info', async () => {
    const swagger = (produces: string): Doc => ({
      swagger: '2.0',
      info: { title: 'Test', version: '1.0.0' },
      paths: {
        '/items': {
          get: { produces: [produces], responses: { '200': { description: 'ok', schema } } },
        },
      },
    })
    expect(
      (await found(swagger('application/json'), swagger('application/json;charset=utf-8'))).map(
        ({ id, level }) => ({ id, level }),
      ),
    ).toEqual([{ id: 'response-media-type-narrowed', level: 'info' }])
  })

  it('a request body media type renamed stays a removal and an addition', async () => {
    const post = (type: string): Doc => ({
      openapi: '3.0.3',
      info: { title: 'Test', version: '1.0.0' },
      paths: {
        '/items': {
          post: {
            requestBody: { content: { [type]: { schema } } },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    })
    expect(
      (await found(post('application/json'), post('application/json; charset=utf-8')))
        .map(({ id }) => id)
        .sort(),
    ).toEqual(['request-body-media-type-added', 'request-body-media-type-removed'])
  })
})
