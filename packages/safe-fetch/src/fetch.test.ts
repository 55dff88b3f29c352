import type { ServerResponse } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { recordingResolver, startServer, type TestServer } from '../test/loopback.js'
import {
  createSafeFetch,
  OutboundFailed,
  OutboundRefused,
  parseAllowList,
  type SafeFetchOptions,
} from './index.js'

const LOOPBACK = parseAllowList('127.0.0.1/32')
const HUNDRED_KIB = 'x'.repeat(100 * 1024)

/** Routes of the test server: each path is one behaviour of a receiver. */
const routes: Record<string, (response: ServerResponse) => void> = {
  '/ok': (response) => response.end('ok'),
  '/silent': () => undefined,
  '/stall-body': (response) => {
    response.writeHead(200, { 'content-length': '100' })
    response.write('only part of it')
  },
  '/big': (response) => response.end(HUNDRED_KIB),
  '/endless': (response) => {
    // Chunked and never ending: only a reader that stops at its limit gets past this.
    response.writeHead(200, { 'content-type': 'text/plain' })
    const chunk = 'y'.repeat(16 * 1024)
    const pump = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', pump)
    }
    pump()
  },
  '/utf8': (response) => response.end('héllo wörld'),
  '/headers': (response) => {
    response.setHeader('X-Many', ['a', 'b'])
    response.setHeader('Content-Type', 'text/plain')
    response.end()
  },
}

describe('safe fetch', () => {
  let server: TestServer
  let fetch: ReturnType<typeof createSafeFetch>

  beforeAll(async () => {
    server = await startServer((request, response) => {
      const route = routes[new URL(request.url ?? '/', 'http://x').pathname]
      if (route) route(response)
      else response.end(JSON.stringify({ method: request.method, headers: request.headers }))
    })
  })
  afterAll(() => server.close())
  afterEach(() => fetch.close())

  function client(options: SafeFetchOptions = {}) {
    fetch = createSafeFetch({ allow: LOOPBACK, ...options })
    return fetch
  }

  it('does not look up an address literal, and sends only the headers asked for', async () => {
    const resolve = recordingResolver({})
    const response = await client({ resolve })(server.url('/echo'), { headers: { 'X-Id': '7' } })
    const echo = JSON.parse(await response.text(10_000)) as { headers: Record<string, string> }
    expect(echo.headers).toEqual({
      host: `127.0.0.1:${server.port}`,
      connection: 'keep-alive',
      'x-id': '7',
    })
    expect(resolve.calls).toEqual([])
  })

  it('connects a name to the address it checked, with the name in Host', async () => {
    const resolve = recordingResolver({ 'svc-test.example': ['127.0.0.1'] })
    const url = `http://svc-test.example:${server.port}/echo`
    const response = await client({ resolve })(url, { headers: { host: 'evil.example' } })
    expect(response.url).toBe(url)
    const echo = JSON.parse(await response.text(10_000)) as { headers: Record<string, string> }
    expect(echo.headers.host).toBe(`svc-test.example:${server.port}`)
    expect(resolve.calls).toEqual(['svc-test.example'])
  })

  it('resolves the name again for every request', async () => {
    const resolve = recordingResolver({ 'svc-test.example': ['127.0.0.1'] })
    client({ resolve })
    for (let i = 0; i < 3; i++) {
      ;(await fetch(`http://svc-test.example:${server.port}/ok`)).discard()
    }
    expect(resolve.calls).toEqual(['svc-test.example', 'svc-test.example', 'svc-test.example'])
  })

  it('checks the addresses of every request to a URL it sent to before: a rebinding is refused', async () => {
    const records: Record<string, string[]> = { 'svc-test.example': ['127.0.0.1'] }
    client({ resolve: recordingResolver(records) })
    const url = `http://svc-test.example:${server.port}/ok`
    ;(await fetch(url)).discard()
    records['svc-test.example'] = ['10.0.0.1']
    await expect(fetch(url)).rejects.toMatchObject({ code: 'private_dns' })
  })

  it('keeps connections alive: sequential requests share one socket', async () => {
    client()
    const before = server.connections
    for (let i = 0; i < 20; i++) {
      const response = await fetch(server.url('/ok'), { method: 'POST', body: `n=${i}` })
      expect(await response.text(10)).toBe('ok')
    }
    expect(server.connections - before).toBe(1)
  })

  it('keeps connections alive: concurrent requests share at most maxSockets sockets', async () => {
    client({ maxSockets: 4 })
    const before = server.connections
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const response = await fetch(server.url('/ok'), { method: 'POST', body: `n=${i}` })
        return response.excerpt(10)
      }),
    )
    expect(answers).toEqual(Array(100).fill('ok'))
    expect(server.connections - before).toBeLessThanOrEqual(4)
  })

  it('discard() after a complete body keeps the connection', async () => {
    client()
    const before = server.connections
    for (let i = 0; i < 5; i++) {
      ;(await fetch(server.url('/ok'))).discard()
      // The socket goes back to the pool just after the drained body ends.
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(server.connections - before).toBe(1)
  })

  it('retries once on a fresh socket when a kept-alive one was closed under the request', async () => {
    // Answers the first request of each connection and drops the connection on the second.
    const served = new WeakMap<object, number>()
    const dropping = await startServer((request, response) => {
      const count = (served.get(request.socket) ?? 0) + 1
      served.set(request.socket, count)
      if (count > 1) request.socket.destroy()
      else response.end('fresh')
    })
    try {
      client()
      for (let i = 0; i < 3; i++) {
        expect(await (await fetch(dropping.url('/'), { method: 'POST', body: 'x' })).text(10)).toBe(
          'fresh',
        )
      }
      expect(dropping.requests.length).toBe(5)
      expect(dropping.connections).toBe(3)
    } finally {
      await dropping.close()
    }
  })

  it('times out against a server that never answers', async () => {
    const error = await client()(server.url('/silent'), { timeoutMs: 200 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutboundFailed)
    expect((error as OutboundFailed).code).toBe('timeout')
    expect((error as OutboundFailed).url).toBe(server.url('/silent'))
  })

  it('the deadline covers reading the body', async () => {
    const response = await client()(server.url('/stall-body'), { timeoutMs: 300 })
    expect(response.status).toBe(200)
    const error = await response.bytes(1000).catch((e: unknown) => e)
    expect((error as OutboundFailed).code).toBe('timeout')
  })

  it('the deadline covers resolving the name', async () => {
    const never = () => new Promise<never>(() => undefined)
    const error = await client({ resolve: never })('http://slow.test/', { timeoutMs: 100 }).catch(
      (e: unknown) => e,
    )
    expect((error as OutboundFailed).code).toBe('timeout')
    expect((error as OutboundFailed).url).toBe('http://slow.test/')
  })

  it("the caller's abort ends a body read and drops the connection", async () => {
    const controller = new AbortController()
    const response = await client()(server.url('/stall-body'), { signal: controller.signal })
    const reading = response.bytes(1000).catch((e: unknown) => e)
    controller.abort(new Error('shutting down'))
    const error = await reading
    expect((error as OutboundFailed).code).toBe('network')
    expect((error as OutboundFailed).message).toBe('the request was aborted by its caller')
  })

  it('bytes() past the limit fails too_large: on the declared length, before reading', async () => {
    const response = await client()(server.url('/big'))
    const error = await response.bytes(1024).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutboundFailed)
    expect((error as OutboundFailed).code).toBe('too_large')
  })

  it('bytes() on an endless body stops at the limit and drops the connection', async () => {
    const response = await client()(server.url('/endless'))
    const closed = server.closedConnections
    const error = await response.text(64 * 1024).catch((e: unknown) => e)
    expect((error as OutboundFailed).code).toBe('too_large')
    await expect.poll(() => server.closedConnections).toBe(closed + 1)
  })

  it('bytes() and text() return the whole body within the limit', async () => {
    client()
    expect((await (await fetch(server.url('/big'))).bytes(HUNDRED_KIB.length)).length).toBe(
      HUNDRED_KIB.length,
    )
    expect(await (await fetch(server.url('/utf8'))).text(100)).toBe('héllo wörld')
  })

  it('excerpt() returns the first bytes, lossy at the cut, and never fails too_large', async () => {
    client()
    expect(await (await fetch(server.url('/big'))).excerpt(10)).toBe('x'.repeat(10))
    expect(await (await fetch(server.url('/endless'))).excerpt(4096)).toBe('y'.repeat(4096))
    // 'é' is two bytes: a cut after its first one leaves a replacement character.
    expect(await (await fetch(server.url('/utf8'))).excerpt(2)).toBe('h\uFFFD')
    expect(await (await fetch(server.url('/utf8'))).excerpt(100)).toBe('héllo wörld')
  })

  it('a body is read once', async () => {
    const response = await client()(server.url('/ok'))
    expect(await response.text(10)).toBe('ok')
    await expect(response.bytes(10)).rejects.toThrow(TypeError)
  })

  it('header() is case-insensitive and joins repeated values', async () => {
    const response = await client()(server.url('/headers'))
    expect(response.header('x-many')).toBe('a, b')
    expect(response.header('CONTENT-TYPE')).toBe('text/plain')
    expect(response.header('x-none')).toBeUndefined()
    response.discard()
  })

  it('a name that does not resolve fails with dns', async () => {
    const error = await client({ resolve: recordingResolver({ 'empty.test': [] }) })(
      'http://nowhere.test/',
    ).catch((e: unknown) => e)
    expect((error as OutboundFailed).code).toBe('dns')
    expect((error as OutboundFailed).cause).toMatchObject({ code: 'ENOTFOUND' })
    const empty = await fetch('http://empty.test/').catch((e: unknown) => e)
    expect((empty as OutboundFailed).code).toBe('dns')
  })

  it('the system resolver is the default', async () => {
    const error = await client()('http://name-that-does-not-exist.invalid/').catch(
      (e: unknown) => e,
    )
    expect((error as OutboundFailed).code).toBe('dns')
  })

  it('a refused connection fails with network', async () => {
    const gone = await startServer(() => undefined)
    const url = gone.url('/')
    await gone.close()
    const error = await client()(url).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutboundFailed)
    expect((error as OutboundFailed).code).toBe('network')
    expect((error as OutboundFailed).cause).toMatchObject({ code: 'ECONNREFUSED' })
  })

  it("the caller's abort fails with network, its reason as cause; AbortSignal.timeout with timeout", async () => {
    client()
    const controller = new AbortController()
    const pending = fetch(server.url('/silent'), { signal: controller.signal })
    const reason = new Error('shutting down')
    setTimeout(() => controller.abort(reason), 50)
    const error = await pending.catch((e: unknown) => e)
    expect((error as OutboundFailed).code).toBe('network')
    expect((error as OutboundFailed).cause).toBe(reason)
    const timedOut = await fetch(server.url('/silent'), { signal: AbortSignal.timeout(50) }).catch(
      (e: unknown) => e,
    )
    expect((timedOut as OutboundFailed).code).toBe('timeout')
  })

  it('an already aborted signal sends nothing', async () => {
    const before = server.connections
    const error = await client()(server.url('/ok'), { signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    )
    expect((error as OutboundFailed).code).toBe('network')
    expect(server.connections).toBe(before)
  })

  it('a policy refusal comes before the signal and the deadline', async () => {
    const error = await client()('http://10.0.0.1/', { signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(OutboundRefused)
  })

  it('refuses calls after close()', async () => {
    client().close()
    await expect(fetch(server.url('/ok'))).rejects.toThrow(/closed/)
  })

  it('rejects nonsense options', async () => {
    client()
    await expect(fetch(server.url('/ok'), { timeoutMs: 0 })).rejects.toThrow(RangeError)
    await expect(
      fetch(server.url('/ok'), { redirects: { follow: 'fetch', max: -1 } }),
    ).rejects.toThrow(RangeError)
    const response = await fetch(server.url('/ok'))
    await expect(response.bytes(-1)).rejects.toThrow(RangeError)
    response.discard()
  })
})
