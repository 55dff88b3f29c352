import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { recordingResolver, startServer, type TestServer } from '../test/loopback.js'
import { createSafeFetch, OutboundRefused, parseAllowList, type SafeRequest } from './index.js'

const WEBHOOK: SafeRequest = {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'svc-signature': 't=1,v1=ab', authorization: 'x' },
  body: '{"id":1}',
  redirects: { follow: 'same-request', max: 3 },
}

/** `…/to/<status>/<location>` answers that redirect; `/chain/<n>` redirects to `/chain/<n+1>`. */
function redirector(request: IncomingMessage, response: ServerResponse) {
  const url = request.url ?? '/'
  const to = /\/to\/(\d{3})\/(.*)$/.exec(url)
  if (to) {
    response.writeHead(Number(to[1]), to[2] ? { location: decodeURIComponent(to[2]) } : {})
    return response.end('moved')
  }
  const chain = /^\/chain\/(\d+)$/.exec(url)
  if (chain) {
    response.writeHead(307, { location: `/chain/${Number(chain[1]) + 1}` })
    return response.end()
  }
  response.end('done')
}

describe('redirects', () => {
  let server: TestServer
  let other: TestServer
  let fetch: ReturnType<typeof createSafeFetch>
  const resolve = recordingResolver({ 'private.test': ['10.1.2.3'], 'loop.test': ['127.0.0.1'] })

  beforeAll(async () => {
    server = await startServer((request, response) => redirector(request, response))
    other = await startServer((_request, response) => response.end('other'))
  })
  afterAll(() => Promise.all([server.close(), other.close()]))
  afterEach(() => fetch.close())

  // Only the first server's origin is admitted: `other` stands for a private target.
  function client() {
    fetch = createSafeFetch({ allow: parseAllowList(`http://127.0.0.1:${server.port}`), resolve })
    return fetch
  }
  const to = (status: number, location: string) => `/to/${status}/${encodeURIComponent(location)}`

  it("'same-request' follows 307 and 308 with the same method, headers and body", async () => {
    const start = server.url(to(307, to(308, '/end')))
    const response = await client()(start, WEBHOOK)
    expect(response.status).toBe(200)
    expect(await response.text(100)).toBe('done')
    expect(response.url).toBe(server.url('/end'))
    expect(response.redirects).toEqual([server.url(to(308, '/end')), server.url('/end')])
    const hops = server.requests.slice(-3)
    for (const hop of hops) {
      expect(hop.method).toBe('POST')
      expect(hop.body).toBe('{"id":1}')
      expect(hop.headers['svc-signature']).toBe('t=1,v1=ab')
      expect(hop.headers['content-type']).toBe('application/json')
      expect(hop.headers.authorization).toBe('x')
    }
  })

  it('follows at most max redirects; the next one is refused and never requested', async () => {
    const before = server.requests.length
    const error = await client()(server.url('/chain/0'), WEBHOOK).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutboundRefused)
    expect((error as OutboundRefused).code).toBe('too_many_redirects')
    expect((error as OutboundRefused).url).toBe(server.url('/chain/4'))
    // The hops it did follow, as a response would have listed them.
    expect((error as OutboundRefused).redirects).toEqual([
      server.url('/chain/1'),
      server.url('/chain/2'),
      server.url('/chain/3'),
    ])
    expect(server.requests.slice(before).map((r) => r.url)).toEqual([
      '/chain/0',
      '/chain/1',
      '/chain/2',
      '/chain/3',
    ])
  })

  it('max 0 follows none', async () => {
    const error = await client()(server.url('/chain/0'), {
      redirects: { follow: 'fetch', max: 0 },
    }).catch((e: unknown) => e)
    expect((error as OutboundRefused).code).toBe('too_many_redirects')
  })

  it.each([301, 302, 303])("'same-request' returns a %i as is", async (status) => {
    const response = await client()(server.url(to(status, '/end')), WEBHOOK)
    expect(response.status).toBe(status)
    expect(response.header('Location')).toBe('/end')
    expect(response.redirects).toEqual([])
    expect(await response.text(100)).toBe('moved')
  })

  it("'none' (the default) returns a 307 as is", async () => {
    const response = await client()(server.url(to(307, '/end')), { method: 'POST', body: 'x' })
    expect([response.status, response.url, response.redirects]).toEqual([
      307,
      server.url(to(307, '/end')),
      [],
    ])
    response.discard()
  })

  it('a redirect without a location is returned as is', async () => {
    const response = await client()(server.url('/to/307/'), WEBHOOK)
    expect(response.status).toBe(307)
    expect(response.redirects).toEqual([])
    response.discard()
  })

  it("'fetch' turns 301, 302 and 303 into a GET without body, and keeps 307 as is", async () => {
    const start = server.url(to(303, to(301, to(302, to(307, '/end')))))
    const response = await client()(start, { ...WEBHOOK, redirects: { follow: 'fetch', max: 5 } })
    expect(await response.text(100)).toBe('done')
    const [first, ...rest] = server.requests.slice(-5)
    expect(first).toMatchObject({ method: 'POST', body: '{"id":1}' })
    for (const hop of rest) {
      expect(hop.method).toBe('GET')
      expect(hop.body).toBe('')
      expect(hop.headers['content-type']).toBeUndefined()
      expect(hop.headers['content-length']).toBeUndefined()
      expect(hop.headers['svc-signature']).toBe('t=1,v1=ab')
    }
  })

  it('a relative location resolves against the current URL', async () => {
    const response = await client()(server.url(`/a/b${to(308, '../end?x=1')}`), WEBHOOK)
    expect(response.url).toBe(server.url('/a/b/to/end?x=1'))
    response.discard()
  })

  it('re-checks every hop: a redirect to a loopback port that is not admitted is never connected', async () => {
    const error = await client()(server.url(to(307, other.url('/'))), WEBHOOK).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(OutboundRefused)
    expect((error as OutboundRefused).code).toBe('private_address')
    expect((error as OutboundRefused).url).toBe(other.url('/'))
    // Refused before it was followed: not a hop.
    expect((error as OutboundRefused).redirects).toEqual([])
    expect(other.connections).toBe(0)
  })

  it('a refusal after a hop carries the hops followed before it', async () => {
    const second = to(307, other.url('/'))
    const error = await client()(server.url(to(307, second)), WEBHOOK).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutboundRefused)
    expect((error as OutboundRefused).code).toBe('private_address')
    expect((error as OutboundRefused).redirects).toEqual([server.url(second)])
    expect((error as OutboundRefused).stack).toContain('inspectUrl')
    expect(other.connections).toBe(0)
  })

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'private_address'],
    ['http://[::ffff:10.0.0.1]/', 'private_address'],
    ['http://localhost/', 'reserved_hostname'],
    ['http://private.test/', 'private_dns'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['http://[::1', 'invalid_url'],
  ])('re-checks every hop: a redirect to %s is refused (%s)', async (location, code) => {
    const error = await client()(server.url(to(308, location)), WEBHOOK).catch((e: unknown) => e)
    expect((error as OutboundRefused).code).toBe(code)
  })

  it('resolves every hop again', async () => {
    const calls = resolve.calls.length
    const admitted = createSafeFetch({ allow: parseAllowList('127.0.0.1/32'), resolve })
    try {
      const start = `http://loop.test:${server.port}${to(307, to(307, '/end'))}`
      const response = await admitted(start, WEBHOOK)
      expect(await response.text(100)).toBe('done')
      expect(resolve.calls.slice(calls)).toEqual(['loop.test', 'loop.test', 'loop.test'])
    } finally {
      admitted.close()
    }
  })

  it('drops credentials on a redirect to another origin', async () => {
    const admitted = createSafeFetch({ allow: parseAllowList('127.0.0.1/32') })
    try {
      const response = await admitted(server.url(to(307, other.url('/'))), {
        ...WEBHOOK,
        headers: { ...WEBHOOK.headers, Cookie: 'a=b' },
      })
      expect(await response.text(100)).toBe('other')
      const seen = other.requests.at(-1)
      expect(seen?.headers.authorization).toBeUndefined()
      expect(seen?.headers.cookie).toBeUndefined()
      expect(seen?.headers['svc-signature']).toBe('t=1,v1=ab')
      expect(seen?.body).toBe('{"id":1}')
    } finally {
      admitted.close()
    }
  })

  it('drains a redirect body that is complete, so the next hop reuses the connection', async () => {
    const connections = server.connections
    const response = await client()(server.url(to(307, to(307, '/end'))), WEBHOOK)
    expect(await response.text(100)).toBe('done')
    expect(server.connections - connections).toBe(1)
  })
})
