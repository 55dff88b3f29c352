import { describe, expect, it } from 'vitest'
import { DocumentError } from '../input/document-error.js'
import { toV3Json } from './to-v3-json.js'

describe('toV3Json', () => {
  it('converts Swagger 2.0 to OpenAPI 3.0', async () => {
    const text = JSON.stringify({
      swagger: '2.0',
      info: { title: 'Pets', version: '1' },
      host: 'api.example.com',
      basePath: '/v1',
      schemes: ['https'],
      paths: {
        '/pets': {
          get: {
            produces: ['application/json'],
            responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
          },
        },
      },
      definitions: { Pet: { type: 'object' } },
    })
    const { schema, sourceVersion } = await toV3Json({ text })
    expect(sourceVersion).toBe('2.0')
    expect(schema).toMatchObject({
      openapi: '3.0.0',
      servers: [{ url: 'https://api.example.com/v1' }],
      components: { schemas: { Pet: { type: 'object' } } },
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
            },
          },
        },
      },
    })
  })

  it('passes 3.1 through, decoded from YAML into JSON data', async () => {
    const text =
      'openapi: 3.1.0\ninfo: {title: t, version: "1"}\nx-anchor: &a {k: v}\nx-alias: *a\n'
    const { schema, sourceVersion } = await toV3Json({ text })
    expect(sourceVersion).toBe('3.1.0')
    expect(schema).toEqual({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      'x-anchor': { k: 'v' },
      'x-alias': { k: 'v' },
    })
  })

  it('refuses GraphQL SDL, which has no OpenAPI form', async () => {
    const error = await toV3Json({ text: 'type Query { a: Int }' }).catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(DocumentError)
    expect((error as DocumentError).code).toBe('unknown_protocol')
  })
})
