import { z } from './zod.js'

/** The largest `max` and window an override (or the operator's `SVC_HUB_RATE_LIMITS`) may give. */
export const MAX_REQUESTS = 1_000_000
export const MAX_WINDOW_SECONDS = 86_400

/**
 * The methods of the routes the hub's rate-limit table names, in its order. Typed as strings:
 * the table and the stored overrides hold a route's method as its name.
 */
export const RATE_LIMITED_METHODS: readonly [string, ...string[]] = [
  'GET',
  'PUT',
  'DELETE',
  'POST',
  'PATCH',
]

export const RateLimitMethodSchema = z
  .enum(RATE_LIMITED_METHODS)
  .openapi({ description: 'The route’s method', example: 'GET' })

export const RateLimitRoutePathSchema = z.string().max(200).openapi({
  description: 'The route’s path pattern as the rate-limit table names it',
  example: '/v1/apis/{owner}/{slug}',
})

export const RateLimitOverrideSchema = z
  .strictObject({
    method: RateLimitMethodSchema,
    path: RateLimitRoutePathSchema,
    max: z.int().min(1).max(MAX_REQUESTS).openapi({ description: 'Requests allowed per window' }),
    windowSeconds: z.int().min(1).max(MAX_WINDOW_SECONDS).openapi({ example: 60 }),
  })
  .openapi('RateLimitOverride')

/** `GET`/`PUT /v1/orgs/{org}/rate-limits`: the organisation's overrides, by path and method. */
export const RateLimitOverrideListSchema = z.array(RateLimitOverrideSchema)

export type RateLimitOverride = z.infer<typeof RateLimitOverrideSchema>
