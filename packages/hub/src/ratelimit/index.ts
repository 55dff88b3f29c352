/**
 * @module
 * Rate limits of the `/v1` API (docs/api/rate-limits.md): the default table, organisations'
 * overrides, and the middleware that counts each request (in memory, or in Redis).
 *
 * The admin commands import `./admin.js` and the configuration `./settings.js` directly, so that
 * `svc-hub admin` does not load the Redis client.
 */
export { rateLimit } from './middleware.js'
export { RateLimits, type EffectiveLimit, type RateLimitRecord } from './rate-limits.js'
export {
  MAX_REQUESTS,
  MAX_WINDOW_SECONDS,
  readRateLimitSettings,
  type RateLimitSettings,
} from './settings.js'
export { DEFAULT_RATE_LIMITS, defaultLimit, routeKey, type RouteLimit } from './table.js'
