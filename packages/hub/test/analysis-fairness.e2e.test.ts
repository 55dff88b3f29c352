import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisMetrics, apiCreator, pushTo } from './support/analysis.js'
import { storeKinds } from './support/databases.js'
import { aliasBomb, oasYaml } from './support/documents.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { startReceiver, type Receiver } from './support/receiver.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

// 30,000 properties × 990 aliases: ~120 million nodes once expanded, many times 3 s of work (and
// under the default 1 GB heap for longer than that); the node limit is lifted to let it run. The
// time limit must outlast the few requests that queue the others behind the first.
const SLOW = aliasBomb(30_000, 990, 'Slow')

for (const kind of await storeKinds()) {
  describe(`fair shares of analysis (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let newApi: () => Promise<string>
    const walt = () => people.walt
    const until = (
      what: string,
      check: (m: Awaited<ReturnType<typeof analysisMetrics>>) => boolean,
    ) => eventually(async () => (check(await analysisMetrics(hub)) ? true : undefined), what)

    /** Where an API's sourceUrl points; it must never be asked. */
    let source: Receiver

    beforeAll(async () => {
      source = await startReceiver()
      hub = await startHub(kind, {
        env: {
          SVC_HUB_ALLOW_PRIVATE_NETWORKS: source.origin,
          SVC_HUB_RATE_LIMITS: 'off',
          SVC_HUB_ANALYSIS_THREADS: '1',
          SVC_HUB_ANALYSIS_MAX_NODES: '1000000000',
          SVC_HUB_ANALYSIS_TIMEOUT_MS: '3000',
          SVC_HUB_ANALYSIS_QUEUE_PER_ACCOUNT: '3',
        },
      })
      people = await seedPeople(hub)
      newApi = apiCreator(hub, people.alice)
    })
    afterAll(async () => {
      await hub?.dispose()
      await source?.close()
    })

    it('ends an analysis past its time limit: 422 time, nothing stored, a new thread for the next', async () => {
      const api = await newApi()
      const refused = await expectStoreUnchanged(hub, () => pushTo(hub, api, SLOW, people.walt))
      expect(refused.status, refused.text).toBe(422)
      expect(refused.body).toMatchObject({
        code: 'document_too_complex',
        message:
          "Analysing the document took longer than 3 s, the hub's limit (SVC_HUB_ANALYSIS_TIMEOUT_MS); nothing was stored.",
        details: { limit: 'time', max: 3000, setting: 'SVC_HUB_ANALYSIS_TIMEOUT_MS' },
      })
      await eventually(
        () =>
          /"limit":"time".*"msg":"analysis over its budget: its thread/.test(hub.stdout()) ||
          undefined,
        'the log line of the ended analysis',
      )
      const next = await pushTo(hub, api, oasYaml(['get /pets']), people.walt)
      expect(next.status, next.text).toBe(201)
    })

    it("serves accounts in turn: one account's flood waits behind another's single push, and only the flooding account is refused", async () => {
      const apis = await Promise.all(Array.from({ length: 5 }, () => newApi()))
      const created = await call(`${hub.url}/v1/apis`, {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug: 'sourced', name: 'sourced', sourceUrl: `${source.origin}/s` },
      })
      expect(created.status, created.text).toBe(201)
      const sourced = 'acme/sourced'
      const before = (await analysisMetrics(hub)).ended.time ?? 0
      const order: string[] = []
      const settle = (name: string, reply: Promise<Reply>) =>
        reply.then((answer) => {
          order.push(name)
          return answer
        })
      // walt floods: three slow pushes, one running and two waiting in his queue.
      const flood = apis.slice(0, 3).map((api) => settle('walt', pushTo(hub, api, SLOW, walt())))
      await until('the flood to be queued', (m) => m.running === 1 && m.waiting === 2)
      // alice's one push, and walt's fourth, while his first runs.
      const single = settle('alice', pushTo(hub, apis[3]!, oasYaml(['get /pets']), people.alice))
      const fourth = await pushTo(hub, apis[4]!, SLOW, walt())
      await until("alice's push to be queued", (m) => m.running === 1 && m.waiting === 3)

      // walt's fourth was refused at once, by his own queue's limit; alice's is accepted and
      // answered before walt's second-in-line.
      expect(fourth.status, fourth.text).toBe(429)
      expect(fourth.headers.get('retry-after')).toBe('3')
      expect(fourth.body).toMatchObject({
        code: 'queue_full',
        message: expect.stringMatching(/^Your account \(walt\) already has 3 analyses/),
        details: { queue: 'analysis', limit: 3 },
      })
      // A refetch shares his queue: refused before anything is fetched.
      const refetch = await call(`${hub.url}/v1/apis/${sourced}/refetch`, {
        method: 'POST',
        token: people.walt,
      })
      expect(refetch.status, refetch.text).toBe(429)
      expect(refetch.body.details).toEqual({ queue: 'analysis', limit: 3 })
      expect(source.received).toEqual([])
      const answers = await Promise.all(flood)
      expect((await single).status).toBe(201)
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(422)
        expect(answer.body.details.limit).toBe('time')
      }
      expect(order).toEqual(['walt', 'alice', 'walt', 'walt'])
      expect((await analysisMetrics(hub)).ended.time).toBe(before + 3)
      const refused = await call(`${hub.url}/v1/apis/${apis[4]}/revisions`, { token: people.alice })
      expect(refused.body.revisions).toEqual([])
    })
  })
}
