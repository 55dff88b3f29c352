import type { InheritableDescriptor } from './inherited-descriptors.js'

/**
 * The run's process starts as `node -e WRAPPER <descriptors>` in the run's folder. First it
 * closes the descriptors the hub names ({@link wrapperArgs}): ones the hub's process holds open
 * without close-on-exec, which every process it starts inherits and which neither bubblewrap nor
 * Node's permission model closes or checks. Each is closed only while fstat still shows the
 * file the hub saw, so that none of Node's own is. The sandbox has no network the hub could
 * reach, so the wrapper relays: it loads `server.js` (which listens on the
 * sandbox's own loopback and prints `{"msg":"listening","port":N}` on stdout), waits on stdin for
 * the request the hub sends once it read that line (request-frame.ts), POSTs it to
 * `/artifacts`, and writes the answer to fd 3: a line `{"status":S}`, then the body, then end of
 * file. It leaves when its stdin closes: a hub that died without killing it is not waited for.
 */
export const WRAPPER = `
for (const { fd, id } of JSON.parse(process.argv.splice(1)[0] || '[]')) {
  try {
    const stat = require('node:fs').fstatSync(fd, { bigint: true })
    if (stat.dev + ':' + stat.ino === id) require('node:fs').closeSync(fd)
  } catch {}
}
// bwrap sets PWD; the bundle gets the hub's variables and no others.
delete process.env.PWD
const http = require('node:http')
const net = require('node:net')
const leave = () => process.exit(70)
const chunks = []
let size = 0
let head
let sent = false
process.stdin.on('data', (chunk) => {
  if (sent) return
  chunks.push(chunk)
  size += chunk.length
  if (head === undefined) {
    const all = Buffer.concat(chunks)
    const newline = all.indexOf(10)
    if (newline < 0) return
    head = JSON.parse(all.subarray(0, newline).toString('utf8'))
    chunks.splice(0, chunks.length, all.subarray(newline + 1))
    size = chunks[0].length
  }
  if (size < head.bytes) return
  sent = true
  relay(head.port, Buffer.concat(chunks).subarray(0, head.bytes))
})
process.stdin.on('end', leave)
process.stdin.on('error', leave)
function relay(port, body) {
  const answer = new net.Socket({ fd: 3, readable: false })
  const request = http.request(
    {
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/artifacts',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    },
    (response) => {
      answer.write(JSON.stringify({ status: response.statusCode }) + '\\n')
      response.pipe(answer)
    },
  )
  request.on('error', (error) => {
    console.error('svc-run: could not ask server.js: ' + error.message)
    process.exit(71)
  })
  request.end(body)
}
import(require('node:url').pathToFileURL(require('node:path').resolve('server.js')).href).catch(
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
`

/** The wrapper's arguments: the descriptors it closes before the bundle loads. */
export function wrapperArgs(inherited: readonly InheritableDescriptor[]): string[] {
  return [JSON.stringify(inherited)]
}
