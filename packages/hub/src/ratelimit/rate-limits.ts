import type { Logger } from 'pino'
import type { HubConfig } from '../config.js'
import type { Store } from '../store/store.js'
import { Limiter, type Limit, type Verdict } from './limiter.js'
import { OverrideCache } from './overrides.js'
import type { RedisCircuit } from './redis-circuit.js'
import { connectRedis } from './redis.js'
import type { RateLimitSettings } from './settings.js'
import { fallbackLimit, routeKey, type RouteLimit } from './table.js'

/** A route's limit for one caller: the default, or its organisation's override (`isCustom`). */
export type EffectiveLimit = RouteLimit & { readonly isCustom: boolean }

/** One row of `GET /v1/rate-limits` (SPEC §2, "Rate limit record"). */
export type RateLimitRecord = {
  method: string
  path: string
  max: number
  windowSeconds: number | null
  isCustom: boolean
}

type Route = { readonly method: string; readonly path: string }

/**
 * The hub's rate limits: the default table (with the operator's changes), the organisations'
 * overrides (cached for `overrideCacheMs`), and the counter (memory, or Redis with `REDIS_URL`).
 *
 * @example
 * const limit = await rateLimits.limitFor({ method: 'GET', path: '/v1/user' })
 * const verdict = await rateLimits.consume('user:usr_1', limit)
 */
export class RateLimits {
  readonly settings: RateLimitSettings
  readonly #defaults: ReadonlyMap<string, RouteLimit>
  readonly #overrides: OverrideCache
  readonly #limiter: Limiter
  readonly #redis: RedisCircuit | undefined

  constructor(settings: RateLimitSettings, store: Store, log: Logger, redis?: RedisCircuit) {
    this.settings = settings
    this.#defaults = new Map(settings.defaults.map((row) => [routeKey(row), row]))
    this.#overrides = new OverrideCache(store, settings.overrideCacheMs, log)
    this.#limiter = new Limiter(redis)
    this.#redis = redis
  }

  /** The hub's rate limits as `config` says: counting in Redis when `REDIS_URL` is set. */
  static async start(config: HubConfig, store: Store, log: Logger): Promise<RateLimits> {
    const counting = config.rateLimits.enabled && config.redisUrl
    const redis = counting ? await connectRedis(config.redisUrl, log) : undefined
    return new RateLimits(config.rateLimits, store, log, redis)
  }

  /** The limit of `route` for a caller acting for the organisation `orgId` (none: the default). */
  async limitFor(route: Route, orgId?: string): Promise<EffectiveLimit> {
    const base = this.#defaults.get(routeKey(route)) ?? fallbackLimit(route.method, route.path)
    const custom = orgId ? await this.#overrides.limitOf(orgId, route) : undefined
    return custom ? { ...base, ...custom, isCustom: true } : { ...base, isCustom: false }
  }

  /** Every route's limit for the organisation `orgId` (none: the defaults), as `GET /v1/rate-limits` answers. */
  async tableFor(orgId?: string): Promise<RateLimitRecord[]> {
    const custom = orgId ? await this.#overrides.of(orgId) : new Map()
    return this.settings.defaults.map((row) => {
      const override = custom.get(routeKey(row))
      const limit = override ?? row
      return {
        method: row.method,
        path: row.path,
        max: limit.max,
        windowSeconds: limit.windowSeconds,
        isCustom: override !== undefined,
      }
    })
  }

  /**
   * The organisation a PAT user acts for on a route whose path names the account `handle`
   * (`{owner}`, `{account}`, `{org}`): that organisation, when it has overrides and the user is
   * one of its members.
   */
  orgFor(handle: string, userId: string): Promise<string | undefined> {
    return this.#overrides.orgFor(handle, userId)
  }

  /** Counts one request of `caller` (an identity key) on the route of `limit`. */
  consume(caller: string, limit: EffectiveLimit): Promise<Verdict> {
    return this.#limiter.consume(`${caller} ${routeKey(limit)}`, limit)
  }

  /** Counts one credential the client `address` presents (failed-credentials.ts). */
  consumeCredentialAttempt(address: string, limit: Limit): Promise<Verdict> {
    return this.#limiter.consume(credentialKey(address), limit)
  }

  /** Gives back the attempt of a credential that was accepted. */
  refundCredentialAttempt(address: string, limit: Limit): Promise<void> {
    return this.#limiter.refund(credentialKey(address), limit)
  }

  /** Call after changing overrides in this process: they apply from the next request. */
  overridesChanged(): void {
    this.#overrides.invalidate()
  }

  async close(): Promise<void> {
    this.#redis?.stop()
  }
}

/** A key no route's count has: those end in `METHOD /path`. */
function credentialKey(address: string): string {
  return `ip:${address} credentials`
}
