import { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { RedisCircuit } from './redis-circuit.js'

/** How long the hub waits for Redis on start before it serves with counts in its own memory. */
const CONNECT_TIMEOUT_MS = 2_000
/** A count Redis has not answered in this time is made in process memory instead. */
const COMMAND_TIMEOUT_MS = 500

/**
 * The Redis client of the rate limiter, behind its circuit (redis-circuit.ts). Commands never
 * wait for a connection (no offline queue, no retries): while Redis is away each count fails at
 * once, and once the circuit is open none is sent; the limiter counts in process memory. The
 * client reconnects on its own; the log says when Redis goes and comes back.
 */
export async function connectRedis(url: string, log: Logger): Promise<RedisCircuit> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // Backs off to one attempt every 2 s while Redis is away.
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  })
  const circuit = new RedisCircuit(redis, log, describe(url))
  try {
    await redis.connect()
  } catch {
    // The circuit heard it (the client's `error` event) and logged it; the client reconnects.
  }
  return circuit
}

/** The URL without its password, for logs. */
function describe(url: string): string {
  try {
    const u = new URL(url)
    u.password = ''
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return 'redis'
  }
}
