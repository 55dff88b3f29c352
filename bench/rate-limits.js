// What the hub's rate limiter costs per request: `GET /v1/user` with a PAT (a /v1 route, so it
// goes through the limiter; /healthz does not) under autocannon, on a hub with the limiter off
// (SVC_HUB_RATE_LIMITS=off), on with counts in the hub's memory, and on with counts in Redis
// (REDIS_URL), in one run. When on, the route's limit is raised to the most SVC_HUB_RATE_LIMITS
// accepts (1,000,000 per 60 s, see packages/hub/src/ratelimit/settings.ts) so that nothing is
// refused: every request is counted, none answered 429. The order is off, memory, Redis, then off
// again (drift from other work on the machine shows as a difference between the two); the
// ratios are to the mean of the off runs. Each variant is a fresh hub on a new SQLite store in
// its own process; autocannon runs in this one.
// Usage: node bench/rate-limits.js [--seconds 10] [--warmup 2] [--connections 50] [--rounds 1]
//   [--log-level info] [--redis-url redis://127.0.0.1:6379]
// Redis: --redis-url, else SVC_BENCH_REDIS_URL, else redis://127.0.0.1:6379; when nothing answers
// there, the Redis variant is skipped with a message.
import { readFileSync } from 'node:fs'
import { Redis } from 'ioredis'
import {
  call,
  describeRun,
  finishReport,
  fmt,
  progress,
  runMain,
  startHub,
  startReport,
} from './lib/hub-runs.js'
import { runLoad } from './lib/load.js'
import { parseArgs, round } from './lib/stats.js'
import { processCpuMs } from './lib/proc.js'

const PATH = '/v1/user'
/** The largest limit SVC_HUB_RATE_LIMITS accepts (MAX_REQUESTS in settings.ts). */
const MAX = 1_000_000
const WINDOW_SECONDS = 60
const LIMIT = `GET ${PATH}=${MAX}/${WINDOW_SECONDS}`

const VARIANTS = {
  off: { label: 'limiter off', env: () => ({ SVC_HUB_RATE_LIMITS: 'off', REDIS_URL: '' }) },
  memory: {
    label: 'on, counts in memory',
    env: () => ({ SVC_HUB_RATE_LIMITS: LIMIT, REDIS_URL: '' }),
  },
  redis: {
    label: 'on, counts in Redis',
    env: (options) => ({ SVC_HUB_RATE_LIMITS: LIMIT, REDIS_URL: options.redisUrl }),
  },
}

// ---- processes: CPU time from /proc (Linux; undefined elsewhere)

// ---- Redis: is it there, its CPU time, the bench's counter

function redisClient(url) {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  })
}

/** Runs `work(client)` on a new connection to `url`, closed after it. */
async function withRedis(url, work) {
  const client = redisClient(url)
  client.on('error', () => {})
  try {
    await client.connect()
    return await work(client)
  } finally {
    client.disconnect()
  }
}

async function redisAnswers(url) {
  try {
    const version = await withRedis(url, async (client) => {
      await client.ping()
      return /redis_version:(\S+)/.exec(await client.info('server'))?.[1]
    })
    return { ok: true, version }
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message : String(error) }
  }
}

/** Redis's own CPU time so far (user + system, ms), from INFO cpu. */
async function redisCpuMs(client) {
  const info = await client.info('cpu')
  const value = (key) => Number(new RegExp(`^${key}:([\\d.]+)`, 'm').exec(info)?.[1])
  return (value('used_cpu_user') + value('used_cpu_sys')) * 1000
}

/** The key rate-limiter-flexible counts the bench user's requests under (limiter.ts). */
function counterKey(userId) {
  return `svc-hub:rl:${MAX}:${WINDOW_SECONDS}:user:${userId} GET ${PATH}`
}

// ---- HTTP

/**
 * One autocannon run of `GET /v1/user` with `token` against `hub`, every response's status
 * counted, with the CPU time the hub, this process (the client) and, given `redis`, the Redis
 * server used over it. `rate` counts 2xx responses only.
 */
async function load(hub, token, { connections, seconds }, redis) {
  const hubCpu = processCpuMs(hub.pid)
  const redisCpu = redis ? await redisCpuMs(redis) : undefined
  const clientCpu = process.cpuUsage()
  const started = performance.now()
  const run = await runLoad({
    url: hub.url,
    connections,
    seconds,
    timeout: 10,
    request: { method: 'GET', path: PATH, headers: { authorization: `Bearer ${token}` } },
  })
  const wallMs = performance.now() - started
  const client = process.cpuUsage(clientCpu)
  const hubMs = processCpuMs(hub.pid)
  const redisMs = redis ? await redisCpuMs(redis) : undefined
  return {
    ...run,
    hubCpuShare: hubCpu === undefined ? undefined : (hubMs - hubCpu) / wallMs,
    hubCpuUsPerRequest:
      hubCpu === undefined || !run.answered ? undefined : ((hubMs - hubCpu) * 1000) / run.answered,
    clientCpuShare: (client.user + client.system) / 1000 / wallMs,
    ...(redis ? { redisCpuShare: (redisMs - redisCpu) / wallMs } : {}),
  }
}

// ---- one variant

async function benchVariant(name, options, run) {
  const variant = VARIANTS[name]
  const hub = await startHub('sqlite', {
    tmpPrefix: 'svc-hub-ratelimit-bench-',
    logLevel: options.logLevel,
    env: variant.env(options),
  })
  const result = { variant: name, label: variant.label, run, problems: [] }
  try {
    const token = hub.adminPat
    if (!token) throw new Error(`${variant.label}: no admin PAT on the hub's stderr at first start`)
    const check = await call(hub.url, PATH, { token })
    if (check.status !== 200)
      throw new Error(`${variant.label}: GET ${PATH}: ${check.status} ${check.text.slice(0, 600)}`)
    const userId = check.body?.id
    const policy = check.headers['ratelimit-policy']
    result.policy = policy ?? null
    const expected = name === 'off' ? undefined : `${MAX};w=${WINDOW_SECONDS}`
    if (policy !== expected)
      result.problems.push(
        `RateLimit-Policy is ${policy ?? 'absent'}, expected ${expected ?? 'none'}`,
      )
    const logsInfo = ['info', 'debug', 'trace'].includes(options.logLevel)
    if (name === 'redis' && logsInfo && !hub.stdout().includes('rate limit store ready'))
      result.problems.push(`the hub did not log "rate limit store ready" before listening`)

    const redis = name === 'redis' ? redisClient(options.redisUrl) : undefined
    if (redis) {
      redis.on('error', () => {})
      await redis.connect()
    }
    try {
      const warmup = await load(hub, token, { ...options, seconds: options.warmup })
      const measured = await load(hub, token, options, redis)
      Object.assign(result, measured)
      if (redis) {
        // Every request the hub answered was counted in Redis, unless Redis failed or was slower
        // than 500 ms and the hub counted it in its memory instead (the insurance limiter).
        // autocannon stops at the end of its duration without waiting for the requests in flight
        // (up to one per connection): the hub answers and counts them, autocannon does not.
        const counted = Number(await redis.get(counterKey(userId)))
        const answered = 1 + warmup.answered + measured.answered
        const sent = 1 + warmup.sent + measured.sent
        result.redisCount = { counted, answered, sent }
        if (counted < answered || counted > sent)
          result.problems.push(
            `Redis counted ${counted} requests; autocannon sent ${sent} and saw ${answered} answered (fewer: some counted in memory; more: counts left from elsewhere)`,
          )
        await redis.del(counterKey(userId))
      }
    } finally {
      redis?.disconnect()
    }
  } finally {
    const status = await hub.stop()
    if (status !== 0) result.problems.push(`the hub exited with ${status} on SIGTERM`)
    const { count, first } = hub.errors()
    if (count) result.problems.push(`the hub logged ${count} errors; first: ${first[0]}`)
    if (/not reachable/.test(hub.stdout()))
      result.problems.push('the hub logged that the rate limit store was not reachable')
    await hub.release()
  }
  const failed = result.non2xx + result.errors
  progress(
    `${variant.label}: ${fmt(result.rate)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ` +
      `hub CPU ${fmt(result.hubCpuShare * 100)} % (${fmt(result.hubCpuUsPerRequest)} µs/request)` +
      (result.redisCpuShare === undefined
        ? ''
        : `, Redis CPU ${fmt(result.redisCpuShare * 100)} %`) +
      (failed
        ? ` (${result.non2xx} non-2xx, ${result.errors} errors${result.sample ? `: ${result.sample}` : ''})`
        : '') +
      result.problems.map((p) => `\n  problem: ${p}`).join(''),
  )
  return result
}

// ---- report

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length
}

function summarise(report) {
  const byVariant = {}
  for (const r of report.runs) (byVariant[r.variant] ??= []).push(r)
  const off = byVariant.off ?? []
  const baseRate = mean(off.map((r) => r.rate))
  const baseCpu = mean(off.map((r) => r.hubCpuUsPerRequest))
  const rows = {}
  for (const [name, runs] of Object.entries(byVariant)) {
    const rate = mean(runs.map((r) => r.rate))
    const cpu = mean(runs.map((r) => r.hubCpuUsPerRequest))
    rows[name] = {
      rate: round(rate, 1),
      rateRatio: round(rate / baseRate, 3),
      hubCpuUsPerRequest: round(cpu, 1),
      hubCpuRatio: round(cpu / baseCpu, 3),
    }
  }
  return rows
}

function printReport(report) {
  const { options } = report
  console.log(`\n${describeRun(report)}`)
  console.log(
    `GET ${PATH} with a PAT, ${options.connections} connections, ${options.warmup} s warm-up then ` +
      `${options.seconds} s per variant; each variant a fresh hub on SQLite (log level ` +
      `${options.logLevel}); limiter on: SVC_HUB_RATE_LIMITS='${LIMIT}'` +
      (report.redis ? `; Redis ${report.redis.version} at ${report.redis.url}` : '') +
      '\n',
  )
  const header = [
    'variant',
    'requests/s',
    '÷ off',
    'p50 ms',
    'p99 ms',
    'max ms',
    'errors',
    'non-2xx',
    'hub CPU',
    'hub CPU µs/req',
    '÷ off',
    'client CPU',
    'Redis CPU',
  ]
  const cpu = (share) => (share === undefined ? '—' : `${fmt(share * 100)} %`)
  const baseRate = mean(report.runs.filter((r) => r.variant === 'off').map((r) => r.rate))
  const baseCpu = mean(
    report.runs.filter((r) => r.variant === 'off').map((r) => r.hubCpuUsPerRequest),
  )
  const rows = report.runs.map((r, i) => [
    `${r.label}${report.runs.findIndex((x) => x.variant === r.variant) < i ? ', again' : ''}`,
    fmt(r.rate),
    fmt(r.rate / baseRate, 3),
    String(r.latencyMs.p50),
    String(r.latencyMs.p99),
    String(r.latencyMs.max),
    String(r.errors),
    r.non2xx ? `**${r.non2xx}** ${JSON.stringify(r.statuses)}` : '0',
    cpu(r.hubCpuShare),
    fmt(r.hubCpuUsPerRequest),
    fmt(r.hubCpuUsPerRequest / baseCpu, 3),
    cpu(r.clientCpuShare),
    cpu(r.redisCpuShare),
  ])
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`)
  for (const row of rows) console.log(`| ${row.join(' | ')} |`)
  console.log(
    `\n÷ off: to the mean of the off runs (${fmt(baseRate)} req/s, ${fmt(baseCpu)} µs of hub CPU ` +
      "per request). Requests/s count 2xx over the run; latency is autocannon's, whole ms rounded " +
      "down; CPU is CPU time / wall time over the measured part (100 % = one core), the hub's " +
      "and Redis's from /proc and INFO cpu, the client's (autocannon, this process) from " +
      'process.cpuUsage; µs/req is hub CPU time / responses.',
  )
  for (const r of report.runs)
    if (r.redisCount)
      console.log(
        `Redis held a count of ${fmt(r.redisCount.counted)} for the ${fmt(r.redisCount.answered)} ` +
          `answers autocannon saw and ${fmt(r.redisCount.sent)} requests it sent (probe, warm-up ` +
          'and measured run; the difference: requests in flight when autocannon stopped)',
      )
  for (const skipped of report.skipped) console.log(`\nskipped: ${skipped}`)
  for (const r of report.runs) for (const p of r.problems) console.log(`\n${r.label}: ${p}`)
}

// ---- main

function readOptions(argv) {
  const args = parseArgs(argv)
  const number = (name, fallback) => {
    const value = Number(args[name] ?? fallback)
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`--${name} must be a positive number`)
    return value
  }
  const redisUrl = String(
    args['redis-url'] ?? process.env.SVC_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  )
  if (!/^rediss?:\/\/[^/]/.test(redisUrl)) throw new Error('--redis-url must be a redis:// URL')
  return {
    seconds: number('seconds', 10),
    warmup: number('warmup', 2),
    connections: number('connections', 50),
    rounds: number('rounds', 1),
    logLevel: String(args['log-level'] ?? 'info'),
    redisUrl,
    stores: ['sqlite'],
  }
}

async function main() {
  const options = readOptions(process.argv.slice(2))
  const { report } = await startReport(options, { limit: LIMIT, route: `GET ${PATH}` })
  report.runs = []
  delete report.hubs
  const redis = await redisAnswers(options.redisUrl)
  const variants = ['off', 'memory', 'redis']
  if (redis.ok) {
    report.redis = { url: new URL(options.redisUrl).host, version: redis.version }
  } else {
    const why = `Redis: nothing answers at ${new URL(options.redisUrl).host} (${redis.why}); set SVC_BENCH_REDIS_URL`
    progress(`skipping ${why}`)
    report.skipped.push(why)
    variants.pop()
  }
  const order = []
  for (let i = 0; i < options.rounds; i++) order.push(...variants)
  order.push('off')
  for (const [i, name] of order.entries())
    report.runs.push(await benchVariant(name, options, i + 1))
  report.summary = summarise(report)
  await finishReport(report, 'rate-limits', printReport)
}

await runMain(main)
