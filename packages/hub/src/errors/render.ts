import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { HubEnv } from '../http/env.js'
import { storeUnavailable } from '../store/unavailable.js'
import { ApiError, type ApiErrorBody } from './api-error.js'
import type { ErrorCode } from './codes.js'

/** Codes for the HTTPExceptions that Hono and its validators throw on their own. */
const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'malformed_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  415: 'unsupported_media_type',
  422: 'invalid_request',
}

export function errorResponse(c: Context<HubEnv>, error: ApiError): Response {
  const body: ApiErrorBody = {
    code: error.code,
    message: error.message,
    ...(error.details === undefined ? {} : { details: error.details }),
    requestId: c.get('requestId'),
  }
  if (error.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="svc-hub"')
  if (error.closeConnection) c.header('Connection', 'close')
  if (error.retryAfterSeconds !== undefined)
    c.header('Retry-After', String(error.retryAfterSeconds))
  return c.json(body, error.status)
}

/** The app's one error handler: every failure leaves as the ApiError envelope. */
export function renderError(error: Error, c: Context<HubEnv>): Response {
  if (error instanceof ApiError) return errorResponse(c, error)
  if (error instanceof HTTPException) {
    const code = STATUS_CODES[error.status]
    if (code) return errorResponse(c, new ApiError(code, sentence(error.message, code)))
  }
  const outage = storeUnavailable(error)
  if (outage) {
    c.get('log').warn({ err: outage, reason: outage.reason }, 'store unavailable')
    return errorResponse(c, unavailable(outage))
  }
  c.get('log').error({ err: error }, 'unhandled error')
  return errorResponse(c, new ApiError('internal_error', 'The hub failed to handle this request.'))
}

function sentence(message: string, code: ErrorCode): string {
  if (!message)
    return code === 'unsupported_media_type' ? 'Unsupported media type.' : 'Bad request.'
  return /[.!?]$/.test(message) ? message : `${message}.`
}

/** 503 `unavailable` for a request the store could not serve: a retry later can work. */
export function unavailable(outage: { retryAfterSeconds: number }): ApiError {
  return new ApiError('unavailable', 'The database does not answer; try again shortly.').retryAfter(
    outage.retryAfterSeconds,
  )
}
