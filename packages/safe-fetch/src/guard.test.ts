import * as net from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  recordingResolver,
  startTcpCounter,
  type RecordingResolver,
  type TcpCounter,
} from '../test/loopback.js'
import { checkUrl, createSafeFetch, OutboundRefused, type RefusalCode } from './index.js'

type Ports = { readonly v4: number; readonly v6: number }
type Hostile = readonly [url: string, code: RefusalCode]

/** Loopback targets carry the ports of the counting listeners, so a wrong "yes" would show up there. */
const hostile = ({ v4, v6 }: Ports): readonly Hostile[] => [
  // every spelling of loopback
  [`http://127.0.0.1:${v4}/`, 'private_address'],
  [`http://127.1:${v4}/`, 'private_address'],
  [`http://127.0.1:${v4}/`, 'private_address'],
  [`http://0x7f.1:${v4}/`, 'private_address'],
  [`http://0x7f000001:${v4}/`, 'private_address'],
  [`http://2130706433:${v4}/`, 'private_address'],
  [`http://017700000001:${v4}/`, 'private_address'],
  [`http://0177.0.0.1:${v4}/`, 'private_address'],
  [`http://127.255.255.254:${v4}/`, 'private_address'],
  [`http://127.0.0.1.:${v4}/`, 'private_address'],
  [`http://127.0.0.1..:${v4}/`, 'private_address'],
  [`http://0x7f.1..:${v4}/`, 'private_address'],
  [`http://%31%32%37.0.0.1:${v4}/`, 'private_address'],
  [`http://１２７.０.０.１:${v4}/`, 'private_address'],
  [`https://127.0.0.1:${v4}/`, 'private_address'],
  [`http://[::1]:${v6}/`, 'private_address'],
  [`http://[0:0:0:0:0:0:0:1]:${v6}/`, 'private_address'],
  [`http://[::ffff:127.0.0.1]:${v4}/`, 'private_address'],
  [`http://[::ffff:7f00:1]:${v4}/`, 'private_address'],
  [`http://[::127.0.0.1]:${v6}/`, 'private_address'],
  [`http://localhost:${v4}/`, 'reserved_hostname'],
  [`http://localhost.:${v4}/`, 'reserved_hostname'],
  [`http://LOCALHOST:${v4}/`, 'reserved_hostname'],
  [`http://foo.localhost:${v4}/`, 'reserved_hostname'],
  // private
  [`http://10.0.0.1:${v4}/`, 'private_address'],
  [`http://172.16.0.1:${v4}/`, 'private_address'],
  [`http://172.31.255.254:${v4}/`, 'private_address'],
  [`http://192.168.1.1:${v4}/`, 'private_address'],
  [`http://[fc00::]:${v6}/`, 'private_address'],
  [`http://[fd12::1]:${v6}/`, 'private_address'],
  // link-local and cloud metadata
  [`http://169.254.1.1:${v4}/`, 'private_address'],
  [`http://[fe80::1]:${v6}/`, 'private_address'],
  [`http://169.254.169.254/latest/meta-data/`, 'private_address'],
  [`http://[::ffff:a9fe:a9fe]/latest/meta-data/`, 'private_address'],
  [`http://[fd00:ec2::254]/latest/meta-data/`, 'private_address'],
  [`http://metadata.google.internal/computeMetadata/v1/`, 'reserved_hostname'],
  [`http://100.100.100.200/latest/meta-data/`, 'private_address'],
  // unspecified: on Linux 0.0.0.0 and :: reach the local host
  [`http://0.0.0.0:${v4}/`, 'private_address'],
  [`http://0:${v4}/`, 'private_address'],
  [`http://[::]:${v6}/`, 'private_address'],
  // broadcast, multicast, reserved, benchmarking, documentation
  [`http://255.255.255.255:${v4}/`, 'private_address'],
  [`http://224.0.0.1:${v4}/`, 'private_address'],
  [`http://240.0.0.1:${v4}/`, 'private_address'],
  [`http://198.18.0.1:${v4}/`, 'private_address'],
  [`http://[ff02::1]:${v6}/`, 'private_address'],
  [`http://[2001:db8::1]:${v6}/`, 'private_address'],
  // reserved names
  [`http://foo.internal:${v4}/`, 'reserved_hostname'],
  [`http://foo.internal.:${v4}/`, 'reserved_hostname'],
  [`http://printer.local:${v4}/`, 'reserved_hostname'],
  [`http://printer.local.:${v4}/`, 'reserved_hostname'],
  [`http://Printer.LOCAL:${v4}/`, 'reserved_hostname'],
  // IPv6 forms embedding a private IPv4: 6to4, NAT64, teredo, SIIT
  [`http://[2002:7f00:1::]:${v6}/`, 'private_address'],
  [`http://[2002:a00:1::1]:${v6}/`, 'private_address'],
  [`http://[64:ff9b::7f00:1]:${v6}/`, 'private_address'],
  [`http://[64:ff9b::127.0.0.1]:${v6}/`, 'private_address'],
  [`http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]:${v6}/`, 'private_address'],
  [`http://[::ffff:0:7f00:1]:${v6}/`, 'private_address'],
  // schemes
  ['file:///etc/passwd', 'unsupported_scheme'],
  [`ftp://127.0.0.1:${v4}/`, 'unsupported_scheme'],
  [`gopher://127.0.0.1:${v4}/_GET%20/`, 'unsupported_scheme'],
  ['data:text/plain,hello', 'unsupported_scheme'],
  ['javascript:alert(1)', 'unsupported_scheme'],
  [`ws://127.0.0.1:${v4}/`, 'unsupported_scheme'],
  [`wss://127.0.0.1:${v4}/`, 'unsupported_scheme'],
  // not URLs, or not ones the guard sends
  ['/relative/path', 'invalid_url'],
  ['http://', 'invalid_url'],
  [`http://[fe80::1%25eth0]:${v6}/`, 'invalid_url'],
  [`http://user:secret@127.0.0.1:${v4}/`, 'invalid_url'],
  [`http://...:${v4}/`, 'invalid_url'],
]

/** Names whose records point inside: the guard must look the name up, then refuse before connecting. */
const privateDns = ({ v4 }: Ports): readonly Hostile[] => [
  [`http://internal-only.test:${v4}/`, 'private_dns'],
  [`http://mixed.test:${v4}/`, 'private_dns'],
  [`http://mapped.test:${v4}/`, 'private_dns'],
  [`http://ula.test:${v4}/`, 'private_dns'],
  [`http://nat64.test:${v4}/`, 'private_dns'],
  [`http://127.0.0.1.nip.test:${v4}/`, 'private_dns'],
]

const RECORDS = {
  'internal-only.test': ['127.0.0.1'],
  // One public record does not make a name safe: the other one could be chosen.
  'mixed.test': ['93.184.215.14', '10.0.0.5'],
  'mapped.test': ['::ffff:10.0.0.1'],
  'ula.test': ['2606:4700::1111', 'fd00::1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  '127.0.0.1.nip.test': ['127.0.0.1'],
}

describe('hostile URLs', () => {
  let v4: TcpCounter
  let v6: TcpCounter
  let ports: Ports
  let resolver: RecordingResolver
  let fetch: ReturnType<typeof createSafeFetch>
  const connect = vi.spyOn(net.Socket.prototype, 'connect')

  beforeAll(async () => {
    v4 = await startTcpCounter('127.0.0.1')
    v6 = await startTcpCounter('::1')
    ports = { v4: v4.port, v6: v6.port }
  })
  afterAll(async () => {
    connect.mockRestore()
    await Promise.all([v4.close(), v6.close()])
  })
  afterEach(() => fetch?.close())

  function freshClient() {
    resolver = recordingResolver(RECORDS)
    fetch = createSafeFetch({ resolve: resolver })
    connect.mockClear()
  }

  it('has at least 40 entries, each a distinct URL', () => {
    const urls = [...hostile(ports), ...privateDns(ports)].map(([url]) => url)
    expect(urls.length).toBeGreaterThanOrEqual(40)
    expect(new Set(urls).size).toBe(urls.length)
  })

  it('the counting listeners and the connect spy do see a connection that is made', async () => {
    freshClient()
    const open = (port: number, host: string) =>
      new Promise<void>((resolve) =>
        net
          .connect(port, host)
          .on('connect', resolve)
          .on('close', () => resolve()),
      )
    await open(v4.port, '127.0.0.1')
    await open(v6.port, '::1')
    expect(connect).toHaveBeenCalledTimes(2)
    await vi.waitFor(() => expect([v4.connections, v6.connections]).toEqual([1, 1]))
  })

  it('refuses every literal, name and scheme before any connection', async () => {
    const before = [v4.connections, v6.connections]
    for (const [url, code] of hostile(ports)) {
      freshClient()
      const error = await fetch(url, { method: 'POST', body: 'x' }).catch((e: unknown) => e)
      expect(error, url).toBeInstanceOf(OutboundRefused)
      expect({ url, code: (error as OutboundRefused).code }).toEqual({ url, code })
      expect(resolver.calls, url).toEqual([])
      expect(connect, url).not.toHaveBeenCalled()
    }
    expect([v4.connections, v6.connections]).toEqual(before)
  })

  it('refuses names that resolve to any non-public address, after looking them up and before connecting', async () => {
    const before = [v4.connections, v6.connections]
    for (const [url, code] of privateDns(ports)) {
      freshClient()
      const error = await fetch(url).catch((e: unknown) => e)
      expect({ url, code: (error as OutboundRefused).code }).toEqual({ url, code })
      expect(resolver.calls, url).toEqual([new URL(url).hostname])
      expect(connect, url).not.toHaveBeenCalled()
    }
    expect([v4.connections, v6.connections]).toEqual(before)
  })

  it('checkUrl gives the same verdicts without DNS', () => {
    for (const [url, code] of hostile(ports)) {
      expect({ url, code: refusalOf(() => checkUrl(url)) }).toEqual({ url, code })
    }
    // The synchronous check cannot see DNS: these pass it, and fetch refuses them.
    for (const [url] of privateDns(ports)) expect(checkUrl(url).href).toBe(url)
  })
})

describe('checkUrl', () => {
  it('returns the parsed URL of a public target', () => {
    expect(checkUrl('HTTPS://Example.COM:443/a?b#c').href).toBe('https://example.com/a?b#c')
    expect(checkUrl(new URL('http://93.184.215.14:8080/')).host).toBe('93.184.215.14:8080')
    expect(checkUrl('http://[2606:4700::1111]/').hostname).toBe('[2606:4700::1111]')
    expect(checkUrl('http://[::ffff:8.8.8.8]/').hostname).toBe('[::ffff:808:808]')
  })

  it('names the refused URL and the reason', () => {
    const error = catchRefusal(() => checkUrl('http://0x7f.1:81/x'))
    expect(error.url).toBe('http://127.0.0.1:81/x')
    expect(error.message).toMatch(/127\.0\.0\.1 is loopback/)
  })
})

function catchRefusal(run: () => unknown): OutboundRefused {
  try {
    run()
  } catch (error) {
    if (error instanceof OutboundRefused) return error
    throw error
  }
  throw new Error('expected an OutboundRefused')
}

function refusalOf(run: () => unknown): RefusalCode {
  return catchRefusal(run).code
}
