import { describe, expect, it } from 'vitest'
import { toV3Json } from './to-v3-json.js'

const strings = { type: 'array', items: { type: 'string' } }

async function converted(parameters: unknown[], headers: Record<string, unknown> = {}) {
  const text = JSON.stringify({
    swagger: '2.0',
    info: { title: 'Items', version: '1' },
    paths: {
      '/items/{ids}': {
        get: { parameters, responses: { '200': { description: 'ok', headers } } },
      },
    },
  })
  const { schema } = await toV3Json({ text })
  const get = (schema.paths as Record<string, Record<string, Record<string, unknown>>>)[
    '/items/{ids}'
  ]!.get!
  const response = (get.responses as Record<string, { headers?: Record<string, unknown> }>)['200']!
  return { parameters: get.parameters as Record<string, unknown>[], headers: response.headers }
}

describe('collectionFormat in the 2.0 conversion', () => {
  it('keeps as x-collectionFormat what OpenAPI 3 has no style for', async () => {
    const { parameters, headers } = await converted(
      [
        { name: 'ids', in: 'path', required: true, ...strings, collectionFormat: 'ssv' },
        { name: 'X-Ids', in: 'header', ...strings, collectionFormat: 'pipes' },
        { name: 'tags', in: 'query', ...strings, collectionFormat: 'tsv' },
      ],
      { 'X-Next': { ...strings, collectionFormat: 'pipes' } },
    )
    expect(parameters.map((parameter) => parameter['x-collectionFormat'])).toEqual([
      'ssv',
      'pipes',
      'tsv',
    ])
    expect(headers?.['X-Next']).toMatchObject({ 'x-collectionFormat': 'pipes' })
  })

  it('leaves alone what a style says', async () => {
    const { parameters, headers } = await converted(
      [
        { name: 'ids', in: 'path', required: true, ...strings },
        { name: 'X-Ids', in: 'header', ...strings, collectionFormat: 'csv' },
        { name: 'tags', in: 'query', ...strings, collectionFormat: 'pipes' },
        { name: 'all', in: 'query', ...strings, collectionFormat: 'multi' },
        { name: 'one', in: 'query', type: 'string', collectionFormat: 'pipes' },
      ],
      { 'X-Next': { ...strings, collectionFormat: 'csv' } },
    )
    for (const parameter of parameters) expect(parameter).not.toHaveProperty('x-collectionFormat')
    expect(parameters[2]).toMatchObject({ style: 'pipeDelimited' })
    expect(headers?.['X-Next']).not.toHaveProperty('x-collectionFormat')
  })
})
