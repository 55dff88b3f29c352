import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import { inProcessCaller } from '../auth/caller.js'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { identify, type Identity } from './identity.js'
import { declaredPath } from './table.js'

/** Path parameters that name the account a route acts on (the organisation of an override). */
const ACCOUNT_PARAMS = new Set([':owner', ':account', ':org'])

const READS = new Set(['GET', 'HEAD'])

/**
 * Counts the request against its caller's limit on its route (after `authenticate`, which tells
 * the caller), sets `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and
 * `RateLimit-Policy`, and refuses it with 429 `rate_limited` and `Retry-After` once the window's
 * budget is spent: the route is then not run. A path no route matches is not counted (it is
 * answered 404 without the headers).
 *
 * The web app's in-process calls (web/api-client.ts) count like the same call with a PAT when
 * they change something: a page's action (a refetch, a test event, a run) spends the signed-in
 * user's budget on that route, overrides included. The reads that render a page are not counted.
 */
export const rateLimit = createMiddleware<HubEnv>(async function rateLimit(c, next) {
  const { rateLimits } = c.get('hub')
  const counted = rateLimits.settings.enabled && countsAgainstCaller(c)
  const route = counted ? matchedRoute(c) : undefined
  if (!route) return next()
  const identity = identify(c)
  const limit = await rateLimits.limitFor(route, await actingFor(c, identity, route.segments))
  const verdict = await rateLimits.consume(identity.key, limit)
  // Set before `next()`: see request-context.ts on headers of a finished response.
  c.header('RateLimit-Limit', String(verdict.limit))
  c.header('RateLimit-Remaining', String(verdict.remaining))
  c.header('RateLimit-Reset', String(verdict.resetSeconds))
  c.header('RateLimit-Policy', `${limit.max};w=${limit.windowSeconds}`)
  if (!verdict.allowed) {
    c.header('Retry-After', String(verdict.resetSeconds))
    throw new ApiError(
      'rate_limited',
      `Too many requests: ${route.method} ${route.path} allows ${limit.max} per ${limit.windowSeconds} s; try again in ${verdict.resetSeconds} s.`,
      {
        method: route.method,
        path: route.path,
        limit: limit.max,
        windowSeconds: limit.windowSeconds,
        retryAfter: verdict.resetSeconds,
      },
    )
  }
  await next()
})

/**
 * Whether the request is counted: every request from the network; from the web app, a signed-in
 * user's state-changing call. (Signed out, a page makes no call that can change anything: every
 * write needs a user; and an in-process call has no client address to count against.)
 */
function countsAgainstCaller(c: Context<HubEnv>): boolean {
  const fromWeb = inProcessCaller(c)
  if (fromWeb === undefined) return true
  return fromWeb !== null && !READS.has(c.req.method)
}

/**
 * The route that will answer: the first matched handler that is not middleware (`app.use`
 * registers `ALL`), with its pattern as the route declares it (`/v1/apis/{owner}/{slug}`).
 */
function matchedRoute(c: Context<HubEnv>) {
  const route = matchedRoutes(c).find((r) => r.method !== 'ALL' && !r.path.endsWith('*'))
  if (!route) return undefined
  return { method: route.method, path: declaredPath(route.path), segments: route.path.split('/') }
}

/**
 * The organisation whose overrides apply: an API key's own; for a PAT user, the account the
 * path names, when it is an organisation with overrides that the user belongs to; else none.
 */
async function actingFor(
  c: Context<HubEnv>,
  identity: Identity,
  segments: readonly string[],
): Promise<string | undefined> {
  if (identity.kind === 'org') return identity.orgId
  if (identity.kind !== 'user') return undefined
  const index = segments.findIndex((s) => ACCOUNT_PARAMS.has(s))
  const raw = index < 0 ? undefined : c.req.path.split('/')[index]
  if (!raw) return undefined
  let handle: string
  try {
    handle = decodeURIComponent(raw)
  } catch {
    return undefined
  }
  return c.get('hub').rateLimits.orgFor(handle, identity.userId)
}
