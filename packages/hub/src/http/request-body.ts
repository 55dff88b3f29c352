import { Readable } from 'node:stream'
import { ApiError } from '../errors/index.js'

/**
 * The most of a body the hub reads from a request that has not shown who sends it (no token, no
 * session); past it the request is refused (http/anonymous-body.ts, web/page-body.ts).
 */
export const ANONYMOUS_BODY_BYTES = 64 * 1024

/** How much of a refused body the hub still reads so that the client can see the answer. */
const DISCARD_BYTES = 16 * 1024 * 1024
const DISCARD_MS = 2_000

/**
 * A request body as a Node stream, for the readers below and busboy. The stream errors when the
 * client goes away, even after the hub stopped reading it (a refused body): with no listener that
 * error would end the process, so one listener is always there; readers add their own.
 */
export function nodeStream(body: ReadableStream<Uint8Array>): Readable {
  const stream = Readable.fromWeb(body)
  stream.on('error', ignore)
  return stream
}

function ignore(): void {}

/**
 * What a reader answers when the body stream fails: the refusal that failed it (a limit, see
 * anonymous-body.ts), or else the client went away or sent bad framing.
 */
export function bodyFailure(cause: unknown): ApiError {
  if (cause instanceof ApiError) return cause
  return new ApiError('malformed_request', 'The request body was interrupted before its end.')
}

/**
 * Reads and drops the rest of a refused request body, up to a bound (nothing at all when its
 * declared length is over it). Answers whether it reached the end: then the connection stays
 * usable; otherwise the caller answers with `Connection: close`, so a client streaming a huge
 * body learns early and nothing more is read.
 */
export function discardRest(source: Readable, declaredBytes = NaN): Promise<boolean> {
  if (declaredBytes > DISCARD_BYTES || source.destroyed) return Promise.resolve(false)
  if (source.readableEnded) return Promise.resolve(true)
  return new Promise((resolve) => {
    let bytes = 0
    const finish = (ended: boolean) => {
      clearTimeout(timer)
      source.off('data', onData)
      source.off('end', onEnd)
      source.off('error', onError)
      if (!ended) source.pause()
      resolve(ended)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.byteLength
      if (bytes > DISCARD_BYTES) finish(false)
    }
    const onEnd = () => finish(true)
    const onError = () => finish(false)
    const timer = setTimeout(() => finish(false), DISCARD_MS)
    source.on('data', onData)
    source.once('end', onEnd)
    source.once('error', onError)
    source.resume()
  })
}
