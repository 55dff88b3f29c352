import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One request a receiver got, as it came. */
export type Received = {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage['headers']
  readonly body: string
  readonly at: number
}

/**
 * How to answer a request: a status (with headers and body), `hang` (never answer), or a
 * function of the request (called with how many requests came before it).
 */
export type Answer =
  { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'head-only'

export type Receiver = {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly received: Received[]
  /** TCP connections accepted so far (a refused target must stay at 0). */
  connections(): number
  /** Waits until `count` requests came in (or `timeoutMs` passed, then throws). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
  /** Resolves when `count` requests came in; uses no timer (for tests with fake timers). */
  waitForRequest(count: number): Promise<void>
  close(): Promise<void>
}

/**
 * A real HTTP receiver on a free loopback port. `answer` decides each reply; by default 204.
 * Requests that hang are cut when the receiver closes.
 */
export async function startReceiver(
  answer: (request: Received, index: number) => Answer | Promise<Answer> = () => ({
    status: 204,
  }),
): Promise<Receiver> {
  const received: Received[] = []
  const sockets = new Set<Socket>()
  let connections = 0
  const waiters = new Set<() => void>()
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const entry: Received = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      }
      const index = received.length
      received.push(entry)
      for (const wake of waiters) wake()
      void Promise.resolve(answer(entry, index)).then((reply) => {
        if (reply === 'hang') return
        if (reply === 'head-only') {
          // Headers and a first chunk, and then nothing: only a client that reads the body waits.
          response.writeHead(200, { 'content-type': 'text/plain' })
          response.write('x'.repeat(1024))
          return
        }
        response.writeHead(reply.status, reply.headers ?? {})
        response.end(reply.body ?? '')
      })
    })
  })
  server.on('connection', (socket: Socket) => {
    connections++
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`the receiver got ${received.length} of ${count} requests in time`)
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50)
          const wake = () => {
            clearTimeout(timer)
            waiters.delete(wake)
            resolve()
          }
          waiters.add(wake)
        })
      }
      return received.slice(0, count)
    },
    waitForRequest: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (received.length < count) return
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
        check()
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
