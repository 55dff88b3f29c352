import { createRoute, z } from '@hono/zod-openapi'
import {
  RATE_LIMITED_METHODS,
  RateLimitMethodSchema,
  RateLimitRoutePathSchema,
  RateLimitOverrideListSchema,
  RateLimitOverrideSchema,
} from '@svc/hub-api'
import type { Context } from 'hono'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import { AccountParam, BEARER, createRouter, errorResponses } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import { DEFAULT_RATE_LIMITS, defaultLimit, routeKey } from '../ratelimit/index.js'

// An override names a route of the table, so the table's methods are the ones the schema admits.
for (const { method } of DEFAULT_RATE_LIMITS) {
  if (!RATE_LIMITED_METHODS.includes(method))
    throw new Error(`the rate-limit table's ${method} is missing from RATE_LIMITED_METHODS`)
}

const OverrideListSchema = z
  .array(
    RateLimitOverrideSchema.refine((o) => defaultLimit(o.method, o.path) !== undefined, {
      error: 'must name a route of the rate-limit table (method and path)',
      path: ['path'],
    }),
  )
  .max(DEFAULT_RATE_LIMITS.length)
  .superRefine((list, ctx) => {
    const seen = new Set<string>()
    list.forEach((override, i) => {
      const key = routeKey(override)
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: `repeats ${key}` })
      seen.add(key)
    })
  })
  .openapi('RateLimitOverrides', { description: 'An organisation’s whole set of overrides' })

const OrgParams = z.object({ org: AccountParam })
const ROUTE = '/{org}/rate-limits'
const OWNER_ONLY = 'Only an owner of the organisation may call it.'

export const orgRateLimits = createRouter()

/** The organisation `handle` when the caller owns it: 404 without such an organisation, else 403. */
async function ownedOrg(c: Context<HubEnv>, handle: string) {
  const caller = requireCaller(c)
  const { store } = c.get('hub')
  const org = await store.accounts.find(handle)
  if (!org || org.kind !== 'org') {
    throw new ApiError('not_found', `No organisation is named '${handle}'.`)
  }
  const role = await store.accounts.roleOf(org.id, caller.userId)
  if (role !== 'owner') {
    const why = role
      ? `your role in '${handle}' is ${role}`
      : `you are not a member of the organisation '${handle}'`
    throw new ApiError(
      'forbidden',
      `Not allowed: only an owner can change the rate limits of '${handle}', and ${why}.`,
      { account: handle, access: 'owner' },
    )
  }
  return org
}

orgRateLimits.openapi(
  createRoute({
    method: 'get',
    path: ROUTE,
    tags: ['rate limits'],
    summary: "The organisation's rate-limit overrides",
    description: OWNER_ONLY,
    security: BEARER,
    middleware: [needs()] as const,
    request: { params: OrgParams },
    responses: {
      200: {
        description: 'The overrides, by path and method',
        content: { 'application/json': { schema: RateLimitOverrideListSchema } },
      },
      ...errorResponses(401, 403, 404, 422, 429),
    },
  }),
  async (c) => {
    const org = await ownedOrg(c, c.req.valid('param').org)
    return c.json(await c.get('hub').store.rateLimits.list(org.id), 200)
  },
)

orgRateLimits.openapi(
  createRoute({
    method: 'put',
    path: ROUTE,
    tags: ['rate limits'],
    summary: "Replace the organisation's rate-limit overrides",
    description: `The list becomes the organisation's whole set (\`[]\` removes every override); each applies to the organisation's callers within the hub's override cache time. ${OWNER_ONLY}`,
    security: BEARER,
    middleware: [needs(), jsonBodyLimit] as const,
    request: {
      params: OrgParams,
      body: { required: true, content: { 'application/json': { schema: OverrideListSchema } } },
    },
    responses: {
      200: {
        description: 'The overrides now stored',
        content: { 'application/json': { schema: RateLimitOverrideListSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 415, 422, 429),
    },
  }),
  async (c) => {
    const overrides = c.req.valid('json')
    const org = await ownedOrg(c, c.req.valid('param').org)
    const { store, rateLimits } = c.get('hub')
    await store.transaction((tx) => tx.rateLimits.replace(org.id, overrides))
    rateLimits.overridesChanged()
    return c.json(await store.rateLimits.list(org.id), 200)
  },
)

orgRateLimits.openapi(
  createRoute({
    method: 'delete',
    path: ROUTE,
    tags: ['rate limits'],
    summary: 'Remove one rate-limit override of the organisation',
    description: `The route's default applies again. ${OWNER_ONLY}`,
    security: BEARER,
    middleware: [needs()] as const,
    request: {
      params: OrgParams,
      query: z.object({ method: RateLimitMethodSchema, path: RateLimitRoutePathSchema }),
    },
    responses: { 204: { description: 'Removed' }, ...errorResponses(401, 403, 404, 422, 429) },
  }),
  async (c) => {
    const { method, path } = c.req.valid('query')
    const org = await ownedOrg(c, c.req.valid('param').org)
    const { store, rateLimits } = c.get('hub')
    if (!(await store.rateLimits.delete(org.id, method, path))) {
      throw new ApiError(
        'not_found',
        `${org.handle} has no rate limit override for ${method} ${path}.`,
      )
    }
    rateLimits.overridesChanged()
    return c.body(null, 204)
  },
)
