import net from 'node:net'

/** How a raw request's body goes on the wire. */
export type Framing =
  /** `Content-Length` of what is sent. */
  | { readonly kind: 'length' }
  /** Chunked, cut into chunks at these offsets, ended by `ending` (normally `0\r\n\r\n`). */
  | { readonly kind: 'chunked'; readonly cuts: readonly number[]; readonly ending: string }
  /** `Content-Length` of `declared` bytes, of which only the body is sent before the socket ends. */
  | { readonly kind: 'gone'; readonly declared: number }

export type RawRequest = {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
  readonly framing: Framing
}

/** What came back: a status and a body, or nothing before the connection ended. */
export type RawAnswer =
  | { readonly status: number; readonly headers: string; readonly body: string }
  | { readonly status: undefined }

/**
 * Sends one request over a new connection exactly as given, byte for byte, the way no HTTP client
 * library would (a body cut short, broken chunked framing, a client that leaves mid-body), and
 * reads the answer until the hub closes the connection. Never rejects.
 */
export function rawRequest(origin: string, request: RawRequest, timeoutMs = 15_000) {
  const { hostname, port } = new URL(origin)
  return new Promise<RawAnswer>((resolve) => {
    const socket = net.connect(Number(port), hostname)
    const received: Buffer[] = []
    const finish = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve(parse(Buffer.concat(received)))
    }
    const timer = setTimeout(finish, timeoutMs)
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    socket.on('error', finish)
    socket.on('close', finish)
    socket.on('connect', () => {
      const { framing, body } = request
      const head = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${hostname}:${port}`]
      for (const [name, value] of Object.entries(request.headers)) head.push(`${name}: ${value}`)
      head.push('Connection: close')
      if (framing.kind === 'chunked') head.push('Transfer-Encoding: chunked')
      else head.push(`Content-Length: ${framing.kind === 'gone' ? framing.declared : body.length}`)
      socket.write(`${head.join('\r\n')}\r\n\r\n`)
      if (framing.kind === 'chunked') {
        let at = 0
        for (const cut of [...framing.cuts, body.length]) {
          if (cut <= at) continue
          const chunk = body.subarray(at, cut)
          socket.write(`${chunk.length.toString(16)}\r\n`)
          socket.write(chunk)
          socket.write('\r\n')
          at = cut
        }
        socket.write(framing.ending)
      } else {
        socket.write(body)
      }
      // A request left incomplete (the client gone, chunked framing never ended) gets no answer:
      // ending the connection is what a client that leaves does.
      if (framing.kind === 'gone') socket.end(() => socket.destroy())
      else if (framing.kind === 'chunked' && !framing.ending.endsWith('\r\n\r\n')) socket.end()
    })
  })
}

function parse(raw: Buffer): RawAnswer {
  const text = raw.toString('latin1')
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text)
  if (!match) return { status: undefined }
  const split = text.indexOf('\r\n\r\n')
  const headers = split < 0 ? text : text.slice(0, split)
  let body = split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4)
  if (/^transfer-encoding: *chunked/im.test(headers)) body = unchunk(body)
  return { status: Number(match[1]), headers, body: body.toString('utf8') }
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const line = body.indexOf('\r\n', at)
    if (line < 0) break
    const size = parseInt(body.subarray(at, line).toString('latin1'), 16)
    if (!(size > 0)) break
    parts.push(body.subarray(line + 2, line + 2 + size))
    at = line + 2 + size + 2
  }
  return Buffer.concat(parts)
}
