import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { setUpRuns, type RunSetup } from './support/run-setup.js'
import { ENV_BUNDLE, LOOP_BUNDLE } from './support/stack-bundles.js'

// Each run of the looping bundle takes the whole time limit: long enough for the requests of a
// test to be made while the first one runs, on a loaded machine too.
const ENV = {
  SVC_HUB_RUN_TIMEOUT_MS: '6000',
  SVC_HUB_RUN_QUEUE_PER_ACCOUNT: '2',
  SVC_HUB_RUN_QUEUE_MAX: '2',
}

for (const kind of await storeKinds()) {
  describe(`fair shares of runs (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let runs: RunSetup
    let loop: string
    let quick: string

    beforeAll(async () => {
      hub = await startHub(kind, { env: ENV })
      people = await seedPeople(hub)
      // nora asks for runs too: a third account, a writer of acme.
      expect((await hub.admin(['add-member', 'acme', 'nora', '--role', 'writer'])).code).toBe(0)
      runs = await setUpRuns(hub, people.alice, 'acme', {
        '1.0.0': LOOP_BUNDLE,
        '1.1.0': ENV_BUNDLE,
      })
      loop = await runs.deploy('1.0.0')
      quick = await runs.deploy('1.1.0')
    }, 120_000)
    afterAll(() => hub?.dispose())

    const runCount = async () =>
      (await call(runs.project('/runs'), { token: people.rita })).body.runs.length as number

    it("one account's full queue is its own: its next run is 429 queue_full, another's first run goes next", async () => {
      const a1 = await runs.run(loop, people.alice)
      const a2 = await runs.run(loop, people.alice)
      expect([a1.status, a2.status]).toEqual([202, 202])

      const before = await runCount()
      const refused = await runs.run(loop, people.alice)
      expect(refused.status, refused.text).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('6')
      expect(refused.body).toMatchObject({
        code: 'queue_full',
        details: { queue: 'runs', limit: 2 },
      })
      expect(refused.body.message).toMatch(
        /^alice already has 2 runs waiting or running on this hub, .*SVC_HUB_RUN_QUEUE_PER_ACCOUNT.*other accounts' runs are not held up/,
      )
      expect(await runCount()).toBe(before)

      // walt's first run is accepted while alice's queue is full.
      const b1 = await runs.run(quick, people.walt)
      expect(b1.status, b1.text).toBe(202)

      // The hub holds 2 waiting runs (alice's second, walt's): a third account's is 503.
      const busy = await runs.run(quick, people.nora)
      expect(busy.status, busy.text).toBe(503)
      expect(busy.body).toMatchObject({ code: 'unavailable', details: { queue: 'runs', limit: 2 } })
      expect(busy.body.message).toMatch(/SVC_HUB_RUN_QUEUE_MAX/)
      expect(busy.headers.get('retry-after')).toBe('6')
      expect(await runCount()).toBe(before + 1)

      const [first, second, theirs] = await Promise.all(
        [a1, a2, b1].map((reply) => runs.settled(reply.body.id, people.rita)),
      )
      // walt's run started after alice's first and before her second: it waited for one run.
      expect(first!.body.startedAt < theirs!.body.startedAt).toBe(true)
      expect(theirs!.body.startedAt < second!.body.startedAt).toBe(true)
      expect(theirs!.body.finishedAt <= second!.body.startedAt).toBe(true)
      expect(theirs!.body.status, theirs!.body.error).toBe('succeeded')
      for (const mine of [first!, second!]) {
        expect(mine.body).toMatchObject({
          status: 'failed',
          error: 'server.js did not finish within the time limit (6 s).',
        })
      }

      // Once alice's runs ended, her queue takes runs again.
      const again = await runs.run(quick, people.alice)
      expect(again.status, again.text).toBe(202)
      expect((await runs.settled(again.body.id, people.rita)).body.status).toBe('succeeded')
    }, 120_000)
  })
}
