import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { aliasBomb, oasYaml } from './support/documents.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { analysisMetrics, apiCreator, pushTo } from './support/analysis.js'
import { eventually } from './support/poll.js'
import { startReceiver, type Receiver } from './support/receiver.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

// The bomb: 990 aliases of a 3,000-property schema, ~12 million nodes once expanded.
const BOMB = aliasBomb()
// 400 aliases: 4.8 million nodes, under the default limit of 5 million, and hundreds of MB to read.
const NEAR_LIMIT = aliasBomb(3_000, 400, 'Near')

for (const kind of await storeKinds()) {
  describe(`the budget of an analysis (${kind})`, () => {
    let hub: HubProcess
    let people: People
    /** Serves the bomb, as an API's sourceUrl. */
    let source: Receiver

    beforeAll(async () => {
      source = await startReceiver(() => ({
        status: 200,
        headers: { 'content-type': 'application/yaml' },
        body: BOMB,
      }))
      // Default limits, but for the heap of an analysis thread: 64 MB reads small documents only.
      hub = await startHub(kind, {
        env: {
          SVC_HUB_RATE_LIMITS: 'off',
          SVC_HUB_ANALYSIS_MEMORY_MB: '64',
          SVC_HUB_ALLOW_PRIVATE_NETWORKS: source.origin,
        },
      })
      people = await seedPeople(hub)
    })
    afterAll(async () => {
      await hub?.dispose()
      await source?.close()
    })

    it('refuses the alias-expansion bomb by its expanded size: 422, nothing stored, the hub serves on', async () => {
      const api = await apiCreator(hub, people.alice)()
      const refused = await expectStoreUnchanged(hub, () => pushTo(hub, api, BOMB, people.walt))
      expect(refused.status, refused.text).toBe(422)
      expect(refused.body).toEqual({
        code: 'document_too_complex',
        message:
          "The document has more than 5,000,000 nodes once its YAML aliases are expanded, the hub's limit (SVC_HUB_ANALYSIS_MAX_NODES); nothing was stored.",
        details: { limit: 'expanded_nodes', max: 5_000_000, setting: 'SVC_HUB_ANALYSIS_MAX_NODES' },
        requestId: expect.any(String),
      })
      expect((await call(`${hub.url}/healthz`)).status).toBe(200)
      const next = await pushTo(hub, api, oasYaml(['get /pets']), people.walt)
      expect(next.status, next.text).toBe(201)
      expect(next.body.revision.sequence).toBe(1)
    })

    it('refuses the bomb from a refetch alike', async () => {
      const created = await call(`${hub.url}/v1/apis`, {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug: 'bombed-source', name: 'b', sourceUrl: `${source.origin}/b` },
      })
      expect(created.status, created.text).toBe(201)
      const refused = await expectStoreUnchanged(hub, () =>
        call(`${hub.url}/v1/apis/acme/bombed-source/refetch`, {
          method: 'POST',
          token: people.walt,
        }),
      )
      expect(refused.status, refused.text).toBe(422)
      expect(refused.body).toMatchObject({
        code: 'document_too_complex',
        details: { limit: 'expanded_nodes', max: 5_000_000 },
      })
      expect(source.received).toHaveLength(1)
    })

    it('declares 422 and 429 on the push and refetch routes of its OpenAPI description', async () => {
      const { paths } = (await call(`${hub.url}/v1/openapi.json`)).body
      for (const path of ['/v1/apis/{owner}/{slug}/revisions', '/v1/apis/{owner}/{slug}/refetch']) {
        expect(Object.keys(paths[path].post.responses)).toEqual(
          expect.arrayContaining(['422', '429']),
        )
        expect(paths[path].post.description).toMatch(/`document_too_complex`.*`queue_full`/)
      }
    })

    it('ends an analysis past its heap limit: 422 memory, nothing stored, a new thread for the next', async () => {
      const api = await apiCreator(hub, people.alice)()
      const before = (await analysisMetrics(hub)).ended.memory ?? 0
      const first = await pushTo(hub, api, oasYaml(['get /pets']), people.walt)
      expect(first.status, first.text).toBe(201)
      const refused = await expectStoreUnchanged(hub, () =>
        pushTo(hub, api, NEAR_LIMIT, people.walt),
      )
      expect(refused.status, refused.text).toBe(422)
      expect(refused.body).toMatchObject({
        code: 'document_too_complex',
        message:
          "Analysing the document needed more than 64 MB of memory, the hub's limit (SVC_HUB_ANALYSIS_MEMORY_MB); nothing was stored.",
        details: { limit: 'memory', max: 64, setting: 'SVC_HUB_ANALYSIS_MEMORY_MB' },
      })
      const next = await pushTo(hub, api, oasYaml(['get /pets', 'get /owners']), people.walt)
      expect(next.status, next.text).toBe(201)
      expect(next.body.revision.sequence).toBe(2)
      expect(next.body.counts).toEqual({ breaking: 0, warning: 0, info: 1 })
      expect((await analysisMetrics(hub)).ended.memory).toBe(before + 1)
    })
  })

  describe(`an analysis whose client went away (${kind})`, () => {
    let hub: HubProcess
    let people: People

    beforeAll(async () => {
      // One thread, and budgets the bomb cannot reach for minutes: only the disconnect ends it.
      hub = await startHub(kind, {
        env: {
          SVC_HUB_RATE_LIMITS: 'off',
          SVC_HUB_ANALYSIS_THREADS: '1',
          SVC_HUB_ANALYSIS_MAX_NODES: '1000000000',
          SVC_HUB_ANALYSIS_TIMEOUT_MS: '600000',
          SVC_HUB_ANALYSIS_MEMORY_MB: '4096',
        },
      })
      people = await seedPeople(hub)
    })
    afterAll(() => hub?.dispose())

    it('is ended at once, freeing its thread for the next account, and stores nothing', async () => {
      const newApi = apiCreator(hub, people.alice)
      const [bombed, other] = [await newApi(), await newApi()]
      const client = new AbortController()
      // 30,000 properties × 990 aliases: ~120 million nodes, minutes of work.
      const abandoned = pushTo(hub, bombed, aliasBomb(30_000, 990), people.walt, client.signal)
      await eventually(
        async () => ((await analysisMetrics(hub)).running === 1 ? true : undefined),
        'the bomb to be analysed',
      )
      client.abort()
      await expect(abandoned).rejects.toThrow()
      await eventually(
        async () => ((await analysisMetrics(hub)).ended.cancelled === 1 ? true : undefined),
        'the analysis to be cancelled',
      )
      const next = await pushTo(hub, other, oasYaml(['get /pets']), people.alice)
      expect(next.status, next.text).toBe(201)
      const metrics = await analysisMetrics(hub)
      expect(metrics.ended).toEqual({ done: 1, cancelled: 1 })
      await eventually(
        () => /"msg":"analysis cancelled: the client went away"/.test(hub.stdout()) || undefined,
        'the log line of the cancelled analysis',
      )
      const revisions = await call(`${hub.url}/v1/apis/${bombed}/revisions`, {
        token: people.alice,
      })
      expect(revisions.body.revisions).toEqual([])
    })
  })
}
