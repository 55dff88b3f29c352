import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD } from './support/browser.js'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess, type WorkerProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { eventually } from './support/poll.js'
import { setUpRuns, type RunSetup } from './support/run-setup.js'
import { fakeServerJs } from './support/stack-bundles.js'
import { WebSession } from './support/web-session.js'

/** A bundle whose every run answers bytes of its own: no two runs share a blob. */
const UNIQUE_BUNDLE = fakeServerJs(
  `return { artifacts: { 'out.ts': 'export const run = ' + JSON.stringify(require('node:crypto').randomUUID()) }, manifest: {} }`,
)

const RETENTION = { SVC_HUB_RUN_ARTIFACTS_KEEP_RUNS: '1', SVC_HUB_RUN_ARTIFACTS_SWEEP_SECONDS: '1' }

for (const kind of await storeKinds()) {
  describe(`retention of run artifacts (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let runs: RunSetup
    let worker: WorkerProcess | undefined

    beforeAll(async () => {
      // The hub serves without a dispatcher: the cleanup is the worker's.
      hub = await startHub(kind, { env: RETENTION, args: ['--no-dispatcher'] })
      people = await seedPeople(hub)
      runs = await setUpRuns(hub, people.alice, 'acme', { '1.0.0': UNIQUE_BUNDLE })
    }, 120_000)
    afterAll(async () => {
      await worker?.stop()
      await hub?.dispose()
    })

    it('the worker removes the artifacts of runs past the newest of their deployment, and their blobs; the newest keep theirs', async () => {
      const deployment = await runs.deploy('1.0.0')
      const ended = []
      for (let i = 0; i < 3; i++) {
        const asked = await runs.run(deployment, people.walt)
        expect(asked.status, asked.text).toBe(202)
        ended.push((await runs.settled(asked.body.id, people.rita)).body)
      }
      expect(ended.map((run) => run.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
      const [oldest, older, newest] = ended
      const store = await hub.sharedStore()
      const hashes = ended.map((run) => run.artifacts[0].sha256 as string)
      for (const hash of hashes) expect(await store.blobs.get(hash)).toBeDefined()

      worker = await hub.startWorker()
      const read = (id: string) => call(runs.project(`/runs/${id}`), { token: people.rita })
      const pruned = await eventually(async () => {
        const reply = await read(older.id)
        return reply.body.artifactsPrunedAt ? reply : undefined
      }, 'the worker removes the older runs’ artifacts')
      expect(pruned.body).toMatchObject({ status: 'succeeded', artifacts: [] })
      expect((await read(oldest.id)).body).toMatchObject({
        artifacts: [],
        artifactsPrunedAt: expect.any(String),
      })
      expect((await read(newest.id)).body).toMatchObject({
        artifactsPrunedAt: null,
        artifacts: [{ path: 'out.ts', sha256: hashes[2] }],
      })
      const gone = await call(runs.project(`/runs/${older.id}/artifacts/out.ts`), {
        token: people.rita,
      })
      expect(gone.status).toBe(404)
      expect(gone.body.message).toMatch(/were removed on .* by the hub's retention rule/)
      const kept = await call(runs.project(`/runs/${newest.id}/artifacts/out.ts`), {
        token: people.rita,
      })
      expect(kept.status).toBe(200)

      // Their blobs are freed; the newest run's stays. The usage counts only what is kept.
      expect(await store.blobs.get(hashes[0]!)).toBeUndefined()
      expect(await store.blobs.get(hashes[1]!)).toBeUndefined()
      expect(await store.blobs.get(hashes[2]!)).toBeDefined()
      const usage = await call(`${hub.url}/v1/accounts/acme/usage`, { token: people.rita })
      const artifacts = usage.body.quotas.find((q: { quota: string }) => q.quota === 'runArtifacts')
      expect(artifacts.used).toBe(1)
      await eventually(
        () =>
          worker!.stdout().includes('run artifacts removed by the retention rule')
            ? true
            : undefined,
        'the worker logs what it removed',
      )

      // The run page says so instead of listing files.
      expect((await hub.admin(['set-password', 'rita'], `${PASSWORD}\n`)).code).toBe(0)
      const web = new WebSession(hub.url)
      await web.signIn('rita')
      const page = await web.get(`/acme/projects/shop/runs/${older.id}`)
      expect(page.status).toBe(200)
      expect(page.text).toContain('data-testid="artifacts-pruned"')
      expect(page.text).toMatch(/retention rule removed this run.{0,10}s artifacts/)
    }, 120_000)
  })
}
