import { setImmediate as nextTurn } from 'node:timers/promises'

/** What a run is asked: the body the wrapper POSTs to `/artifacts`. */
export type RunRequest = {
  readonly schema: string
  readonly protocol: 'oas' | 'gql'
  readonly clientSettings: Record<string, unknown>
}

/** Characters of the document put into JSON at once: a few milliseconds of work. */
const SLICE_CHARS = 1024 * 1024

/**
 * What the hub writes to the wrapper's stdin (wrapper.ts): a line saying where `server.js`
 * listens and how many bytes follow, then the request as JSON, the bytes of
 * `JSON.stringify(request)`. The document, up to the document limit (32 MiB), is escaped and
 * encoded a slice at a time, the event loop served between slices.
 */
export async function requestFrame(port: number, request: RunRequest): Promise<Buffer[]> {
  const { schema } = request
  const parts = [Buffer.from('{"schema":"')]
  for (let at = 0; at < schema.length;) {
    let end = Math.min(at + SLICE_CHARS, schema.length)
    // A surrogate pair stays whole, so that each slice escapes as the whole string would.
    if (end < schema.length && isHighSurrogate(schema.charCodeAt(end - 1))) end++
    if (at > 0) await nextTurn()
    parts.push(Buffer.from(JSON.stringify(schema.slice(at, end)).slice(1, -1)))
    at = end
  }
  parts.push(
    Buffer.from(
      `","protocol":${JSON.stringify(request.protocol)},"clientSettings":${JSON.stringify(request.clientSettings)}}`,
    ),
  )
  const bytes = parts.reduce((sum, part) => sum + part.byteLength, 0)
  return [Buffer.from(`${JSON.stringify({ port, bytes })}\n`), ...parts]
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
