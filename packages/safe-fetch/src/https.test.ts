import type { TLSSocket } from 'node:tls'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  recordingResolver,
  selfSignedCertificate,
  startServer,
  type TestServer,
} from '../test/loopback.js'
import { createSafeFetch, OutboundFailed, OutboundRefused, parseAllowList } from './index.js'

const certificate = selfSignedCertificate()

const title = certificate
  ? 'https'
  : 'https (skipped: no openssl binary on the PATH to make a test certificate)'

describe.skipIf(!certificate)(title, () => {
  const tls = certificate ?? { key: '', cert: '' }
  let secure: TestServer
  let plain: TestServer
  const servernames: (string | false | null)[] = []
  let fetch: ReturnType<typeof createSafeFetch>
  const resolve = recordingResolver({
    'svc-test.example': ['127.0.0.1'],
    'other.example': ['127.0.0.1'],
  })

  beforeAll(async () => {
    plain = await startServer((_request, response) => response.end('plain'))
    secure = await startServer(
      (request, response) => {
        servernames.push((request.socket as TLSSocket).servername)
        if (request.url === '/down') {
          response.writeHead(307, { location: plain.url('/') })
          return response.end()
        }
        response.end('secure')
      },
      { tls },
    )
  })
  afterAll(() => Promise.all([secure.close(), plain.close()]))
  afterEach(() => fetch.close())

  function client({ ca }: { ca?: string } = { ca: tls.cert }) {
    fetch = createSafeFetch({
      allow: parseAllowList('127.0.0.1/32'),
      resolve,
      ...(ca ? { ca } : {}),
    })
    return fetch
  }

  it('connects a name to its checked address, with SNI and the certificate checked for the name', async () => {
    const response = await client()(`https://svc-test.example:${secure.port}/`)
    expect(await response.text(100)).toBe('secure')
    expect(servernames.at(-1)).toBe('svc-test.example')
    expect(secure.requests.at(-1)?.headers.host).toBe(`svc-test.example:${secure.port}`)
  })

  it('verifies the certificate against the name, not the address it connects to', async () => {
    // The certificate covers 127.0.0.1 too: only a check against the name refuses it.
    const error = await client()(`https://other.example:${secure.port}/`).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutboundFailed)
    expect((error as OutboundFailed).code).toBe('network')
    expect((error as OutboundFailed).cause).toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    })
  })

  it('an address literal is verified against the address, without SNI', async () => {
    const response = await client()(secure.url('/'))
    expect(await response.text(100)).toBe('secure')
    expect(servernames.at(-1)).toBe(false)
  })

  it('refuses an untrusted certificate', async () => {
    const error = await client({})(secure.url('/')).catch((e: unknown) => e)
    expect((error as OutboundFailed).code).toBe('network')
  })

  it('never follows https to http, and never connects to the http target', async () => {
    for (const follow of ['same-request', 'fetch'] as const) {
      const error = await client()(`https://svc-test.example:${secure.port}/down`, {
        redirects: { follow, max: 3 },
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(OutboundRefused)
      expect((error as OutboundRefused).code).toBe('downgrade')
      expect((error as OutboundRefused).url).toBe(plain.url('/'))
    }
    expect(plain.connections).toBe(0)
    // The same target is fetched when asked for directly: the refusal was the downgrade.
    expect(await (await client()(plain.url('/'))).text(10)).toBe('plain')
  })
})
