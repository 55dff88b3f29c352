/**
 * The default rate limit of every `/v1` route: `max` requests per `windowSeconds`, counted per
 * caller and route. docs/api/rate-limits.md shows this table; a test keeps the two equal, and
 * another fails when a `/v1` route of the app has no row here.
 *
 * Classes: reads 600/min, writes 120/min, uploads (publish, push, diff, base files) 30/min, work that
 * sends requests out (refetch, recover) 10/min, test events 30/min, the organisation endpoints
 * as SPEC §4.6 says (`GET /v1/rate-limits`: 20/min).
 */
export type RouteLimit = {
  /** Upper-case HTTP method as the route declares it (a HEAD request counts as its GET). */
  readonly method: string
  /** The path pattern as the route declares it, with `{name}` parameters. */
  readonly path: string
  readonly max: number
  readonly windowSeconds: number
}

const READ = { max: 600, windowSeconds: 60 }
const WRITE = { max: 120, windowSeconds: 60 }
const UPLOAD = { max: 30, windowSeconds: 60 }
const OUTBOUND = { max: 10, windowSeconds: 60 }
const SETTINGS = { max: 30, windowSeconds: 60 }

const API = '/v1/apis/{owner}/{slug}'
const WEBHOOK = `${API}/webhooks/{id}`
const STACK = '/v1/stacks/{account}/{slug}'
const PROJECT = '/v1/projects/{account}/{slug}'

export const DEFAULT_RATE_LIMITS: readonly RouteLimit[] = Object.freeze(
  (
    [
      ['GET', '/v1/openapi.json', { max: 60, windowSeconds: 60 }],
      ['GET', '/v1/user', READ],
      ['GET', '/v1/accounts/{account}/usage', READ],
      ['GET', '/v1/rate-limits', { max: 20, windowSeconds: 60 }],
      ['GET', '/v1/orgs/{org}/rate-limits', { max: 60, windowSeconds: 60 }],
      ['PUT', '/v1/orgs/{org}/rate-limits', SETTINGS],
      ['DELETE', '/v1/orgs/{org}/rate-limits', SETTINGS],
      ['POST', '/v1/libraries', { max: 60, windowSeconds: 60 }],
      ['GET', '/v1/libraries', READ],
      ['GET', '/v1/libraries/{id}', READ],
      ['POST', `${STACK}/versions`, UPLOAD],
      ['GET', STACK, READ],
      ['GET', `${STACK}/versions`, READ],
      ['GET', `${STACK}/versions/{version}`, READ],
      ['GET', `${STACK}/versions/{version}/bundle`, READ],
      ['GET', `${STACK}/versions/{version}/files/{path}`, READ],
      ['GET', '/v1/stacks', READ],
      ['POST', '/v1/projects', WRITE],
      ['GET', `${PROJECT}/config`, READ],
      ['PUT', `${PROJECT}/client-config`, WRITE],
      ['GET', `${PROJECT}/client-config`, READ],
      ['PUT', `${PROJECT}/preview/base-files`, UPLOAD],
      ['GET', '/v1/projects', READ],
      ['GET', PROJECT, READ],
      ['GET', `${PROJECT}/preview/base-files`, READ],
      ['POST', `${PROJECT}/deployments`, WRITE],
      ['GET', `${PROJECT}/deployments`, READ],
      ['GET', `${PROJECT}/deployments/{id}`, READ],
      ['POST', `${PROJECT}/runs`, { max: 30, windowSeconds: 60 }],
      ['GET', `${PROJECT}/runs`, READ],
      ['GET', `${PROJECT}/runs/{id}`, READ],
      ['GET', `${PROJECT}/runs/{id}/artifacts/{path}`, READ],
      ['PUT', `${PROJECT}/aliases/production`, WRITE],
      ['GET', `${PROJECT}/aliases/production`, READ],
      ['POST', '/v1/apis', WRITE],
      ['GET', '/v1/apis', READ],
      ['GET', API, READ],
      ['PATCH', API, WRITE],
      ['POST', `${API}/revisions`, UPLOAD],
      ['POST', `${API}/refetch`, OUTBOUND],
      ['GET', `${API}/revisions`, READ],
      ['GET', `${API}/revisions/{id}`, READ],
      ['GET', `${API}/revisions/{id}/document`, READ],
      ['GET', `${API}/revisions/{id}/changes`, READ],
      ['GET', `${API}/revisions/{id}/issues`, READ],
      ['POST', `${API}/diff`, UPLOAD],
      ['POST', `${API}/revisions/{id}/acceptance`, WRITE],
      ['DELETE', `${API}/revisions/{id}/acceptance`, WRITE],
      ['POST', `${API}/webhooks`, WRITE],
      ['GET', `${API}/webhooks`, READ],
      ['GET', WEBHOOK, READ],
      ['PATCH', WEBHOOK, WRITE],
      ['DELETE', WEBHOOK, WRITE],
      ['POST', `${WEBHOOK}/test`, { max: 30, windowSeconds: 60 }],
      ['POST', `${WEBHOOK}/rotate-secret`, WRITE],
      ['GET', `${WEBHOOK}/deliveries`, READ],
      ['GET', `${WEBHOOK}/deliveries/{deliveryId}`, READ],
      ['POST', `${WEBHOOK}/deliveries/{deliveryId}/retry`, WRITE],
      ['POST', `${WEBHOOK}/recover`, OUTBOUND],
    ] as const
  ).map(([method, path, limit]) => Object.freeze({ method, path, ...limit })),
)

/**
 * The limit of a route the table does not name (a route added without a row; the table test
 * catches that): the read or write class by method.
 */
export function fallbackLimit(method: string, path: string): RouteLimit {
  const limit = method === 'GET' || method === 'HEAD' ? READ : WRITE
  return { method, path, ...limit }
}

/**
 * A route's path as Hono registered it (`/v1/apis/:owner/:slug`, `…/files/:path{.+}`) in the
 * table's form (`/v1/apis/{owner}/{slug}`, `…/files/{path}`).
 */
export function declaredPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)(\{[^/]*\})?/g, '{$1}')
}

/** The key of a route in maps: `GET /v1/user`. */
export function routeKey(route: { readonly method: string; readonly path: string }): string {
  return `${route.method} ${route.path}`
}

const BY_KEY = new Map(DEFAULT_RATE_LIMITS.map((limit) => [routeKey(limit), limit]))

/** The table's row of a route, if it has one. */
export function defaultLimit(method: string, path: string): RouteLimit | undefined {
  return BY_KEY.get(`${method} ${path}`)
}
