import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible'
import type { RedisCircuit } from './redis-circuit.js'

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

/** The counters of one limit: in this process, and in Redis when the hub has it. */
type Counters = { readonly memory: RateLimiterMemory; readonly redis?: RateLimiterRedis }

/**
 * Counts requests per key in fixed windows that start at a key's first request
 * (rate-limiter-flexible's counters): in this process's memory, or in Redis so that every hub
 * sharing it shares the counts.
 */
export class Limiter {
  readonly #circuit: RedisCircuit | undefined
  /** The counters of each limit: a counter's limit is fixed when it is made. */
  readonly #counters = new Map<string, Counters>()

  /**
   * @param circuit the shared store behind its circuit; without it, counts live in this process.
   *   With it, a request is counted in this process instead while the circuit is open, and when
   *   Redis fails or does not answer in time: each hub then enforces the limits alone until
   *   Redis is back (docs/api/rate-limits.md#redis).
   */
  constructor(circuit?: RedisCircuit) {
    this.#circuit = circuit
  }

  /** Counts one request of `key` against `limit`. */
  async consume(key: string, limit: Limit): Promise<Verdict> {
    let res: RateLimiterRes
    let allowed = true
    try {
      res = await this.#count(limit, (counter) => counter.consume(key))
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
    await this.#count(limit, (counter) => counter.reward(key, 1))
  }

  /** `operation` on Redis's counter while the circuit is closed, else (or when it fails) here. */
  async #count(
    limit: Limit,
    operation: (counter: RateLimiterAbstract) => Promise<RateLimiterRes>,
  ): Promise<RateLimiterRes> {
    const counters = this.#countersOf(limit)
    const circuit = this.#circuit
    if (!counters.redis || !circuit?.closed) return operation(counters.memory)
    try {
      const res = await operation(counters.redis)
      circuit.succeeded()
      return res
    } catch (error) {
      // A refusal is Redis's answer: the count is over the limit.
      if (error instanceof RateLimiterRes) {
        circuit.succeeded()
        throw error
      }
      circuit.failed(error)
      return operation(counters.memory)
    }
  }

  #countersOf(limit: Limit): Counters {
    const id = `${limit.max}:${limit.windowSeconds}`
    let counters = this.#counters.get(id)
    if (!counters) {
      // The limit is part of the key prefix: a changed limit (an override) starts a new count.
      const options = {
        points: limit.max,
        duration: limit.windowSeconds,
        keyPrefix: `svc-hub:rl:${id}`,
      }
      const memory = new RateLimiterMemory(options)
      const redis = this.#circuit
        ? new RateLimiterRedis({ ...options, storeClient: this.#circuit.redis })
        : undefined
      counters = redis ? { memory, redis } : { memory }
      this.#counters.set(id, counters)
    }
    return counters
  }
}
