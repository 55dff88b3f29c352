import type { Redis } from 'ioredis'
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible'

/** A limit: at most `max` requests per `windowSeconds`. */
export type Limit = { readonly max: number; readonly windowSeconds: number }

/** The outcome of counting one request. */
export type Verdict = {
  readonly allowed: boolean
  readonly limit: number
  /** Requests left in the current window (0 once refused). */
  readonly remaining: number
  /** Whole seconds until the window ends and the count starts again (at least 1). */
  readonly resetSeconds: number
}

/**
 * Counts requests per key in fixed windows that start at a key's first request
 * (rate-limiter-flexible's counters): in this process's memory, or in Redis so that every hub
 * sharing it shares the counts.
 */
export class Limiter {
  readonly #redis: Redis | undefined
  /** One counter per limit: a counter's limit is fixed when it is made. */
  readonly #counters = new Map<string, RateLimiterAbstract>()

  /**
   * @param redis the shared store; without it, counts live in this process. With it, a request
   *   that Redis cannot count (down, too slow) is counted in this process instead
   *   (rate-limiter-flexible's insurance limiter): each hub then enforces the limits alone until
   *   Redis is back (docs/api/rate-limits.md#redis).
   */
  constructor(redis?: Redis) {
    this.#redis = redis
  }

  /** Counts one request of `key` against `limit`. */
  async consume(key: string, limit: Limit): Promise<Verdict> {
    let res: RateLimiterRes
    let allowed = true
    try {
      res = await this.#counter(limit).consume(key)
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused
      res = refused
      allowed = false
    }
    return {
      allowed,
      limit: limit.max,
      remaining: allowed ? res.remainingPoints : 0,
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    }
  }

  /** Gives back one request of `key` counted against `limit` in its current window. */
  async refund(key: string, limit: Limit): Promise<void> {
    await this.#counter(limit).reward(key, 1)
  }

  #counter(limit: Limit): RateLimiterAbstract {
    const id = `${limit.max}:${limit.windowSeconds}`
    let counter = this.#counters.get(id)
    if (!counter) {
      // The limit is part of the key prefix: a changed limit (an override) starts a new count.
      const options = {
        points: limit.max,
        duration: limit.windowSeconds,
        keyPrefix: `svc-hub:rl:${id}`,
      }
      const memory = new RateLimiterMemory(options)
      counter = this.#redis
        ? new RateLimiterRedis({ ...options, storeClient: this.#redis, insuranceLimiter: memory })
        : memory
      this.#counters.set(id, counter)
    }
    return counter
  }
}
