import { DEFAULT_RATE_LIMITS, defaultLimit, routeKey, type RouteLimit } from './table.js'

import { MAX_REQUESTS, MAX_WINDOW_SECONDS } from '@svc/hub-api'

export { MAX_REQUESTS, MAX_WINDOW_SECONDS }

/** The operator's rate-limit settings (docs/hub/running.md). */
export type RateLimitSettings = {
  /** False with `SVC_HUB_RATE_LIMITS=off`: nothing is counted and no header is sent. */
  readonly enabled: boolean
  /** The default table with the rows `SVC_HUB_RATE_LIMITS` changes. */
  readonly defaults: readonly RouteLimit[]
  /** How long a hub process keeps the organisations' overrides it read (0: reads every time). */
  readonly overrideCacheMs: number
}

/**
 * Reads `SVC_HUB_RATE_LIMITS` (`off`, or `METHOD /path=max/windowSeconds` rows separated by
 * commas, each naming a route of the default table) and the override cache time. Answers the
 * problem as a message when a value is bad.
 *
 * @example
 * readRateLimitSettings('GET /v1/user=20/60', 10) // GET /v1/user: 20 per minute, the rest as the table
 */
export function readRateLimitSettings(
  raw: string | undefined,
  cacheSeconds: number,
): RateLimitSettings | string {
  const text = raw?.trim() ?? ''
  const base = { overrideCacheMs: cacheSeconds * 1000, defaults: DEFAULT_RATE_LIMITS }
  if (text === 'off') return { ...base, enabled: false }
  const changed = new Map<string, RouteLimit>()
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (entry === '') continue
    const match = /^([A-Za-z]+) +(\/\S*) *= *(\d+) *\/ *(\d+)$/.exec(entry)
    if (!match) return `'${entry}' is not 'METHOD /path=max/windowSeconds'`
    const [, method, path, max, window] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
    ]
    const route = defaultLimit(method.toUpperCase(), path)
    if (!route) return `'${method.toUpperCase()} ${path}' is not a route of the rate-limit table`
    const problem = limitProblem(Number(max), Number(window))
    if (problem) return `'${entry}': ${problem}`
    changed.set(routeKey(route), { ...route, max: Number(max), windowSeconds: Number(window) })
  }
  const defaults = DEFAULT_RATE_LIMITS.map((row) => changed.get(routeKey(row)) ?? row)
  return { ...base, enabled: true, defaults }
}

/**
 * What is wrong with a limit of `max` requests per `windowSeconds`, if anything; `names` are
 * what the two values are called where they came from.
 */
export function limitProblem(
  max: number,
  windowSeconds: number,
  names = { max: 'max', window: 'the window' },
): string | undefined {
  if (!Number.isSafeInteger(max) || max < 1 || max > MAX_REQUESTS)
    return `${names.max} must be a whole number from 1 to ${MAX_REQUESTS}`
  if (
    !Number.isSafeInteger(windowSeconds) ||
    windowSeconds < 1 ||
    windowSeconds > MAX_WINDOW_SECONDS
  )
    return `${names.window} must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS}`
  return undefined
}
