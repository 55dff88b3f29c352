import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startDnsServer, type DnsServer } from './support/dns-server.js'
import { startLoopbackServer, type LoopbackServer } from './support/loopback.js'
import {
  buildServerJs,
  PETSTORE_2,
  PETSTORE_3,
  startServerJs,
  type StackServer,
} from './support/server-process.js'

// Source fetches of server.js against loopback servers: `allowed` is admitted by an exact-origin
// entry of SVC_STACK_ALLOW_PRIVATE_NETWORKS; `refused` is another loopback port nothing admits.
// Names resolve through a DNS server of the test (SVC_STACK_DNS_SERVERS), and the limits are
// lowered to 64 KiB and 1 s.

const MAX_BYTES = 65_536
const TIMEOUT_MS = 1_000
const petstore = readFileSync(PETSTORE_3)
const swagger = readFileSync(PETSTORE_2)
const oneMiB = Buffer.alloc(1024 * 1024, ' ')
const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`

let server: StackServer
let allowed: LoopbackServer
let refused: LoopbackServer
let dns: DnsServer

/** What the allow-listed origin serves, by path. */
function serveAllowed(path: string, response: ServerResponse): void {
  const answer = (status: number, headers: Record<string, string>, body?: Buffer) =>
    void response.writeHead(status, headers).end(body)
  const json = { 'content-type': 'application/json' }
  response.on('error', () => {}) // the stack server drops the connection of a refused body
  const hops = /^\/r\/(\d+)$/.exec(path)
  if (hops) {
    // `/r/<n>` redirects n times in a row, then serves the petstore.
    const left = Number(hops[1])
    return left > 0 ? answer(302, { location: `/r/${left - 1}` }) : answer(200, json, petstore)
  }
  switch (path) {
    case '/petstore.json':
      return answer(200, json, petstore)
    case '/swagger.json':
      return answer(200, json, swagger)
    case '/moved':
      return answer(301, { location: '/petstore.json' })
    case '/to-private':
      return answer(302, { location: `http://127.0.0.1:${refused.port}/petstore.json` })
    case '/big':
      return answer(200, { ...json, 'content-length': String(oneMiB.length) }, oneMiB)
    case '/big-chunked':
      // No Content-Length: the size shows only while reading.
      return answer(200, json, oneMiB)
    case '/stall':
    case '/stall?shutdown':
      // The headers, then nothing.
      return void response.writeHead(200, json).flushHeaders()
    default:
      return answer(404, json, Buffer.from('{"error":"not found"}'))
  }
}

beforeAll(async () => {
  allowed = await startLoopbackServer((request, response) =>
    serveAllowed(request.url ?? '/', response),
  )
  refused = await startLoopbackServer(
    (_request, response) => response.writeHead(200).end(petstore),
    { ipv6: true },
  )
  dns = await startDnsServer({ 'public-looking.example.com': ['127.0.0.1'] })
  server = await startServerJs(await buildServerJs(), {
    SVC_STACK_ALLOW_PRIVATE_NETWORKS: allowed.origin,
    SVC_STACK_DNS_SERVERS: dns.address,
    SVC_STACK_SOURCE_MAX_BYTES: String(MAX_BYTES),
    SVC_STACK_SOURCE_TIMEOUT_MS: String(TIMEOUT_MS),
  })
})

afterAll(async () => {
  await server?.stop('SIGKILL') // already stopped by the last test, unless it did not run
  await Promise.all([allowed?.close(), refused?.close(), dns?.close()])
})

/** POST /artifacts of a source URL. */
const fetchSource = (url: string) => server.post('/artifacts', { source: url })

/** The 422 of a source that could not be fetched, its message containing `words`. */
const sourceFailure = (words: string) => ({
  status: 422,
  body: { error: 'source_fetch_failed', message: expect.stringContaining(words) },
})

describe('a source on an allow-listed origin', () => {
  it('is fetched: the artifacts of its document, its URL and the sha256 of its bytes', async () => {
    const url = allowed.url('/petstore.json')
    const { status, body } = await fetchSource(url)
    expect(status).toBe(200)
    expect(body.source).toEqual({ url, resolvedUrl: url, digest: sha256(petstore) })
    expect(Object.keys(body.artifacts).sort()).toEqual(['client.ts', 'types.ts', 'zod.ts'])
    expect(body.manifest.parseIssues).toEqual([])
    const inline = await server.post('/artifacts', { schema: petstore.toString('utf8') })
    expect(body.artifacts).toEqual(inline.body.artifacts)
  })

  it('follows a 301 on the same origin: resolvedUrl is where the document was', async () => {
    const url = allowed.url('/moved')
    const { status, body } = await fetchSource(url)
    expect(status).toBe(200)
    expect(body.source).toEqual({
      url,
      resolvedUrl: allowed.url('/petstore.json'),
      digest: sha256(petstore),
    })
  })

  it('is fetched by /to-v3-json and /subjects too, which echo it', async () => {
    const url = allowed.url('/swagger.json')
    const converted = await server.post('/to-v3-json', { source: url })
    expect(converted.status).toBe(200)
    expect(converted.body.schema.openapi).toMatch(/^3\./)
    expect(converted.body.source).toEqual({ url, resolvedUrl: url, digest: sha256(swagger) })
    const subjects = await server.post('/subjects', { source: allowed.url('/petstore.json') })
    expect(subjects.status).toBe(200)
    expect(subjects.body.source.digest).toBe(sha256(petstore))
  })

  it('admits that exact origin only: not its name, scheme or another port', async () => {
    const seen = allowed.requests.length
    const others: [url: string, reason: string][] = [
      [`http://localhost:${allowed.port}/petstore.json`, 'localhost is a reserved hostname'],
      [`https://127.0.0.1:${allowed.port}/petstore.json`, '127.0.0.1 is loopback'],
      [`http://[::1]:${refused.port}/petstore.json`, '::1 is loopback'],
      [refused.url('/petstore.json'), '127.0.0.1 is loopback'],
    ]
    for (const [url, reason] of others)
      expect({ url, ...(await fetchSource(url)) }).toMatchObject({
        url,
        ...sourceFailure(reason),
      })
    expect(allowed.requests.length).toBe(seen)
    expect(refused.connections).toBe(0)
  })
})

describe('names resolved through SVC_STACK_DNS_SERVERS', () => {
  it('a public-looking name that resolves to 127.0.0.1 is looked up, then refused unconnected', async () => {
    const url = `http://public-looking.example.com:${refused.port}/petstore.json`
    expect(await fetchSource(url)).toMatchObject(
      sourceFailure('public-looking.example.com resolves to 127.0.0.1 (loopback)'),
    )
    expect(dns.queries).toContainEqual({ name: 'public-looking.example.com', type: 'A' })
    expect(refused.connections).toBe(0)
  })

  it('a name the DNS server does not know does not resolve', async () => {
    expect(await fetchSource('http://nowhere.example.com/openapi.json')).toMatchObject(
      sourceFailure('nowhere.example.com does not resolve'),
    )
    expect(dns.queries).toContainEqual({ name: 'nowhere.example.com', type: 'A' })
  })
})

describe('redirects', () => {
  it('a redirect from the allowed origin to a private address is refused before connecting', async () => {
    expect(await fetchSource(allowed.url('/to-private'))).toMatchObject(
      sourceFailure('127.0.0.1 is loopback'),
    )
    expect(allowed.requests).toContain('/to-private')
    expect(refused.connections).toBe(0)
  })

  it('5 redirects are followed, a 6th is refused', async () => {
    const five = await fetchSource(allowed.url('/r/5'))
    expect(five.status).toBe(200)
    expect(five.body.source.resolvedUrl).toBe(allowed.url('/r/0'))

    const seen = allowed.requests.length
    expect(await fetchSource(allowed.url('/r/6'))).toMatchObject(
      sourceFailure('more than 5 redirects'),
    )
    // Each hop up to the 6th redirect was asked; its target never was.
    expect(allowed.requests.slice(seen)).toEqual(['/r/6', '/r/5', '/r/4', '/r/3', '/r/2', '/r/1'])
  })
})

describe('limits and answers', () => {
  it('a body over SVC_STACK_SOURCE_MAX_BYTES is refused, with or without Content-Length', async () => {
    for (const path of ['/big', '/big-chunked'])
      expect({ path, ...(await fetchSource(allowed.url(path))) }).toMatchObject({
        path,
        ...sourceFailure(`larger than ${MAX_BYTES} bytes`),
      })
  })

  it('a source that sends its headers then stalls times out at SVC_STACK_SOURCE_TIMEOUT_MS', async () => {
    expect(await fetchSource(allowed.url('/stall'))).toMatchObject(
      sourceFailure(`no complete answer within ${TIMEOUT_MS} ms`),
    )
  })

  it('a source answering 404 is reported with its status', async () => {
    expect(await fetchSource(allowed.url('/missing.json'))).toMatchObject(
      sourceFailure('The source answered HTTP 404.'),
    )
  })
})

describe('shutdown', () => {
  it('SIGTERM during a source fetch: the request in flight is answered, with Connection: close, then it exits 0', async () => {
    const inFlight = fetchSource(allowed.url('/stall?shutdown'))
    await vi.waitFor(() => expect(allowed.requests).toContain('/stall?shutdown'), {
      timeout: 10_000,
    })
    const exit = server.stop('SIGTERM')
    const answer = await inFlight
    expect(answer).toMatchObject(sourceFailure('no complete answer'))
    // Its kept-alive connection ends with it, so nothing holds the exit.
    expect(answer.headers.get('connection')).toBe('close')
    expect(await exit).toEqual({ code: 0, signal: null })
    expect(server.stdout).toContain('{"msg":"stopping","signal":"SIGTERM"}')
    expect(server.stderr).toBe('')
  })
})
