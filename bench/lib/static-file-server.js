// A loopback static file server for bench/stack-server.js, in its own process: node:http with
// keep-alive, answering every GET (any path) with one file, read into memory at start, as
// application/json with its length. Usage: node bench/lib/static-file-server.js <file>.
// Listens on PORT (0: a free port) and HOST and prints {"msg":"listening","url":…} like the hub.
import { readFileSync } from 'node:fs'
import http from 'node:http'

const body = readFileSync(process.argv[2])

const server = http.createServer((request, response) => {
  request.resume()
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end()
    return
  }
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(body.length),
  })
  response.end(request.method === 'HEAD' ? undefined : body)
})
server.listen(Number(process.env.PORT || 0), process.env.HOST || '127.0.0.1', () => {
  const { address, port } = server.address()
  process.stdout.write(
    `${JSON.stringify({ msg: 'listening', url: `http://${address}:${port}` })}\n`,
  )
})

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections?.()
  })
}
