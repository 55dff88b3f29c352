import { ApiError } from '../errors/index.js'
import { discardRest, nodeStream, readBounded } from './request-body.js'

/**
 * Reads a whole request body of at most `maxBytes` without holding more than that in memory;
 * a larger one is 422 `payload_too_large` (refused before reading when its declared length is
 * over, so a client streaming a huge body learns early). Answers undefined for no body at all.
 */
export async function readLimitedBody(
  request: Request,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const body = request.body
  if (!body) return undefined
  const source = nodeStream(body)
  const error = new ApiError(
    'payload_too_large',
    `The request body exceeds the limit of ${maxBytes} bytes.`,
    { limit: maxBytes },
  )
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    error.closeConnection = !(await discardRest(source, declared))
    throw error
  }
  const read = await readBounded(source, maxBytes)
  if (read.body === undefined) {
    error.closeConnection = read.closeConnection
    throw error
  }
  return read.body
}
