import type { z } from 'zod'

/** Why a hub request failed, in words a user can act on; never a stack trace. */
export class HubError extends Error {
  override readonly name = 'HubError'
  constructor(
    message: string,
    /** The HTTP status when the hub answered; undefined when it did not. */
    readonly status?: number,
    /** The hub's error code (`version_exists`, `insufficient_scope` …) when it sent one. */
    readonly code?: string,
    /** The hub's own `message` and `details`, when it sent them. */
    readonly hub?: { readonly message?: string; readonly details?: unknown },
  ) {
    super(message)
  }
}

export type HubRequest<T> = {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  readonly path: string
  /** What a 2xx answer's body must be (a schema of `@svc/hub-api`); anything else is a HubError. */
  readonly answer: z.ZodType<T>
  readonly json?: unknown
  readonly form?: FormData
  /** A body sent as it is, with its Content-Type (a pushed document). */
  readonly raw?: { readonly bytes: string; readonly contentType: string }
  readonly timeoutMs?: number
}

export type HubAnswer<T> = { readonly status: number; readonly body: T }

export const DEFAULT_HUB_TIMEOUT_MS = 60_000

/**
 * One request to the hub with the token as a Bearer credential. Resolves with the JSON body of
 * a 2xx answer, parsed with `request.answer`; every failure (no answer, timeout, a non-2xx status,
 * a body that is not JSON, or not the answer's shape) is a HubError whose message says what
 * happened, with the hub's code and message when it sent them.
 */
export async function hubRequest<T>(
  origin: string,
  token: string | undefined,
  request: HubRequest<T>,
): Promise<HubAnswer<T>> {
  const url = `${origin}${request.path}`
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'svc-cli' }
  if (token) headers.authorization = `Bearer ${token}`
  if (request.json !== undefined) headers['content-type'] = 'application/json'
  if (request.raw !== undefined) headers['content-type'] = request.raw.contentType
  let response: Response
  try {
    response = await fetch(url, {
      method: request.method,
      headers,
      body:
        request.form ??
        request.raw?.bytes ??
        (request.json === undefined ? undefined : JSON.stringify(request.json)),
      signal: AbortSignal.timeout(request.timeoutMs ?? DEFAULT_HUB_TIMEOUT_MS),
    })
  } catch (error) {
    throw new HubError(unreachable(origin, error, request.timeoutMs ?? DEFAULT_HUB_TIMEOUT_MS))
  }
  const text = await response.text().catch(() => '')
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    throw new HubError(
      `the hub at ${origin} answered HTTP ${response.status} with a body that is not JSON${excerpt(text)}`,
      response.status,
    )
  }
  if (response.ok) {
    const parsed = request.answer.safeParse(body)
    if (parsed.success) return { status: response.status, body: parsed.data }
    throw new HubError(
      `the hub at ${origin} answered ${request.method} ${request.path} with a body svc cannot read: ${mismatch(parsed.error)}; is ${origin} an svc hub of this version?`,
      response.status,
    )
  }
  const envelope = body as { code?: unknown; message?: unknown; details?: unknown } | undefined
  const code = typeof envelope?.code === 'string' ? envelope.code : undefined
  const message = typeof envelope?.message === 'string' ? envelope.message : undefined
  throw new HubError(
    `the hub answered HTTP ${response.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`,
    response.status,
    code,
    { ...(message === undefined ? {} : { message }), details: envelope?.details },
  )
}

/** The first issues of an answer that is not the expected shape, each with its field. */
function mismatch(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const field = issue.path.map(String).join('.')
    return `${field === '' ? 'the body' : `\`${field}\``}: ${issue.message}`
  })
  const more = error.issues.length - shown.length
  return shown.join('; ') + (more > 0 ? ` (and ${more} more)` : '')
}

function unreachable(origin: string, error: unknown, timeoutMs: number): string {
  const name = (error as { name?: string }).name
  if (name === 'TimeoutError' || name === 'AbortError')
    return `the hub at ${origin} did not answer within ${Math.round(timeoutMs / 1000)} s`
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const why = cause?.code ?? cause?.message ?? (error as Error).message
  return `cannot reach the hub at ${origin} (${why})`
}

function excerpt(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ').slice(0, 120)
  return line === '' ? '' : `: ${line}`
}
