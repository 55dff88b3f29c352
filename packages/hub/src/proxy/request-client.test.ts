import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { ProxySettings } from './client-address.js'
import { IN_PROCESS_CLIENT, requestClient, type RequestClient } from './request-client.js'
import { parseTrustedProxies } from './trusted-proxies.js'

const settings: ProxySettings = {
  trusted: parseTrustedProxies('loopback'),
  header: 'x-forwarded-for',
}

const app = new Hono().get('/', (c) => c.json(requestClient(c, settings)))

/**
 * The client of a request from `peer` with `headers`, through the bindings @hono/node-server
 * gives a request (its `incoming` socket): a peer other than loopback cannot reach a test here.
 */
async function clientOf(peer: string, headers: Record<string, string>): Promise<RequestClient> {
  const env = { incoming: { socket: { remoteAddress: peer } } }
  return (await app.request('http://hub.test/', { headers }, env)).json() as Promise<RequestClient>
}

describe('requestClient', () => {
  it('is local only for a loopback peer with a loopback Host and no forwarding header', async () => {
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'hub.localhost'])
      expect(await clientOf('127.0.0.1', { host }), host).toEqual({
        address: '127.0.0.1',
        local: true,
      })
    expect(await clientOf('::ffff:127.0.0.1', { host: 'localhost' })).toEqual({
      address: '127.0.0.1',
      local: true,
    })
    expect((await clientOf('::1', { host: 'localhost' })).local).toBe(true)
  })

  it.each([
    ['a peer elsewhere', '192.0.2.9', { host: 'localhost' }],
    ['a public Host', '127.0.0.1', { host: 'hub.example.com' }],
    ['no Host', '127.0.0.1', {}],
    ['Forwarded', '127.0.0.1', { host: 'localhost', forwarded: 'for=198.51.100.7' }],
    ['X-Forwarded-For', '127.0.0.1', { host: 'localhost', 'x-forwarded-for': '198.51.100.7' }],
    ['X-Forwarded-Host', '127.0.0.1', { host: 'localhost', 'x-forwarded-host': 'hub.example' }],
    ['X-Forwarded-Proto', '127.0.0.1', { host: 'localhost', 'x-forwarded-proto': 'https' }],
    ['X-Real-IP', '127.0.0.1', { host: 'localhost', 'x-real-ip': '198.51.100.7' }],
    ['Via', '127.0.0.1', { host: 'localhost', via: '1.1 proxy' }],
    ['an empty forwarding header', '127.0.0.1', { host: 'localhost', 'x-forwarded-for': '' }],
  ])('is not local with %s', async (_name, peer, headers: Record<string, string>) => {
    expect((await clientOf(peer, headers)).local).toBe(false)
  })

  it('resolves the forwarded address for a trusted peer, and keeps the peer for another', async () => {
    const headers = { host: 'hub.example.com', 'x-forwarded-for': '6.6.6.6, 198.51.100.7' }
    expect(await clientOf('127.0.0.1', headers)).toEqual({ address: '198.51.100.7', local: false })
    expect(await clientOf('192.0.2.9', headers)).toEqual({ address: '192.0.2.9', local: false })
  })

  it('trusting nobody, is the peer, an IPv4-mapped one as IPv4, whatever the headers say', async () => {
    const none = { trusted: parseTrustedProxies(''), header: 'x-forwarded-for' } as const
    const plain = new Hono().get('/', (c) => c.json(requestClient(c, none)))
    const env = (peer: string) => ({ incoming: { socket: { remoteAddress: peer } } })
    const headers = { host: 'localhost', 'x-forwarded-for': '198.51.100.7' }
    for (const [peer, address] of [
      ['::ffff:203.0.113.9', '203.0.113.9'],
      ['2001:db8::9', '2001:db8::9'],
      ['127.0.0.1', '127.0.0.1'],
    ])
      expect(await (await plain.request('/', { headers }, env(peer!))).json()).toEqual({
        address,
        local: false,
      })
  })

  it('takes the client an in-process caller passed on; without one or a socket, unknown', async () => {
    const given: RequestClient = { address: '198.51.100.7', local: false }
    const passed = await app.request('/', {}, { [IN_PROCESS_CLIENT]: given })
    expect(await passed.json()).toEqual(given)
    expect(await (await app.request('/')).json()).toEqual({ address: 'unknown', local: false })
  })
})
