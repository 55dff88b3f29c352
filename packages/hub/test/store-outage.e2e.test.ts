import { afterEach, describe, expect, it } from 'vitest'
import { postgresUrl, storeKinds } from './support/databases.js'
import { HUB_BIN, runNode, startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { eventually } from './support/poll.js'
import { startReceiver } from './support/receiver.js'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js'
import {
  createApi,
  createWebhook,
  expectConsistentChain,
  outcome,
  publishVersion,
  pushDocument,
  taggedDocument,
  type Outcome,
} from './support/workload.js'

/** Short timeouts, so that the outages below take seconds, not minutes. */
const TIMEOUTS = {
  SVC_HUB_DB_CONNECT_TIMEOUT_MS: '1500',
  SVC_HUB_DB_STATEMENT_TIMEOUT_MS: '3000',
  SVC_HUB_READY_TIMEOUT_MS: '1000',
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The hub and its workers with the network to PostgreSQL broken on cue: a TCP proxy the test
 * controls sits between them and the database.
 */
describe.skipIf(!(await storeKinds()).includes('postgres'))('PostgreSQL outages', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  async function proxiedHub(
    env: NodeJS.ProcessEnv = {},
    before: (proxy: TcpProxy) => void = () => {},
  ): Promise<[HubProcess, TcpProxy]> {
    const direct = new URL(postgresUrl())
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    cleanups.push(() => proxy.close())
    const proxied = new URL(direct)
    proxied.host = proxy.host
    before(proxy)
    const hub = await startHub('postgres', {
      env: { SVC_HUB_RATE_LIMITS: 'off', ...TIMEOUTS, ...env, DATABASE_URL: proxied.href },
    })
    cleanups.push(() => hub.dispose())
    return [hub, proxy]
  }

  it('a hub started before its database waits for it, then serves', async () => {
    let healed = 0
    const [hub] = await proxiedHub({}, (proxy) => {
      proxy.cut()
      // Healed once the hub has been refused twice: it tried, waited, and tried again.
      const check = setInterval(() => {
        if (proxy.refused() < 2) return
        clearInterval(check)
        healed = Date.now()
        proxy.heal()
      }, 50)
    })
    expect(healed).toBeGreaterThan(0)
    expect(hub.stdout()).toContain('"msg":"waiting for the database"')
    expect((await fetch(`${hub.url}/readyz`)).status).toBe(200)
  })

  it('a hub told not to wait (SVC_HUB_DB_START_WAIT_SECONDS=0) stops at once with the reason', async () => {
    const direct = new URL(postgresUrl())
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    cleanups.push(() => proxy.close())
    proxy.cut()
    const proxied = new URL(direct)
    proxied.host = proxy.host
    const run = await runNode([HUB_BIN, 'serve'], {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: proxied.href,
      SVC_HUB_DB_START_WAIT_SECONDS: '0',
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^error: cannot open the store \(postgres 127\.0\.0\.1:\d+\/\w+\): /m,
    )
    expect(run.stdout).not.toContain('waiting for the database')
  })

  /** Polls `/readyz` until `stop()`, recording each answer and how long it took. */
  function watchReadiness(hub: HubProcess, stop: () => boolean) {
    const seen: { at: number; status: number | 'no answer'; ms: number }[] = []
    const done = (async () => {
      while (!stop()) {
        const at = Date.now()
        const status = await fetch(`${hub.url}/readyz`).then(
          (r) => r.status,
          () => 'no answer' as const,
        )
        seen.push({ at, status, ms: Date.now() - at })
        await sleep(200)
      }
    })()
    return { seen, done }
  }

  it('a 6 s cut during pushes, publishes and deliveries: 503 in the cut, no exit, nothing half-written, every event arrives', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const [hub, proxy] = await proxiedHub({ SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin })
    const worker = await hub.startWorker()
    cleanups.push(() => worker.stop())
    await createApi(hub, 'cut')
    await createWebhook(hub, 'cut', `${receiver.origin}/hook`)

    let stopped = false
    let pushes = 0
    const outcomes: Outcome[] = []
    const pusher = async (w: number) => {
      while (!stopped) {
        const tag = `w${w}n${pushes++}`
        outcomes.push(await outcome('push', () => pushDocument(hub, 'cut', taggedDocument(tag))))
        await sleep(100)
      }
    }
    let versions = 0
    const publisher = async () => {
      while (!stopped) {
        const version = `1.0.${versions++}`
        outcomes.push(await outcome('publish', () => publishVersion(hub, 'tools', version)))
        await sleep(100)
      }
    }
    const readiness = watchReadiness(hub, () => stopped)
    const load = Promise.all([pusher(0), pusher(1), publisher()])

    await sleep(1_000)
    const cutAt = Date.now()
    proxy.cut()
    // Longer than the connect timeout and the 4 s the requests in the cut are judged by below.
    await sleep(6_000)
    const healedAt = Date.now()
    proxy.heal()
    const readyAgain = await eventually(
      () => readiness.seen.find((r) => r.at > healedAt && r.status === 200),
      '/readyz answering 200 after the cut',
      10_000,
    )
    await sleep(1_000)
    stopped = true
    await load
    await readiness.done

    // Answered, and answered as an outage: 2xx, or 503 `unavailable` with Retry-After.
    for (const o of outcomes) {
      expect(o.status === 201 || o.status === 503, JSON.stringify(o)).toBe(true)
      if (o.status === 503) {
        expect(o.code).toBe('unavailable')
        expect(Number(o.retryAfter)).toBeGreaterThan(0)
      }
    }
    const inCut = outcomes.filter((o) => o.startedAt > cutAt + 500 && o.startedAt < healedAt - 4000)
    expect(inCut.length).toBeGreaterThan(0)
    expect(inCut.every((o) => o.status === 503)).toBe(true)
    const after = outcomes.filter((o) => o.startedAt > readyAgain.at)
    expect(after.filter((o) => o.status === 201).length).toBeGreaterThan(0)

    // /readyz said 503 during the cut, within its timeout, and 200 within seconds after it.
    const duringCut = readiness.seen.filter((r) => r.at > cutAt + 500 && r.at + r.ms < healedAt)
    expect(duringCut.length).toBeGreaterThan(0)
    for (const r of duringCut) {
      expect(r.status).toBe(503)
      expect(r.ms).toBeLessThan(3_000)
    }
    expect(readyAgain.at - healedAt).toBeLessThan(8_000)

    // Nothing half-written: one chain of revisions, each diffed against the one before; every
    // version listed serves its bundle.
    const revisions = await expectConsistentChain(hub, 'cut')
    const listed = await call(`${hub.url}/v1/stacks/admin/tools/versions?limit=100`, {
      token: hub.adminPat,
    })
    expect(listed.status).toBe(200)
    for (const { version } of listed.body.versions as { version: string }[]) {
      const bundle = await call(`${hub.url}/v1/stacks/admin/tools/versions/${version}/bundle`, {
        token: hub.adminPat,
      })
      expect(bundle.status).toBe(200)
      expect(bundle.text).toContain(JSON.stringify(version))
    }
    // Every revision after the first sent one event, and every event arrived once the store was back.
    await receiver.waitFor(revisions - 1, 30_000)
    const ids = new Set(receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id))
    expect(ids.size).toBe(revisions - 1)
  })

  it('a 10 s partition: requests fail within the statement timeout, not after it; nothing exits; back within seconds', async () => {
    const [hub, proxy] = await proxiedHub()
    await createApi(hub, 'split')
    expect((await pushDocument(hub, 'split', taggedDocument('a'))).status).toBe(201)

    proxy.partition()
    const partitionedAt = Date.now()
    const during = await Promise.all([
      outcome('push', () => pushDocument(hub, 'split', taggedDocument('b'))),
      outcome('push', () => call(`${hub.url}/v1/apis/admin/split`, { token: hub.adminPat })),
      outcome('push', () => call(`${hub.url}/readyz`)),
    ])
    for (const o of during) {
      expect(o.status, JSON.stringify(o)).toBe(503)
      // 3 s statement timeout, 1.5 s connect timeout, the auth check's ping: well under the partition.
      expect(o.ms).toBeLessThan(9_000)
    }
    const healAt = partitionedAt + 10_000
    await sleep(healAt - Date.now())
    proxy.heal()
    const healedAt = Date.now()
    await eventually(
      async () => ((await fetch(`${hub.url}/readyz`)).status === 200 ? true : undefined),
      '/readyz answering 200 after the partition',
      10_000,
    )
    const back = await pushDocument(hub, 'split', taggedDocument('c'))
    expect(back.status, back.text).toBe(201)
    expect(Date.now() - healedAt).toBeLessThan(10_000)
    expect(await expectConsistentChain(hub, 'split')).toBeGreaterThanOrEqual(2)
  })
})
