import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm } from './support/http.js'
import { eventually } from './support/poll.js'
import { alive, descendants, processes } from './support/processes.js'
import { HANG_BUNDLE, PETSTORE, realServerJs } from './support/stack-bundles.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const RUN_ENV = { SVC_HUB_RUN_TIMEOUT_MS: '10000' }
const SETTINGS = { enrichments: { 'gen-zod': { Pet: { main: { nope: 1 } } }, 'gen-missing': {} } }

/** A process of this test's hubs whose working directory is a run's temp dir, if any. */
function runProcess(): { pid: number; dir: string } | undefined {
  const found = descendants().find((p) => p.cwd?.startsWith(join(tmpdir(), 'svc-run-')))
  return found && { pid: found.pid, dir: found.cwd! }
}

for (const kind of await storeKinds()) {
  describe(`deployments, runs and the production alias (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const v1 = (path: string) => `${hub.url}/v1${path}`
    const shop = (path = '') => v1(`/projects/acme/shop${path}`)

    async function publish(version: string, bundle: string) {
      const reply = await call(v1('/stacks/acme/web/versions'), {
        method: 'POST',
        token: people.alice,
        body: publishForm({ version, bundle, files: [manifest('@acme/web', {}, version)] }),
      })
      expect(reply.status, reply.text).toBe(201)
    }

    async function settled(runId: string) {
      return eventually(
        async () => {
          const reply = await call(shop(`/runs/${runId}`), { token: people.rita })
          return reply.body?.status === 'running' ? undefined : reply
        },
        `run ${runId} ends`,
        90_000,
      )
    }

    beforeAll(async () => {
      // Built before any connection is open: the build blocks this process for seconds.
      const serverJs = realServerJs()
      hub = await startHub(kind, { env: RUN_ENV })
      people = await seedPeople(hub)
      await publish('1.0.0', serverJs)
      await publish('1.1.0', HANG_BUNDLE)
      await publish('2.0.0-beta.1', 'export {}')
      for (const slug of ['petstore', 'empty']) {
        const api = await call(v1('/apis'), {
          method: 'POST',
          token: people.alice,
          json: { owner: 'acme', slug, name: slug },
        })
        expect(api.status).toBe(201)
      }
      const pushed = await call(v1('/apis/acme/petstore/revisions'), {
        method: 'POST',
        token: people.alice,
        headers: { 'content-type': 'application/json' },
        body: readFileSync(PETSTORE, 'utf8'),
      })
      expect(pushed.status, pushed.text).toBe(201)
      for (const [slug, api] of [
        ['shop', 'acme/petstore'],
        ['nodoc', 'acme/empty'],
      ]) {
        const created = await call(v1('/projects'), {
          method: 'POST',
          token: people.alice,
          json: { account: 'acme', slug, stack: '@acme/web', api },
        })
        expect(created.status, created.text).toBe(201)
      }
      const config = await call(shop('/client-config'), {
        method: 'PUT',
        token: people.walt,
        json: { settings: SETTINGS },
      })
      expect(config.status).toBe(200)
    }, 240_000)
    afterAll(() => hub?.dispose())

    it('a run with no deployment yet is 409 no_deployment, and nothing is stored', async () => {
      await expectStoreUnchanged(hub, async () => {
        const reply = await call(shop('/runs'), { method: 'POST', token: people.walt, json: {} })
        expect(reply.status).toBe(409)
        expect(reply.body.code).toBe('no_deployment')
      })
    })

    it('deploys a version, runs it to succeeded and serves its artifacts', async () => {
      const deployed = await call(shop('/deployments'), {
        method: 'POST',
        token: people.walt,
        json: { stackVersion: '1.0.0' },
      })
      expect(deployed.status, deployed.text).toBe(201)
      expect(deployed.body).toMatchObject({
        id: expect.stringMatching(/^dep_/),
        project: { account: 'acme', slug: 'shop' },
        stack: { account: 'acme', slug: 'web' },
        stackVersion: '1.0.0',
        versionUrl: expect.stringMatching(/\/acme\/stacks\/web\/versions\/1\.0\.0$/),
        production: false,
        createdBy: 'walt',
      })
      expect(deployed.headers.get('location')).toMatch(
        new RegExp(`/v1/projects/acme/shop/deployments/${deployed.body.id}$`),
      )

      const run = await call(shop('/runs'), {
        method: 'POST',
        token: people.walt,
        json: { deployment: deployed.body.id },
      })
      expect(run.status, run.text).toBe(202)
      expect(run.body).toMatchObject({
        id: expect.stringMatching(/^run_/),
        deployment: deployed.body.id,
        stackVersion: '1.0.0',
        status: 'running',
        revision: { id: expect.stringMatching(/^rev_/) },
        url: expect.stringMatching(/\/acme\/projects\/shop\/runs\/run_/),
      })

      const done = await settled(run.body.id)
      expect(done.body.status, done.body.error ?? '').toBe('succeeded')
      expect(done.body.durationMs).toBeGreaterThanOrEqual(0)
      expect(done.body.finishedAt).toEqual(expect.any(String))
      expect(done.body.artifacts.map((a: { path: string }) => a.path)).toEqual([
        'types.ts',
        'zod.ts',
      ])
      expect(JSON.stringify(done.body.manifest.enrichmentWarnings)).toContain('gen-missing')
      expect(done.body.log).toContain('listening')

      const types = done.body.artifacts[0]
      const file = await call(types.url, { token: people.rita })
      expect(file.status).toBe(200)
      expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(file.text).toContain('Pet')
      expect(Buffer.byteLength(file.text)).toBe(types.size)
      const missing = await call(shop(`/runs/${run.body.id}/artifacts/nope.ts`), {
        token: people.rita,
      })
      expect(missing.status).toBe(404)

      const list = await call(shop('/runs'), { token: people.rita })
      expect(list.body.runs[0]).toMatchObject({ id: run.body.id, status: 'succeeded' })
      expect(list.body.runs[0]).not.toHaveProperty('artifacts')
    }, 120_000)

    it('latest resolves to the highest release; production is set, read and used by default', async () => {
      const latest = await call(shop('/deployments'), {
        method: 'POST',
        token: people.alice,
        json: {},
      })
      expect(latest.status).toBe(201)
      expect(latest.body.stackVersion).toBe('1.1.0')

      expect((await call(shop('/aliases/production'), { token: people.rita })).status).toBe(404)
      const list = await call(shop('/deployments'), { token: people.rita })
      const first = list.body.deployments.find(
        (d: { stackVersion: string }) => d.stackVersion === '1.0.0',
      )
      const set = await call(shop('/aliases/production'), {
        method: 'PUT',
        token: people.walt,
        json: { deployment: first.id },
      })
      expect(set.status, set.text).toBe(200)
      expect(set.body).toMatchObject({
        name: 'production',
        deployment: { id: first.id, production: true, stackVersion: '1.0.0' },
        updatedBy: 'walt',
      })
      const read = await call(shop('/aliases/production'), { token: people.rita })
      expect(read.body).toEqual(set.body)
      const again = await call(shop('/deployments'), { token: people.rita })
      expect(
        again.body.deployments.map((d: { stackVersion: string; production: boolean }) => [
          d.stackVersion,
          d.production,
        ]),
      ).toEqual([
        ['1.1.0', false],
        ['1.0.0', true],
      ])
      // Without `deployment`, production runs (not the latest deployment, which hangs).
      const run = await call(shop('/runs'), { method: 'POST', token: people.walt })
      expect(run.status, run.text).toBe(202)
      expect(run.body.deployment).toBe(first.id)
      expect((await settled(run.body.id)).body.status).toBe('succeeded')
    }, 120_000)

    it('a run of an API without a revision fails at once and says why', async () => {
      const deployed = await call(v1('/projects/acme/nodoc/deployments'), {
        method: 'POST',
        token: people.alice,
        json: { stackVersion: '1.0.0' },
      })
      const run = await call(v1('/projects/acme/nodoc/runs'), {
        method: 'POST',
        token: people.alice,
        json: { deployment: deployed.body.id },
      })
      expect(run.status).toBe(202)
      expect(run.body).toMatchObject({ status: 'failed', revision: null })
      expect(run.body.error).toMatch(/has no revision yet/)
    })

    const refusedWrites: [string, () => string | undefined, number][] = [
      ['no token', () => undefined, 401],
      ['a revoked token', () => people.aliceRevoked, 401],
      ['a reader', () => people.rita, 403],
      ['a non-member', () => people.nora, 403],
      ['a token with only read', () => people.aliceReadOnly, 403],
    ]
    for (const [who, token, status] of refusedWrites) {
      it(`${who}: deploy, run and promote are ${status}, and nothing changes`, async () => {
        const deployments = await call(shop('/deployments'), { token: people.alice })
        const id = deployments.body.deployments[0].id
        await expectStoreUnchanged(hub, async () => {
          for (const [path, method, json] of [
            ['/deployments', 'POST', { stackVersion: '1.0.0' }],
            ['/runs', 'POST', {}],
            ['/aliases/production', 'PUT', { deployment: id }],
          ] as const) {
            const reply = await call(shop(path), { method, token: token(), json })
            expect(reply.status, `${method} ${path}`).toBe(status)
          }
        })
      })
    }

    it('a non-member cannot read; no token is 401; an unknown project, run or deployment is 404', async () => {
      for (const path of ['/deployments', '/runs', '/aliases/production']) {
        expect((await call(shop(path), { token: people.nora })).status).toBe(403)
        expect((await call(shop(path))).status).toBe(401)
        expect((await call(v1(`/projects/acme/nope${path}`), { token: people.rita })).status).toBe(
          404,
        )
      }
      expect((await call(shop('/runs/run_missing'), { token: people.rita })).status).toBe(404)
      expect((await call(shop('/deployments/dep_missing'), { token: people.rita })).status).toBe(
        404,
      )
      const runs = await call(shop('/runs'), { token: people.alice })
      const artifact = runs.body.runs.find((r: { status: string }) => r.status === 'succeeded')
      const url = `/runs/${artifact.id}/artifacts/types.ts`
      expect((await call(shop(url), { token: people.nora })).status).toBe(403)
      expect((await call(shop(url))).status).toBe(401)
    })

    it('refuses bad input with 422 and stores nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        const cases: [string, string, unknown, string][] = [
          ['/deployments', 'POST', { stackVersion: '9.9.9' }, 'json.stackVersion'],
          ['/deployments', 'POST', { stackVersion: 'v1' }, 'json.stackVersion'],
          ['/deployments', 'POST', { stackVersion: '1.0.0', extra: 1 }, 'json'],
          ['/runs', 'POST', { deployment: 'dep_nope' }, 'json.deployment'],
          ['/aliases/production', 'PUT', { deployment: 'dep_nope' }, 'json.deployment'],
          ['/aliases/production', 'PUT', {}, 'json.deployment'],
        ]
        for (const [path, method, json, at] of cases) {
          const reply = await call(shop(path), { method, token: people.alice, json })
          expect(reply.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(422)
          expect(reply.body.code).toBe('invalid_request')
          expect(JSON.stringify(reply.body.details)).toContain(at)
        }
      })
    })

    it('a deployment that hangs is killed at the time limit and its run fails', async () => {
      const list = await call(shop('/deployments'), { token: people.alice })
      const hang = list.body.deployments.find(
        (d: { stackVersion: string }) => d.stackVersion === '1.1.0',
      )
      const run = await call(shop('/runs'), {
        method: 'POST',
        token: people.alice,
        json: { deployment: hang.id },
      })
      expect(run.status).toBe(202)
      const done = await settled(run.body.id)
      expect(done.body).toMatchObject({
        status: 'failed',
        error: 'server.js did not finish within the time limit (10 s).',
        artifacts: [],
        manifest: null,
      })
    }, 120_000)

    it('a hub that starts marks the runs a stopped hub left running as failed', async () => {
      const store = await hub.openStore()
      let runId: string
      try {
        const project = await store.projects.find('acme', 'shop')
        const deployment = await store.deployments.latestDeployment(project!.id)
        const alice = await store.accounts.find('alice')
        const run = await store.deployments.createRun({
          project_id: project!.id,
          deployment_id: deployment!.id,
          revision_id: null,
          created_by: alice!.id,
        })
        runId = run.id
        await store.deployments.startRun(run.id, new Date(Date.now() - 3_600_000).toISOString())
      } finally {
        await store.close()
      }
      // A run in progress when the hub is stopped: killed, and failed.
      const list = await call(shop('/deployments'), { token: people.alice })
      const hang = list.body.deployments.find(
        (d: { stackVersion: string }) => d.stackVersion === '1.1.0',
      )
      const inFlight = await call(shop('/runs'), {
        method: 'POST',
        token: people.alice,
        json: { deployment: hang.id },
      })
      expect(inFlight.status).toBe(202)
      // Wait until its process runs (a process whose cwd is a run's temp dir).
      const running = await eventually(runProcess, 'the run process starts')
      expect(await hub.stop()).toBe(0)
      const people0 = people
      hub = await startHub(kind, { reuse: hub, env: RUN_ENV })
      people = people0
      const reply = await call(shop(`/runs/${runId}`), { token: people.rita })
      expect(reply.body).toMatchObject({
        status: 'failed',
        error: 'The hub stopped during the run.',
      })
      const stopped = await call(shop(`/runs/${inFlight.body.id}`), { token: people.rita })
      expect(stopped.body).toMatchObject({
        status: 'failed',
        error: 'The hub stopped during the run.',
      })
      // Its process is gone too, no process is left in its temp dir, and the dir is removed.
      expect(alive(running.pid)).toBe(false)
      expect(processes().filter((p) => p.cwd?.startsWith(running.dir))).toEqual([])
      expect(existsSync(running.dir)).toBe(false)
    }, 60_000)
  })
}
