import { afterEach, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { startReceiver } from './support/receiver.js'
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

const cleanups: (() => Promise<unknown>)[] = []

/** How many documents the hub read (first revisions) and diffed, from its Prometheus metrics. */
function analyses(metrics: string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const [, kind, count] of metrics.matchAll(
    /^svc_hub_document_analysis_seconds_count\{kind="(\w+)"\} (\d+)$/gm,
  )) {
    counts[kind!] = Number(count)
  }
  return counts
}

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function hub(kind: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv = {}) {
  const started = await startHub(kind, { env: { SVC_HUB_RATE_LIMITS: 'off', ...env } })
  cleanups.push(() => started.dispose())
  return started
}

describe.each(await storeKinds())('concurrent pushes to one API (%s)', (kind) => {
  it('4 pushers of distinct documents all succeed, and each diff is against its real predecessor', async () => {
    const running = await hub(kind)
    await createApi(running, 'busy')
    const pushers = 4
    const perPusher = 5
    const outcomes = await Promise.all(
      Array.from({ length: pushers }, async (_, w) => {
        const mine: Outcome[] = []
        for (let i = 0; i < perPusher; i++) {
          mine.push(
            await outcome('push', () =>
              pushDocument(running, 'busy', taggedDocument(`w${w}i${i}`)),
            ),
          )
        }
        return mine
      }),
    )
    const statuses = outcomes.flat().map((o) => o.status)
    expect(statuses).toEqual(Array(pushers * perPusher).fill(201))
    expect(await expectConsistentChain(running, 'busy')).toBe(pushers * perPusher)
    // Diffed once each: none lost a race and diffed again.
    const metrics = await call(`${running.url}/metrics`)
    expect(analyses(metrics.text)).toEqual({ read: 1, diff: pushers * perPusher - 1 })
  })
})

describe('several processes on one SQLite file', () => {
  it('two `serve` and a `worker`: 8 pushers and 8 publishers get no 500, and every event arrives', async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const env = { SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin }
    const first = await hub('sqlite', env)
    const second = await startHub('sqlite', {
      env: { SVC_HUB_RATE_LIMITS: 'off', ...env },
      reuse: first,
    })
    cleanups.push(() => second.stop())
    const worker = await first.startWorker()
    cleanups.push(() => worker.stop())
    const hubs: HubProcess[] = [first, { ...second, adminPat: first.adminPat }]

    const apis = ['north', 'south']
    for (const slug of apis) {
      await createApi(first, slug)
      await createWebhook(first, slug, `${receiver.origin}/hook`)
    }
    const rounds = 4
    const work: Promise<Outcome[]>[] = []
    for (let w = 0; w < 8; w++) {
      const target = hubs[w % 2]!
      work.push(
        (async () => {
          const mine: Outcome[] = []
          for (let i = 0; i < rounds; i++) {
            const document = taggedDocument(`w${w}i${i}`)
            mine.push(
              await outcome('push', () =>
                pushDocument(target, apis[Math.floor(w / 2) % 2]!, document),
              ),
            )
          }
          return mine
        })(),
        (async () => {
          const mine: Outcome[] = []
          for (let i = 0; i < rounds; i++) {
            mine.push(await outcome('publish', () => publishVersion(target, `s${w}`, `1.0.${i}`)))
          }
          return mine
        })(),
      )
    }
    const outcomes = (await Promise.all(work)).flat()
    const failed = outcomes.filter((o) => o.status !== 201)
    expect(failed, JSON.stringify(failed)).toEqual([])

    let revisions = 0
    for (const slug of apis) revisions += await expectConsistentChain(first, slug)
    expect(revisions).toBe(8 * rounds)
    // The first revision of each API sends no event: every later one sends one.
    const events = revisions - apis.length
    await receiver.waitFor(events, 30_000)
    const ids = new Set(receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id))
    expect(ids.size).toBe(events)
    for (const slug of apis) {
      const listed = await call(`${first.url}/v1/apis/admin/${slug}`, { token: first.adminPat })
      expect(listed.status).toBe(200)
    }
  })
})
