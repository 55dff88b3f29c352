// The floor for the hub's HTTP figures: a bare Hono hello-world on @hono/node-server, the same
// stack the hub serves on, with no middleware. Listens on PORT (0: a free port) and HOST and
// prints {"msg":"listening","url":…} like the hub.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()
app.get('/', (c) => c.text('Hello, World!'))

const server = serve(
  {
    fetch: app.fetch,
    port: Number(process.env.PORT || 0),
    hostname: process.env.HOST || '127.0.0.1',
  },
  (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address
    process.stdout.write(
      `${JSON.stringify({ msg: 'listening', url: `http://${host}:${info.port}` })}\n`,
    )
  },
)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections?.()
  })
}
