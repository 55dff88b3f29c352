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
    expect(client).toContain(`export type ServerVariables = {
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
    const usage = `import { getPet, type Middleware } from './client.ts'
const logging: Middleware = {
  onRequest({ request, operation }) {
    request.headers.set('x-operation', \`\${operation.method} \${operation.path}\`)
  },
  async onResponse({ response }) {
    return response.status === 401 ? new Response(null, { status: 403 }) : undefined
  },
}
await getPet({ path: { petId: '1' } }, { middleware: [logging] })
// @ts-expect-error: a hook returns a request, a response or nothing
const wrong: Middleware = { onRequest: () => 'request' }
export { wrong }
`
    expect(await typecheckUsage(document(), usage)).toEqual([])
  })
})
