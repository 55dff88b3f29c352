import type { Hono } from 'hono'
import type { z } from 'zod'
import { IN_PROCESS_CALLER, type Caller, type InProcessEnv } from '../auth/caller.js'
import { SCOPES } from '../auth/scopes.js'
import type { ApiErrorBody } from '../errors/api-error.js'
import type { HubEnv } from '../http/env.js'
import { IN_PROCESS_CLIENT, type InProcessClientEnv, type RequestClient } from '../proxy/index.js'
import type { Viewer } from './env.js'

export type ApiAnswer<T> =
  | { readonly ok: true; readonly status: number; readonly data: T; readonly headers: Headers }
  | { readonly ok: false; readonly status: number; readonly error: ApiErrorBody }

/** A request body: JSON, or raw bytes with their media type (a pushed document), or a form. */
export type ApiBody =
  | { readonly json: unknown }
  | { readonly bytes: Uint8Array; readonly contentType: string }
  | { readonly form: FormData }

/**
 * The hub's /v1 API as the web app uses it: every page reads and every form writes through the
 * same routes, checks and errors as the CLI, as the signed-in user (a session stands in for a PAT
 * with every scope) or anonymously. A form's write (any method but GET) counts against the user's
 * rate limit on its route like the same call with a PAT (ratelimit/middleware.ts); the reads that
 * render a page do not.
 *
 * Each call names the `@svc/hub-api` schema of the answer it expects, which types the data. The
 * answer is not parsed again: it comes from the route that declares that schema, in this process.
 */
export type ApiClient = {
  get<S extends z.ZodType>(answer: S, path: string): Promise<ApiAnswer<z.infer<S>>>
  send<S extends z.ZodType>(
    answer: S,
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: ApiBody,
  ): Promise<ApiAnswer<z.infer<S>>>
  /** The `Retry-After` of the last call refused for its rate limit, if one was (seconds). */
  readonly retryAfter: number | undefined
}

export function apiClient(
  app: Pick<Hono<HubEnv>, 'request'>,
  viewer: Viewer | undefined,
  requestId: string,
  client: RequestClient,
): ApiClient {
  const caller: Caller | null = viewer
    ? {
        userId: viewer.userId,
        handle: viewer.handle,
        tokenId: viewer.sessionId,
        scopes: SCOPES,
        expiresAt: null,
      }
    : null
  // The page request's client: its calls count, log and guard as that request's would.
  const env: InProcessEnv & InProcessClientEnv = {
    [IN_PROCESS_CALLER]: caller,
    [IN_PROCESS_CLIENT]: client,
  }
  let retryAfter: number | undefined

  async function call<T>(method: string, path: string, body?: ApiBody): Promise<ApiAnswer<T>> {
    const headers = new Headers({ 'x-request-id': requestId, accept: 'application/json' })
    let payload: string | Uint8Array | FormData | undefined
    if (body && 'json' in body) {
      headers.set('content-type', 'application/json')
      payload = JSON.stringify(body.json)
    } else if (body && 'bytes' in body) {
      headers.set('content-type', body.contentType)
      payload = body.bytes
    } else if (body) {
      payload = body.form
    }
    const response = await app.request(
      `http://hub.internal/v1${path}`,
      { method, headers, ...(payload === undefined ? {} : { body: payload }) },
      env,
    )
    if (response.status === 429) retryAfter = Number(response.headers.get('retry-after')) || 1
    const text = await response.text()
    const parsed: unknown = text && isJson(response) ? JSON.parse(text) : text
    if (response.ok) {
      const data = (text === '' ? undefined : parsed) as T
      return { ok: true, status: response.status, data, headers: response.headers }
    }
    return { ok: false, status: response.status, error: parsed as ApiErrorBody }
  }

  return {
    get: (_answer, path) => call('GET', path),
    send: (_answer, method, path, body) => call(method, path, body),
    get retryAfter() {
      return retryAfter
    },
  }
}

function isJson(response: Response): boolean {
  return /^application\/(?:[\w.+-]*\+)?json/.test(response.headers.get('content-type') ?? '')
}
