// What a Redis partition costs a request: `GET /v1/user` with a PAT (through the rate limiter,
// counting in Redis) from a few clients sending one request after another, on a hub whose Redis
// connection goes through a TCP proxy that then stops forwarding every byte (a partition: no
// error, no closed connection, so nothing but the command timeout tells). Three phases of
// `--seconds` each: Redis healthy; partitioned, split at the moment the hub logs that it counts
// in memory (detection); healed, once the hub logs Redis back. Latency per request, p50/p99/max.
// Usage: node bench/redis-partition.js [--seconds 5] [--clients 4] [--log-level info]
//   [--redis-url redis://127.0.0.1:6379]
// Redis: --redis-url, else SVC_BENCH_REDIS_URL, else redis://127.0.0.1:6379; nothing answering
// there ends the bench with a message. SVC_BENCH_HUB_BIN runs another hub build.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { Redis } from 'ioredis'
import {
  ADMIN_PAT,
  call,
  describeRun,
  finishReport,
  fmt,
  freshStore,
  HUB_BIN,
  hubEnv,
  onExit,
  progress,
  runMain,
  startReport,
} from './lib/hub-runs.js'
import { latencies, startRequestLoops } from './lib/request-loops.js'
import { parseArgs, percentile } from './lib/stats.js'
import { startTcpProxy } from './lib/tcp-proxy.js'

const PATH = '/v1/user'
/** Nothing refused: every request is counted, none answered 429. */
const LIMIT = `GET ${PATH}=1000000/60`
const NOT_REACHABLE = 'rate limit store not reachable; counting in this process until it is back'
const READY = 'rate limit store ready'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` every 5 ms until it answers true or `ms` pass; answers when (or undefined). */
async function when(check, ms) {
  const deadline = performance.now() + ms
  while (performance.now() < deadline) {
    if (check()) return performance.now()
    await sleep(5)
  }
  return undefined
}

/**
 * `svc-hub serve` on a new SQLite store with `env`, every log line read as it comes (the shared
 * startHub keeps only the end of a hub's output, and this one logs a line per request): `said(msg)`
 * answers the times (performance.now()) at which it logged `msg`.
 */
async function startWatchedHub(logLevel, env) {
  const store = await freshStore('sqlite', 'svc-hub-redis-partition-bench-')
  const child = spawn(process.execPath, [HUB_BIN, 'serve'], {
    env: { ...hubEnv(store, logLevel), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  )
  const stop = onExit(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    const status = await exited
    await store.remove()
    return status
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk.toString('utf8')))
  const times = new Map()
  let url
  createInterface({ input: child.stdout }).on('line', (line) => {
    let entry
    try {
      entry = JSON.parse(line)
    } catch {
      return
    }
    if (entry.msg === 'listening') url = entry.url
    if (!times.has(entry.msg)) times.set(entry.msg, [])
    times.get(entry.msg).push(performance.now())
  })
  if (
    (await when(() => url !== undefined || child.exitCode !== null, 30_000)) === undefined ||
    !url
  )
    throw new Error(`the hub did not start\n${stderr}`)
  return {
    url,
    pid: child.pid,
    adminPat: ADMIN_PAT.exec(stderr)?.[0],
    said: (msg) => times.get(msg) ?? [],
    stop,
  }
}

async function redisAnswers(url) {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    return /redis_version:(\S+)/.exec(await client.info('server'))?.[1]
  } catch {
    return undefined
  } finally {
    client.disconnect()
  }
}

function readOptions(argv) {
  const args = parseArgs(argv)
  const number = (name, fallback) => {
    const value = Number(args[name] ?? fallback)
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`--${name} must be a positive number`)
    return value
  }
  return {
    seconds: number('seconds', 5),
    clients: number('clients', 4),
    logLevel: String(args['log-level'] ?? 'info'),
    redisUrl: String(
      args['redis-url'] ?? process.env.SVC_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    ),
    stores: ['sqlite'],
  }
}

async function main() {
  const options = readOptions(process.argv.slice(2))
  const { report } = await startReport(options, { route: `GET ${PATH}`, limit: LIMIT })
  delete report.hubs
  const version = await redisAnswers(options.redisUrl)
  if (!version)
    throw new Error(`Redis: nothing answers at ${options.redisUrl}; set SVC_BENCH_REDIS_URL`)
  const direct = new URL(options.redisUrl)
  report.redis = { url: direct.host, version }
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 6379) })
  const proxied = new URL(direct)
  proxied.host = proxy.host
  const hub = await startWatchedHub(options.logLevel, {
    SVC_HUB_RATE_LIMITS: LIMIT,
    REDIS_URL: proxied.href,
  })
  const said = (msg) => hub.said(msg).length
  const problems = []
  try {
    if ((await when(() => said(READY) >= 1, 5_000)) === undefined)
      problems.push('the hub did not log Redis ready at start')
    const token = hub.adminPat
    const check = await call(hub.url, PATH, { token })
    if (check.status !== 200) throw new Error(`GET ${PATH}: ${check.status} ${check.text}`)
    const loops = () =>
      startRequestLoops({ base: hub.url, path: PATH, token, clients: options.clients })
    const stats = (records) => latencies(records, percentile)

    progress('healthy …')
    let running = loops()
    await sleep(options.seconds * 1000)
    const healthy = stats(await running.stop())

    progress('partitioned …')
    running = loops()
    const partitionedAt = performance.now()
    proxy.partition()
    await when(() => said(NOT_REACHABLE) >= 1, options.seconds * 1000)
    const detectedAt = hub.said(NOT_REACHABLE)[0]
    await sleep(Math.max(0, partitionedAt + options.seconds * 1000 - performance.now()))
    const during = await running.stop()
    const before = during.filter((r) => detectedAt === undefined || r.at < detectedAt)
    const after = during.filter((r) => detectedAt !== undefined && r.at >= detectedAt)
    if (detectedAt === undefined) problems.push('the hub never logged that Redis was unreachable')

    progress('healed …')
    const healedAt = performance.now()
    proxy.heal()
    await when(() => said(READY) >= 2, 30_000)
    const backAt = hub.said(READY)[1]
    if (backAt === undefined) problems.push('the hub did not log Redis back within 30 s')
    running = loops()
    await sleep(options.seconds * 1000)
    const healed = stats(await running.stop())
    if (said(NOT_REACHABLE) !== 1)
      problems.push(`the hub logged "${NOT_REACHABLE}" ${said(NOT_REACHABLE)} times`)

    report.phases = {
      healthy,
      partitionBeforeDetection: stats(before),
      partitionAfterDetection: stats(after),
      healed,
    }
    report.detectionMs = detectedAt === undefined ? null : detectedAt - partitionedAt
    report.recoveryMs = backAt === undefined ? null : backAt - healedAt
  } finally {
    const status = await hub.stop()
    if (status !== 0) problems.push(`the hub exited with ${status} on SIGTERM`)
    await proxy.close()
  }
  report.problems = problems
  await finishReport(report, 'redis-partition', printReport)
}

function printReport(report) {
  const { options } = report
  console.log(`\n${describeRun(report)}`)
  console.log(
    `GET ${PATH} with a PAT, ${options.clients} clients each sending one request after another, ` +
      `${options.seconds} s per phase; hub on SQLite (log level ${options.logLevel}), counting in ` +
      `Redis ${report.redis.version} at ${report.redis.url} through a TCP proxy\n`,
  )
  const header = ['phase', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'statuses']
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`)
  const labels = {
    healthy: 'Redis healthy',
    partitionBeforeDetection: 'partitioned, before the hub logs it',
    partitionAfterDetection: 'partitioned, after',
    healed: 'healed, after the hub logs Redis back',
  }
  for (const [name, s] of Object.entries(report.phases ?? {})) {
    console.log(
      `| ${labels[name]} | ${fmt(s.count)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${fmt(s.max, 1)} | ${JSON.stringify(s.statuses)} |`,
    )
  }
  console.log(
    `\nThe hub logged the partition ${fmt(report.detectionMs)} ms after it began, and Redis back ` +
      `${fmt(report.recoveryMs)} ms after it healed. Latency is from sending a request to the end ` +
      'of its answer, on kept-alive connections, measured in this process.',
  )
  for (const p of report.problems) console.log(`\nproblem: ${p}`)
}

await runMain(main)
