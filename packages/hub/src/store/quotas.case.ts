import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { undoDiffProfiles } from './diff-profiles.case.js'
import { revisionRow } from './apis-repo.case.js'
import { seed } from './deployments-repo.case.js'
import type { RunOutcome } from './deployments-repo.js'
import { openStore, type StoreOptions } from './open-store.js'
import type { Store } from './store.js'
import { OverQuota, type ChargeLimits } from './usage-repo.js'

const LIMITS: ChargeLimits = {
  items: { quota: 'runArtifacts', limit: 3 },
  bytes: { quota: 'runArtifactBytes', limit: 100 },
}

const SUCCEEDED: RunOutcome = {
  status: 'succeeded',
  error: null,
  manifest: '{}',
  log: null,
  finishedAt: '2026-12-01T00:00:00.000Z',
  durationMs: 5,
}

/**
 * The storage contract of quotas (usage counters, the accounts' own limits) and of the
 * retention of run artifacts, part of `runStoreTests` (`store.case.ts`), so it runs on every
 * engine. `current()` is the store of the running test and the options that open it again.
 */
export function runQuotaStoreTests(current: () => { store: Store; options: StoreOptions }): void {
  describe('UsageRepo', () => {
    it('charges add usage; past a limit nothing changes and the refusal says where it stands', async () => {
      const { store } = current()
      const { alice } = await seed(store)
      const charge = (items: number, bytes: number) =>
        store.usage.charge(alice.id, 'runArtifacts', { items, bytes }, LIMITS)
      expect(await charge(2, 60)).toBeUndefined()
      expect(await charge(1, 50)).toEqual({
        quota: 'runArtifactBytes',
        used: 60,
        limit: 100,
        adding: 50,
        custom: false,
      })
      expect(await charge(2, 10)).toMatchObject({ quota: 'runArtifacts', used: 2, adding: 2 })
      expect(await store.usage.usage(alice.id)).toEqual({
        runArtifacts: { items: 2, bytes: 60 },
      })
      // Giving back is never refused, and a limit is checked only when its amount grows.
      expect(await charge(-1, -20)).toBeUndefined()
      await store.usage.charge(alice.id, 'runArtifacts', { items: 5, bytes: 0 })
      expect(await charge(-1, 10)).toBeUndefined()
      expect(await store.usage.usage(alice.id)).toEqual({
        runArtifacts: { items: 5, bytes: 50 },
      })
    })

    it("an account's own limit replaces the default; 0 is no limit; other accounts keep theirs", async () => {
      const { store } = current()
      const { alice } = await seed(store)
      const bob = await store.accounts.create('bob', 'user')
      await store.usage.charge(alice.id, 'runArtifacts', { items: 0, bytes: 100 })
      const more = { items: 0, bytes: 10 }
      expect(await store.usage.charge(alice.id, 'runArtifacts', more, LIMITS)).toMatchObject({
        custom: false,
      })
      await store.usage.setOverride(alice.id, 'runArtifactBytes', 105)
      expect(await store.usage.overrides(alice.id)).toEqual({ runArtifactBytes: 105 })
      expect(await store.usage.charge(alice.id, 'runArtifacts', more, LIMITS)).toEqual({
        quota: 'runArtifactBytes',
        used: 100,
        limit: 105,
        adding: 10,
        custom: true,
      })
      await store.usage.setOverride(alice.id, 'runArtifactBytes', 0)
      expect(await store.usage.charge(alice.id, 'runArtifacts', more, LIMITS)).toBeUndefined()
      expect(
        await store.usage.charge(bob.id, 'runArtifacts', { items: 1, bytes: 101 }, LIMITS),
      ).toMatchObject({ quota: 'runArtifactBytes', custom: false })
      expect(await store.usage.deleteOverride(alice.id, 'runArtifactBytes')).toBe(true)
      expect(await store.usage.deleteOverride(alice.id, 'runArtifactBytes')).toBe(false)
      expect(await store.usage.overrides(alice.id)).toEqual({})
    })

    it('concurrent charges, from two pools on PostgreSQL, never pass the limit together', async () => {
      const { store, options } = current()
      const { alice } = await seed(store)
      // SQLite: one connection per process (a second one would wait on this thread's own lock).
      const second = store.capabilities.rowLocks ? await openStore(options) : store
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            (i % 2 ? second : store).transaction((tx) =>
              tx.usage.charge(alice.id, 'runArtifacts', { items: 1, bytes: 1 }, LIMITS),
            ),
          ),
        )
        expect(outcomes.filter((o) => o === undefined)).toHaveLength(3)
        expect(await store.usage.usage(alice.id)).toEqual({
          runArtifacts: { items: 3, bytes: 3 },
        })
      } finally {
        if (second !== store) await second.close()
      }
    })

    it('recount makes the usage what the records hold', async () => {
      const { store } = current()
      const { alice, project, v1, api } = await seed(store)
      await store.apis.appendRevision(revisionRow(api.id, alice.id, 'openapi: 3.1.0'))
      const run = await finishedRun(store, project, v1, alice.id, ['a', 'bb'])
      expect(run).toBeDefined()
      await store.projects.replaceBaseFiles(project, [
        { path: 'x.ts', size: 1, sha256: await store.blobs.put(bytes('x')) },
      ])
      await store.usage.charge(alice.id, 'revisions', { items: 40, bytes: 4000 })
      const counted = await store.transaction((tx) =>
        tx.usage.recount(alice.id, store.capabilities.rowLocks),
      )
      const expected = {
        revisions: { items: 1, bytes: 14 },
        // seed's two versions: bundle 1 and bundle 2, no source files.
        stackVersions: { items: 2, bytes: 16 },
        runArtifacts: { items: 2, bytes: 3 },
        baseFiles: { items: 1, bytes: 1 },
      }
      expect(counted).toEqual(expected)
      expect(await store.usage.usage(alice.id)).toEqual(expected)
    })
  })

  describe('run artifacts under quota', () => {
    it('a run within the quota stores its artifacts and counts them for the project owner', async () => {
      const { store } = current()
      const { alice, project, v1 } = await seed(store)
      const run = await finishedRun(store, project, v1, alice.id, ['one', 'two'], LIMITS)
      expect(await store.deployments.run(project, run)).toMatchObject({
        status: 'succeeded',
        artifact_count: 2,
        artifacts_pruned_at: null,
      })
      expect(Number((await store.deployments.run(project, run))?.artifact_bytes)).toBe(6)
      expect(await store.usage.usage(alice.id)).toEqual({ runArtifacts: { items: 2, bytes: 6 } })
    })

    it('a run past the quota throws OverQuota and writes nothing: still running, no artifact, no blob', async () => {
      const { store } = current()
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
      const files = artifacts(['x'.repeat(60), 'y'.repeat(50)])
      const finishing = store.deployments.finishRun(run.id, SUCCEEDED, files, LIMITS)
      await expect(finishing).rejects.toThrow(OverQuota)
      await finishing.catch((error: OverQuota) =>
        expect(error.refusal).toEqual({
          quota: 'runArtifactBytes',
          used: 0,
          limit: 100,
          adding: 110,
          custom: false,
        }),
      )
      expect((await store.deployments.run(project, run.id))?.status).toBe('running')
      expect(await store.deployments.artifacts(run.id)).toEqual([])
      expect(await store.blobs.get(files[0]!.sha256)).toBeUndefined()
      expect(await store.usage.usage(alice.id)).toEqual({})
    })
  })

  describe('RetentionRepo', () => {
    it('keepRuns: the newest runs with artifacts of each deployment keep theirs', async () => {
      const { store } = current()
      const { alice, project, v1, v2 } = await seed(store)
      const a: string[] = []
      for (const i of [1, 2, 3]) {
        a.push(await finishedRun(store, project, v1, alice.id, [`a${i}`], undefined, i))
      }
      const b = await finishedRun(store, project, v2, alice.id, ['b1'], undefined, 4)
      const rule = { keepRuns: 2, finishedBefore: undefined }
      expect(await store.retention.prunable(rule, 10)).toEqual([a[0]])
      expect(
        await store.retention.prunable({ keepRuns: 1, finishedBefore: undefined }, 10),
      ).toEqual([a[0], a[1]])
      expect(
        await store.retention.prunable({ keepRuns: 0, finishedBefore: undefined }, 10),
      ).toEqual([])
      // By age: finished before the moment, whatever their rank.
      const old = { keepRuns: 0, finishedBefore: at(3) }
      expect(await store.retention.prunable(old, 10)).toEqual([a[0], a[1]])
      expect(await store.retention.prunable({ keepRuns: 2, finishedBefore: at(5) }, 10)).toEqual([
        a[0],
        a[1],
        a[2],
        b,
      ])
      expect(await store.retention.prunable({ keepRuns: 1, finishedBefore: at(5) }, 2)).toEqual([
        a[0],
        a[1],
      ])
    })

    it('prune removes the artifacts, marks the runs, gives the usage back and frees unshared blobs', async () => {
      const { store } = current()
      const { alice, project, v1, api } = await seed(store)
      const old = await finishedRun(store, project, v1, alice.id, ['only old', 'shared', 'doc'])
      const kept = await finishedRun(store, project, v1, alice.id, ['shared'])
      // A revision document with the same bytes as an artifact keeps the blob too.
      await store.apis.appendRevision(revisionRow(api.id, alice.id, 'doc'))
      const before = await store.usage.usage(alice.id)
      expect(before.runArtifacts).toEqual({ items: 4, bytes: 23 })

      const pruned = await store.retention.prune([old], '2026-12-10T00:00:00.000Z')
      expect(pruned).toEqual({ runs: 1, files: 3, bytes: 17, blobs: 1 })
      expect(await store.deployments.run(project, old)).toMatchObject({
        artifacts_pruned_at: '2026-12-10T00:00:00.000Z',
        status: 'succeeded',
      })
      expect(await store.deployments.artifacts(old)).toEqual([])
      expect(await store.deployments.artifacts(kept)).toHaveLength(1)
      expect(await store.blobs.get(sha256('only old'))).toBeUndefined()
      const text = async (hash: string) => new TextDecoder().decode(await store.blobs.get(hash))
      expect(await text(sha256('shared'))).toBe('shared')
      expect(await text(sha256('doc'))).toBe('doc')
      expect((await store.usage.usage(alice.id)).runArtifacts).toEqual({ items: 1, bytes: 6 })
      // Pruned runs are not found again, and pruning them again does nothing.
      expect(
        await store.retention.prunable({ keepRuns: 1, finishedBefore: undefined }, 10),
      ).toEqual([])
      expect(await store.retention.prune([old])).toEqual({ runs: 0, files: 0, bytes: 0, blobs: 0 })
    })

    it('two workers pruning the same runs at once remove them once', async () => {
      const { store, options } = current()
      const { alice, project, v1 } = await seed(store)
      const runs: string[] = []
      for (const i of [1, 2, 3, 4]) {
        runs.push(await finishedRun(store, project, v1, alice.id, [`r${i}`], undefined, i))
      }
      const second = store.capabilities.rowLocks ? await openStore(options) : store
      try {
        const results = await Promise.all([
          store.retention.prune(runs),
          second.retention.prune([...runs].reverse()),
        ])
        expect(results[0].runs + results[1].runs).toBe(4)
        expect(results[0].blobs + results[1].blobs).toBe(4)
        expect((await store.usage.usage(alice.id)).runArtifacts).toEqual({ items: 0, bytes: 0 })
      } finally {
        if (second !== store) await second.close()
      }
    })
  })

  describe('migration 0013', () => {
    it('counts what every account stored before it as its usage', async () => {
      const { store } = current()
      const { alice, project, v1, api } = await seed(store)
      await store.apis.appendRevision(revisionRow(api.id, alice.id, 'openapi: 3.1.0'))
      await finishedRun(store, project, v1, alice.id, ['abc', 'de'])
      // Back to the schema before 0013, with this data in it, then migrate again.
      const db = store.kysely
      await db.schema.dropTable('account_usage').execute()
      await db.schema.dropTable('quota_overrides').execute()
      for (const index of ['run_artifacts_blob', 'runs_deployment', 'revisions_content']) {
        await db.schema.dropIndex(index).execute()
      }
      for (const column of ['artifact_count', 'artifact_bytes', 'artifacts_pruned_at']) {
        await db.schema.alterTable('runs').dropColumn(column).execute()
      }
      await undoDiffProfiles(store)
      await sql`delete from kysely_migration where name >= '0013'`.execute(db)
      await store.migrate()
      expect(await store.usage.usage(alice.id)).toEqual({
        revisions: { items: 1, bytes: 14 },
        stackVersions: { items: 2, bytes: 16 },
        runArtifacts: { items: 2, bytes: 5 },
      })
      const [run] = await store.deployments.runs(project)
      expect(run).toMatchObject({ artifact_count: 2, artifacts_pruned_at: null })
      expect(Number(run?.artifact_bytes)).toBe(5)
    })
  })
}

/** A succeeded run of a new deployment of `version`, with one artifact per text, finished at `at(minute)`. */
async function finishedRun(
  store: Store,
  project: string,
  version: string,
  by: string,
  texts: readonly string[],
  limits?: ChargeLimits,
  minute = 0,
): Promise<string> {
  const deployments = await store.deployments.deployments(project)
  const deployment =
    deployments.find((d) => d.stack_version_id === version) ??
    (await store.deployments.createDeployment({
      project_id: project,
      stack_version_id: version,
      created_by: by,
    }))
  const run = await store.deployments.createRun({
    project_id: project,
    deployment_id: deployment.id,
    revision_id: null,
    created_by: by,
  })
  await store.deployments.startRun(run.id, at(minute))
  const finished = { ...SUCCEEDED, finishedAt: at(minute) }
  await store.deployments.finishRun(run.id, finished, artifacts(texts), limits)
  return run.id
}

function artifacts(texts: readonly string[]) {
  return texts.map((text, i) => {
    const data = bytes(text)
    return { path: `f${i}.ts`, size: data.byteLength, sha256: sha256(data), data }
  })
}

function at(minute: number): string {
  return new Date(Date.UTC(2026, 11, 1, 0, minute)).toISOString()
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}
