import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from '@hono/zod-openapi'

/** The closed list of error codes, and the status each is answered with. */
export const ERROR_STATUS = {
  /** The body is not JSON, too large, or not the documented shape (`issues` has the paths). */
  invalid_request: 400,
  /** The source URL was refused by the guard, did not answer, or answered an error or too much. */
  source_fetch_failed: 422,
  /** The document cannot be read as an API description at all. */
  invalid_schema: 422,
  internal_error: 500,
} as const satisfies Record<string, ContentfulStatusCode>

export type ErrorCode = keyof typeof ERROR_STATUS

export type RequestIssue = { readonly path: string; readonly message: string }

/** An error the server answers with its code, status and message. */
export class StackError extends Error {
  override readonly name = 'StackError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: readonly RequestIssue[],
    readonly status: ContentfulStatusCode = ERROR_STATUS[code],
  ) {
    super(message)
  }
}

export const ErrorSchema = z
  .object({
    error: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('StackError')

export function errorResponse(c: Context, error: StackError) {
  return c.json(
    {
      error: error.code,
      message: error.message,
      ...(error.issues ? { issues: error.issues } : {}),
    },
    error.status,
  )
}

/** The OpenAPI `responses` entries for error statuses. */
export function errorResponses(...statuses: (400 | 413 | 422 | 500)[]) {
  const descriptions = {
    400: 'The body is not valid (`invalid_request`, with `issues`)',
    413: 'The body is larger than the server reads (`invalid_request`)',
    422: 'The source could not be fetched (`source_fetch_failed`) or read (`invalid_schema`)',
    500: 'A bug (`internal_error`)',
  }
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: descriptions[status],
        content: { 'application/json': { schema: ErrorSchema } },
      },
    ]),
  )
}

/**
 * A value built by the engine (readonly arrays, optional fields) as the JSON the response
 * schema declares: hono's types want mutable JSON, and the value is plain data.
 */
export function asJson<T>(value: T): Record<string, never> {
  return value as unknown as Record<string, never>
}
