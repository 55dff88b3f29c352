import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateFrom as generateWith, typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'
import { loadClient, removeScratch, startLoopback, type Loopback } from './test-support.js'

const generateFrom = (text: string) => generateWith(text, generators)

/** A one-path document: `GET /pets/{petId}`, with the top-level fields given. */
function document(fields: object = {}, operation: object = {}): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '204': { description: 'none' } },
          ...operation,
        },
      },
    },
    ...fields,
  })
}

/** Type-checks a usage file beside the generated files; returns tsc's diagnostics. */
async function typecheckUsage(text: string, usage: string): Promise<string[]> {
  const { files } = await generateFrom(text)
  return typecheck(new Map([...files, ['usage.ts', usage]]))
}

let loopback: Loopback
beforeAll(async () => {
  loopback = await startLoopback()
})
afterAll(async () => {
  await loopback.close()
  removeScratch()
})

describe('path parameters', () => {
  it('refuses a missing or empty path parameter before sending anything', async () => {
    const client = await loadClient(document())
    const options = { baseUrl: loopback.baseUrl }
    const before = loopback.seen.length
    for (const path of [{}, { petId: undefined }, { petId: null }, { petId: '' }])
      await expect(client.getPet!({ path }, options)).rejects.toThrow(
        new TypeError("GET /pets/{petId}: the path parameter 'petId' is missing"),
      )
    await expect(client.getPet!(undefined, options)).rejects.toThrow(/'petId' is missing/)
    expect(loopback.seen.length).toBe(before)
    loopback.replies.push({ status: 204 })
    await client.getPet!({ path: { petId: 0 } }, options)
    expect(loopback.last().url).toBe('/pets/0')
  })

  it('types the path parameter as required', async () => {
    const usage = `import { getPet } from './client.ts'
await getPet({ path: { petId: '1' } })
// @ts-expect-error: petId is required
await getPet({ path: {} })
`
    expect(await typecheckUsage(document(), usage)).toEqual([])
  })
})

describe('server variables', () => {
  const servers = {
    servers: [
      {
        url: 'http://{host}:{port}/{version}',
        variables: {
          host: { default: 'localhost' },
          port: { default: '80' },
          version: { default: 'v1', enum: ['v1', 'v2'], description: 'API version' },
        },
      },
      { url: '/relative' },
    ],
  }

  it('gives the servers, their variables typed, and a serverUrl for the baseUrl option', async () => {
    const { files } = await generateFrom(document(servers))
    const client = files.get('client.ts')!
    expect(client).toContain(`export type ClientServerVariables = {
  /** http://{host}:{port}/{version} */
  0: {
    readonly host?: string
    readonly port?: string
    /** API version */
    readonly version?: 'v1' | 'v2'
  }
  /** /relative */
  1: Record<string, never>
}`)
    const usage = `import { getPet, serverUrl } from './client.ts'
const url: string = serverUrl({ version: 'v2' })
await getPet({ path: { petId: '1' } }, { baseUrl: serverUrl({ port: '8080' }, 0) })
serverUrl({}, 1)
// @ts-expect-error: not a value of the variable's enum
serverUrl({ version: 'v3' })
// @ts-expect-error: the first server has no such variable
serverUrl({ region: 'eu' })
// @ts-expect-error: the second server has no variables
serverUrl({ version: 'v1' }, 1)
// @ts-expect-error: there is no third server
serverUrl({}, 2)
export { url }
`
    expect(await typecheckUsage(document(servers), usage)).toEqual([])
  })

  it('fills the variables given and leaves the others at their defaults', async () => {
    const client = await loadClient(document(servers))
    const serverUrl = client.serverUrl as (variables?: object, index?: number) => string
    expect(serverUrl()).toBe('http://localhost:80/v1')
    expect(serverUrl({ version: 'v2', port: '8080' })).toBe('http://localhost:8080/v2')
    expect(serverUrl({}, 1)).toBe('/relative')
    const { port } = new URL(loopback.baseUrl)
    loopback.replies.push({ status: 204 })
    await client.getPet!(
      { path: { petId: '7' } },
      { baseUrl: serverUrl({ host: '127.0.0.1', port, version: 'v2' }) },
    )
    expect(loopback.last().url).toBe('/v2/pets/7')
  })

  it('writes no server helpers for a document without servers', async () => {
    const { files } = await generateFrom(document())
    expect(files.get('client.ts')).not.toContain('serverUrl')
  })
})

describe('middleware', () => {
  it('runs onRequest in order and onResponse in reverse order, each may replace', async () => {
    const client = await loadClient(document())
    const calls: string[] = []
    const outer = {
      onRequest({ request, operation }: { request: Request; operation: object }) {
        calls.push(`outer request ${JSON.stringify(operation)}`)
        request.headers.set('x-outer', '1')
      },
      onResponse({ response }: { response: Response }) {
        calls.push(`outer response ${response.status}`)
        return new Response('replaced', { status: 299, headers: { 'content-type': 'text/plain' } })
      },
    }
    const inner = {
      async onRequest({ request }: { request: Request }) {
        calls.push(`inner request ${request.headers.get('x-outer')}`)
        return new Request(request.url.replace('/pets/1', '/pets/2'), request)
      },
      onResponse({ response }: { response: Response }) {
        calls.push(`inner response ${response.status}`)
      },
    }
    loopback.replies.push({ status: 204 })
    const result = (await client.getPet!(
      { path: { petId: '1' } },
      { baseUrl: loopback.baseUrl, middleware: [outer, inner] },
    )) as { status: number; data: unknown }
    expect(loopback.last()).toMatchObject({ url: '/pets/2', headers: { 'x-outer': '1' } })
    expect(calls).toEqual([
      'outer request {"method":"GET","path":"/pets/{petId}"}',
      'inner request 1',
      'inner response 204',
      'outer response 204',
    ])
    expect({ status: result.status, data: result.data }).toEqual({ status: 299, data: 'replaced' })
  })

  it('types the hooks', async () => {
    const usage = `import { getPet, type ClientMiddleware } from './client.ts'
const logging: ClientMiddleware = {
  onRequest({ request, operation }) {
    request.headers.set('x-operation', \`\${operation.method} \${operation.path}\`)
  },
  async onResponse({ response }) {
    return response.status === 401 ? new Response(null, { status: 403 }) : undefined
  },
}
await getPet({ path: { petId: '1' } }, { middleware: [logging] })
// @ts-expect-error: a hook returns a request, a response or nothing
const wrong: ClientMiddleware = { onRequest: () => 'request' }
export { wrong }
`
    expect(await typecheckUsage(document(), usage)).toEqual([])
  })
})

describe('security schemes', () => {
  const op = (operationId: string, security?: object[]) => ({
    get: {
      operationId,
      ...(security && { security }),
      responses: { '204': { description: 'none' } },
    },
  })
  const secured = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    security: [{ token: [] }],
    paths: {
      '/default': op('byDefault'),
      '/public': op('open', []),
      '/basic': op('basic', [{ basic: [] }]),
      '/keys': op('keys', [{ headerKey: [], queryKey: [], cookieKey: [] }]),
      '/either': op('either', [{ oauth: ['read'] }, { oidc: [] }, {}]),
      '/custom': op('custom', [{ custom: [] }]),
    },
    components: {
      securitySchemes: {
        token: { type: 'http', scheme: 'bearer', description: 'A personal token' },
        basic: { type: 'http', scheme: 'basic' },
        custom: { type: 'http', scheme: 'Digest' },
        headerKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
        cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
        oauth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'x', scopes: {} } } },
        oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://example.com' },
      },
    },
  })

  it('sends the credentials of the first requirement the auth option satisfies', async () => {
    const client = await loadClient(secured)
    const call = async (operation: string, auth: object) => {
      loopback.replies.push({ status: 204 })
      await client[operation]!(undefined, { baseUrl: loopback.baseUrl, auth })
      return loopback.last()
    }
    const all = {
      token: 't0k',
      basic: { username: 'ana', password: 'pä:ss' },
      custom: 'response="x"',
      headerKey: 'h',
      queryKey: 'q&1',
      cookieKey: 'c;1',
      oauth: async () => 'access',
      oidc: 'id-token',
    }
    expect((await call('byDefault', all)).headers.authorization).toBe('Bearer t0k')
    expect((await call('byDefault', { token: () => 'fresh' })).headers.authorization).toBe(
      'Bearer fresh',
    )
    expect((await call('open', all)).headers.authorization).toBeUndefined()
    const basic = Buffer.from('ana:pä:ss', 'utf8').toString('base64')
    expect((await call('basic', all)).headers.authorization).toBe(`Basic ${basic}`)
    expect((await call('custom', all)).headers.authorization).toBe('Digest response="x"')
    expect(await call('keys', all)).toMatchObject({
      url: '/keys?api_key=q%261',
      headers: { 'x-api-key': 'h', cookie: 'session=c%3B1' },
    })
    // Not all of one requirement's schemes: it is skipped.
    const partial = await call('keys', { headerKey: 'h' })
    expect([partial.url, partial.headers['x-api-key']]).toEqual(['/keys', undefined])
    expect((await call('either', all)).headers.authorization).toBe('Bearer access')
    expect((await call('either', { oidc: 'id-token' })).headers.authorization).toBe(
      'Bearer id-token',
    )
    expect((await call('either', {})).headers.authorization).toBeUndefined()
  })

  it('types the auth option by scheme', async () => {
    const { files } = await generateFrom(secured)
    expect(files.get('client.ts')).toContain(`export type ClientAuth = {
  /** HTTP bearer, sent as \`Authorization: Bearer <value>\`. A personal token */
  readonly token?: string | (() => string | Promise<string>)`)
    const usage = `import { byDefault, keys } from './client.ts'
await byDefault(undefined, { auth: { token: async () => 'token', basic: { username: 'a', password: 'b' } } })
// @ts-expect-error: basic takes a username and a password
await keys(undefined, { auth: { basic: 'a:b' } })
// @ts-expect-error: no such scheme
await keys(undefined, { auth: { bearer: 'token' } })
`
    expect(await typecheckUsage(secured, usage)).toEqual([])
  })

  it('writes no auth option for a document without security schemes', async () => {
    const { files } = await generateFrom(document())
    expect(files.get('client.ts')).not.toMatch(/ClientAuth|options\.auth/)
  })
})

describe('encoding of form and multipart bodies', () => {
  const post = (operationId: string, mediaType: string, properties: object, encoding: object) => ({
    post: {
      operationId,
      requestBody: {
        content: { [mediaType]: { schema: { type: 'object', properties }, encoding } },
      },
      responses: { '204': { description: 'none' } },
    },
  })
  const text = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/charges': post(
        'createCharge',
        'application/x-www-form-urlencoded',
        {
          amount: { type: 'integer' },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
          expand: { type: 'array', items: { type: 'string' } },
          shipping: { type: 'object', properties: { name: { type: 'string' } } },
          tags: { type: 'array', items: { type: 'string' } },
          card: { type: 'object', additionalProperties: true },
          items: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
        {
          metadata: { style: 'deepObject', explode: true },
          card: { style: 'deepObject', explode: true },
          items: { style: 'deepObject', explode: true },
          expand: { style: 'deepObject', explode: true },
          tags: { style: 'form', explode: false },
        },
      ),
      '/uploads': post(
        'upload',
        'multipart/form-data',
        {
          meta: { type: 'object', properties: { order: { type: 'string' } } },
          note: { type: 'string' },
          file: { type: 'string', format: 'binary' },
          plain: { type: 'object', properties: { a: { type: 'string' } } },
        },
        {
          meta: { contentType: 'application/json' },
          note: { contentType: 'text/markdown' },
          file: { contentType: 'image/png, image/jpeg' },
        },
      ),
    },
  })

  it('writes the encodings that differ from the default into the descriptor', async () => {
    const { files } = await generateFrom(text)
    const client = files.get('client.ts')!
    expect(client).toContain(`      encoding: {
        metadata: { style: 'deepObject', explode: true },
        card: { style: 'deepObject', explode: true },
        items: { style: 'deepObject', explode: true },
        expand: { style: 'deepObject', explode: true },
        tags: { style: 'form', explode: false },
      },
`)
    expect(client).toContain(`      encoding: {
        meta: { contentType: 'application/json' },
        note: { contentType: 'text/markdown' },
      },
`)
    const usage = `import { createCharge, upload } from './client.ts'
await createCharge({ body: { amount: 1, metadata: { order: '42' }, expand: ['customer'] } })
await upload({ body: { meta: { order: '1' }, file: new Blob([]) } })
// @ts-expect-error: metadata values are strings
await createCharge({ body: { metadata: { order: 42 } } })
`
    expect(await typecheckUsage(text, usage)).toEqual([])
  })

  it('sends form members in their style, and the others as before', async () => {
    const client = await loadClient(text)
    loopback.replies.push({ status: 204 })
    await client.createCharge!(
      {
        body: {
          amount: 100,
          metadata: { order: '42', 'a b': 'c&d' },
          expand: ['customer', 'invoice'],
          shipping: { name: 'Ana Lima' },
          tags: ['x', 'y'],
          card: { name: 'Ana', address: { city: 'Lisboa', lines: ['a', 'b'] }, cvc: undefined },
          items: [{ price: 'p1', quantity: 2 }, { price: 'p2' }],
        },
      },
      { baseUrl: loopback.baseUrl },
    )
    expect(loopback.last().headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(loopback.last().body.split('&')).toEqual([
      'amount=100',
      'metadata[order]=42',
      'metadata[a%20b]=c%26d',
      'expand[]=customer',
      'expand[]=invoice',
      `shipping=${encodeURIComponent('{"name":"Ana Lima"}').replace(/%20/g, '+')}`,
      'tags=x,y',
      'card[name]=Ana',
      'card[address][city]=Lisboa',
      'card[address][lines][]=a',
      'card[address][lines][]=b',
      'items[0][price]=p1',
      'items[0][quantity]=2',
      'items[1][price]=p2',
    ])
    const parsed = new URLSearchParams(loopback.last().body)
    expect(parsed.get('metadata[a b]')).toBe('c&d')
  })

  it('sends a multipart part with its own media type', async () => {
    const client = await loadClient(text)
    loopback.replies.push({ status: 204 })
    const file = new Blob(['PNG'], { type: 'image/png' })
    await client.upload!(
      { body: { meta: { order: '42' }, note: '# hi', file, plain: { a: 'b' } } },
      { baseUrl: loopback.baseUrl },
    )
    const body = loopback.last().body
    expect(body).toMatch(
      /name="meta"; filename="blob"\r\nContent-Type: application\/json\r\n\r\n\{"order":"42"\}\r\n/,
    )
    expect(body).toMatch(
      /name="note"; filename="blob"\r\nContent-Type: text\/markdown\r\n\r\n# hi\r\n/,
    )
    expect(body).toMatch(/name="file"; filename="blob"\r\nContent-Type: image\/png\r\n\r\nPNG\r\n/)
    expect(body).toContain('name="plain"\r\n\r\n{"a":"b"}\r\n')
  })
})

describe('undocumented statuses and media types', () => {
  const text = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          responses: {
            '200': {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            default: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        Problem: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
      },
    },
  })

  it('returns them without throwing, validated or not', async () => {
    for (const validate of [false, true]) {
      const client = await loadClient(text, {
        enrichments: { '@svc/gen-fetch-client': { _generator: { validate } } },
      })
      const call = () =>
        client.listThings!(undefined, { baseUrl: loopback.baseUrl }) as Promise<{
          status: number
          data: unknown
        }>
      loopback.replies.push({ status: 502, type: 'text/html', body: '<h1>Bad gateway</h1>' })
      expect(await call()).toMatchObject({ status: 502, data: '<h1>Bad gateway</h1>' })
      loopback.replies.push({ status: 200, type: 'application/octet-stream', body: 'bytes' })
      const binary = await call()
      expect(binary.status).toBe(200)
      expect(binary.data).toBeInstanceOf(Blob)
      loopback.replies.push({ status: 418, type: 'application/json', body: '{"title":"teapot"}' })
      expect(await call()).toMatchObject({ status: 418, data: { title: 'teapot' } })
    }
  })
})

describe('response headers', () => {
  const header = (schema: object, required = false) => ({ schema, required })
  const text = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          responses: {
            '200': {
              description: 'ok',
              headers: {
                'X-Rate-Limit': header({ type: 'integer' }, true),
                'X-Next': header({ type: 'string' }),
                'X-Cached': header({ type: 'boolean' }),
                'X-Ids': header({ type: 'array', items: { type: 'integer' } }),
                'X-Mode': { $ref: '#/components/headers/Mode' },
                'Content-Type': header({ type: 'string' }),
              },
              content: { 'application/json': { schema: { type: 'array', items: {} } } },
            },
            '404': { description: 'none' },
            default: {
              description: 'error',
              headers: { 'X-Request-Id': header({ type: 'string' }) },
            },
          },
        },
      },
    },
    components: {
      headers: { Mode: { schema: { type: 'string', enum: ['fast', 'slow'] } } },
    },
  })

  it('types the documented headers on the result of their status', async () => {
    const { files } = await generateFrom(text)
    const client = files.get('client.ts')!
    expect(client).toContain(
      `"X-Rate-Limit": 'number', "X-Next": 'string', "X-Cached": 'boolean', "X-Ids": 'number[]'`,
    )
    expect(client).toContain(`): Promise<
  | ClientResult<
      200,
      ListItemsResponse,
      {
        readonly "X-Rate-Limit": number
        readonly "X-Next"?: string
        readonly "X-Cached"?: boolean
        readonly "X-Ids"?: Array<number>
        readonly "X-Mode"?: "fast" | "slow"
      }
    >
  | ClientResult<404, unknown>
  | ClientResult<Exclude<HttpStatus, 200 | 404>, unknown, { readonly "X-Request-Id"?: string }>
> {`)
    const usage = `import { listItems } from './client.ts'
export async function use() {
  const result = await listItems()
  if (result.status === 200) {
    const limit: number = result.headers['X-Rate-Limit']
    const ids: Array<number> | undefined = result.headers['X-Ids']
    const mode: 'fast' | 'slow' | undefined = result.headers['X-Mode']
    // @ts-expect-error: the header is not always sent
    const next: string = result.headers['X-Next']
    // @ts-expect-error: Content-Type is not a documented header
    result.headers['Content-Type']
    return [limit, ids, mode, next]
  } else if (result.status === 404) {
    // @ts-expect-error: a 404 documents no headers
    result.headers['X-Request-Id']
  } else {
    const id: string | undefined = result.headers['X-Request-Id']
    return [id]
  }
  return []
}
`
    expect(await typecheckUsage(text, usage)).toEqual([])
  })

  it('reads and parses them from the response', async () => {
    const client = await loadClient(text)
    const call = async () =>
      (await client.listItems!(undefined, { baseUrl: loopback.baseUrl })) as { headers: object }
    loopback.replies.push({
      status: 200,
      type: 'application/json',
      body: '[]',
      headers: {
        'x-rate-limit': '42',
        'X-Cached': 'false',
        'X-Ids': '1, 2,3',
        'X-Mode': 'fast',
        'X-Other': 'x',
        'X-Request-Id': 'r1',
      },
    })
    expect((await call()).headers).toEqual({
      'X-Rate-Limit': 42,
      'X-Cached': false,
      'X-Ids': [1, 2, 3],
      'X-Mode': 'fast',
    })
    loopback.replies.push({ status: 404, headers: { 'X-Request-Id': 'r2' } })
    expect((await call()).headers).toEqual({})
    loopback.replies.push({ status: 500, headers: { 'X-Request-Id': 'r3' } })
    expect((await call()).headers).toEqual({ 'X-Request-Id': 'r3' })
  })
})
