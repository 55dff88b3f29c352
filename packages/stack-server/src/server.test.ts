import { describe, expect, it } from 'vitest'
import { generators as fetchClient } from '@svc/gen-fetch-client'
import { generators as typescript } from '@svc/gen-typescript'
import { createServer } from './server.js'

const app = createServer({
  generators: [...typescript, ...fetchClient],
  identity: { name: '@acme/clients', version: '1.4.0' },
})

const post = (path: string, body: unknown) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const PETS = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
  },
  components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } } },
}

describe('createServer', () => {
  it('describes its generators with the JSON Schema of their enrichments', async () => {
    const response = await app.request('/generators')
    expect(response.status).toBe(200)
    const body = (await response.json()) as {
      stack: unknown
      generators: { id: string; enrichmentSchema: { properties?: object } | null }[]
    }
    expect(body.stack).toEqual({ name: '@acme/clients', version: '1.4.0' })
    expect(body.generators.map((g) => g.id)).toEqual([
      '@svc/gen-typescript',
      '@svc/gen-fetch-client',
    ])
    expect(body.generators[0]!.enrichmentSchema).toBeNull()
    expect(body.generators[1]!.enrichmentSchema?.properties).toHaveProperty('validate')
  })

  it('generates with the client settings it is sent, and reports their audit', async () => {
    const response = await post('/artifacts', {
      schema: PETS,
      clientSettings: {
        enrichments: {
          '@svc/gen-fetch-client': { '/pets/{id}': { get: { main: { validat: true } } } },
        },
      },
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as {
      artifacts: Record<string, string>
      manifest: { enrichmentWarnings: { type: string; suggestion?: string }[] }
    }
    expect(Object.keys(body.artifacts)).toEqual(['client.ts', 'types.ts'])
    expect(body.artifacts['client.ts']).toMatch(/export (async )?function getPet\(/)
    expect(body.manifest.enrichmentWarnings).toEqual([
      expect.objectContaining({ type: 'UNKNOWN_ENRICHMENT_KEY', suggestion: 'validate' }),
    ])
  })

  it('answers an unknown route and a wrong method with the error shape', async () => {
    expect(await (await app.request('/nope')).json()).toEqual({
      error: 'invalid_request',
      message: 'No route GET /nope.',
    })
    expect((await app.request('/artifacts')).status).toBe(404)
  })

  it('describes itself in OpenAPI 3.1 with the error shape as a component', async () => {
    const document = (await (await app.request('/openapi.json')).json()) as {
      openapi: string
      info: { title: string; version: string }
      paths: Record<string, unknown>
      components: { schemas: Record<string, unknown> }
    }
    expect(document.openapi).toBe('3.1.0')
    expect(document.info).toMatchObject({ title: '@acme/clients stack server', version: '1.4.0' })
    expect(Object.keys(document.paths).sort()).toEqual([
      '/artifacts',
      '/generators',
      '/healthz',
      '/subjects',
      '/to-v3-json',
    ])
    expect(document.components.schemas).toHaveProperty('StackError')
  })
})
