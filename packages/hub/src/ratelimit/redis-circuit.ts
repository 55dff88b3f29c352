import type { Redis } from 'ioredis'
import type { Logger } from 'pino'

/** Commands in a row that fail (an error, or no answer within the command timeout) to open. */
export const FAILURES_TO_OPEN = 2
/** How often an open circuit asks Redis whether it answers again (a PING). */
export const PROBE_EVERY_MS = 1_000

export const NOT_REACHABLE =
  'rate limit store not reachable; counting in this process until it is back'
export const READY = 'rate limit store ready'

/**
 * Whether the hub sends its counts to Redis: a circuit breaker around the one Redis client.
 *
 * Closed while Redis answers. It opens when the client loses its connection (its `error`
 * event), and when {@link FAILURES_TO_OPEN} commands in a row fail: a network that drops packets
 * breaks no connection, and a command that times out fires no event, so without this every count
 * would wait the full command timeout. While open, nothing is sent to Redis (the limiter counts
 * in process memory, so a request waits for nothing) and a PING every {@link PROBE_EVERY_MS}
 * asks whether it answers again; the first answer, or the client's `ready` after a reconnect,
 * closes it. The log says each change once: {@link NOT_REACHABLE} (warn), {@link READY} (info).
 *
 * rate-limiter-flexible's insurance limiter falls back per command, after the command failed or
 * timed out, and ioredis has no breaker: hence this one.
 */
export class RedisCircuit {
  readonly #redis: Redis
  readonly #log: Logger
  readonly #target: string
  /** Unknown until the first connection attempt ends. */
  #open: boolean | undefined
  #failures = 0
  #probe: NodeJS.Timeout | undefined
  #probing = false

  /** @param target Redis's address without a password, for logs. */
  constructor(redis: Redis, log: Logger, target: string) {
    this.#redis = redis
    this.#log = log
    this.#target = target
    redis.on('ready', () => this.#close())
    redis.on('error', (error: Error) => this.#trip(error))
  }

  /** The client, for commands made while {@link closed}. */
  get redis(): Redis {
    return this.#redis
  }

  /** Whether commands go to Redis now. */
  get closed(): boolean {
    return this.#open === false
  }

  /** Told when a command sent while closed was answered. */
  succeeded(): void {
    this.#failures = 0
  }

  /** Told when a command sent while closed failed or timed out. */
  failed(error: unknown): void {
    if (this.#open !== false) return
    this.#failures++
    if (this.#failures >= FAILURES_TO_OPEN) this.#trip(error)
  }

  /** Stops probing and closes the connection. */
  stop(): void {
    clearInterval(this.#probe)
    this.#redis.disconnect()
  }

  #trip(error: unknown): void {
    this.#failures = 0
    if (this.#open === true) return
    this.#open = true
    this.#log.warn({ redis: this.#target, err: error }, NOT_REACHABLE)
    this.#probe = setInterval(() => void this.#probeOnce(), PROBE_EVERY_MS)
    this.#probe.unref()
  }

  #close(): void {
    this.#failures = 0
    clearInterval(this.#probe)
    this.#probe = undefined
    if (this.#open === false) return
    this.#open = false
    this.#log.info({ redis: this.#target }, READY)
  }

  async #probeOnce(): Promise<void> {
    // While the client reconnects, its `ready` event closes the circuit.
    if (this.#probing || this.#redis.status !== 'ready') return
    this.#probing = true
    try {
      await this.#redis.ping()
      if (this.#open === true) this.#close()
    } catch {
      // Still away (the command timeout bounds the PING).
    } finally {
      this.#probing = false
    }
  }
}
