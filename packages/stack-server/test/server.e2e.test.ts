import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aliasBomb } from '../../hub/test/support/documents.js'
import { hostileUrls, nonHttpUrls } from './support/hostile-urls.js'
import { startLoopbackServer, type LoopbackServer } from './support/loopback.js'
import {
  buildServerJs,
  PETSTORE_2,
  PETSTORE_3,
  startServerJs,
  type StackServer,
} from './support/server-process.js'

// The stack server as a publish ships it: built by `svc bundle demo --server`, run alone from an
// empty folder with the default guard (no allow-list, the system resolver).

const petstore = readFileSync(PETSTORE_3, 'utf8')
const swagger = readFileSync(PETSTORE_2, 'utf8')
const GENERATOR_IDS = [
  '@svc/gen-typescript',
  '@svc/gen-zod',
  '@svc/gen-fetch-client',
  '@svc/gen-graphql-client',
]
const DOCUMENT_ROUTES = ['/artifacts', '/subjects', '/to-v3-json']

/** An OpenAPI 3.0 document that reads, with a `$ref` to a schema it does not have. */
const missingRef = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Broken', version: '1.0.0' },
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Missing' } },
            },
          },
        },
      },
    },
  },
})

let server: StackServer
/** Listens on 127.0.0.1 and [::1] and serves the petstore: a URL let through would answer 200. */
let loopback: LoopbackServer

beforeAll(async () => {
  loopback = await startLoopbackServer(
    (_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(petstore),
    { ipv6: true },
  )
  server = await startServerJs(await buildServerJs())
})

afterAll(async () => {
  await server?.stop('SIGKILL') // already stopped by the last test, unless it did not run
  await loopback?.close()
})

describe('server.js, run alone', () => {
  it('prints one JSON line first, with the port it bound when PORT=0', () => {
    expect(server.listening).toEqual({
      msg: 'listening',
      stack: '@local/demo',
      version: '0.1.0',
      port: server.port,
    })
    expect(server.port).toBeGreaterThan(0)
  })

  it('GET /healthz answers ok with the stack and version', async () => {
    const { status, body } = await server.get('/healthz')
    expect(status).toBe(200)
    expect(body).toEqual({ status: 'ok', stack: '@local/demo', version: '0.1.0' })
  })

  it('GET /generators lists the four generators of the project, in deno.json order', async () => {
    const { status, body } = await server.get('/generators')
    expect(status).toBe(200)
    expect(body.stack).toEqual({ name: '@local/demo', version: '0.1.0' })
    expect(body.generators.map((generator: { id: string }) => generator.id)).toEqual(GENERATOR_IDS)
  })

  it('GET /openapi.json is an OpenAPI 3.1 document of its five routes', async () => {
    const { status, body } = await server.get('/openapi.json')
    expect(status).toBe(200)
    expect(body.openapi).toBe('3.1.0')
    expect(body.info.title).toBe('@local/demo stack server')
    expect(Object.keys(body.paths).sort()).toEqual([
      '/artifacts',
      '/generators',
      '/healthz',
      '/subjects',
      '/to-v3-json',
    ])
  })

  it('POST /artifacts generates client.ts, types.ts and zod.ts for the petstore', async () => {
    const { status, body } = await server.post('/artifacts', { schema: petstore })
    expect(status).toBe(200)
    expect(Object.keys(body.artifacts).sort()).toEqual(['client.ts', 'types.ts', 'zod.ts'])
    expect(body.artifacts['types.ts']).toContain('export type Pet = ')
    expect(body.artifacts['zod.ts']).toContain(
      'export const petSchema = /* @__PURE__ */ (() =>\n  z.looseObject(',
    )
    expect(body.artifacts['client.ts']).toContain('/pet')
    expect(body.manifest.parseIssues).toEqual([])
    expect(Object.keys(body.manifest.results).sort()).toEqual([...GENERATOR_IDS].sort())
    expect(body.manifest.results['@svc/gen-typescript']['model Pet']).toEqual({
      status: 'success',
    })
    expect(body.source).toBeUndefined()
  })

  it('POST /subjects lists what each generator would generate', async () => {
    const { status, body } = await server.post('/subjects', { schema: petstore })
    expect(status).toBe(200)
    expect(Object.keys(body.subjects)).toEqual(GENERATOR_IDS)
    expect(body.subjects['@svc/gen-fetch-client']).toContainEqual(
      expect.objectContaining({ key: 'POST /pet', kind: 'operation', status: 'included' }),
    )
    expect(body.parseIssues).toEqual([])
  })

  it('POST /to-v3-json converts Swagger 2.0 to OpenAPI 3', async () => {
    expect(JSON.parse(swagger).swagger).toBe('2.0')
    const { status, body } = await server.post('/to-v3-json', { schema: swagger })
    expect(status).toBe(200)
    expect(body.schema.openapi).toMatch(/^3\./)
    expect(Object.keys(body.schema.paths)).toContain('/pet')
  })
})

describe('request bodies', () => {
  it.each([
    [
      'both schema and source',
      { schema: petstore, source: 'https://example.com/a.json' },
      'source',
    ],
    ['neither schema nor source', { clientSettings: {} }, 'schema'],
    ['a schema that is a number', { schema: 42 }, 'schema'],
    ['an empty schema', { schema: '' }, 'schema'],
    ['a source that is not a URL', { source: 'not a url' }, 'source'],
    [
      'clientSettings.skip not an array',
      { schema: petstore, clientSettings: { skip: 'x' } },
      'clientSettings.skip',
    ],
    ['an unknown protocol', { schema: petstore, protocol: 'soap' }, 'protocol'],
  ])('%s: 400 invalid_request, the issue at its path', async (_case, request, path) => {
    const { status, body } = await server.post('/artifacts', request)
    expect(status).toBe(400)
    expect(body).toEqual({
      error: 'invalid_request',
      message: 'The request body is not valid.',
      issues: [{ path, message: expect.any(String) }],
    })
  })

  it('a JSON object sent as GraphQL: 400 at schema', async () => {
    const { status, body } = await server.post('/artifacts', {
      schema: { type: 'Query' },
      protocol: 'gql',
    })
    expect(status).toBe(400)
    expect(body).toMatchObject({
      error: 'invalid_request',
      issues: [
        {
          path: 'schema',
          message: 'a JSON object is an OpenAPI document; send GraphQL SDL as text',
        },
      ],
    })
  })

  it('an unknown top-level key: 400 invalid_request naming the key', async () => {
    const { status, body } = await server.post('/artifacts', { schema: petstore, extra: true })
    expect(status).toBe(400)
    expect(body).toEqual({
      error: 'invalid_request',
      message: 'The request body is not valid.',
      issues: [{ path: 'extra', message: 'is not a field of this request' }],
    })
  })

  it('a body that is not JSON, or not an object: 400 invalid_request, on every route', async () => {
    for (const route of DOCUMENT_ROUTES) {
      const notJson = await server.send(route, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"schema": ',
      })
      expect({ route, status: notJson.status, body: notJson.body }).toEqual({
        route,
        status: 400,
        body: { error: 'invalid_request', message: 'The request body is not JSON.' },
      })
      const array = await server.post(route, [petstore])
      expect({ route, status: array.status, error: array.body.error }).toEqual({
        route,
        status: 400,
        error: 'invalid_request',
      })
    }
  })

  it('a body not sent as application/json: 400 invalid_request, not a server failure', async () => {
    const json = JSON.stringify({ schema: petstore })
    const plainText = await server.send('/artifacts', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: json,
    })
    // A Uint8Array body goes without any content-type.
    const untyped = await server.send('/to-v3-json', {
      method: 'POST',
      body: new TextEncoder().encode(json),
    })
    for (const { status, body } of [plainText, untyped]) {
      expect(status).toBe(400)
      expect(body).toEqual({
        error: 'invalid_request',
        message: expect.stringContaining('application/json'),
      })
    }
  })

  it('a body over 25 MiB: 413 invalid_request, with or without Content-Length', async () => {
    const big = JSON.stringify({ schema: 'x'.repeat(25 * 1024 * 1024) })
    const declared = await server.send('/artifacts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    })
    const chunked = await server.send('/artifacts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    })
    for (const { status, body } of [declared, chunked]) {
      expect(status).toBe(413)
      expect(body).toEqual({ error: 'invalid_request', message: 'The request body is too large.' })
    }
  })

  it('a document that cannot be read: 422 invalid_schema, on every route', async () => {
    const unreadable = [
      ['openapi: [', /YAML/],
      [JSON.stringify({ title: 'no openapi key' }), /neither an OpenAPI description/],
      [{ title: 'no openapi key' }, /neither an OpenAPI description/],
      [
        aliasBomb(3_000, 990, 'bomb'),
        /more than 10,000,000 nodes once its aliases are expanded \(the limit on expanded/,
      ],
    ] as const
    for (const route of DOCUMENT_ROUTES)
      for (const [schema, message] of unreadable) {
        const { status, body } = await server.post(route, { schema })
        expect({ route, schema, status, body }).toEqual({
          route,
          schema,
          status: 422,
          body: { error: 'invalid_schema', message: expect.stringMatching(message) },
        })
      }
  })

  it('a readable document with problems: 200, and the manifest lists its parse issues', async () => {
    const { status, body } = await server.post('/artifacts', { schema: missingRef })
    expect(status).toBe(200)
    expect(body.manifest.parseIssues).toEqual([
      expect.objectContaining({
        type: 'INVALID_DEPENDENCY_REF',
        level: 'error',
        message: expect.stringContaining('#/components/schemas/Missing'),
      }),
    ])
    const subjects = await server.post('/subjects', { schema: missingRef })
    expect(subjects.status).toBe(200)
    expect(subjects.body.parseIssues).toEqual(body.manifest.parseIssues)
  })

  it('an unknown route: 404 invalid_request', async () => {
    const { status, body } = await server.get('/nowhere')
    expect(status).toBe(404)
    expect(body).toEqual({ error: 'invalid_request', message: 'No route GET /nowhere.' })
  })
})

describe('CORS', () => {
  it('every answer carries access-control-allow-origin: *, errors included', async () => {
    const answers = [
      await server.get('/healthz'),
      await server.post('/artifacts', { schema: petstore }),
      await server.post('/artifacts', { schema: 42 }),
      await server.post('/artifacts', { source: 'http://10.0.0.1/' }),
    ]
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 400, 422])
    for (const { headers } of answers) expect(headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers the preflight of a cross-origin POST', async () => {
    const { status, headers } = await server.send('/artifacts', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(status).toBe(204)
    expect(headers.get('access-control-allow-origin')).toBe('*')
    expect(headers.get('access-control-allow-methods')).toContain('POST')
    expect(headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
  })
})

describe('source URLs the guard refuses', () => {
  it('the loopback listener counts a connection that is made, on 127.0.0.1 and [::1]', async () => {
    const before = loopback.connections
    for (const url of [`http://127.0.0.1:${loopback.port}/`, `http://[::1]:${loopback.port}/`]) {
      const response = await fetch(url)
      expect(JSON.parse(await response.text()).openapi).toBe('3.0.0')
    }
    expect(loopback.connections).toBe(before + 2)
  })

  it('refuses every hostile URL with 422 source_fetch_failed, on every route, connecting nowhere', async () => {
    const before = loopback.connections
    for (const route of DOCUMENT_ROUTES)
      for (const [url, reason] of hostileUrls(loopback.port)) {
        const { status, body } = await server.post(route, { source: url })
        expect({ route, url, status, body }).toEqual({
          route,
          url,
          status: 422,
          body: {
            error: 'source_fetch_failed',
            message: expect.stringContaining(`The source cannot be fetched: ${reason}`),
          },
        })
        expect({ url, connections: loopback.connections }).toEqual({ url, connections: before })
      }
  })

  it('refuses a source that is not http(s) when it validates the body: 400 invalid_request', async () => {
    const before = loopback.connections
    for (const url of nonHttpUrls(loopback.port)) {
      const { status, body } = await server.post('/artifacts', { source: url })
      expect({ url, status, body }).toEqual({
        url,
        status: 400,
        body: {
          error: 'invalid_request',
          message: 'The request body is not valid.',
          issues: [{ path: 'source', message: 'must be an http or https URL' }],
        },
      })
    }
    expect(loopback.connections).toBe(before)
  })
})

describe('shutdown', () => {
  it('SIGTERM: says it stops and exits 0, having logged no failure', async () => {
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    expect(
      server.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([server.listening, { msg: 'stopping', signal: 'SIGTERM' }])
    expect(server.stderr).toBe('')
  })
})
