import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { newSchemaName, storeKinds, type StoreKind } from './support/databases.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { redisAvailable, redisUrl } from './support/redis.js'
import { startTcpProxy } from './support/tcp-proxy.js'

/** GET /v1/user made small, so that a budget is spent in a few requests. */
const LIMITS = { SVC_HUB_RATE_LIMITS: 'GET /v1/user=20/60' }
const NOT_REACHABLE = 'rate limit store not reachable; counting in this process until it is back'
const READY = 'rate limit store ready'

const hubs: HubProcess[] = []
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.dispose()))
})

/** `count` GET /v1/user at once with `token`, spread over `targets` in turn. */
async function burst(targets: readonly HubProcess[], token: string, count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      call(`${targets[i % targets.length]!.url}/v1/user`, { token }),
    ),
  )
}

const statuses = (replies: readonly Reply[]) => {
  const counted: Record<number, number> = {}
  for (const reply of replies) counted[reply.status] = (counted[reply.status] ?? 0) + 1
  return counted
}

/** Two hubs on one SQLite store (so one admin and one token), with `env`. */
async function twoHubs(env: NodeJS.ProcessEnv): Promise<[HubProcess, HubProcess]> {
  const first = await startHub('sqlite', { env })
  hubs.push(first)
  const second = await startHub('sqlite', { env, reuse: first })
  hubs.push(second)
  return [first, second]
}

/**
 * `count` hubs started at once on one new, empty store of `kind`, as a scaled-out deployment
 * starts them: their migrations and the first admin race.
 */
async function hubsAtOnce(kind: StoreKind, count: number, env: NodeJS.ProcessEnv) {
  const store = {
    dataDir: mkdtempSync(join(tmpdir(), 'svc-hub-test-')),
    schema: kind === 'postgres' ? newSchemaName() : undefined,
  }
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startHub(kind, { env, reuse: store })),
  )
  for (const s of started) if (s.status === 'fulfilled') hubs.push(s.value)
  for (const s of started) if (s.status === 'rejected') throw s.reason
  return hubs.slice(-count)
}

const withRedis = await redisAvailable()
const kinds = await storeKinds()

;(withRedis ? describe : describe.skip)('rate limits counted in Redis (REDIS_URL)', () => {
  it.each(kinds)(
    'three hubs started at once on one new %s store share one budget through Redis: their 2xx add up to the limit',
    async (kind) => {
      const three = await hubsAtOnce(kind, 3, { ...LIMITS, REDIS_URL: redisUrl() })
      // One of them made the admin; the others found it made.
      const pats = three.map((hub) => hub.adminPat).filter((pat) => pat !== '')
      expect(pats).toHaveLength(1)
      // Each connects to Redis before it listens; on a slow machine one may still be retrying.
      await eventually(
        () => (three.every((hub) => hub.stdout().includes(READY)) ? true : undefined),
        'every hub connected to Redis',
      )
      const replies = await burst(three, pats[0]!, 30)
      expect(statuses(replies)).toEqual({ 200: 20, 429: 10 })
      // One counter: every remaining count from 19 to 0 was handed out once.
      const remaining = replies
        .filter((r) => r.status === 200)
        .map((r) => Number(r.headers.get('ratelimit-remaining')))
        .sort((x, y) => x - y)
      expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => i))
      for (const refused of replies.filter((r) => r.status === 429)) {
        expect(refused.body.code).toBe('rate_limited')
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      }
      // Redis stayed reachable for every hub: nothing was counted in a hub's memory instead.
      for (const hub of three) expect(hub.stdout()).not.toContain(NOT_REACHABLE)
    },
  )
})

describe('rate limits counted in memory (no REDIS_URL)', () => {
  it('each hub process has its own budget', async () => {
    const [a, b] = await twoHubs(LIMITS)
    expect(statuses(await burst([a, b], a.adminPat, 30))).toEqual({ 200: 30 })
    expect(statuses(await burst([a, b], a.adminPat, 12))).toEqual({ 200: 10, 429: 2 })
  })
})

describe('when Redis cannot be reached', () => {
  it('the hub starts, and limits every caller in its own memory', async () => {
    const hub = await startHub('sqlite', {
      env: { ...LIMITS, REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    })
    hubs.push(hub)
    expect(hub.stdout()).toContain(NOT_REACHABLE)
    const replies = await burst([hub], hub.adminPat, 25)
    expect(statuses(replies)).toEqual({ 200: 20, 429: 5 })
    for (const reply of replies) expect(reply.headers.get('ratelimit-limit')).toBe('20')
  })
})

const redisServer = spawnSync('redis-server', ['--version']).status === 0

;(redisServer ? describe : describe.skip)('when Redis goes away and comes back', () => {
  let server: ChildProcess | undefined
  afterAll(() => server?.kill('SIGKILL'))

  it('counts in memory while it is away, and in Redis again once it is back', async () => {
    const port = await freePort()
    server = await startRedisServer(port)
    const url = `redis://127.0.0.1:${port}`
    const hub = await startHub('sqlite', { env: { ...LIMITS, REDIS_URL: url } })
    hubs.push(hub)
    const user = () => call(`${hub.url}/v1/user`, { token: hub.adminPat })
    const remaining = (reply: Reply) => Number(reply.headers.get('ratelimit-remaining'))

    expect((await Promise.all([user(), user(), user()])).map(remaining).sort()).toEqual([
      17, 18, 19,
    ])
    expect(await routeKeysIn(url)).toHaveLength(1)

    server.kill('SIGKILL')
    await eventually(() => (hub.stdout().includes(NOT_REACHABLE) ? true : undefined), 'the warning')
    // A fresh count in this process's memory, as strict as the shared one.
    const away = await burst([hub], hub.adminPat, 22)
    expect(statuses(away)).toEqual({ 200: 20, 429: 2 })

    server = await startRedisServer(port)
    await eventually(
      () => (hub.stdout().split(READY).length - 1 === 2 ? true : undefined),
      'the hub to reconnect',
    )
    // Counted in the (new, empty) Redis again: the budget spent in memory does not apply.
    const back = await user()
    expect(back.status).toBe(200)
    expect(remaining(back)).toBe(19)
    expect(await routeKeysIn(url)).toHaveLength(1)
  })
})

describe.skipIf(!withRedis)('when the network to Redis stops forwarding (a partition)', () => {
  it('the hub warns once, keeps answering and limiting in memory, and counts in Redis again once the network is back', async () => {
    const direct = new URL(redisUrl())
    const proxy = await startTcpProxy({
      host: direct.hostname,
      port: Number(direct.port || 6379),
    })
    const proxied = new URL(direct)
    proxied.host = proxy.host
    const hub = await startHub('sqlite', { env: { ...LIMITS, REDIS_URL: proxied.href } })
    hubs.push(hub)
    try {
      const user = () => call(`${hub.url}/v1/user`, { token: hub.adminPat })
      const remaining = (reply: Reply) => Number(reply.headers.get('ratelimit-remaining'))
      const said = (line: string) => hub.stdout().split(line).length - 1
      // A key of this test's own user in a Redis other tests share: the admin of a new store.
      expect((await Promise.all([user(), user(), user()])).map(remaining).sort()).toEqual([
        17, 18, 19,
      ])
      expect(said(NOT_REACHABLE)).toBe(0)

      proxy.partition()
      // The first request waits for the command timeouts that open the circuit; it is answered.
      const first = await user()
      expect(first.status).toBe(200)
      await eventually(() => (said(NOT_REACHABLE) === 1 ? true : undefined), 'the warning')
      // Then counted in this process's memory, from 1: as strict as the shared count.
      const away = await burst([hub], hub.adminPat, 21)
      expect(statuses(away)).toEqual({ 200: 19, 429: 2 })
      expect(said(NOT_REACHABLE)).toBe(1)

      proxy.heal()
      await eventually(() => (said(READY) === 2 ? true : undefined), 'the hub to log Redis back')
      // Counted in Redis again, where the count stopped before the partition.
      const back = await user()
      expect(back.status).toBe(200)
      expect(remaining(back)).toBe(16)
      expect(said(NOT_REACHABLE)).toBe(1)
    } finally {
      await proxy.close()
    }
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** A private redis-server on `port` (no persistence), once it answers. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  )
  await eventually(
    async () =>
      (await keysIn(`redis://127.0.0.1:${port}`).catch(() => undefined)) ? true : undefined,
    `redis-server on port ${port}`,
  )
  return child
}

/** The limiter's keys in the Redis at `url`. */
/** The keys of route counters: not the failed-credentials budget, which every token request touches. */
async function routeKeysIn(url: string): Promise<string[]> {
  return (await keysIn(url)).filter((key) => !key.endsWith(' credentials'))
}

async function keysIn(url: string): Promise<string[]> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    return await client.keys('svc-hub:rl:*')
  } finally {
    client.disconnect()
  }
}
