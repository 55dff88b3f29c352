import { readFileSync } from 'node:fs'
import type { QuotaUsage } from '@svc/hub-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm } from './support/http.js'
import { setUpRuns, type RunSetup } from './support/run-setup.js'
import { fakeServerJs, PETSTORE } from './support/stack-bundles.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const ENV = {
  SVC_HUB_RUN_TIMEOUT_MS: '20000',
  SVC_HUB_QUOTA_REVISIONS: '2',
  SVC_HUB_QUOTA_STACK_VERSIONS: '3',
  SVC_HUB_QUOTA_RUN_ARTIFACT_BYTES: '3000',
  SVC_HUB_QUOTA_BASE_FILE_BYTES: '100',
}

/** A bundle whose run answers 2,000 bytes of artifacts. */
const ARTIFACTS_2000 = fakeServerJs(
  `return { artifacts: { 'a.ts': 'a'.repeat(1500), 'b.ts': 'b'.repeat(500) }, manifest: {} }`,
)

for (const kind of await storeKinds()) {
  describe(`storage quotas (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let runs: RunSetup
    const v1 = (path: string) => `${hub.url}/v1${path}`
    const usageOf = async (account: string, token = people.alice) => {
      const reply = await call(v1(`/accounts/${account}/usage`), { token })
      expect(reply.status, reply.text).toBe(200)
      const quotas = reply.body.quotas as QuotaUsage[]
      return Object.fromEntries(quotas.map((q) => [q.quota, q])) as Record<string, QuotaUsage>
    }
    const admin = async (...args: string[]) => {
      const run = await hub.admin(args)
      expect(run.code, run.stderr).toBe(0)
      return run.stdout
    }

    beforeAll(async () => {
      hub = await startHub(kind, { env: ENV })
      people = await seedPeople(hub)
      runs = await setUpRuns(hub, people.alice, 'acme', { '1.0.0': ARTIFACTS_2000 })
    }, 120_000)
    afterAll(() => hub?.dispose())

    it('a push past the revision quota is 413 quota_exceeded, says where the account stands, and stores nothing', async () => {
      const document = JSON.parse(readFileSync(PETSTORE, 'utf8')) as { info: object }
      const push = (title: string) =>
        call(v1('/apis/acme/petstore/revisions'), {
          method: 'POST',
          token: people.walt,
          json: { document: JSON.stringify({ ...document, info: { ...document.info, title } }) },
        })
      expect((await push('second')).status).toBe(201)
      const refused = await expectStoreUnchanged(hub, () => push('third'))
      expect(refused.status, refused.text).toBe(413)
      expect(refused.body).toMatchObject({
        code: 'quota_exceeded',
        details: {
          quota: 'revisions',
          account: 'acme',
          used: 2,
          limit: 2,
          adding: 1,
          setting: 'SVC_HUB_QUOTA_REVISIONS',
          custom: false,
        },
      })
      expect(refused.body.message).toBe(
        "This would take acme past its quota of 2 revisions (the hub's default, SVC_HUB_QUOTA_REVISIONS): it stores 2, and this adds 1. Nothing was stored.",
      )
      expect((await usageOf('acme')).revisions).toMatchObject({ used: 2, limit: 2, custom: false })

      // The operator raises acme's own limit: accepted. Cleared: the default refuses again.
      expect(await admin('set-quota', 'acme', 'revisions', '3')).toBe(
        'acme: revisions 2 of 3 (own limit)\n',
      )
      expect((await push('third')).status).toBe(201)
      expect((await usageOf('acme', people.rita)).revisions).toMatchObject({
        used: 3,
        limit: 3,
        custom: true,
      })
      await admin('clear-quota', 'acme', 'revisions')
      const again = await push('fourth')
      expect(again.status).toBe(413)
      expect(again.body.details).toMatchObject({ used: 3, limit: 2, custom: false })
      // Another account's quota is its own.
      const mine = await call(v1('/apis'), {
        method: 'POST',
        token: people.alice,
        json: { owner: 'alice', slug: 'mine', name: 'Mine' },
      })
      expect(mine.status).toBe(201)
      const own = await call(v1('/apis/alice/mine/revisions'), {
        method: 'POST',
        token: people.alice,
        headers: { 'content-type': 'application/json' },
        body: readFileSync(PETSTORE, 'utf8'),
      })
      expect(own.status, own.text).toBe(201)
    })

    it('a publish past the stack version quota is 413 and stores nothing; an override admits it', async () => {
      const publish = (version: string) =>
        call(v1('/stacks/acme/web/versions'), {
          method: 'POST',
          token: people.alice,
          body: publishForm({
            version,
            bundle: ARTIFACTS_2000,
            files: [manifest('@acme/web', {}, version)],
          }),
        })
      expect((await publish('1.1.0')).status).toBe(201)
      expect((await publish('1.2.0')).status).toBe(201)
      const refused = await expectStoreUnchanged(hub, () => publish('1.3.0'))
      expect(refused.status, refused.text).toBe(413)
      expect(refused.body).toMatchObject({
        code: 'quota_exceeded',
        details: {
          quota: 'stackVersions',
          used: 3,
          limit: 3,
          adding: 1,
          setting: 'SVC_HUB_QUOTA_STACK_VERSIONS',
        },
      })
      await admin('set-quota', 'acme', 'stackVersions', 'unlimited')
      expect((await publish('1.3.0')).status).toBe(201)
      const usage = await usageOf('acme')
      expect(usage.stackVersions).toMatchObject({ used: 4, limit: null, custom: true })
      expect(usage.stackVersionBytes!.used).toBeGreaterThan(4 * ARTIFACTS_2000.length)
    })

    it('base files count by the difference a replacement makes; past the quota, 413 and the set stays', async () => {
      const put = (files: Record<string, string>) => {
        const form = new FormData()
        for (const [path, text] of Object.entries(files))
          form.append('files', new Blob([text]), path)
        return call(runs.project('/preview/base-files'), {
          method: 'PUT',
          token: people.walt,
          body: form,
        })
      }
      expect((await put({ 'a.ts': 'x'.repeat(30), 'b.ts': 'y'.repeat(30) })).status).toBe(200)
      const refused = await expectStoreUnchanged(hub, () =>
        put({ 'a.ts': 'x'.repeat(50), 'c.ts': 'z'.repeat(100) }),
      )
      expect(refused.status, refused.text).toBe(413)
      expect(refused.body.details).toMatchObject({
        quota: 'baseFileBytes',
        used: 60,
        limit: 100,
        adding: 90,
      })
      expect((await put({ 'small.ts': 'x'.repeat(10) })).status).toBe(200)
      expect((await usageOf('acme')).baseFiles).toMatchObject({ used: 1 })
      expect((await usageOf('acme')).baseFileBytes).toMatchObject({ used: 10, limit: 100 })
    })

    it('a run whose artifacts pass the quota fails, says which quota, and stores none; an override lets the next one store', async () => {
      const deployment = await runs.deploy('1.0.0')
      const first = await runs.run(deployment, people.walt)
      expect((await runs.settled(first.body.id, people.rita)).body).toMatchObject({
        status: 'succeeded',
        artifacts: [{ path: 'a.ts' }, { path: 'b.ts' }],
      })
      expect((await usageOf('acme')).runArtifactBytes).toMatchObject({ used: 2000, limit: 3000 })

      const second = await runs.run(deployment, people.walt)
      const failed = (await runs.settled(second.body.id, people.rita)).body
      expect(failed).toMatchObject({ status: 'failed', artifacts: [], manifest: null })
      expect(failed.error).toBe(
        "This would take acme past its quota of 2.9 KiB of run artifacts (the hub's default, SVC_HUB_QUOTA_RUN_ARTIFACT_BYTES): it stores 2.0 KiB, and this adds 2.0 KiB. No artifacts were stored.",
      )
      expect(failed.log).toContain('listening')
      expect((await usageOf('acme')).runArtifactBytes).toMatchObject({ used: 2000 })

      await admin('set-quota', 'acme', 'runArtifactBytes', '10000')
      const third = await runs.run(deployment, people.walt)
      expect((await runs.settled(third.body.id, people.rita)).body.status).toBe('succeeded')
      expect((await usageOf('acme')).runArtifacts).toMatchObject({ used: 4, limit: 100000 })
      expect((await usageOf('acme')).runArtifactBytes).toMatchObject({ used: 4000, limit: 10000 })
    }, 120_000)

    it("usage is readable by the account's members and the user it is, by no one else", async () => {
      const read = (account: string, token?: string) =>
        call(v1(`/accounts/${account}/usage`), { token })
      const acme = await read('acme', people.rita)
      expect(acme.status).toBe(200)
      expect(acme.body).toMatchObject({ account: 'acme', kind: 'org' })
      expect(acme.body.quotas.map((q: { quota: string }) => q.quota)).toEqual([
        'revisions',
        'revisionBytes',
        'stackVersions',
        'stackVersionBytes',
        'runArtifacts',
        'runArtifactBytes',
        'baseFiles',
        'baseFileBytes',
      ])
      expect(acme.body.quotas[1]).toEqual({
        quota: 'revisionBytes',
        unit: 'bytes',
        used: expect.any(Number),
        limit: 2 * 1024 ** 3,
        custom: false,
        setting: 'SVC_HUB_QUOTA_REVISION_BYTES',
      })
      expect((await read('alice', people.alice)).body).toMatchObject({
        account: 'alice',
        kind: 'user',
      })
      expect((await read('acme', people.nora)).status).toBe(403)
      expect((await read('alice', people.walt)).status).toBe(403)
      expect((await read('nobody', people.alice)).status).toBe(404)
      expect((await read('acme')).status).toBe(401)
      expect((await read('Not_A_Handle', people.alice)).status).toBe(422)
    })

    it('svc-hub admin quotas shows usage and limits; bad quotas and limits are refused', async () => {
      const text = await admin('quotas', 'acme')
      expect(text.split('\n')[0]).toBe('acme (org)')
      expect(text).toMatch(/^revisions +3 of 2 \(default, SVC_HUB_QUOTA_REVISIONS\)$/m)
      expect(text).toMatch(/^runArtifactBytes +3\.9 KiB of 9\.8 KiB \(own limit\)$/m)
      const json = JSON.parse(await admin('quotas', 'acme', '--json'))
      expect(json).toEqual((await call(v1('/accounts/acme/usage'), { token: people.rita })).body)

      const unknown = await hub.admin(['set-quota', 'acme', 'bananas', '1'])
      expect(unknown.code).toBe(1)
      expect(unknown.stderr).toMatch(/'bananas' is not a quota; the quotas are revisions, /)
      const bad = await hub.admin(['set-quota', 'acme', 'revisions', 'lots'])
      expect(bad.code).toBe(1)
      expect(bad.stderr).toMatch(/the limit must be a whole number/)
      const nobody = await hub.admin(['quotas', 'nobody'])
      expect(nobody.code).toBe(1)
      const none = await hub.admin(['clear-quota', 'alice', 'revisions'])
      expect(none.code).toBe(1)
      expect(none.stderr).toMatch(/alice has no quota of its own for revisions/)

      // recount-usage counts from the records: the same figures when nothing drifted.
      const recounted = JSON.parse(await admin('recount-usage', 'acme', '--json'))
      expect(recounted).toEqual(json)
    })
  })
}
