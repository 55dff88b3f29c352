import { Redis } from 'ioredis'

const DEFAULT_URL = 'redis://127.0.0.1:6379'

/** The Redis the tests use: `SVC_TEST_REDIS_URL` (set by CI), else the local default. */
export function redisUrl(): string {
  return process.env.SVC_TEST_REDIS_URL || DEFAULT_URL
}

let reachable: Promise<boolean> | undefined

/**
 * Whether the tests that need Redis run: when it answers. When CI sets SVC_TEST_REDIS_URL and
 * Redis does not answer, that is a failure, never a skip (as `storeKinds` does for PostgreSQL).
 */
export async function redisAvailable(): Promise<boolean> {
  reachable ??= probe()
  if (await reachable) return true
  if (process.env.SVC_TEST_REDIS_URL) {
    throw new Error(`SVC_TEST_REDIS_URL is set but Redis at ${redact(redisUrl())} does not answer`)
  }
  console.warn(
    `[hub tests] skipping the tests that need Redis: nothing answers at ${redact(redisUrl())} (set SVC_TEST_REDIS_URL)`,
  )
  return false
}

async function probe(): Promise<boolean> {
  const client = new Redis(redisUrl(), {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    return (await client.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    client.disconnect()
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url)
    u.password = ''
    return u.href
  } catch {
    return '(unparseable URL)'
  }
}
