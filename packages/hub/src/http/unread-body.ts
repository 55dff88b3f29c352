import type { IncomingMessage } from 'node:http'
import { createMiddleware } from 'hono/factory'
import type { HubEnv } from './env.js'

/**
 * An answer given before the request's body was read in full (a 401, 403 or 404 on an upload)
 * says `Connection: close`. Without it the connection stays open for a next request while the
 * client may still be sending the rest of this one, and a client that reuses its connections
 * (fetch's pool) sends its next request into a socket the hub is about to drop. With it, the
 * hub closes after the answer, reading and dropping what still arrives (http/lingering-close.ts),
 * so the client reads the answer and opens a fresh connection for what comes next.
 */
export const closeIfBodyUnread = createMiddleware<HubEnv>(
  async function closeIfBodyUnread(c, next) {
    await next()
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
    if (incoming && !incoming.complete && c.res.headers.get('connection') === null)
      c.res.headers.set('Connection', 'close')
  },
)
