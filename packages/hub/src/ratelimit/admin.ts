import { AdminError } from '../accounts/admin.js'
import type { AccountRow } from '../store/schema.js'
import type { Store } from '../store/store.js'
import { limitProblem } from './settings.js'
import { defaultLimit, type RouteLimit } from './table.js'

export type OrgRateLimit = {
  org: string
  method: string
  path: string
  max: number
  windowSeconds: number
}

/** `svc-hub admin set-rate-limit`: makes or replaces one override of an organisation. */
export async function setRateLimit(
  store: Store,
  orgHandle: string,
  method: string,
  path: string,
  max: number,
  windowSeconds: number,
): Promise<OrgRateLimit> {
  const org = await orgOf(store, orgHandle)
  const route = tableRoute(method, path)
  const problem = limitProblem(max, windowSeconds, { max: '--max', window: '--window' })
  if (problem) throw new AdminError(problem)
  await store.rateLimits.set(org.id, { method: route.method, path: route.path, max, windowSeconds })
  return { org: org.handle, method: route.method, path: route.path, max, windowSeconds }
}

/** `svc-hub admin clear-rate-limit`: removes one override; answers the default that applies again. */
export async function clearRateLimit(
  store: Store,
  orgHandle: string,
  method: string,
  path: string,
): Promise<OrgRateLimit> {
  const org = await orgOf(store, orgHandle)
  const route = tableRoute(method, path)
  if (!(await store.rateLimits.delete(org.id, route.method, route.path))) {
    throw new AdminError(
      `${org.handle} has no rate limit override for ${route.method} ${route.path}`,
    )
  }
  return {
    org: org.handle,
    method: route.method,
    path: route.path,
    max: route.max,
    windowSeconds: route.windowSeconds,
  }
}

function tableRoute(method: string, path: string): RouteLimit {
  const route = defaultLimit(method.toUpperCase(), path)
  if (!route) {
    throw new AdminError(
      `'${method.toUpperCase()} ${path}' is not a route of the rate-limit table (docs/api/rate-limits.md); give the path as the table does, e.g. /v1/apis/{owner}/{slug}`,
    )
  }
  return route
}

async function orgOf(store: Store, handle: string): Promise<AccountRow> {
  const account = await store.accounts.find(handle)
  if (!account) throw new AdminError(`there is no organisation '${handle}'`)
  if (account.kind !== 'org') throw new AdminError(`'${handle}' is a user, not an organisation`)
  return account
}
