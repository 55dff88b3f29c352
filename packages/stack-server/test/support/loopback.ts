import * as http from 'node:http'
import type { AddressInfo } from 'node:net'

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void

/** An HTTP server on a free loopback port that counts the connections it accepts. */
export type LoopbackServer = {
  readonly port: number
  /** `http://127.0.0.1:<port>`, the exact origin an allow-list entry names. */
  readonly origin: string
  /** `<origin><path>`. */
  url(path?: string): string
  /** TCP connections accepted so far, on every address it listens on. */
  readonly connections: number
  /** The request targets (path and query) received, in order. */
  readonly requests: readonly string[]
  close(): Promise<void>
}

/**
 * Starts `handler` on 127.0.0.1, and with `ipv6` on [::1] too, on the same port: then every
 * spelling of loopback (`127.0.0.1`, `0x7f.1`, `[::1]`, `localhost`, `0.0.0.0` …) with that
 * port reaches it, and a guard that let one through would show up in `connections`.
 */
export async function startLoopbackServer(
  handler: Handler,
  options: { ipv6?: boolean } = {},
): Promise<LoopbackServer> {
  let connections = 0
  const requests: string[] = []
  const create = () =>
    http
      .createServer((request, response) => {
        requests.push(request.url ?? '')
        handler(request, response)
      })
      .on('connection', () => connections++)
  const servers = await listenOnOnePort(create, options.ipv6 ? ['127.0.0.1', '::1'] : ['127.0.0.1'])
  const port = (servers[0]!.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  return {
    port,
    origin,
    url: (path = '/') => `${origin}${path}`,
    get connections() {
      return connections
    },
    requests,
    close: () => Promise.all(servers.map(closeServer)).then(() => undefined),
  }
}

/** Listens on a free port of the first host, then on the same port of the others (retrying on a clash). */
async function listenOnOnePort(
  create: () => http.Server,
  hosts: readonly string[],
): Promise<http.Server[]> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const servers: http.Server[] = []
    try {
      let port = 0
      for (const host of hosts) {
        const server = create()
        await listen(server, port, host)
        servers.push(server)
        port = (server.address() as AddressInfo).port
      }
      return servers
    } catch (error) {
      await Promise.all(servers.map(closeServer))
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    }
  }
  throw new Error(`no free port on all of ${hosts.join(', ')}`)
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}
