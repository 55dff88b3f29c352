import type { Readable } from 'node:stream'
import { ApiError } from '../errors/index.js'
import { bodyFailure, nodeStream } from './request-body.js'

/**
 * Reads a whole request body of at most `maxBytes`; answers undefined for no body at all.
 * `onChunk` is given each chunk within the limit as it arrives (to hash or decode it on the
 * way, instead of in one long step at the end). A larger
 * one is 422 `payload_too_large`, answered at once and ending the connection: from its declared
 * length before anything is read, or, streamed, as soon as it passes the limit. The rest is left
 * unread rather than drained first, so that a client streaming a huge body learns early and the
 * hub reads no more of it than the limit (what still arrives is dropped, http/lingering-close.ts).
 */
export async function readLimitedBody(
  request: Request,
  maxBytes: number,
  onChunk?: (chunk: Buffer) => void,
): Promise<Buffer | undefined> {
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) throw tooLarge(maxBytes)
  const body = request.body
  if (!body) return undefined
  const read = await readUpTo(nodeStream(body), maxBytes, onChunk)
  if (read === undefined) throw tooLarge(maxBytes)
  return read
}

function tooLarge(maxBytes: number): ApiError {
  const error = new ApiError(
    'payload_too_large',
    `The request body exceeds the limit of ${maxBytes} bytes.`,
    { limit: maxBytes },
  )
  error.closeConnection = true
  return error
}

/** The whole body, or undefined as soon as it is larger than `maxBytes` (the source is paused). */
function readUpTo(
  source: Readable,
  maxBytes: number,
  onChunk: ((chunk: Buffer) => void) | undefined,
): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const settle = () => {
      source.off('data', onData)
      source.off('end', onEnd)
      source.off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size <= maxBytes) {
        onChunk?.(chunk)
        return void chunks.push(chunk)
      }
      settle()
      source.pause()
      resolve(undefined)
    }
    const onEnd = () => {
      settle()
      resolve(Buffer.concat(chunks, size))
    }
    const onError = (cause: unknown) => {
      settle()
      const error = bodyFailure(cause)
      error.closeConnection = true
      reject(error)
    }
    source.on('data', onData)
    source.once('end', onEnd)
    source.once('error', onError)
  })
}
