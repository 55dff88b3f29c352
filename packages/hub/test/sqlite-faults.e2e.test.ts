import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PASSWORD } from './support/browser.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { holdSqliteWriteLock, type HeldLock } from './support/sqlite-lock.js'
import {
  createApi,
  createWebhook,
  expectConsistentChain,
  publishVersion,
  pushDocument,
  taggedDocument,
} from './support/workload.js'
import { WebSession } from './support/web-session.js'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function hub(options: Parameters<typeof startHub>[1] = {}): Promise<HubProcess> {
  const started = await startHub('sqlite', {
    ...options,
    env: { SVC_HUB_RATE_LIMITS: 'off', ...options.env },
  })
  cleanups.push(() => started.dispose())
  return started
}

/** The queries of `hub` waiting now for another process's lock, from its metrics. */
async function lockWaiting(hub: HubProcess): Promise<number> {
  const metrics = await call(`${hub.url}/metrics`)
  return Number(/^svc_hub_store_lock_waiting (\d+)$/m.exec(metrics.text)?.[1])
}

/** A 503 `unavailable` with `Retry-After` of `seconds`, as docs/hub/running.md promises. */
function expectUnavailable(reply: Reply, seconds: string) {
  expect(reply.status, reply.text).toBe(503)
  expect(reply.body.code).toBe('unavailable')
  expect(reply.headers.get('retry-after')).toBe(seconds)
}

describe('SQLite: another process holds the write lock', () => {
  it('a push waits without stopping the hub: reads answer meanwhile, the push gets 503 at the busy timeout and 201 once the lock is free', async () => {
    // No webhook dispatcher: its claims would wait for the lock too, and the push is the one
    // waiter this test watches.
    const running = await hub({
      env: { SVC_HUB_SQLITE_BUSY_TIMEOUT_MS: '6000' },
      args: ['--no-dispatcher'],
    })
    const token = running.adminPat
    await createApi(running, 'locked')
    expect((await pushDocument(running, 'locked', taggedDocument('a'))).status).toBe(201)

    let lock: HeldLock | undefined = await holdSqliteWriteLock(join(running.dataDir, 'hub.db'))
    cleanups.push(() => lock?.release() ?? Promise.resolve())
    const push = pushDocument(running, 'locked', taggedDocument('b'))
    await eventually(
      async () => ((await lockWaiting(running)) >= 1 ? true : undefined),
      'the push waiting for the lock',
    )
    // While the push waits, and the lock is held: liveness, readiness and authenticated reads.
    expect((await call(`${running.url}/healthz`)).status).toBe(200)
    expect((await call(`${running.url}/readyz`)).status).toBe(200)
    expect((await call(`${running.url}/v1/user`, { token })).status).toBe(200)
    const revisions = await call(`${running.url}/v1/apis/admin/locked/revisions`, { token })
    expect(revisions.status).toBe(200)
    expect(revisions.body.revisions).toHaveLength(1)
    // … and the push was still waiting when they were answered.
    expect(await lockWaiting(running)).toBeGreaterThanOrEqual(1)

    expectUnavailable(await push, '1')
    await eventually(
      async () => ((await lockWaiting(running)) === 0 ? true : undefined),
      'nothing waiting for the lock',
    )
    await eventually(
      () => (running.stdout().includes('"msg":"store unavailable"') ? true : undefined),
      'the hub to log the outage',
    )

    await lock.release()
    lock = undefined
    expect((await pushDocument(running, 'locked', taggedDocument('c'))).status).toBe(201)
    expect(await expectConsistentChain(running, 'locked')).toBe(2)
  })
})

/** Whether this machine lets a test mount a tmpfs in a namespace of its own (util-linux unshare). */
const canMount =
  spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$0"', tmpdir()])
    .status === 0
if (!canMount && process.env.CI === 'true') {
  // CI runs as root with user namespaces (bubblewrap needs them too): a skip there would hide a
  // broken machine, not a missing feature.
  throw new Error('CI=true but `unshare -rm` cannot mount a tmpfs: the full-disk test cannot run')
}
if (!canMount) {
  console.warn(
    '[hub tests] skipping the full-disk test: `unshare -rm` cannot mount a tmpfs here (it needs user namespaces)',
  )
}

describe.skipIf(!canMount)('SQLite: the disk is full', () => {
  it('writes answer 503 with Retry-After, reads go on, nothing is half-written, and writes work again once there is space', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-hub-full-'))
    // The hub's data dir is an 8 MiB tmpfs of its own mount namespace; the test reaches it
    // through the hub's /proc/<pid>/root.
    const running = await hub({
      reuse: { dataDir, schema: undefined },
      under: [
        'unshare',
        '-rm',
        'sh',
        '-c',
        `mount -t tmpfs -o size=8m tmpfs ${dataDir} && exec "$0" "$@"`,
      ],
    })
    const token = running.adminPat
    const seen = join(`/proc/${running.pid}/root`, dataDir)
    await createApi(running, 'full')
    await createWebhook(running, 'full', 'http://127.0.0.1:9/hook')
    const hooks = await call(`${running.url}/v1/apis/admin/full/webhooks`, { token })
    const hookId = (hooks.body.webhooks as { id: string }[])[0]!.id
    expect((await pushDocument(running, 'full', taggedDocument('a'))).status).toBe(201)
    expect((await publishVersion(running, 'tools', '1.0.0')).status).toBe(201)

    // Everything written so far moved into hub.db and the WAL emptied, so that any write must
    // grow a file; then a filler takes every free block. The hub is stopped meanwhile: a write
    // of its own in between (its dispatcher's) would leave WAL space that the next write, once
    // its checkpoint thread has copied it, could use again. It may be stopped holding a lock
    // (inside a checkpoint or a write of its own): then it goes on a moment, and the WAL is
    // emptied again.
    const filler = join(seen, 'filler')
    await eventually(async () => {
      process.kill(running.pid, 'SIGSTOP')
      const emptied = emptyWal(running.pid, join(dataDir, 'hub.db'))
      if (emptied?.busy === 0 && emptied.log === 0) return true
      process.kill(running.pid, 'SIGCONT')
      await new Promise((resolve) => setTimeout(resolve, 20))
      return undefined
    }, 'the WAL to be emptied')
    try {
      expect(() => writeFileSync(filler, Buffer.alloc(16 << 20))).toThrow(/ENOSPC/)
      expect(statfsSync(seen).bavail).toBe(0)
    } finally {
      process.kill(running.pid, 'SIGCONT')
    }

    expectUnavailable(await pushDocument(running, 'full', taggedDocument('b')), '5')
    expectUnavailable(await publishVersion(running, 'tools', '1.0.1'), '5')
    const testEvent = await call(`${running.url}/v1/apis/admin/full/webhooks/${hookId}/test`, {
      method: 'POST',
      token,
    })
    expectUnavailable(testEvent, '5')
    const created = await call(`${running.url}/v1/apis`, {
      method: 'POST',
      token,
      json: { owner: 'admin', slug: 'more', name: 'more', visibility: 'private' },
    })
    expectUnavailable(created, '5')
    const signUp = await new WebSession(running.url).submit('/signup', {
      handle: 'newcomer',
      password: PASSWORD,
      confirm: PASSWORD,
    })
    expect(signUp.status).toBe(503)
    expect(signUp.headers.get('retry-after')).toBe('5')
    expect(signUp.text).toContain('Try again shortly')
    // The process is alive and reads work.
    expect((await call(`${running.url}/healthz`)).status).toBe(200)
    expect((await call(`${running.url}/readyz`)).status).toBe(200)
    expect(await expectConsistentChain(running, 'full')).toBe(1)
    await eventually(
      () => (running.stdout().includes('"msg":"store unavailable"') ? true : undefined),
      'the hub to log the outage',
    )
    expect(running.stdout()).not.toMatch(/cannot rollback|"msg":"unhandled error"/)

    rmSync(filler)
    expect((await pushDocument(running, 'full', taggedDocument('c'))).status).toBe(201)
    expect((await publishVersion(running, 'tools', '1.0.1')).status).toBe(201)
    const again = await call(`${running.url}/v1/apis/admin/full/webhooks/${hookId}/test`, {
      method: 'POST',
      token,
    })
    expect(again.status, again.text).toBe(202)
    expect(await expectConsistentChain(running, 'full')).toBe(2)
    expect((await call(`${running.url}/v1/apis/admin/more`, { token })).status).toBe(404)
    await new WebSession(running.url).signUp('newcomer')
  })
})

/**
 * Copies the WAL of the SQLite `file` of the process `pid` into it and truncates it
 * (`wal_checkpoint(TRUNCATE)`), from inside the process's mount namespace (nsenter): SQLite
 * resolves the symlink `/proc/<pid>/root` to this namespace's `/`, and would open another file.
 * Answers SQLite's result; undefined when the checkpoint could not run.
 */
function emptyWal(pid: number, file: string): { busy: number; log: number } | undefined {
  const script = `const db = new (require(${JSON.stringify(BETTER_SQLITE3)}))(process.argv[1])
console.log(JSON.stringify(db.pragma('wal_checkpoint(TRUNCATE)')[0]))`
  const run = spawnSync('nsenter', ['-t', String(pid), '-m', process.execPath, '-e', script, file])
  if (run.status !== 0) return undefined
  return JSON.parse(run.stdout.toString('utf8')) as { busy: number; log: number }
}

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3')
