import http from 'node:http'

/** A small client for the hub's API over real HTTP (fetch), with the PAT as a Bearer token. */
export type Reply = { status: number; headers: Headers; body: any; text: string }

export async function call(
  url: string,
  init: RequestInit & { token?: string | undefined; json?: unknown } = {},
): Promise<Reply> {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('authorization', `Bearer ${init.token}`)
  let body = init.body
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(init.json)
  }
  const response = await fetch(url, { ...init, headers, body })
  const text = await response.text()
  let parsed: unknown = undefined
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, body: parsed, text }
}

export type UploadFile = { path: string; content: string | Uint8Array }

/** A publish form: `version`, `bundle` and one `files` part per file, in this order unless told. */
export function publishForm(parts: {
  version?: string | undefined
  bundle?: string | Uint8Array | undefined
  files?: readonly UploadFile[]
}): FormData {
  const form = new FormData()
  if (parts.version !== undefined) form.append('version', parts.version)
  if (parts.bundle !== undefined)
    form.append('bundle', new Blob([blobPart(parts.bundle)]), 'server.js')
  for (const file of parts.files ?? [])
    form.append('files', new Blob([blobPart(file.content)]), file.path)
  return form
}

/** A root manifest `deno.json` for `@account/slug`. */
export function manifest(
  name: string,
  imports: Record<string, string> = {},
  version = '1.0.0',
): UploadFile {
  return { path: 'deno.json', content: JSON.stringify({ name, version, imports }) }
}

function blobPart(content: string | Uint8Array): string | Buffer {
  return typeof content === 'string' ? content : Buffer.from(content)
}

/**
 * Sends `head`, then `size` bytes of filler, then `tail`, chunk by chunk (with its length declared,
 * or chunked), and stops writing as soon as the answer arrives: how a client streams a body too
 * large to hold. Answers the status, the headers, the body and how much of the filler was sent.
 */
export function streamBody(
  url: string,
  options: {
    readonly headers: Record<string, string>
    readonly size: number
    readonly declareLength: boolean
    readonly head?: Buffer
    readonly tail?: Buffer
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; bytesSent: number }> {
  const { headers, size, declareLength, head = Buffer.alloc(0), tail = Buffer.alloc(0) } = options
  const chunk = Buffer.alloc(256 * 1024, 'a')
  return new Promise((resolve, reject) => {
    let bytesSent = 0
    let answered = false
    const request = http.request(url, {
      method: 'POST',
      headers: {
        ...headers,
        ...(declareLength ? { 'content-length': String(head.length + size + tail.length) } : {}),
      },
    })
    request.on('response', (response) => {
      answered = true
      let body = ''
      response.on('data', (c: Buffer) => (body += c.toString('utf8')))
      response.on('end', () => {
        request.destroy()
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, bytesSent })
      })
    })
    request.on('error', (error) => {
      if (!answered) reject(error)
    })
    request.write(head)
    const pump = () => {
      while (!answered && bytesSent < size) {
        bytesSent += chunk.length
        if (!request.write(chunk)) return request.once('drain', pump)
      }
      if (!answered) request.end(tail)
    }
    pump()
  })
}
