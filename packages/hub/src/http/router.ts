import { OpenAPIHono, z } from '@hono/zod-openapi'
import { ERROR_CODES, invalidRequest, type ErrorCode } from '../errors/index.js'
import { HANDLE_PATTERN, HANDLE_RULE, SLUG_PATTERN, SLUG_RULE } from '@svc/project-format'
import type { HubEnv } from './env.js'

/** A route group: every request part it declares is validated, and a failure is 422 `invalid_request`. */
export function createRouter(): OpenAPIHono<HubEnv> {
  return new OpenAPIHono<HubEnv>({
    defaultHook: (result) => {
      if (result.success) return
      const issues = result.error.issues.map((issue) => ({
        path: [result.target, ...issue.path.map(String)].join('.'),
        message: issue.message,
      }))
      throw invalidRequest(issues)
    },
  })
}

export const ErrorSchema = z
  .object({
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.unknown().optional(),
    requestId: z.string(),
  })
  .openapi('ApiError')

const DESCRIPTIONS: Record<number, string> = {
  400: 'The body could not be read (`malformed_request`)',
  401: 'No valid personal access token (`unauthorized`)',
  403: 'The caller may not do this (`forbidden`, `insufficient_scope`)',
  404: 'No such resource (`not_found`)',
  409: 'Conflicts with what is stored',
  413: "The account's storage quota would be exceeded (`quota_exceeded`)",
  415: 'The body has the wrong content type (`unsupported_media_type`)',
  422: 'The request is not valid (see the code)',
  429: "Too many requests in the window (`rate_limited`), or the caller's queue is full (`queue_full`); see `Retry-After`",
  502: 'An outbound request of the hub failed (`source_unreachable`)',
  503: 'Try again later (`unavailable`)',
}

/** The OpenAPI `responses` entries for the given error statuses, all the ApiError envelope. */
export function errorResponses(...statuses: (keyof typeof DESCRIPTIONS)[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: ErrorSchema } },
      },
    ]),
  )
}

export const AccountParam = z
  .string()
  .regex(HANDLE_PATTERN, {
    error: `must be a handle: ${HANDLE_RULE}`,
  })
  .openapi({ description: 'A user or organisation handle', example: 'acme' })

export const SlugParam = z
  .string()
  .regex(SLUG_PATTERN, {
    error: `must be a slug: ${SLUG_RULE}`,
  })
  .openapi({ example: 'billing' })

export const BEARER = [{ bearerAuth: [] }]

/** For what anyone may read: no token, or a token that then counts for what it can reach. */
export const OPTIONAL_BEARER: Record<string, string[]>[] = [{}, { bearerAuth: [] }]

/**
 * Free text for people, at most `max` characters. No NUL (PostgreSQL cannot store it, SQLite
 * would) and no unpaired surrogate (each database stores it as something else, so what was
 * answered would not be what is read back).
 */
export function PlainText(max: number) {
  return z
    .string()
    .max(max)
    .refine((text) => !/[\u0000\p{Cs}]/u.test(text), {
      error: 'must be text without NUL characters or unpaired surrogates',
    })
}
