import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

/** Once shutdown begins, how long a connection may sit idle before the hub closes it. */
const IDLE_GRACE_MS = 250
const SWEEP_MS = 50

/**
 * Closes a server's keep-alive connections at shutdown without racing their clients.
 *
 * `server.close()` closes every idle keep-alive connection at once (Node 19 and later), and a
 * client that has just written its next request on one gets a reset instead of an answer: it
 * cannot tell whether the request was handled (nodejs/node#60617; http-terminator and stoppable
 * do the same). Here, once closing, the server stops accepting connections, but a request that
 * arrives on an open one is still served, answered with `Connection: close` and its connection
 * closed after it; a connection is closed without a request only once it has been idle for
 * {@link IDLE_GRACE_MS}, which a client that is sending does not reach. Closing is a FIN
 * (http/lingering-close.ts), never a reset.
 */
export class ConnectionDrain {
  readonly #server: Server
  /** Open connections with no request in progress, and since when. */
  readonly #idleSince = new Map<Socket, number>()
  /** Responses whose headers may not be sent yet: they can still say `Connection: close`. */
  readonly #unanswered = new Set<ServerResponse>()
  #closing = false

  constructor(server: Server) {
    this.#server = server
    server.on('connection', (socket: Socket) => {
      this.#idleSince.set(socket, Date.now())
      socket.once('close', () => this.#idleSince.delete(socket))
    })
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket
      this.#idleSince.delete(socket)
      if (this.#closing) response.shouldKeepAlive = false
      this.#unanswered.add(response)
      response.once('close', () => {
        this.#unanswered.delete(response)
        if (!socket.destroyed && !socket.writableEnded) this.#idleSince.set(socket, Date.now())
      })
    })
  }

  /** Stops accepting connections and closes each open one as above; resolves once all are. */
  close(): Promise<void> {
    this.#closing = true
    for (const response of this.#unanswered) {
      if (!response.headersSent) response.shouldKeepAlive = false
    }
    // net's close, not http's: http's also cuts the idle connections at once.
    const closed = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(this.#server, () => resolve()),
    )
    const sweep = setInterval(() => this.#closeIdle(), SWEEP_MS)
    return closed.finally(() => clearInterval(sweep))
  }

  #closeIdle(): void {
    const now = Date.now()
    for (const [socket, since] of this.#idleSince) {
      if (now - since < IDLE_GRACE_MS) continue
      this.#idleSince.delete(socket)
      socket.destroySoon()
    }
  }
}
