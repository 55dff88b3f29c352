// What another process holding the SQLite write lock costs the hub: while a second process holds
// `BEGIN IMMEDIATE` on hub.db for `--hold-seconds` (a long maintenance transaction, a script),
// `/healthz` and `GET /v1/user` (a PAT lookup: a read) are sent one after another by a few clients
// each, and pushes one after another (each waits for the lock up to SVC_HUB_SQLITE_BUSY_TIMEOUT_MS,
// then answers 503). The same reads for `--baseline-seconds` before, without the lock. Latency
// per request, p50/p99/max, and the pushes' statuses and times.
// Usage: node bench/sqlite-lock.js [--hold-seconds 20] [--baseline-seconds 5] [--busy-ms 5000]
//   [--clients 2] [--log-level info]
// SVC_BENCH_HUB_BIN runs another hub build.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import {
  call,
  describeRun,
  finishReport,
  fmt,
  onExit,
  progress,
  ROOT,
  runMain,
  startHub,
  startReport,
} from './lib/hub-runs.js'
import { latencies, startRequestLoops } from './lib/request-loops.js'
import { parseArgs, percentile } from './lib/stats.js'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** The second process: takes the write lock, writes, holds it `argv[3]` ms, commits, exits. */
const HOLDER = `
const Database = require(process.argv[1])
const db = new Database(process.argv[2], { timeout: 10000 })
db.exec('begin immediate')
db.prepare('update kysely_migration set timestamp = timestamp').run()
process.stdout.write('locked\\n')
setTimeout(() => {
  db.exec('commit')
  db.close()
  process.stdout.write('released\\n')
}, Number(process.argv[3]))
`

/** Starts the holder on `file`; answers once it holds the lock, with `released` (a promise). */
async function holdLock(file, ms) {
  const driver = createRequire(join(ROOT, 'packages/hub/package.json')).resolve('better-sqlite3')
  const child = spawn(process.execPath, ['-e', HOLDER, driver, file, String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  onExit(() => child.kill())
  let output = ''
  const seen = (word) =>
    new Promise((resolve, reject) => {
      const look = () => output.includes(word) && resolve(performance.now())
      child.stdout.on('data', (chunk) => ((output += chunk.toString('utf8')), look()))
      child.once(
        'exit',
        (code) => (look(), reject(new Error(`the lock holder exited with ${code}`))),
      )
    })
  const released = seen('released')
  await seen('locked')
  return { released }
}

/** An OpenAPI document of its own for push `n`, so that each is a new revision. */
function documentFor(n) {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'bench', version: '1.0.0' },
    paths: { [`/items/${n}`]: { get: { responses: { 200: { description: 'ok' } } } } },
  })
}

function readOptions(argv) {
  const args = parseArgs(argv)
  const number = (name, fallback) => {
    const value = Number(args[name] ?? fallback)
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number ≥ 0`)
    return value
  }
  return {
    holdSeconds: number('hold-seconds', 20),
    baselineSeconds: number('baseline-seconds', 5),
    busyMs: number('busy-ms', 5000),
    clients: number('clients', 2),
    logLevel: String(args['log-level'] ?? 'info'),
    stores: ['sqlite'],
  }
}

async function main() {
  const options = readOptions(process.argv.slice(2))
  const { report } = await startReport(options)
  delete report.hubs
  const hub = await startHub('sqlite', {
    tmpPrefix: 'svc-hub-sqlite-lock-bench-',
    logLevel: options.logLevel,
    env: { SVC_HUB_SQLITE_BUSY_TIMEOUT_MS: String(options.busyMs) },
  })
  const problems = []
  try {
    const token = hub.adminPat
    const created = await call(hub.url, '/v1/apis', {
      token,
      json: { owner: 'admin', slug: 'bench', name: 'bench', visibility: 'private' },
    })
    if (created.status !== 201) throw new Error(`POST /v1/apis: ${created.status} ${created.text}`)
    let pushes = 0
    const push = async () => {
      const at = performance.now()
      const reply = await call(hub.url, '/v1/apis/admin/bench/revisions', {
        token,
        body: documentFor(pushes++),
        headers: { 'content-type': 'application/json' },
      })
      return { at, ms: performance.now() - at, status: reply.status }
    }
    if ((await push()).status !== 201) throw new Error('the first push failed')
    const reads = () => [
      startRequestLoops({ base: hub.url, path: '/healthz', clients: options.clients }),
      startRequestLoops({ base: hub.url, path: '/v1/user', token, clients: options.clients }),
    ]
    const stats = (records) => latencies(records, percentile)

    progress(`baseline, ${options.baselineSeconds} s …`)
    let loops = reads()
    await sleep(options.baselineSeconds * 1000)
    const [healthzBefore, userBefore] = await Promise.all(loops.map((l) => l.stop()))

    progress(`another process holds the write lock for ${options.holdSeconds} s …`)
    const lock = await holdLock(join(hub.dataDir, 'hub.db'), options.holdSeconds * 1000)
    const lockedAt = performance.now()
    loops = reads()
    let released = false
    const releasedAt = lock.released.then((at) => ((released = true), at))
    const pushed = []
    const pusher = (async () => {
      while (!released) pushed.push(await push())
    })()
    const end = await releasedAt
    const [healthz, user] = await Promise.all(loops.map((l) => l.stop()))
    await pusher
    const during = (records) => records.filter((r) => r.at >= lockedAt && r.at < end)
    const after = await push()
    if (after.status !== 201) problems.push(`a push after the lock answered ${after.status}`)

    report.lockHeldMs = end - lockedAt
    report.phases = {
      baseline: { healthz: stats(healthzBefore), user: stats(userBefore) },
      locked: { healthz: stats(during(healthz)), user: stats(during(user)) },
    }
    report.pushes = {
      ...stats(during(pushed)),
      min: Math.min(...during(pushed).map((r) => r.ms)),
      afterRelease: after,
    }
  } finally {
    const status = await hub.stop()
    if (status !== 0) problems.push(`the hub exited with ${status} on SIGTERM`)
    await hub.release()
  }
  report.problems = problems
  await finishReport(report, 'sqlite-lock', printReport)
}

function printReport(report) {
  const { options } = report
  console.log(`\n${describeRun(report)}`)
  console.log(
    `A second process held BEGIN IMMEDIATE on hub.db for ${fmt(report.lockHeldMs / 1000, 1)} s; ` +
      `SVC_HUB_SQLITE_BUSY_TIMEOUT_MS=${options.busyMs}; ${options.clients} clients per read ` +
      `path, each sending one request after another; log level ${options.logLevel}\n`,
  )
  const header = ['', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'statuses']
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`)
  const row = (label, s) =>
    console.log(
      `| ${label} | ${fmt(s.count)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${fmt(s.max, 1)} | ${JSON.stringify(s.statuses)} |`,
    )
  row('`/healthz`, no lock', report.phases.baseline.healthz)
  row('`GET /v1/user`, no lock', report.phases.baseline.user)
  row('`/healthz`, lock held', report.phases.locked.healthz)
  row('`GET /v1/user`, lock held', report.phases.locked.user)
  row('push, lock held', report.pushes)
  console.log(
    `\nPushes during the lock took ${fmt(report.pushes.min)}–${fmt(report.pushes.max)} ms each; ` +
      `the push after it answered ${report.pushes.afterRelease.status} in ` +
      `${fmt(report.pushes.afterRelease.ms)} ms.`,
  )
  for (const p of report.problems) console.log(`\nproblem: ${p}`)
}

await runMain(main)
