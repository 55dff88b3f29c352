import { describe, expect, it } from 'vitest'
import { diffDocuments } from '../diff/diff-documents.js'
import { parseApi } from '../parse-api.js'
import { toV3Json } from './to-v3-json.js'

/** A 2.0 document whose path item declares `parameters` for all its operations. */
function swagger(pathParameters: unknown[], operations: Record<string, unknown> = {}) {
  return JSON.stringify({
    swagger: '2.0',
    info: { title: 'Pets', version: '1' },
    consumes: ['application/json'],
    paths: {
      '/pets/{id}': {
        parameters: pathParameters,
        put: { responses: { '204': { description: 'saved' } } },
        patch: { responses: { '204': { description: 'saved' } } },
        ...operations,
      },
    },
    parameters: {
      PetBody: { name: 'pet', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } },
    },
    definitions: {
      Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
  })
}

const ID = { name: 'id', in: 'path', required: true, type: 'string' }
const BODY = { name: 'pet', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } }

type Converted = {
  paths: Record<string, Record<string, any>>
  components?: { requestBodies?: Record<string, any> }
}

/** An operation's request body, through a `$ref` to components/requestBodies. */
function requestBody(document: unknown, method: string): any {
  const converted = document as Converted
  const body = converted.paths['/pets/{id}']![method].requestBody
  const ref = body?.$ref as string | undefined
  return ref ? converted.components?.requestBodies?.[ref.split('/').pop()!] : body
}

describe('Swagger 2.0 body and form parameters declared for a whole path', () => {
  it('become the request body of every operation of the path, which keeps its other parameters', async () => {
    const { schema } = await toV3Json({ text: swagger([ID, BODY]) })
    const item = (schema as Converted).paths['/pets/{id}']!
    expect(item.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ])
    for (const method of ['put', 'patch'])
      expect(requestBody(schema, method)).toMatchObject({
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
      })
  })

  it('through a $ref to #/parameters too', async () => {
    const { schema } = await toV3Json({ text: swagger([ID, { $ref: '#/parameters/PetBody' }]) })
    expect(requestBody(schema, 'put')).toBeDefined()
    expect(requestBody(schema, 'patch')).toBeDefined()
  })

  it("yield to an operation's own body, and a body to an operation's own form fields", async () => {
    const own = { name: 'patch', in: 'body', schema: { type: 'object' } }
    const form = { name: 'name', in: 'formData', type: 'string' }
    const { schema } = await toV3Json({
      text: swagger([ID, BODY], {
        patch: { parameters: [own], responses: { '204': { description: 'saved' } } },
        post: {
          consumes: ['application/x-www-form-urlencoded'],
          parameters: [form],
          responses: { '204': { description: 'saved' } },
        },
      }),
    })
    const item = (schema as Converted).paths['/pets/{id}']!
    expect(item.patch.requestBody.content['application/json'].schema).toEqual({ type: 'object' })
    expect(item.post.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject(
      {
        properties: { name: { type: 'string' } },
      },
    )
    expect(requestBody(schema, 'put').content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Pet',
    })
  })

  it('form fields for a whole path become each operation’s form body', async () => {
    const text = swagger([
      ID,
      { name: 'name', in: 'formData', type: 'string', required: true },
    ]).replace(
      '"consumes":["application/json"]',
      '"consumes":["application/x-www-form-urlencoded"]',
    )
    const { schema } = await toV3Json({ text })
    expect(
      requestBody(schema, 'put').content['application/x-www-form-urlencoded'].schema,
    ).toMatchObject({
      required: ['name'],
      properties: { name: { type: 'string' } },
    })
  })

  it('a change to such a body is a change of each operation, not "No changes."', async () => {
    const before = swagger([ID, BODY])
    const after = before.replace(
      '"properties":{"name":{"type":"string"}}',
      '"properties":{"name":{"type":"integer"}}',
    )
    expect(after).not.toBe(before)
    const changelog = await diffDocuments({ text: before }, { text: after })
    expect(changelog.summary.diff).toBe(true)
    expect(changelog.counts.breaking).toBeGreaterThan(0)
    const parsed = await parseApi({ text: before })
    expect(
      parsed.model.protocol === 'oas' &&
        parsed.model.operations.map((op) => op.requestBody !== undefined),
    ).toEqual([true, true])
  })
})
