import { HTTPException } from 'hono/http-exception'
import { ERROR_CODES, type ErrorCode } from './codes.js'

/** A failure the caller can act on: rendered as the ApiError envelope with `code`'s status. */
export class ApiError extends HTTPException {
  override readonly name = 'ApiError'
  /** Set when the request body was left unread: the answer then ends the connection. */
  closeConnection = false
  /** Sent as `Retry-After` (seconds): when a retry can work. */
  retryAfterSeconds: number | undefined
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(ERROR_CODES[code], { message })
  }

  /** Says when a retry can work: sent as `Retry-After`, in seconds. */
  retryAfter(seconds: number): this {
    this.retryAfterSeconds = seconds
    return this
  }
}

/** The body of every non-2xx response. */
export type ApiErrorBody = {
  code: ErrorCode
  message: string
  details?: unknown
  requestId: string
}

/** 422 `invalid_request` for request parts that break their schema; `path` is like `json.stack`. */
export function invalidRequest(issues: { path: string; message: string }[]): ApiError {
  const list = issues.map((i) => `${i.path}: ${i.message}`).join('; ')
  return new ApiError('invalid_request', `The request is not valid: ${list}.`, { issues })
}
