import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** How long a closing connection keeps reading what the client still sends. */
const LINGER_MS = 2_000

/**
 * Closes connections the way nginx's lingering close does. When the hub answers before it has
 * read the whole request (a refused 200 MB upload) and closes, Node destroys the socket at once,
 * and a socket closed with unread data sends a reset that can make the client lose the answer
 * and report EPIPE instead of `payload_too_large`. Here the hub half-closes instead, drops what
 * still arrives, and destroys the socket when the client ends its side or after a short grace.
 */
export function lingerOnClose(server: Server): void {
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = function lingeringClose(this: Socket) {
      if (this.destroyed) return
      this.end()
      const timer = setTimeout(() => this.destroy(), LINGER_MS)
      timer.unref()
      this.once('end', () => {
        clearTimeout(timer)
        this.destroy()
      })
      this.once('close', () => clearTimeout(timer))
      this.resume()
    }
  })
}
