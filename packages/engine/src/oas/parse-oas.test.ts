import { describe, expect, it } from 'vitest'
import { brief, parseOasDoc } from '../test-support.js'

const ok = { '200': { description: 'ok' } }

describe('operations', () => {
  it('makes one operation per path × method, with path-level parameters merged in', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/pets/{id}': {
          parameters: [
            { name: 'id', in: 'path', schema: { type: 'string' } },
            { name: 'trace', in: 'header', schema: { type: 'string' } },
          ],
          get: { operationId: 'getPet', tags: ['pets'], responses: ok },
          delete: {
            parameters: [
              { name: 'trace', in: 'header', required: true, schema: { type: 'integer' } },
            ],
            responses: ok,
          },
        },
      },
    })
    expect(parseIssues).toEqual([])
    expect(model.operations.map((op) => [op.kind, op.method, op.path, op.operationId])).toEqual([
      ['http', 'get', '/pets/{id}', 'getPet'],
      ['http', 'delete', '/pets/{id}', undefined],
    ])
    const [get, del] = model.operations
    expect(get!.parameters).toEqual([
      {
        kind: 'parameter',
        name: 'id',
        in: 'path',
        required: true,
        deprecated: false,
        schema: { kind: 'string', nullable: false },
      },
      {
        kind: 'parameter',
        name: 'trace',
        in: 'header',
        required: false,
        deprecated: false,
        schema: { kind: 'string', nullable: false },
      },
    ])
    expect(del!.parameters[1]).toMatchObject({
      name: 'trace',
      required: true,
      schema: { kind: 'integer' },
    })
  })

  it('keeps refs to reusable components lazy', async () => {
    const { model } = await parseOasDoc({
      paths: {
        '/a': {
          post: {
            parameters: [{ $ref: '#/components/parameters/Limit' }],
            requestBody: { $ref: '#/components/requestBodies/Body' },
            responses: { default: { $ref: '#/components/responses/Error' } },
          },
        },
      },
      components: {
        parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } },
        requestBodies: {
          Body: { content: { 'application/json': { schema: { type: 'object' } } } },
        },
        responses: { Error: { description: 'error' } },
      },
    })
    const op = model.operations[0]!
    expect(op.parameters).toEqual([
      {
        kind: 'ref',
        bucket: 'parameters',
        $ref: '#/components/parameters/Limit',
        refName: 'Limit',
      },
    ])
    expect(op.requestBody).toEqual({
      kind: 'ref',
      bucket: 'requestBodies',
      $ref: '#/components/requestBodies/Body',
      refName: 'Body',
    })
    expect(op.responses.default).toEqual({
      kind: 'ref',
      bucket: 'responses',
      $ref: '#/components/responses/Error',
      refName: 'Error',
    })
    expect(model.components.responses.Error).toEqual({
      kind: 'response',
      description: 'error',
      headers: {},
      content: {},
    })
  })

  it('INVALID_OPERATION (error) drops that path × method only', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/a': {
          get: { parameters: [{ name: 'x', in: 'body' }], responses: ok },
          put: { responses: ok },
        },
        '/b': { post: 'not an operation' },
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_OPERATION', level: 'error', location: 'paths:/a:get' },
      { type: 'INVALID_OPERATION', level: 'error', location: 'paths:/b:post' },
    ])
    expect(parseIssues[0]!.message).toBe(
      'Parameter "x" has "in" the string "body"; expected path, query, header or cookie (at paths:/a:get:parameters:0).',
    )
    expect(model.operations.map((op) => `${op.method} ${op.path}`)).toEqual(['put /a'])
  })

  it('INVALID_OPERATION for every method when a path-level parameter is broken', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/a': { parameters: [{ in: 'query' }], get: { responses: ok }, post: { responses: ok } },
      },
    })
    expect(brief(parseIssues).map((i) => `${i.type} ${i.location}`)).toEqual([
      'INVALID_OPERATION paths:/a:get',
      'INVALID_OPERATION paths:/a:post',
    ])
    expect(parseIssues[0]!.message).toContain('(at paths:/a:parameters:0)')
    expect(model.operations).toEqual([])
  })

  it('INVALID_RESPONSE (error) drops that status and response, in an operation and in components', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/a': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { oneOf: [] } } },
              },
              '404': { description: 'missing' },
            },
          },
        },
      },
      components: {
        responses: { Broken: { description: 'x', headers: 'none' }, Fine: { description: 'fine' } },
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_RESPONSE', level: 'error', location: 'components:responses:Broken' },
      { type: 'INVALID_RESPONSE', level: 'error', location: 'paths:/a:get:responses:200' },
    ])
    expect(Object.keys(model.operations[0]!.responses)).toEqual(['404'])
    expect(Object.keys(model.components.responses)).toEqual(['Fine'])
  })

  it('reports unknown keys of operations, parameters and responses, and status codes that are not', async () => {
    const { parseIssues } = await parseOasDoc({
      paths: {
        '/a': {
          get: {
            summry: 'typo',
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string' }, requird: true }],
            responses: {
              '200': { description: 'ok', contents: {} },
              ok: { description: 'not a status' },
              'x-note': 1,
            },
          },
        },
        'no-slash': {},
      },
    })
    expect(brief(parseIssues).map((i) => `${i.type} ${i.location}`)).toEqual([
      'UNEXPECTED_PROPERTY paths:/a:get:summry',
      'UNEXPECTED_PROPERTY paths:/a:get:parameters:0:requird',
      'UNEXPECTED_PROPERTY paths:/a:get:responses:200:contents',
      'UNEXPECTED_PROPERTY paths:/a:get:responses:ok',
      'UNEXPECTED_PROPERTY paths:no-slash',
    ])
  })

  it('follows a local $ref on a path item', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/a': { get: { responses: ok } },
        '/b': { $ref: '#/paths/~1a' },
        '/c': { $ref: '#/paths/~1nope' },
      },
    })
    expect(model.operations.map((op) => op.path)).toEqual(['/a', '/b'])
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'paths:/c:$ref' },
    ])
  })

  it('escapes a colon inside a location segment', async () => {
    const { parseIssues } = await parseOasDoc({
      paths: { '/files/{id}:archive': { post: { summry: 'x', responses: ok } } },
    })
    expect(parseIssues.map((i) => i.location)).toEqual(['paths:/files/{id}%3Aarchive:post:summry'])
  })
})

describe('components', () => {
  it('INVALID_SECURITY_SCHEME (error) drops a scheme that is not http, apiKey, oauth2 or openIdConnect', async () => {
    const { parseIssues, model } = await parseOasDoc({
      components: {
        securitySchemes: {
          Basic: { type: 'http', scheme: 'basic' },
          Key: { type: 'apiKey', name: 'X-Key', in: 'header' },
          OAuth: {
            type: 'oauth2',
            flows: { clientCredentials: { tokenUrl: 'https://x/token', scopes: { read: 'read' } } },
          },
          Oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://x/.well-known' },
          Cert: { type: 'mutualTLS' },
          NoName: { type: 'apiKey', in: 'header' },
        },
      },
    })
    expect(brief(parseIssues)).toEqual([
      {
        type: 'INVALID_SECURITY_SCHEME',
        level: 'error',
        location: 'components:securitySchemes:Cert',
      },
      {
        type: 'INVALID_SECURITY_SCHEME',
        level: 'error',
        location: 'components:securitySchemes:NoName',
      },
    ])
    expect(parseIssues[0]!.message).toBe(
      'Unknown security scheme type: the string "mutualTLS"; expected http, apiKey, oauth2 or openIdConnect.',
    )
    expect(Object.keys(model.components.securitySchemes)).toEqual(['Basic', 'Key', 'OAuth', 'Oidc'])
    expect(model.components.securitySchemes.OAuth).toEqual({
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'https://x/token', scopes: { read: 'read' } } },
    })
  })

  it('INVALID_PARAMETER (error) for a broken reusable header; INVALID_SCHEMA for a broken request body', async () => {
    const { parseIssues, model } = await parseOasDoc({
      components: {
        headers: {
          Rate: { schema: { type: 'integer', minimum: 'zero' } },
          Fine: { schema: { type: 'integer' } },
        },
        requestBodies: { Body: { content: { 'application/json': { schema: { anyOf: [] } } } } },
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:requestBodies:Body' },
      { type: 'INVALID_PARAMETER', level: 'error', location: 'components:headers:Rate' },
    ])
    expect(Object.keys(model.components.headers)).toEqual(['Fine'])
    expect(model.components.requestBodies).toEqual({})
  })

  it('reports an unexpected components bucket and keeps going', async () => {
    const { parseIssues } = await parseOasDoc({
      components: { schema: {}, schemas: { A: { type: 'string' } } },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'UNEXPECTED_PROPERTY', level: 'warning', location: 'components:schema' },
    ])
  })
})

describe('OpenAPI 3.1 documents', () => {
  it('reads webhooks as operations of their own, and needs no paths', async () => {
    const { parseIssues, model } = await parseOasDoc({
      openapi: '3.1.0',
      paths: undefined,
      webhooks: {
        newPet: {
          post: {
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: ok,
          },
        },
      },
    })
    expect(parseIssues).toEqual([])
    expect(model.operations).toEqual([])
    expect(model.webhooks.map((hook) => [hook.kind, hook.name, hook.method])).toEqual([
      ['webhook', 'newPet', 'post'],
    ])
  })

  it('reports webhooks in a 3.0 document as unexpected', async () => {
    const { parseIssues, model } = await parseOasDoc({ webhooks: { x: {} } })
    expect(brief(parseIssues)).toEqual([
      { type: 'UNEXPECTED_PROPERTY', level: 'warning', location: 'webhooks' },
    ])
    expect(model.webhooks).toEqual([])
  })

  it('INVALID_OPERATION drops a broken webhook operation', async () => {
    const { parseIssues, model } = await parseOasDoc({
      openapi: '3.1.0',
      webhooks: { hook: { post: { tags: 'one' } } },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_OPERATION', level: 'error', location: 'webhooks:hook:post' },
    ])
    expect(model.webhooks).toEqual([])
  })
})

describe('the document', () => {
  it('reads info, servers, tags and security', async () => {
    const { model } = await parseOasDoc({
      info: { title: 'Pets', version: '2.1', description: 'All the pets' },
      servers: [
        {
          url: 'https://{region}.example.com',
          variables: { region: { default: 'eu', enum: ['eu', 'us'] } },
        },
      ],
      tags: [{ name: 'pets', description: 'Pets' }],
      security: [{ Key: [] }],
    })
    expect(model.info).toEqual({ title: 'Pets', version: '2.1', description: 'All the pets' })
    expect(model.servers).toEqual([
      {
        url: 'https://{region}.example.com',
        variables: { region: { default: 'eu', enum: ['eu', 'us'] } },
      },
    ])
    expect(model.tags).toEqual([{ name: 'pets', description: 'Pets' }])
    expect(model.security).toEqual([{ Key: [] }])
  })

  it('reports a malformed root field and keeps the rest', async () => {
    const { parseIssues, model } = await parseOasDoc({
      servers: 'https://x',
      paths: { '/a': { get: { responses: ok } } },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'UNEXPECTED_PROPERTY', level: 'warning', location: 'servers' },
    ])
    expect(model.servers).toEqual([])
    expect(model.operations).toHaveLength(1)
  })
})
