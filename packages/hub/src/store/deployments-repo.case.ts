import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { revisionRow } from './apis-repo.case.js'
import type { RunOutcome } from './deployments-repo.js'
import type { AccountRow } from './schema.js'
import type { Store } from './store.js'

/**
 * The storage contract of deployments, runs, run artifacts and aliases, part of `runStoreTests`
 * (`store.case.ts`), so it runs on every engine. `current()` is the store of the running test.
 */
export function runDeploymentsRepoTests(current: () => Store): void {
  describe('DeploymentsRepo', () => {
    it('pins versions for a project, newest first, with the version and who deployed', async () => {
      const store = current()
      const { alice, project, other, v1, v2 } = await seed(store)
      const first = await store.deployments.createDeployment({
        project_id: project,
        stack_version_id: v1,
        created_by: alice.id,
      })
      expect(first.id).toMatch(/^dep_[0-9a-f]{24}$/)
      await new Promise((resolve) => setTimeout(resolve, 5))
      const second = await store.deployments.createDeployment({
        project_id: project,
        stack_version_id: v2,
        created_by: alice.id,
      })
      const listed = await store.deployments.deployments(project)
      expect(listed.map((d) => [d.id, d.version, d.created_by_handle])).toEqual([
        [second.id, '2.0.0', 'alice'],
        [first.id, '1.0.0', 'alice'],
      ])
      expect((await store.deployments.latestDeployment(project))?.id).toBe(second.id)
      expect(await store.deployments.deployment(project, first.id)).toMatchObject({
        ...first,
        version: '1.0.0',
        bundle_sha256: sha256('bundle 1'),
      })
      // Another project does not see them.
      expect(await store.deployments.deployment(other, first.id)).toBeUndefined()
      expect(await store.deployments.deployments(other)).toEqual([])
      expect(await store.deployments.latestDeployment(other)).toBeUndefined()
    })

    it('an alias is made, then moved; per project and name', async () => {
      const store = current()
      const { alice, project, other, v1, v2 } = await seed(store)
      const d1 = await store.deployments.createDeployment({
        project_id: project,
        stack_version_id: v1,
        created_by: alice.id,
      })
      const d2 = await store.deployments.createDeployment({
        project_id: project,
        stack_version_id: v2,
        created_by: alice.id,
      })
      expect(await store.deployments.alias(project, 'production')).toBeUndefined()
      await store.deployments.setAlias(project, 'production', d1.id, alice.id)
      expect(await store.deployments.alias(project, 'production')).toMatchObject({
        deployment_id: d1.id,
        updated_by_handle: 'alice',
      })
      await store.deployments.setAlias(project, 'production', d2.id, alice.id)
      expect((await store.deployments.alias(project, 'production'))?.deployment_id).toBe(d2.id)
      expect(await store.deployments.alias(project, 'staging')).toBeUndefined()
      expect(await store.deployments.alias(other, 'production')).toBeUndefined()
    })

    it('a run starts running, ends once with its artifacts; a second end changes nothing', async () => {
      const store = current()
      const { alice, project, v1 } = await seed(store)
      const d = await store.deployments.createDeployment({
        project_id: project,
        stack_version_id: v1,
        created_by: alice.id,
      })
      const run = await store.deployments.createRun({
        project_id: project,
        deployment_id: d.id,
        revision_id: null,
        created_by: alice.id,
      })
      expect(run).toMatchObject({ status: 'running', finished_at: null, duration_ms: null })
      expect(run.id).toMatch(/^run_[0-9a-f]{24}$/)
      expect(await store.deployments.startRun(run.id)).toBe(true)

      const outcome: RunOutcome = {
        status: 'succeeded',
        error: null,
        manifest: JSON.stringify({ parseIssues: [] }),
        log: 'listening',
        finishedAt: new Date().toISOString(),
        durationMs: 12,
      }
      const files = ['src/b.ts', 'a.ts', 'src/same.ts'].map((path, i) => {
        const data = bytes(i === 2 ? 'export {}' : `file ${path}`)
        return { path, size: data.byteLength, sha256: sha256(data), data }
      })
      // Two artifacts with the same bytes share one blob.
      files.push({ ...files[2]!, path: 'z/same-again.ts' })
      expect(await store.deployments.finishRun(run.id, outcome, files)).toBe(true)

      const read = await store.deployments.run(project, run.id)
      expect(read).toMatchObject({
        status: 'succeeded',
        manifest: outcome.manifest,
        log: 'listening',
        duration_ms: 12,
        version: '1.0.0',
        created_by_handle: 'alice',
      })
      const artifacts = await store.deployments.artifacts(run.id)
      expect(artifacts.map((a) => a.path)).toEqual([
        'a.ts',
        'src/b.ts',
        'src/same.ts',
        'z/same-again.ts',
      ])
      const one = await store.deployments.artifact(run.id, 'src/b.ts')
      expect(one).toEqual({ path: 'src/b.ts', size: 13, sha256: sha256('file src/b.ts') })
      expect(new TextDecoder().decode(await store.blobs.get(one!.sha256))).toBe('file src/b.ts')
      expect(await store.deployments.artifact(run.id, 'missing.ts')).toBeUndefined()

      const failed = { ...outcome, status: 'failed' as const, error: 'late' }
      expect(await store.deployments.finishRun(run.id, failed, [])).toBe(false)
      expect((await store.deployments.run(project, run.id))?.status).toBe('succeeded')
      expect(await store.deployments.startRun(run.id)).toBe(false)
      expect((await store.deployments.runs(project)).map((r) => r.id)).toEqual([run.id])
    })

    it('a run keeps the revision it used, with its number; one without a revision has none', async () => {
      const store = current()
      const { alice, api, project, v1 } = await seed(store)
      const d = await store.deployments.createDeployment({
        project_id: project,
        stack_version_id: v1,
        created_by: alice.id,
      })
      const push = (document: string, previous: string | null) =>
        store.apis.appendRevision(revisionRow(api.id, alice.id, document, previous))
      const first = await push('one', null)
      const second = await push('two', first.id)
      const newRun = (revision: string | null) =>
        store.deployments.createRun({
          project_id: project,
          deployment_id: d.id,
          revision_id: revision,
          created_by: alice.id,
        })
      const onSecond = await newRun(second.id)
      const onFirst = await newRun(first.id)
      const onNone = await newRun(null)
      // A later revision does not change what an earlier run used.
      await push('three', second.id)

      expect(await store.deployments.run(project, onSecond.id)).toMatchObject({
        revision_id: second.id,
        revision_seq: 2,
      })
      expect(await store.deployments.run(project, onNone.id)).toMatchObject({
        revision_id: null,
        revision_seq: null,
      })
      const listed = await store.deployments.runs(project)
      expect(
        Object.fromEntries(listed.map((r) => [r.id, [r.revision_id, r.revision_seq]])),
      ).toEqual({
        [onSecond.id]: [second.id, 2],
        [onFirst.id]: [first.id, 1],
        [onNone.id]: [null, null],
      })
    })

    it('failRunsStartedBefore fails only running runs that started before the moment', async () => {
      const store = current()
      const { alice, project, v1 } = await seed(store)
      const d = await store.deployments.createDeployment({
        project_id: project,
        stack_version_id: v1,
        created_by: alice.id,
      })
      const newRun = () =>
        store.deployments.createRun({
          project_id: project,
          deployment_id: d.id,
          revision_id: null,
          created_by: alice.id,
        })
      const old = await newRun()
      const done = await newRun()
      await store.deployments.finishRun(done.id, {
        status: 'succeeded',
        error: null,
        manifest: null,
        log: null,
        finishedAt: new Date().toISOString(),
        durationMs: 1,
      })
      await store.deployments.startRun(old.id, '2000-01-01T00:00:00.000Z')
      const fresh = await newRun()

      const count = await store.deployments.failRunsStartedBefore(
        '2001-01-01T00:00:00.000Z',
        'the hub stopped during the run',
      )
      expect(count).toBe(1)
      expect(await store.deployments.run(project, old.id)).toMatchObject({
        status: 'failed',
        error: 'the hub stopped during the run',
      })
      expect((await store.deployments.run(project, done.id))?.status).toBe('succeeded')
      expect((await store.deployments.run(project, fresh.id))?.status).toBe('running')
    })
  })
}

/** alice's projects `my-app` and `other` of stack acme/web with versions 1.0.0 and 2.0.0. */
export async function seed(store: Store) {
  const alice = await store.accounts.create('alice', 'user')
  const stack = await store.stacks.ensure(alice.id, 'web')
  const version = async (v: string, bundle: string) => {
    const sha = await store.blobs.put(bytes(bundle))
    const row = await store.stacks.insertVersion(
      {
        stack_id: stack.id,
        version: v,
        bundle_sha256: sha,
        bundle_bytes: bundle.length,
        source_file_count: 0,
        source_total_bytes: 0,
        composition: '[]',
        manifest_path: 'deno.json',
        published_by: alice.id,
        published_at: new Date().toISOString(),
      },
      [],
    )
    return row.id
  }
  const v1 = await version('1.0.0', 'bundle 1')
  const v2 = await version('2.0.0', 'bundle 2')
  const api = await store.apis.create({
    account_id: alice.id,
    slug: 'petstore',
    name: 'Petstore',
    visibility: 'private',
    source_url: null,
  })
  const project = async (slug: string, owner: AccountRow) =>
    (
      await store.projects.create({
        account_id: owner.id,
        slug,
        stack_id: stack.id,
        stack_version: 'latest',
        api_id: api.id,
        config: '{"settings":{},"enrichments":[]}',
        created_by: owner.id,
      })
    ).id
  return {
    alice,
    api,
    v1,
    v2,
    project: await project('my-app', alice),
    other: await project('other', alice),
  }
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}
