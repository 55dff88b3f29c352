import { createHash } from 'node:crypto'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openFreshStore } from '../../test/support/databases.js'
import { seed } from '../store/deployments-repo.case.js'
import type { Store } from '../store/store.js'
import { ArtifactRetention } from './artifact-retention.js'

const DAY_MS = 86_400_000
const NOW = Date.UTC(2026, 11, 31)

/** The cleanup of run artifacts over a real store (SQLite in memory), with a clock it is given. */
describe('ArtifactRetention', () => {
  let store: Store
  let cleanup: () => Promise<void>
  const logged: { level: number; msg: string; [field: string]: unknown }[] = []
  const log = pino(
    { base: null, timestamp: false },
    { write: (line) => logged.push(JSON.parse(line)) },
  )

  beforeEach(async () => {
    ;({ store, cleanup } = await openFreshStore('sqlite'))
    logged.length = 0
  })
  afterEach(() => cleanup())

  /** `count` succeeded runs of one deployment, one a day back from NOW, each with its own artifact. */
  async function runsOfDays(count: number): Promise<string[]> {
    const { alice, project, v1 } = await seed(store)
    const deployment = await store.deployments.createDeployment({
      project_id: project,
      stack_version_id: v1,
      created_by: alice.id,
    })
    const ids: string[] = []
    for (let day = count; day >= 1; day--) {
      const at = new Date(NOW - day * DAY_MS).toISOString()
      const run = await store.deployments.createRun({
        project_id: project,
        deployment_id: deployment.id,
        revision_id: null,
        created_by: alice.id,
      })
      await store.deployments.startRun(run.id, at)
      const data = new TextEncoder().encode(`day ${day}`)
      const sha256 = createHash('sha256').update(data).digest('hex')
      const outcome = { status: 'succeeded' as const, error: null, manifest: '{}', log: null }
      await store.deployments.finishRun(run.id, { ...outcome, finishedAt: at, durationMs: 1 }, [
        { path: 'a.ts', size: data.byteLength, sha256, data },
      ])
      ids.push(run.id)
    }
    return ids
  }

  const kept = async (ids: readonly string[]) => {
    const out: boolean[] = []
    for (const id of ids) out.push((await store.deployments.artifacts(id)).length > 0)
    return out
  }

  it('removes, batch after batch, all but the newest keepRuns of a deployment', async () => {
    const ids = await runsOfDays(120)
    const retention = new ArtifactRetention({
      store,
      settings: { keepRuns: 10, maxAgeDays: 0, intervalMs: 60_000 },
      log,
      clock: () => NOW,
    })
    // Days 11 to 120 go: 'day 11' … 'day 99' are 6 bytes, 'day 100' … 'day 120' 7.
    expect(await retention.sweep()).toEqual({ runs: 110, files: 110, bytes: 681, blobs: 110 })
    expect((await kept(ids)).filter(Boolean)).toHaveLength(10)
    expect((await kept(ids)).slice(-10)).toEqual(Array(10).fill(true))
    expect(logged).toEqual([
      {
        level: 30,
        msg: 'run artifacts removed by the retention rule',
        runs: 110,
        files: 110,
        bytes: 681,
        blobs: 110,
      },
    ])
    // Nothing left to do: a second sweep removes nothing and logs nothing.
    expect(await retention.sweep()).toMatchObject({ runs: 0 })
    expect(logged).toHaveLength(1)
  })

  it('removes the artifacts of runs older than maxAgeDays, by the clock', async () => {
    const ids = await runsOfDays(5)
    const retention = new ArtifactRetention({
      store,
      settings: { keepRuns: 0, maxAgeDays: 3, intervalMs: 60_000 },
      log,
      clock: () => NOW,
    })
    expect((await retention.sweep()).runs).toBe(2)
    expect(await kept(ids)).toEqual([false, false, true, true, true])
  })

  it('a store that fails is logged as a warning and the sweep ends; nothing is thrown', async () => {
    await runsOfDays(3)
    const retention = new ArtifactRetention({
      store,
      settings: { keepRuns: 1, maxAgeDays: 0, intervalMs: 60_000 },
      log,
    })
    await store.close()
    expect(await retention.sweep()).toEqual({ runs: 0, files: 0, bytes: 0, blobs: 0 })
    expect(logged).toEqual([
      {
        level: 40,
        msg: 'run artifact cleanup failed; trying again at the next sweep',
        err: expect.objectContaining({ message: expect.any(String) }),
      },
    ])
  })

  it('with both rules off it is disabled and start does nothing', async () => {
    const retention = new ArtifactRetention({
      store,
      settings: { keepRuns: 0, maxAgeDays: 0, intervalMs: 60_000 },
      log,
    })
    expect(retention.enabled).toBe(false)
    retention.start()
    await retention.stop()
    expect(logged).toEqual([])
  })
})
