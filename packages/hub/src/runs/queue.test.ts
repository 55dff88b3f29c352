import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openFreshStore } from '../../test/support/databases.js'
import { eventually } from '../../test/support/poll.js'
import type { RunSettings } from '../config.js'
import { DEFAULT_QUOTAS } from '../quotas/table.js'
import type { QuotaLimits } from '../quotas/settings.js'
import { revisionRow } from '../store/apis-repo.case.js'
import { seed } from '../store/deployments-repo.case.js'
import type { Store } from '../store/store.js'
import { INTERRUPTED, RunQueue, type Admission, type RunTicket } from './queue.js'
import type { RunInput, RunResult } from './runner.js'

const SETTINGS: RunSettings = {
  timeoutMs: 60_000,
  memoryMb: 256,
  maxOutputBytes: 1024 * 1024,
  sandbox: 'unsafe-none',
}
const QUOTAS = Object.fromEntries(DEFAULT_QUOTAS.map((r) => [r.id, r.defaultLimit])) as QuotaLimits
const SILENT = { error: () => {}, info: () => {} }

/**
 * The run queue over a real store (SQLite in memory), with runs that the test ends by hand in
 * place of processes (the real runner is tested in runner.test.ts and the e2e tests): which run
 * starts when, and what each run's row says at the end.
 */
describe('RunQueue', () => {
  let store: Store
  let cleanup: () => Promise<void>
  let fixture: Awaited<ReturnType<typeof seed>>
  let deployment: string
  const started: string[] = []
  const endings = new Map<string, (result: RunResult) => void>()

  beforeEach(async () => {
    ;({ store, cleanup } = await openFreshStore('sqlite'))
    fixture = await seed(store)
    deployment = (
      await store.deployments.createDeployment({
        project_id: fixture.project,
        stack_version_id: fixture.v1,
        created_by: fixture.alice.id,
      })
    ).id
    await store.apis.appendRevision(revisionRow(fixture.api.id, fixture.alice.id))
    started.length = 0
    endings.clear()
  })
  afterEach(() => cleanup())

  /** A runner whose runs wait for `end(name)`; a stopped hub's run ends as the real one does. */
  function runner(input: RunInput): Promise<RunResult> {
    const name = new TextDecoder().decode(input.bundle)
    started.push(name)
    return new Promise((resolve) => {
      endings.set(name, resolve)
      input.signal?.addEventListener('abort', () =>
        resolve({ ok: false, reason: INTERRUPTED, log: '', durationMs: 1 }),
      )
    })
  }

  function end(name: string, artifacts: Record<string, string> = {}): void {
    const files = Object.entries(artifacts).map(([path, text]) => {
      const data = new TextEncoder().encode(text)
      const sha256 = createHash('sha256').update(data).digest('hex')
      return { path, size: data.byteLength, sha256, data }
    })
    endings.get(name)!({ ok: true, artifacts: files, manifest: {}, log: 'ok', durationMs: 2 })
  }

  function queue(options: { perAccount: number; maxWaiting: number }, settings = SETTINGS) {
    return new RunQueue({
      store,
      settings,
      queue: options,
      quotas: QUOTAS,
      log: SILENT,
      run: runner,
    })
  }

  /** Admits a run of `account`, stores it, queues it with a bundle named `name`; answers its id. */
  async function ask(runs: RunQueue, account: string, name: string): Promise<string> {
    const admission = runs.admit(account)
    if (!admission.ok) throw new Error(`${name} was refused: ${admission.full}`)
    return enqueue(admission.ticket, name)
  }

  async function enqueue(ticket: RunTicket, name: string): Promise<string> {
    const bundle = await store.blobs.put(new TextEncoder().encode(name))
    const latest = await store.apis.latestRevision(fixture.api.id)
    const run = await store.deployments.createRun({
      project_id: fixture.project,
      deployment_id: deployment,
      revision_id: latest!.id,
      created_by: fixture.alice.id,
    })
    ticket.enqueue({
      runId: run.id,
      owner: 'alice',
      bundleSha256: bundle,
      document: { sha256: latest!.content_hash, protocol: 'oas' },
      clientSettings: {},
    })
    return run.id
  }

  const status = async (id: string) => (await store.deployments.run(fixture.project, id))!

  it("another account's first run goes right after the run in progress, however full the first account's queue", async () => {
    const runs = queue({ perAccount: 3, maxWaiting: 10 })
    await ask(runs, 'user:a', 'a1')
    await ask(runs, 'user:a', 'a2')
    await ask(runs, 'user:a', 'a3')
    expect(runs.admit('user:a')).toEqual({ ok: false, full: 'account', limit: 3 })
    const b1 = await ask(runs, 'user:b', 'b1')
    await eventually(() => (started.length === 1 ? true : undefined), 'a1 starts')
    end('a1')
    await eventually(() => (started.length === 2 ? true : undefined), 'the next run starts')
    expect(started).toEqual(['a1', 'b1'])
    end('b1')
    await eventually(() => (started.length === 3 ? true : undefined), 'a2 starts')
    end('a2')
    await eventually(() => (started.length === 4 ? true : undefined), 'a3 starts')
    end('a3')
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3'])
    expect((await status(b1)).status).toBe('succeeded')
    await eventually(() => (runs.admit('user:a').ok ? true : undefined), "a's queue frees")
  })

  it('an account at its cap is refused while others are admitted; a released place is free again', async () => {
    const runs = queue({ perAccount: 1, maxWaiting: 10 })
    const first = runs.admit('user:a')
    expect(first.ok).toBe(true)
    // The place is taken from the admission on, before the run is stored.
    expect(runs.admit('user:a')).toEqual({ ok: false, full: 'account', limit: 1 })
    expect(runs.admit('user:b').ok).toBe(true)
    ;(first as Extract<Admission, { ok: true }>).ticket.release()
    expect(runs.admit('user:a').ok).toBe(true)
  })

  it("past the hub's bound on waiting runs, every account is refused until one starts", async () => {
    const runs = queue({ perAccount: 5, maxWaiting: 2 })
    await ask(runs, 'user:a', 'a1')
    await eventually(() => (started.length === 1 ? true : undefined), 'a1 starts')
    await ask(runs, 'user:a', 'a2')
    await ask(runs, 'user:b', 'b1')
    expect(runs.waiting).toBe(2)
    expect(runs.admit('user:c')).toEqual({ ok: false, full: 'hub', limit: 2 })
    end('a1')
    await eventually(() => (started.length === 2 ? true : undefined), 'the next run starts')
    expect(runs.admit('user:c').ok).toBe(true)
  })

  it('stop fails the run in progress and the waiting ones: the hub stopped; then it admits none', async () => {
    const runs = queue({ perAccount: 3, maxWaiting: 10 })
    const ids = [
      await ask(runs, 'user:a', 'a1'),
      await ask(runs, 'user:a', 'a2'),
      await ask(runs, 'user:b', 'b1'),
    ]
    await eventually(() => (started.length === 1 ? true : undefined), 'a1 starts')
    await runs.stop()
    for (const id of ids) {
      expect(await status(id)).toMatchObject({ status: 'failed', error: INTERRUPTED })
    }
    expect(started).toEqual(['a1'])
    expect(runs.admit('user:c')).toEqual({ ok: false, full: 'stopped', limit: 0 })
  })

  it('a run that waits longer than its deadline fails and says why; the one in progress goes on', async () => {
    // maxWaitMs is the time limit × (maxWaiting + 1): 100 ms here.
    const runs = queue({ perAccount: 3, maxWaiting: 1 }, { ...SETTINGS, timeoutMs: 50 })
    expect(runs.maxWaitMs).toBe(100)
    const a1 = await ask(runs, 'user:a', 'a1')
    await eventually(() => (started.length === 1 ? true : undefined), 'a1 starts')
    const b1 = await ask(runs, 'user:b', 'b1')
    const failed = await eventually(async () => {
      const row = await status(b1)
      return row.status === 'failed' ? row : undefined
    }, 'b1 fails')
    expect(failed.error).toBe(
      'The run waited 0 s for its turn, the longest a run waits; the hub was busy with other runs. Run it again.',
    )
    expect((await status(a1)).status).toBe('running')
    end('a1', { 'a.ts': 'export {}' })
    await eventually(
      async () => ((await status(a1)).status === 'succeeded' ? true : undefined),
      'a1',
    )
    expect(started).toEqual(['a1'])
  })

  it("a run whose artifacts pass the project owner's quota fails, names the quota, and stores none", async () => {
    const runs = new RunQueue({
      store,
      settings: SETTINGS,
      queue: { perAccount: 3, maxWaiting: 10 },
      quotas: { ...QUOTAS, runArtifactBytes: 10 },
      log: SILENT,
      run: runner,
    })
    const id = await ask(runs, 'user:a', 'a1')
    await eventually(() => (started.length === 1 ? true : undefined), 'a1 starts')
    end('a1', { 'big.ts': 'x'.repeat(11) })
    const row = await eventually(async () => {
      const run = await status(id)
      return run.status === 'running' ? undefined : run
    }, 'the run ends')
    expect(row).toMatchObject({ status: 'failed', log: 'ok', duration_ms: 2, artifact_count: 0 })
    expect(row.error).toBe(
      "This would take alice past its quota of 10 B of run artifacts (the hub's default, SVC_HUB_QUOTA_RUN_ARTIFACT_BYTES): it stores 0 B, and this adds 11 B. No artifacts were stored.",
    )
    expect(await store.deployments.artifacts(id)).toEqual([])
    expect(await store.usage.usage(fixture.alice.id)).toEqual({})
  })
})
