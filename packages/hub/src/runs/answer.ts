import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'

/** One file a run made. */
export type RunArtifact = { path: string; size: number; sha256: string; data: Uint8Array }

/** What the wrapper wrote to fd 3: the status of `server.js`'s answer and its body. */
export type Answer = { readonly status: number; readonly body: Uint8Array }

/** The artifacts and manifest of a run's 200. */
export type AnswerRead = { artifacts: RunArtifact[]; manifest: Record<string, unknown> }

/**
 * Reads the answer from the run's fd 3 until its end: `'too-large'` as soon as more than
 * `maxBytes` came, `'none'` when it ended without a status line (the process died first).
 * Never rejects.
 */
export function receiveAnswer(
  stream: Readable,
  maxBytes: number,
): Promise<Answer | 'too-large' | 'none'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let total = 0
    let headBytes: number | undefined
    const give = (answer: 'too-large' | 'none') => {
      stream.destroy()
      resolve(answer)
    }
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      total += chunk.byteLength
      if (headBytes === undefined) {
        const newline = Buffer.concat(chunks).indexOf(10)
        if (newline >= 0) headBytes = newline + 1
        else if (total > MAX_HEAD_BYTES) return give('none')
      }
      if (headBytes !== undefined && total - headBytes > maxBytes) give('too-large')
    })
    stream.on('error', () => resolve('none'))
    stream.on('end', () => resolve(parseAnswer(joined(chunks, total))))
  })
}

/**
 * The chunks in one buffer of its own, never a slice of Node's shared pool of small buffers
 * (which `Buffer.concat` may answer), so that it can be moved to a worker thread.
 */
function joined(chunks: readonly Buffer[], total: number): Buffer {
  const all = Buffer.from(new ArrayBuffer(total))
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}

/** The status line is `{"status":200}`; a longer first line is not one. */
const MAX_HEAD_BYTES = 1024

function parseAnswer(bytes: Buffer): Answer | 'none' {
  const newline = bytes.indexOf(10)
  if (newline < 0) return 'none'
  try {
    const head = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as { status?: unknown }
    if (typeof head.status !== 'number') return 'none'
    return { status: head.status, body: bytes.subarray(newline + 1) }
  } catch {
    return 'none'
  }
}

/**
 * The artifacts and manifest of a 200, or why the answer is not one. Up to the output limit
 * (50 MiB) to decode, parse, encode and hash: it runs in a worker thread (offload/worker.ts).
 */
export function readAnswer(answer: Answer): AnswerRead | string {
  let value: unknown
  try {
    const body = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength)
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return `server.js answered ${answer.status} with a body that is not JSON.`
  }
  if (answer.status !== 200) {
    const error = isObject(value) ? value : {}
    const code = typeof error.error === 'string' ? error.error : 'an error'
    const message = typeof error.message === 'string' ? ` ${error.message}` : ''
    return printable(`server.js answered ${answer.status} ${code}:${message}`).slice(0, 2000)
  }
  if (!isObject(value) || !isObject(value.artifacts) || !isObject(value.manifest)) {
    return 'server.js answered 200 without { artifacts, manifest }.'
  }
  const entries = Object.entries(value.artifacts)
  if (entries.length > MAX_ARTIFACTS) {
    return `server.js answered ${entries.length} artifacts; the hub keeps at most ${MAX_ARTIFACTS}.`
  }
  const artifacts: RunArtifact[] = []
  for (const [path, content] of entries) {
    const named = printable(JSON.stringify(path.slice(0, 200)))
    if (typeof content !== 'string')
      return `server.js answered an artifact that is not text: ${named}.`
    if (!safeArtifactPath(path))
      return `server.js answered an artifact path the hub refuses: ${named}.`
    const data = new TextEncoder().encode(content)
    artifacts.push({
      path,
      size: data.byteLength,
      sha256: createHash('sha256').update(data).digest('hex'),
      data,
    })
  }
  return { artifacts, manifest: value.manifest }
}

/** A relative path of at most 1024 characters, no `.`/`..` segments, no NUL or backslash. */
function safeArtifactPath(path: string): boolean {
  if (path.length === 0 || path.length > 1024 || path.startsWith('/')) return false
  if (
    /[\0\\]/.test(path) ||
    /[\ud800-\udfff]/.test(path.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))
  )
    return false
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
}

/** Most files one run may make. */
export const MAX_ARTIFACTS = 10_000

/** Text the bundle chose, made storable: no NUL (PostgreSQL refuses it), no lone surrogate. */
function printable(text: string): string {
  return text
    .replace(/\0/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
