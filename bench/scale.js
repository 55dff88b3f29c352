// The hub scaled out on one machine: three `svc-hub serve` (each on its own loopback port, started
// with --no-dispatcher) and two `svc-hub worker`, all on one new PostgreSQL schema and one Redis
// (rate-limit counts), started at once on the empty schema (bench/lib/hub-cluster.js).
// Load is spread over the hubs by autocannon given all their URLs: connection i goes to hub
// i mod 3 and keeps it (keep-alive), as a round-robin TCP balancer in front of them would.
// Measured:
// - GET config (PAT) and publish (a 2 MB upload, sources unchanged), requests/s against one hub
//   and against the three, interleaved in rounds (1, 3, then 3, 1, …) after 2 × --warmup against
//   the three: the scaling factor 1 → 3 is the median of the rounds' ratios;
// - webhook deliveries/s by the two workers (pushes spread over the hubs; a receiver verifies
//   every signature and counts duplicates), then by one worker (the other stopped), in rounds;
// - that rate limits are shared: with GET /v1/user limited to --limit per 60 s, a burst of
//   3 × limit requests spread over the three hubs gets exactly `limit` 2xx in all.
// The limiter counts in Redis throughout; the measured routes are raised to the most it accepts
// (1,000,000 per 60 s) so that nothing measured is refused.
// Usage: node bench/scale.js [--seconds 10] [--warmup 3] [--connections 48] [--rounds 3]
//   [--publish-seconds 8] [--concurrency 6] [--webhooks 500] [--revisions 10] [--webhook-rounds 3]
//   [--limit 60] [--log-level info] [--redis-url redis://127.0.0.1:6379/11]
//   [--only get,publish,webhooks,limits]
// PostgreSQL: SVC_BENCH_DATABASE_URL, else SVC_TEST_DATABASE_URL, else the local test database.
// Redis: --redis-url, else SVC_BENCH_REDIS_URL, else database 11 of the local Redis; the keys of
// the run's users are deleted at the end.
import { readdirSync, readFileSync } from 'node:fs'
import { Redis } from 'ioredis'
import { startCluster } from './lib/hub-cluster.js'
import {
  call,
  createBenchAccount,
  describeRun,
  expectStatus,
  finishReport,
  fmt,
  onExit,
  progress,
  runMain,
  startLocalServer,
  startReport,
} from './lib/hub-runs.js'
import { runLoad } from './lib/load.js'
import { processCpuMs } from './lib/proc.js'
import { publishUpload } from './lib/publish-body.js'
import { receiverControl } from './lib/receiver-control.js'
import { createWebhooks, pushRevision } from './lib/webhook-setup.js'
import { median, parseArgs, percentile, round } from './lib/stats.js'

const HUBS = 3
const WORKERS = 2
const ORG = 'acme'
const STACK = 'billing-stack'
const PROJECT = 'billing-app'
const HOOKS_API = 'hooks'
const SCOPES = 'read,write:releases,write:projects,write:apis,admin:webhooks'
const CONFIG_PATH = `/v1/projects/${ORG}/${PROJECT}/config`
const PUBLISH_PATH = `/v1/stacks/${ORG}/${STACK}/versions`
const LIMITED_PATH = '/v1/user'
const WINDOW_SECONDS = 60
/** The most SVC_HUB_RATE_LIMITS accepts (MAX_REQUESTS, packages/hub/src/ratelimit/settings.ts). */
const MAX = 1_000_000
/** Routes the bench drives hard: limited to MAX, so that nothing measured is refused. */
const RAISED = [
  'GET /v1/projects/{account}/{slug}/config',
  'POST /v1/stacks/{account}/{slug}/versions',
  'GET /v1/stacks/{account}/{slug}',
  'POST /v1/apis/{owner}/{slug}/revisions',
  'POST /v1/apis/{owner}/{slug}/webhooks',
]
const PARTS = ['get', 'publish', 'webhooks', 'limits']
/** The failed-credentials budget of loopback callers (docs/api/rate-limits.md). */
const LOOPBACK_BUDGET = 'svc-hub:rl:*:ip:127.0.0.1 credentials'
/** Requests in flight at once in the rate-limit check. */
const BURST_CONCURRENCY = 12

// ---- the machine's CPU: how busy both cores were over a measurement

/** Busy and total jiffies of all CPUs so far (/proc/stat; undefined elsewhere). */
function machineCpu() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]
    const values = line.trim().split(/\s+/).slice(1).map(Number)
    const idle = values[3] + (values[4] ?? 0)
    const total = values.reduce((a, b) => a + b, 0)
    return { busy: total - idle, total }
  } catch {
    return undefined
  }
}

/** CPU time so far (ms) of each process whose command is `name`, by pid (/proc; none elsewhere). */
function commandCpuMs(name) {
  const byPid = new Map()
  let pids = []
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))
  } catch {
    return byPid
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      if (command === name) byPid.set(pid, processCpuMs(pid) ?? 0)
    } catch {
      // ended meanwhile
    }
  }
  return byPid
}

/**
 * CPU time (ms) the processes of `after` used since `before`: a process that started meanwhile
 * counts whole; one that ended meanwhile is missed (PostgreSQL's backends of other clients come
 * and go), so this is a lower bound.
 */
function cpuSince(before, after) {
  let total = 0
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0)
  return total
}

/**
 * Runs `work`, answering its result with `cpu`: the machine's busy share of all cores, and the
 * CPU time over wall time (100 % = one core) of `processes` (the hubs or workers measured), of
 * this process (the load generator), and of every PostgreSQL and Redis server process (those
 * serve other work on the machine too).
 */
async function measuringCpu(processes, work) {
  const machine = machineCpu()
  const own = processes.map((p) => processCpuMs(p.pid))
  const postgres = commandCpuMs('postgres')
  const redis = commandCpuMs('redis-server')
  const client = process.cpuUsage()
  const started = performance.now()
  const result = await work()
  const wallMs = performance.now() - started
  const machineAfter = machineCpu()
  const used = process.cpuUsage(client)
  const ownMs = processes.reduce((sum, p, i) => sum + (processCpuMs(p.pid) - own[i]), 0)
  result.cpu = {
    machineBusy:
      machine && machineAfter
        ? (machineAfter.busy - machine.busy) / (machineAfter.total - machine.total)
        : undefined,
    hubs: Number.isNaN(ownMs) ? undefined : ownMs / wallMs,
    client: (used.user + used.system) / 1000 / wallMs,
    hubsMsPerRequest: Number.isNaN(ownMs) || !result.answered ? undefined : ownMs / result.answered,
    postgres: cpuSince(postgres, commandCpuMs('postgres')) / wallMs,
    redis: cpuSince(redis, commandCpuMs('redis-server')) / wallMs,
  }
  // Everything serving the requests (hubs, PostgreSQL, Redis) and making them (this process):
  // on a machine shared with other work, what a request costs is steadier than requests/s.
  const shares = result.cpu
  result.cpu.stackMsPerRequest = result.answered
    ? ((shares.hubs + shares.client + shares.postgres + shares.redis) * wallMs) / result.answered
    : undefined
  return result
}

// ---- setup

/** The bench's user, organisation, PAT, APIs, first stack version and project; answers them. */
async function setUp(cluster, upload) {
  const [hub] = cluster.hubs
  const { user, token } = await createBenchAccount(cluster.env, ORG, SCOPES)
  // Not GET /v1/user: the rate-limit check counts that route's requests of this user.
  for (const slug of ['billing', HOOKS_API]) {
    await expectStatus(
      201,
      call(hub.url, '/v1/apis', { token, json: { owner: ORG, slug, name: slug } }),
      `POST /v1/apis (${slug})`,
    )
  }
  await expectStatus(
    201,
    call(hub.url, PUBLISH_PATH, {
      token,
      method: 'POST',
      headers: { 'content-type': upload.contentType },
      body: upload.body('1.0.0'),
    }),
    'publish 1.0.0',
  )
  await expectStatus(
    201,
    call(hub.url, '/v1/projects', {
      token,
      json: { account: ORG, slug: PROJECT, stack: `@${ORG}/${STACK}`, api: `${ORG}/billing` },
    }),
    'POST /v1/projects',
  )
  // Every hub answers the same config: one store.
  for (const h of cluster.hubs) {
    const config = await expectStatus(200, call(h.url, CONFIG_PATH, { token }), 'GET config')
    if (config.body.project?.slug !== PROJECT) throw new Error(`GET config answered ${config.text}`)
  }
  return { token, userId: user.id }
}

// ---- GET config and publish: one hub against three, interleaved

function describeLoad(name, r, unit) {
  const failed = r.non2xx + r.errors
  return (
    `${name}: ${fmt(r.rate, r.rate < 100 ? 1 : 0)} ${unit}/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms` +
    (r.cpu
      ? `, machine ${fmt(r.cpu.machineBusy * 100)} % busy (hubs ${fmt(r.cpu.hubs * 100)} %, ` +
        `${fmt(r.cpu.hubsMsPerRequest, 2)} ms each, all ${fmt(r.cpu.stackMsPerRequest, 2)} ms, ` +
        `PostgreSQL ${fmt(r.cpu.postgres * 100)} %, Redis ${fmt(r.cpu.redis * 100)} %, ` +
        `load generator ${fmt(r.cpu.client * 100)} %)`
      : '') +
    (failed ? ` (${r.non2xx} non-2xx, ${r.errors} errors${r.sample ? `: ${r.sample}` : ''})` : '')
  )
}

/** Rounds of one request shape against hub 1 alone and against all three, alternating first. */
async function scaling(cluster, shape, { rounds, warmup, seconds }, label, unit) {
  const targets = { one: [cluster.hubs[0]], three: cluster.hubs }
  const results = { one: [], three: [] }
  // Hub 1 served the setup (and any earlier shape): the other two get as much warm-up first.
  await runLoad({ url: cluster.hubs.map((h) => h.url), ...shape(), seconds: warmup * 2 })
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['one', 'three'] : ['three', 'one']
    for (const which of order) {
      const hubs = targets[which]
      const url = hubs.map((h) => h.url)
      await runLoad({ url, ...shape(), seconds: warmup })
      const result = await measuringCpu(hubs, () => runLoad({ url, ...shape(), seconds }))
      results[which].push(result)
      progress(describeLoad(`${label}, ${hubs.length} hub(s), round ${round + 1}`, result, unit))
    }
  }
  const ratios = results.three.map((r, i) => r.rate / results.one[i].rate)
  return { ...results, factor: median(ratios), ratios }
}

// ---- webhooks: deliveries by the workers

async function benchWebhooks(cluster, receiver, token, options) {
  const control = receiverControl(receiver)
  const apiPath = `/v1/apis/${ORG}/${HOOKS_API}`
  const hubAt = (i) => cluster.hubs[i % cluster.hubs.length].url
  const secrets = await createWebhooks(options.webhooks, receiver.url, (i, url) =>
    call(hubAt(i), `${apiPath}/webhooks`, { token, json: { url } }),
  )
  await control.secrets(secrets)

  let sequence = 0
  const push = async () => {
    const n = sequence++
    await pushRevision(n, options.webhooks, (init) =>
      call(hubAt(n), `${apiPath}/revisions`, { token, ...init }),
    )
  }
  await push() // the first revision sends no event

  const phase = async (label, workers) => {
    // One revision delivered and not counted: connections and JIT warm.
    await control.reset()
    await push()
    await control.wait(options.webhooks, options.timeout * 1000)
    await control.reset()
    const expected = options.revisions * options.webhooks
    const result = await measuringCpu(workers, async () => {
      for (let i = 0; i < options.revisions; i++) await push()
      return control.wait(expected, options.timeout * 1000)
    })
    const stats = await control.stats()
    const seconds = (stats.lastReceivedAt - stats.minEventTime) / 1000
    const outcome = {
      label,
      workers: workers.length,
      expected,
      deliveries: stats.deliveries,
      seconds,
      rate: stats.deliveries / seconds,
      p50: percentile(stats.latencies, 50),
      p99: percentile(stats.latencies, 99),
      duplicates: stats.duplicates,
      errors: stats.errors,
      done: result.done,
      cpu: result.cpu,
    }
    progress(
      `webhooks, ${label}: ${fmt(outcome.rate)} deliveries/s (${outcome.deliveries} of ${expected} ` +
        `in ${fmt(seconds, 2)} s), p50 ${outcome.p50} ms, p99 ${outcome.p99} ms, ` +
        `${outcome.duplicates} duplicates, ${outcome.errors} verification errors`,
    )
    return outcome
  }
  // Rounds of two workers, then one (the other stopped: its attempts in flight finish and
  // their outcomes are written first), then a new second worker for the next round.
  const results = { two: [], one: [] }
  let [first, second] = cluster.workers
  for (let round = 1; round <= options.webhookRounds; round++) {
    results.two.push(await phase(`two workers, round ${round}`, [first, second]))
    await second.stop()
    results.one.push(await phase(`one worker, round ${round}`, [first]))
    if (round < options.webhookRounds)
      second = await cluster.addWorker(`svc-hub worker #${round + 2}`)
  }
  return results
}

// ---- rate limits shared through Redis

/**
 * `3 × limit` GET /v1/user spread over the hubs in turn, `BURST_CONCURRENCY` at a time: the 2xx
 * must add up to the limit. Fewer at a time than the failed-credentials budget (60 per address):
 * each request counts against that budget until its token is accepted, so more at once would be
 * refused by it, not by the route's limit.
 */
async function benchLimits(cluster, token, options) {
  const count = cluster.hubs.length * options.limit
  const replies = []
  let next = 0
  await Promise.all(
    Array.from({ length: BURST_CONCURRENCY }, async () => {
      while (next < count) {
        const hub = cluster.hubs[next++ % cluster.hubs.length]
        replies.push({ hub: hub.url, reply: await call(hub.url, LIMITED_PATH, { token }) })
      }
    }),
  )
  const perHub = cluster.hubs.map((hub) => {
    const mine = replies.filter((r) => r.hub === hub.url).map((r) => r.reply)
    return {
      ok: mine.filter((r) => r.status === 200).length,
      limited: mine.filter((r) => r.status === 429).length,
    }
  })
  const accepted = perHub.reduce((sum, h) => sum + h.ok, 0)
  const limited = replies.filter((r) => r.reply.status === 429)
  const other = replies.filter((r) => r.reply.status !== 200 && r.reply.status !== 429)
  const badRefusals = limited.filter(
    (r) => r.reply.body?.code !== 'rate_limited' || !(Number(r.reply.headers['retry-after']) >= 1),
  )
  const result = {
    limit: options.limit,
    sent: count,
    accepted,
    refused: limited.length,
    other: other.length,
    perHub,
    shared: accepted === options.limit && other.length === 0 && badRefusals.length === 0,
  }
  progress(
    `rate limit ${options.limit}/${WINDOW_SECONDS} s on GET ${LIMITED_PATH}: ${count} requests ` +
      `over ${cluster.hubs.length} hubs, ${accepted} accepted (per hub ` +
      `${perHub.map((h) => h.ok).join(' + ')}), ${limited.length} refused with 429` +
      (other.length ? `, ${other.length} other answers` : ''),
  )
  return result
}

/** Redis at `url`, or why not. */
async function redisVersion(url) {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    return /redis_version:(\S+)/.exec(await client.info('server'))?.[1] ?? 'unknown'
  } finally {
    client.disconnect()
  }
}

/**
 * Deletes, in the Redis at `url`, the rate-limit counts of `userIds` and the failed-credentials
 * budget of loopback (every request of the bench comes from 127.0.0.1): a run's counts must not
 * hold back the next run within their window.
 */
async function deleteCounts(url, userIds) {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 })
  client.on('error', () => {})
  try {
    await client.connect()
    const patterns = [...userIds.map((id) => `svc-hub:rl:*user:${id} *`), LOOPBACK_BUDGET]
    for (const pattern of patterns) {
      const keys = await client.keys(pattern)
      if (keys.length) await client.del(...keys)
    }
  } finally {
    client.disconnect()
  }
}

// ---- report

function printReport(report) {
  const { options } = report
  console.log(`\n${describeRun(report)}`)
  console.log(
    `${HUBS} × svc-hub serve --no-dispatcher and ${WORKERS} × svc-hub worker on one PostgreSQL ` +
      `schema, rate-limit counts in Redis ${report.redis.version}; load from autocannon in this ` +
      `process, connection i to hub i mod ${HUBS}; ${options.rounds} interleaved rounds, ` +
      `${options.warmup} s warm-up before each measurement; hub log level ${options.logLevel}; ` +
      `start: ${report.start.hubs} hubs and ${report.start.workers} workers at once on the empty ` +
      `schema, up in ${fmt(report.start.ms)} ms, ${report.start.admins} admin made\n`,
  )
  const header = ['measure', '1 hub', '3 hubs', '3 ÷ 1', 'p50 / p99 ms (1; 3)', 'notes']
  const rows = []
  const rate = (runs) => median(runs.map((r) => r.rate))
  const latency = (runs) =>
    `${median(runs.map((r) => r.latencyMs.p50))} / ${median(runs.map((r) => r.latencyMs.p99))}`
  const busy = (runs) => fmt(median(runs.map((r) => r.cpu.machineBusy * 100)))
  const failed = (runs) => runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0)
  for (const [name, label, digits] of [
    ['get', `GET config, ${options.connections} connections (req/s)`, 0],
    ['publish', `publish, sources unchanged, ${options.concurrency} at once (/s)`, 1],
  ]) {
    const s = report[name]
    if (!s) continue
    rows.push([
      label,
      fmt(rate(s.one), digits),
      fmt(rate(s.three), digits),
      `**${fmt(s.factor, 2)}**`,
      `${latency(s.one)}; ${latency(s.three)}`,
      `rounds 1 hub: ${s.one.map((r) => fmt(r.rate, digits)).join(' / ')}; 3 hubs: ` +
        `${s.three.map((r) => fmt(r.rate, digits)).join(' / ')}; machine busy ${busy(s.one)} % ` +
        `/ ${busy(s.three)} % of ${report.machine.cores} cores; hub CPU per request ` +
        `${fmt(median(s.one.map((r) => r.cpu.hubsMsPerRequest)), 2)} / ` +
        `${fmt(median(s.three.map((r) => r.cpu.hubsMsPerRequest)), 2)} ms, with PostgreSQL, ` +
        `Redis and the load generator ${fmt(median(s.one.map((r) => r.cpu.stackMsPerRequest)), 2)} ` +
        `/ ${fmt(median(s.three.map((r) => r.cpu.stackMsPerRequest)), 2)} ms; hubs' CPU ` +
        `${fmt(median(s.three.map((r) => r.cpu.hubs * 100)))} %, load generator's ` +
        `${fmt(median(s.three.map((r) => r.cpu.client * 100)))} %, PostgreSQL's ` +
        `${fmt(median(s.three.map((r) => r.cpu.postgres * 100)))} %, Redis's ` +
        `${fmt(median(s.three.map((r) => r.cpu.redis * 100)))} % (3 hubs; 100 % = one core)` +
        (failed([...s.one, ...s.three]) ? `; **${failed([...s.one, ...s.three])} failed**` : ''),
    ])
  }
  if (report.webhooks) {
    const { one, two } = report.webhooks
    const all = [...one, ...two]
    const sum = (key) => all.reduce((total, r) => total + r[key], 0)
    rows.push([
      `webhook deliveries (/s), ${options.webhooks} webhooks × ${options.revisions} revisions`,
      `1 worker: ${fmt(rate(one))}`,
      `2 workers: **${fmt(rate(two))}**`,
      fmt(median(two.map((r, i) => r.rate / one[i].rate)), 2),
      `${median(one.map((r) => r.p50))} / ${median(one.map((r) => r.p99))}; ` +
        `${median(two.map((r) => r.p50))} / ${median(two.map((r) => r.p99))}`,
      `rounds 1 worker: ${one.map((r) => fmt(r.rate)).join(' / ')}; 2 workers: ` +
        `${two.map((r) => fmt(r.rate)).join(' / ')} (2 then 1 in each round); pushes spread ` +
        `over the hubs; ${sum('duplicates')} duplicates, ${sum('errors')} verification errors, ` +
        `${sum('deliveries')} of ${sum('expected')} delivered; latency from the event's time`,
    ])
  }
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i >= 1 && i <= 3 ? '---:' : '---')).join(' | ')} |`)
  for (const row of rows) console.log(`| ${row.join(' | ')} |`)
  if (report.limits) {
    const l = report.limits
    console.log(
      `\nrate limits shared: GET ${LIMITED_PATH} limited to ${l.limit} per ${WINDOW_SECONDS} s; ` +
        `${l.sent} requests, ${BURST_CONCURRENCY} at a time, over ${HUBS} hubs: ${l.accepted} accepted (per hub ` +
        `${l.perHub.map((h) => h.ok).join(' + ')}), ${l.refused} refused with 429 ` +
        `rate_limited and Retry-After${l.other ? `, ${l.other} other answers` : ''}: ` +
        `${l.shared ? `**the sum equals the limit**` : '**NOT the limit**'}`,
    )
  }
  for (const skipped of report.skipped) console.log(`\nskipped: ${skipped}`)
  for (const problem of report.problems) console.log(`\nproblem: ${problem}`)
}

// ---- main

function readOptions(argv) {
  const args = parseArgs(argv)
  const number = (name, fallback) => {
    const value = Number(args[name] ?? fallback)
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`--${name} must be a positive whole number`)
    return value
  }
  const redisUrl = String(
    args['redis-url'] ?? process.env.SVC_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/11',
  )
  if (!/^rediss?:\/\/[^/]/.test(redisUrl)) throw new Error('--redis-url must be a redis:// URL')
  const only = String(args.only ?? PARTS.join(',')).split(',')
  for (const part of only) if (!PARTS.includes(part)) throw new Error(`unknown part '${part}'`)
  return {
    seconds: number('seconds', 10),
    warmup: number('warmup', 3),
    connections: number('connections', 48),
    rounds: number('rounds', 3),
    publishSeconds: number('publish-seconds', 8),
    concurrency: number('concurrency', 6),
    webhooks: number('webhooks', 500),
    revisions: number('revisions', 10),
    webhookRounds: number('webhook-rounds', 3),
    limit: number('limit', 60),
    timeout: number('timeout', 120),
    logLevel: String(args['log-level'] ?? 'info'),
    redisUrl,
    only,
    stores: ['postgres'],
  }
}

async function main() {
  const options = readOptions(process.argv.slice(2))
  const { report, stores } = await startReport(options)
  delete report.hubs
  report.problems = []
  if (stores.length === 0) throw new Error(`PostgreSQL is needed: ${report.skipped[0]}`)
  report.redis = {
    url: new URL(options.redisUrl).host,
    version: await redisVersion(options.redisUrl),
  }

  await deleteCounts(options.redisUrl, [])
  const receiver = await startLocalServer('webhook receiver', 'webhook-receiver.js')
  const limits = [
    `GET ${LIMITED_PATH}=${options.limit}/${WINDOW_SECONDS}`,
    ...RAISED.map((route) => `${route}=${MAX}/${WINDOW_SECONDS}`),
  ].join(',')
  const started = performance.now()
  const cluster = await startCluster({
    hubs: HUBS,
    workers: WORKERS,
    logLevel: options.logLevel,
    serveArgs: ['--no-dispatcher'],
    env: {
      REDIS_URL: options.redisUrl,
      SVC_HUB_RATE_LIMITS: limits,
      SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.url,
    },
  })
  report.start = {
    hubs: HUBS,
    workers: WORKERS,
    ms: round(performance.now() - started),
    admins: cluster.admins,
  }
  if (cluster.admins !== 1)
    report.problems.push(`${cluster.admins} hubs printed an admin PAT at first start, not 1`)
  for (const hub of cluster.hubs)
    if (!hub.stdout().includes('rate limit store ready'))
      report.problems.push(`${hub.label} did not log "rate limit store ready"`)

  const upload = publishUpload({ account: ORG, slug: STACK })
  const { token, userId } = await setUp(cluster, upload)
  const adminId = (await call(cluster.hubs[0].url, '/v1/user', { token: cluster.adminPat })).body
    ?.id
  onExit(() => deleteCounts(options.redisUrl, [userId, adminId].filter(Boolean)))
  const auth = { authorization: `Bearer ${token}` }

  if (options.only.includes('limits')) {
    report.limits = await benchLimits(cluster, token, options)
    if (!report.limits.shared)
      report.problems.push(
        `rate limits not shared: ${report.limits.accepted} requests accepted across the hubs, ` +
          `the limit is ${report.limits.limit}`,
      )
  }
  if (options.only.includes('get')) {
    const shape = () => ({
      connections: options.connections,
      timeout: 10,
      request: { method: 'GET', path: CONFIG_PATH, headers: auth },
    })
    report.get = await scaling(cluster, shape, options, 'GET config', 'req')
  }
  if (options.only.includes('publish')) {
    let patch = 1
    const shape = () => ({
      connections: options.concurrency,
      timeout: 120,
      request: {
        method: 'POST',
        path: PUBLISH_PATH,
        headers: { ...auth, 'content-type': upload.contentType },
        setupRequest: (request) => ({ ...request, body: upload.body(`1.0.${patch++}`) }),
      },
    })
    report.publish = await scaling(
      cluster,
      shape,
      { ...options, seconds: options.publishSeconds },
      'publish',
      'publishes',
    )
  }
  if (options.only.includes('webhooks')) {
    report.webhooks = await benchWebhooks(cluster, receiver, token, options)
    for (const r of [...report.webhooks.two, ...report.webhooks.one]) {
      if (r.deliveries !== r.expected || r.errors)
        report.problems.push(
          `webhooks, ${r.label}: ${r.deliveries} of ${r.expected} deliveries verified, ${r.errors} failed verification`,
        )
    }
  }

  for (const process of [...cluster.hubs, ...cluster.workers]) {
    const logged = process.errors?.()
    if (logged?.count)
      report.problems.push(
        `${process.label} logged ${logged.count} error line(s): ${logged.first[0]}`,
      )
  }
  const statuses = await cluster.release()
  statuses.forEach((status, i) => {
    if (status !== 0) report.problems.push(`process ${i + 1} of the cluster exited with ${status}`)
  })
  await receiver.stop()
  await finishReport(report, 'scale', printReport)
  if (report.limits && !report.limits.shared) process.exitCode = 1
}

await runMain(main)
