import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import * as http from 'node:http'
import * as https from 'node:https'
import * as net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ResolvedAddress, Resolver } from '../src/index.js'

/** What a loopback test server saw. */
export type Seen = {
  readonly method: string
  readonly url: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

export type TestServer = {
  readonly port: number
  /** `http://127.0.0.1:<port><path>` (or https, or [::1]). */
  url(path?: string): string
  /** TCP connections accepted so far. */
  readonly connections: number
  /** Of those, how many have closed. */
  readonly closedConnections: number
  readonly requests: readonly Seen[]
  close(): Promise<void>
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, seen: Seen) => void

/** An HTTP(S) server on a free loopback port that records connections and requests. */
export async function startServer(
  handler: Handler,
  options: { host?: string; tls?: { key: string; cert: string } } = {},
): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1'
  const requests: Seen[] = []
  const listener = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      }
      requests.push(seen)
      handler(request, response, seen)
    })
  }
  const server = options.tls
    ? https.createServer(options.tls, listener)
    : http.createServer(listener)
  let connections = 0
  let closedConnections = 0
  server.on(options.tls ? 'secureConnection' : 'connection', (socket: net.Socket) => {
    connections++
    socket.once('close', () => closedConnections++)
  })
  const port = await listen(server, host)
  const scheme = options.tls ? 'https' : 'http'
  const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
  return {
    port,
    url: (path = '/') => `${scheme}://${authority}${path}`,
    get connections() {
      return connections
    },
    get closedConnections() {
      return closedConnections
    },
    requests,
    close: () => closeServer(server),
  }
}

export type TcpCounter = {
  readonly port: number
  readonly connections: number
  close(): Promise<void>
}

/** A bare TCP listener that only counts the connections it accepts (and drops them). */
export async function startTcpCounter(host: string): Promise<TcpCounter> {
  let connections = 0
  const server = net.createServer((socket) => {
    connections++
    socket.destroy()
  })
  const port = await listen(server, host)
  return {
    port,
    get connections() {
      return connections
    },
    close: () => closeServer(server),
  }
}

export type RecordingResolver = Resolver & { readonly calls: readonly string[] }

/** A resolver answering from `records` (an unknown name fails like ENOTFOUND) that records each call. */
export function recordingResolver(records: Record<string, readonly string[]>): RecordingResolver {
  const calls: string[] = []
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname)
    const addresses = records[hostname]
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return Object.assign(resolve, { calls })
}

/**
 * A throwaway self-signed certificate for `svc-test.example` and 127.0.0.1, made with the
 * `openssl` binary; undefined when there is none on the PATH.
 */
export function selfSignedCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'safe-fetch-cert-'))
  try {
    const subject = ['-subj', '/CN=svc-test.example']
    const names = ['-addext', 'subjectAltName=DNS:svc-test.example,IP:127.0.0.1']
    const files = ['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]
    const command = 'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1'
    execFileSync('openssl', [...command.split(' '), ...files, ...subject, ...names], {
      stdio: 'ignore',
    })
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    }
  } catch {
    return undefined
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function listen(server: net.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port))
  })
}

function closeServer(server: net.Server): Promise<void> {
  if (server instanceof http.Server || server instanceof https.Server) server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}
