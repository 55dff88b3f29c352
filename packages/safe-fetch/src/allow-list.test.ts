import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { recordingResolver, startServer, type TestServer } from '../test/loopback.js'
import {
  AllowListError,
  checkUrl,
  createSafeFetch,
  type OutboundRefused,
  parseAllowList,
  type AllowList,
} from './index.js'

describe('parseAllowList', () => {
  it('reads CIDRs, bare addresses and exact origins, ignoring blanks and spaces', () => {
    const list = parseAllowList(
      ' 127.0.0.1/32, ::1/128,,10.0.0.0/8 , 192.168.1.7, http://localhost:8080 ',
    )
    expect(list.toString()).toBe(
      '127.0.0.1/32,::1/128,10.0.0.0/8,192.168.1.7/32,http://localhost:8080',
    )
  })

  it('gives the empty list for "" and undefined', () => {
    for (const text of ['', undefined, ' , ']) expect(parseAllowList(text).toString()).toBe('')
  })

  it('normalises origins: default ports, case, trailing dots, IPv6 and IPv4 spellings', () => {
    const list = parseAllowList(
      'HTTPS://Hooks.Example.:443/,http://[0:0::1]:8080,http://0x7f.1:81,http://[::ffff:7f00:2]:82',
    )
    expect(list.toString()).toBe(
      'https://hooks.example:443,http://[::1]:8080,http://127.0.0.1:81,http://127.0.0.2:82',
    )
  })

  it.each([
    ['10.0.0.0/33', /prefix length must be 0 to 32/],
    ['::1/129', /prefix length must be 0 to 128/],
    ['10.0.0.0/', /prefix length/],
    ['10.0.0.0/-1', /prefix length/],
    ['10.0.0.0/8/8', /expected a CIDR/],
    ['10.1/8', /expected a CIDR/],
    ['0x7f.0.0.1/32', /expected a CIDR/],
    ['localhost', /expected a CIDR/],
    ['fe80::1%eth0/128', /expected a CIDR/],
    ['http://localhost:8080/hooks', /no path/],
    ['http://localhost:8080?x', /no path/],
    ['ftp://files.example', /http: or https:/],
    ['http://user:pw@localhost:8080', /no credentials/],
    ['http://', /not a valid URL/],
  ])('refuses %s, naming the entry', (entry, reason) => {
    const error = catchError(() => parseAllowList(`127.0.0.1/32,${entry}`))
    expect(error).toBeInstanceOf(AllowListError)
    expect((error as AllowListError).entry).toBe(entry)
    expect((error as Error).message).toContain(JSON.stringify(entry))
    expect((error as Error).message).toMatch(reason)
  })
})

describe('checkUrl with an allow-list', () => {
  const code = (url: string, allow: AllowList) => {
    try {
      checkUrl(url, { allow })
      return 'admitted'
    } catch (error) {
      return (error as OutboundRefused).code
    }
  }

  it('a CIDR admits the literal addresses inside it, whatever their spelling', () => {
    const allow = parseAllowList('127.0.0.0/8,fd00::/8')
    expect(code('http://127.0.0.1:8080/', allow)).toBe('admitted')
    expect(code('http://2130706433/', allow)).toBe('admitted')
    expect(code('http://[::ffff:127.0.0.9]/', allow)).toBe('admitted')
    expect(code('http://[fd12::1]/', allow)).toBe('admitted')
    expect(code('http://10.0.0.1/', allow)).toBe('private_address')
    expect(code('http://[::1]/', allow)).toBe('private_address')
  })

  it('an IPv4-mapped CIDR is the IPv4 one', () => {
    expect(code('http://127.0.0.1/', parseAllowList('::ffff:127.0.0.0/104'))).toBe('admitted')
  })

  it('a CIDR does not admit a reserved name: that takes its exact origin', () => {
    const allow = parseAllowList('127.0.0.0/8')
    expect(code('http://localhost:8080/', allow)).toBe('reserved_hostname')
    const origin = parseAllowList('http://localhost:8080')
    expect(code('http://localhost:8080/hooks', origin)).toBe('admitted')
    expect(code('http://LOCALHOST.:8080/', origin)).toBe('admitted')
  })

  it('an exact origin admits only its scheme, host and port', () => {
    const allow = parseAllowList('http://localhost:8080,https://10.0.0.1,http://metadata.internal')
    expect(code('http://localhost:8081/', allow)).toBe('reserved_hostname')
    expect(code('https://localhost:8080/', allow)).toBe('reserved_hostname')
    expect(code('https://10.0.0.1:443/', allow)).toBe('admitted')
    expect(code('http://10.0.0.1/', allow)).toBe('private_address')
    expect(code('http://metadata.internal:80/', allow)).toBe('admitted')
    expect(code('http://foo.metadata.internal/', allow)).toBe('reserved_hostname')
  })

  it('withLoopback admits loopback addresses and names, and no other private range', () => {
    const allow = parseAllowList('').withLoopback()
    expect(allow.toString()).toBe('loopback')
    expect(code('http://127.0.0.1:8080/', allow)).toBe('admitted')
    expect(code('http://127.9.9.9/', allow)).toBe('admitted')
    expect(code('http://[::1]/', allow)).toBe('admitted')
    expect(code('http://[::ffff:127.0.0.1]/', allow)).toBe('admitted')
    expect(code('http://localhost:8080/', allow)).toBe('admitted')
    expect(code('http://hooks.localhost/', allow)).toBe('admitted')
    expect(code('http://0.0.0.0/', allow)).toBe('private_address')
    expect(code('http://[::7f00:1]/', allow)).toBe('private_address')
    expect(code('http://10.0.0.1/', allow)).toBe('private_address')
    expect(code('http://169.254.169.254/', allow)).toBe('private_address')
    expect(code('http://printer.local/', allow)).toBe('reserved_hostname')
    expect(code('http://metadata.google.internal/', allow)).toBe('reserved_hostname')
    expect(parseAllowList('10.0.0.0/8').withLoopback().toString()).toBe('10.0.0.0/8,loopback')
  })

  it('never admits another scheme', () => {
    expect(code('ftp://127.0.0.1/', parseAllowList('0.0.0.0/0'))).toBe('unsupported_scheme')
  })
})

describe('fetching through an allow-list', () => {
  let server: TestServer
  let other: TestServer
  let fetch: ReturnType<typeof createSafeFetch> | undefined

  beforeAll(async () => {
    server = await startServer((_request, response, seen) =>
      response.end(`hello ${seen.headers.host}`),
    )
    other = await startServer((_request, response) => response.end('other'))
  })
  afterAll(() => Promise.all([server.close(), other.close()]))
  afterEach(() => fetch?.close())

  it('without one, the loopback server is refused and sees no connection', async () => {
    fetch = createSafeFetch()
    const error = await fetch(server.url()).catch((e: unknown) => e)
    expect((error as OutboundRefused).code).toBe('private_address')
    expect(server.connections).toBe(0)
  })

  it('a CIDR admits the loopback server', async () => {
    fetch = createSafeFetch({ allow: parseAllowList('127.0.0.1/32') })
    const response = await fetch(server.url('/a'))
    expect(response.status).toBe(200)
    expect(await response.text(100)).toBe(`hello 127.0.0.1:${server.port}`)
  })

  it('a CIDR admits the addresses a name resolves to', async () => {
    const resolve = recordingResolver({ 'svc-test.example': ['127.0.0.1'] })
    fetch = createSafeFetch({ allow: parseAllowList('127.0.0.0/8'), resolve })
    const response = await fetch(`http://svc-test.example:${server.port}/`)
    expect(await response.text(100)).toBe(`hello svc-test.example:${server.port}`)
    expect(resolve.calls).toEqual(['svc-test.example'])
  })

  it('withLoopback: localhost is resolved and admitted only when it resolves to loopback', async () => {
    const resolve = recordingResolver({ localhost: ['127.0.0.1'], 'evil.localhost': ['10.0.0.1'] })
    fetch = createSafeFetch({ allow: parseAllowList('').withLoopback(), resolve })
    const response = await fetch(`http://localhost:${server.port}/`)
    expect(await response.text(100)).toBe(`hello localhost:${server.port}`)
    const error = await fetch(`http://evil.localhost:${server.port}/`).catch((e: unknown) => e)
    expect((error as OutboundRefused).code).toBe('private_dns')
    expect(resolve.calls).toEqual(['localhost', 'evil.localhost'])
  })

  it('withLoopback: another name that resolves to loopback is refused and never connected', async () => {
    const resolve = recordingResolver({ 'rebound.example': ['127.0.0.1'] })
    fetch = createSafeFetch({ allow: parseAllowList('').withLoopback(), resolve })
    const before = server.connections
    const error = await fetch(`http://rebound.example:${server.port}/`).catch((e: unknown) => e)
    expect((error as OutboundRefused).code).toBe('private_dns')
    expect(server.connections).toBe(before)
    // A CIDR the operator listed still admits what a name resolves to.
    fetch.close()
    fetch = createSafeFetch({ allow: parseAllowList('127.0.0.0/8').withLoopback(), resolve })
    const admitted = await fetch(`http://rebound.example:${server.port}/`)
    expect(admitted.status).toBe(200)
    admitted.discard()
  })

  it('withLoopback: a redirect to loopback is followed only from a URL that names loopback', async () => {
    const inner = await startServer((_request, response) => response.end('inner'))
    const redirecting = await startServer((_request, response) => {
      response.writeHead(307, { location: `http://127.0.0.1:${inner.port}/inner` })
      response.end()
    })
    try {
      const resolve = recordingResolver({
        'hooks.example': ['127.0.0.1'],
        localhost: ['127.0.0.1'],
      })
      const origin = `http://hooks.example:${redirecting.port}`
      fetch = createSafeFetch({ allow: parseAllowList(origin).withLoopback(), resolve })
      const redirects = { follow: 'same-request', max: 3 } as const
      // An admitted origin that is no loopback name sends the client to loopback: refused.
      const error = await fetch(`${origin}/hook`, { redirects }).catch((e: unknown) => e)
      expect((error as OutboundRefused).code).toBe('private_address')
      expect(inner.connections).toBe(0)
      // The same server named as loopback: its redirect to loopback is followed.
      const followed = await fetch(`http://localhost:${redirecting.port}/hook`, { redirects })
      expect([followed.status, followed.url]).toEqual([200, `http://127.0.0.1:${inner.port}/inner`])
      followed.discard()
    } finally {
      await Promise.all([redirecting.close(), inner.close()])
    }
  })

  it("a request's own list replaces the client's, on every hop", async () => {
    fetch = createSafeFetch({ allow: parseAllowList('').withLoopback() })
    const strict = parseAllowList('').withLoopback().withoutLoopback()
    expect(strict.toString()).toBe('')
    const before = server.connections
    const error = await fetch(server.url('/a'), { allow: strict }).catch((e: unknown) => e)
    expect((error as OutboundRefused).code).toBe('private_address')
    expect(server.connections).toBe(before)
    const response = await fetch(server.url('/a'))
    expect(response.status).toBe(200)
    response.discard()
    expect(parseAllowList('10.0.0.0/8').withLoopback().withoutLoopback().toString()).toBe(
      '10.0.0.0/8',
    )
  })

  it('an exact origin admits that origin whatever it resolves to, and not another port', async () => {
    const resolve = recordingResolver({ 'hooks.internal': ['127.0.0.1'] })
    const allow = parseAllowList(
      `http://hooks.internal:${server.port},http://127.0.0.1:${server.port}`,
    )
    fetch = createSafeFetch({ allow, resolve })
    const byName = await fetch(`http://hooks.internal:${server.port}/`)
    expect(await byName.text(100)).toBe(`hello hooks.internal:${server.port}`)
    const byAddress = await fetch(`http://127.0.0.1:${server.port}/`)
    expect(byAddress.status).toBe(200)
    byAddress.discard()
    const error = await fetch(`http://127.0.0.1:${other.port}/`).catch((e: unknown) => e)
    expect((error as OutboundRefused).code).toBe('private_address')
    expect(other.connections).toBe(0)
  })
})

function catchError(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}
