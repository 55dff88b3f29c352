// Webhook deliveries end to end: revision commit → verified 2xx at a loopback receiver, on SQLite
// and PostgreSQL, beside the raw rate of signed POSTs from one Node process to the same receiver.
// Every party runs in its own process: the hub (`svc-hub serve`), the receiver
// (bench/lib/webhook-receiver.js) and the raw sender (bench/lib/webhook-sender.js).
// Each hub run: a fresh hub, one API with W webhooks (each its own secret, all at the receiver,
// `/w/<i>`), a first revision (no event), `--warmup` revisions delivered and not counted, then R
// revisions pushed one after the other, each different, so W × R deliveries are measured:
// deliveries / (last verified arrival − the first measured event's `time`), and the latency from
// the event's `time` to the receiver, over each delivery's first arrival.
// Usage: node bench/webhooks.js [--webhooks 500] [--revisions 10] [--runs 3] [--warmup 2]
//   [--concurrency 128: the hub's SVC_HUB_WEBHOOK_CONCURRENCY and the raw POSTs in flight]
//   [--raw-requests W×R] [--raw-warmup 1000] [--stores sqlite,postgres] [--log-level info]
//   [--timeout 120: seconds to wait for the deliveries of one phase]
//   [--profile DIR: a V8 CPU profile of each hub into DIR, summarised at the end]
// PostgreSQL: SVC_BENCH_DATABASE_URL, else SVC_TEST_DATABASE_URL, else the local test database.
// SVC_BENCH_HUB_BIN: the svc-hub.js to run instead of packages/hub/bin/svc-hub.js.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runNode } from './lib/child-runs.js'
import { profilesIn, summarizeProfile } from './lib/cpu-profile.js'
import {
  call,
  describeRun,
  expectStatus,
  finishReport,
  fmt,
  onExit,
  progress,
  readStores,
  ROOT,
  runMain,
  startHub,
  startLocalServer,
  startReport,
  STORES,
} from './lib/hub-runs.js'
import { receiverControl } from './lib/receiver-control.js'
import { createWebhooks, pushRevision, SETUP_CONCURRENCY } from './lib/webhook-setup.js'
import { median, parseArgs, percentile } from './lib/stats.js'

const SENDER = join(ROOT, 'bench/lib/webhook-sender.js')
const OWNER = 'admin'
const SLUG = 'bench'
/** Issue 24's targets (SQLite; the same shown for PostgreSQL). */
const TARGET = { ratio: 0.75, rate: 5000 }

/**
 * CPU time (user + system, every thread) a process used so far, in ms, from /proc (Linux);
 * undefined elsewhere. Clock ticks are taken to be 100 a second (`getconf CLK_TCK`).
 */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces), which ends at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

// ---- the raw baseline

/** `count` signed POSTs from one Node process, `concurrency` in flight, after `warmup` more. */
async function benchRaw(receiver, options, sample, workDir) {
  const control = receiverControl(receiver)
  const secrets = Array.from(
    { length: options.webhooks },
    () => `whsec_${randomBytes(32).toString('base64url')}`,
  )
  await control.secrets(secrets)
  const jobFile = join(workDir, 'raw-job.json')
  await writeFile(
    jobFile,
    JSON.stringify({
      url: receiver.url,
      secrets,
      sample,
      count: options.rawRequests,
      warmup: options.rawWarmup,
      concurrency: options.concurrency,
    }),
  )
  const run = await runNode([SENDER, jobFile], { timeoutMs: options.timeout * 1000 })
  let sent
  try {
    sent = JSON.parse(run.stdout.trim().split('\n').at(-1))
  } catch {
    throw new Error(`the raw sender exited with ${run.signal ?? run.code}: ${run.stderr}`)
  }
  const stats = await control.stats()
  const result = {
    kind: 'raw',
    deliveries: stats.deliveries,
    requests: sent.count,
    seconds: sent.ms / 1000,
    rate: sent.rate,
    failed: sent.failed,
    statuses: sent.statuses,
    latencyMs: latencies(stats.latencies),
    duplicates: stats.duplicates,
    errors: stats.errors,
    errorSamples: stats.errorSamples,
    bodyBytes: stats.bodyBytes,
    cpuMs: { sender: sent.cpuMs, receiver: stats.cpuMs },
  }
  progress(
    `raw: ${fmt(result.rate)} POSTs/s (${result.requests} in ${fmt(result.seconds, 2)} s), ` +
      `p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms` +
      (result.failed || result.errors
        ? `; ${result.failed} failed, ${result.errors} verification errors`
        : ''),
  )
  return result
}

// ---- one hub

async function benchHub(kind, run, receiver, options) {
  const control = receiverControl(receiver)
  const profileDir = options.profile ? join(options.profile, `${kind}-run${run}`) : undefined
  const hub = await startHub(kind, {
    tmpPrefix: 'svc-hub-bench-webhooks-',
    logLevel: options.logLevel,
    env: {
      SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.url,
      SVC_HUB_WEBHOOK_CONCURRENCY: String(options.concurrency),
    },
    profileDir,
  })
  const agent = new http.Agent({ keepAlive: true, maxSockets: SETUP_CONCURRENCY })
  const problems = []
  try {
    const token = hub.adminPat
    if (!token) throw new Error(`${kind}: no admin PAT on stderr at first start`)
    const api = (path, init = {}) => call(hub.url, path, { token, agent, ...init })
    await expectStatus(
      201,
      api('/v1/apis', { json: { owner: OWNER, slug: SLUG, name: 'Bench', visibility: 'private' } }),
      'POST /v1/apis',
    )
    const apiPath = `/v1/apis/${OWNER}/${SLUG}`

    // W webhooks, each with its own secret, all at the receiver.
    const secrets = await createWebhooks(options.webhooks, receiver.url, (i, url) =>
      api(`${apiPath}/webhooks`, { json: { url } }),
    )
    await control.secrets(secrets)

    let sequence = 0
    const push = async () => {
      const n = sequence++
      const sentAt = Date.now()
      const reply = await pushRevision(n, options.webhooks, (init) =>
        api(`${apiPath}/revisions`, init),
      )
      return {
        sentAt,
        answeredAt: Date.now(),
        retrievedAt: Date.parse(reply.body.revision.retrievedAt),
      }
    }
    await push() // the first revision sends no event

    const waitFor = async (count, what) => {
      const answer = await control.wait(count, options.timeout * 1000)
      if (!answer.done) {
        problems.push(
          `${what}: only ${answer.settled} of ${count} deliveries settled within ${options.timeout} s`,
        )
      }
      return answer.done
    }

    if (options.warmup > 0) {
      for (let i = 0; i < options.warmup; i++) await push()
      await waitFor(options.warmup * options.webhooks, 'warm-up')
      await control.reset()
    }

    const expected = options.revisions * options.webhooks
    const pushes = []
    const cpuBefore = processCpuMs(hub.pid)
    for (let i = 0; i < options.revisions; i++) pushes.push(await push())
    await waitFor(expected, 'measured')
    const hubCpuMs = processCpuMs(hub.pid) - cpuBefore

    const logged = hub.errors()
    if (logged.count)
      problems.push(`the hub logged ${logged.count} error line(s); first: ${logged.first[0]}`)
    agent.destroy()
    const status = await hub.stop()
    const stoppedAt = Date.now()
    if (status !== 0) problems.push(`svc-hub serve exited with ${status} on SIGTERM`)
    // After the hub stopped: a late second attempt of any delivery counts as a duplicate too.
    const stats = await control.stats()

    const start = stats.minEventTime
    const end = stats.lastReceivedAt
    const seconds = (end - start) / 1000
    const result = {
      kind,
      run,
      deliveries: stats.deliveries,
      expected,
      events: stats.events,
      seconds,
      rate: stats.deliveries / seconds,
      latencyMs: latencies(stats.latencies),
      firstDeliveryMs: stats.firstReceivedAt - start,
      duplicates: stats.duplicates,
      errors: stats.errors,
      errorSamples: stats.errorSamples,
      bodyBytes: stats.bodyBytes,
      // From sending the first measured push until the last delivery came (and its wait answered).
      cpuMs: { hub: hubCpuMs, receiver: stats.cpuMs },
      pushes: {
        medianMs: median(pushes.map((p) => p.answeredAt - p.sentAt)),
        // When the last push was answered, from the first measured event's time.
        lastAnsweredS: (pushes.at(-1).answeredAt - start) / 1000,
        // The first push's event time against when it was sent: parse, diff and queries before it.
        firstSentToEventMs: start - pushes[0].sentAt,
      },
      problems,
      sample: stats.sample,
    }
    if (result.deliveries !== expected) {
      problems.push(`${result.deliveries} of ${expected} deliveries verified at the receiver`)
    }
    if (profileDir) {
      // Only the measured part: from sending the first measured push to the last delivery.
      const window = { fromMs: pushes[0].sentAt, toMs: end, endedAtMs: stoppedAt }
      result.profiles = []
      for (const { file, thread } of await profilesIn(profileDir)) {
        result.profiles.push({ thread, ...(await summarizeProfile(file, { window, top: 20 })) })
      }
    }
    progress(
      `${STORES[kind]} run ${run}: ${fmt(result.rate)} deliveries/s (${result.deliveries} in ` +
        `${fmt(seconds, 2)} s), p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ` +
        `pushes ${result.pushes.medianMs} ms each (the last answered at ` +
        `${fmt(result.pushes.lastAnsweredS, 2)} s)` +
        (result.duplicates ? `, ${result.duplicates} duplicates` : '') +
        (result.errors ? `, ${result.errors} verification errors: ${result.errorSamples[0]}` : ''),
    )
    for (const problem of problems) progress(`${STORES[kind]} run ${run}: ${problem}`)
    return result
  } finally {
    agent.destroy()
    await hub.release()
  }
}

function latencies(values) {
  return {
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: percentile(values, 100),
  }
}

// ---- report

function summarize(results) {
  const rates = results.map((r) => r.rate)
  return {
    deliveries: results.map((r) => r.deliveries),
    seconds: median(results.map((r) => r.seconds)),
    rate: median(rates),
    rates,
    p50: median(results.map((r) => r.latencyMs.p50)),
    p99: median(results.map((r) => r.latencyMs.p99)),
    duplicates: results.reduce((sum, r) => sum + r.duplicates, 0),
    errors: results.reduce((sum, r) => sum + r.errors + (r.failed ?? 0), 0),
  }
}

function printReport(report) {
  const { options } = report
  const raw = report.raw
  const rawSummary = summarize(raw)
  const header = [
    'kind',
    'deliveries',
    'seconds',
    'deliveries/s',
    '÷ raw',
    'p50 ms',
    'p99 ms',
    'duplicates',
    'verification errors',
    'runs: deliveries/s (÷ raw)',
  ]
  const perRun = (results) =>
    results
      .map((r, i) => (raw[i] ? `${fmt(r.rate)} (${fmt(r.rate / raw[i].rate, 2)})` : fmt(r.rate)))
      .join(' / ')
  const rows = [
    [
      'raw: signed POSTs, one Node process',
      distinct(rawSummary.deliveries),
      fmt(rawSummary.seconds, 2),
      fmt(rawSummary.rate),
      '1',
      fmt(rawSummary.p50),
      fmt(rawSummary.p99),
      String(rawSummary.duplicates),
      String(rawSummary.errors),
      raw.map((r) => fmt(r.rate)).join(' / '),
    ],
  ]
  for (const kind of Object.keys(STORES)) {
    const results = report.hubs.filter((h) => h.kind === kind)
    if (results.length === 0) continue
    const s = summarize(results)
    const ratios = results.map((r) => r.rate / raw[r.run - 1].rate)
    rows.push([
      `hub, ${STORES[kind]}`,
      distinct(s.deliveries),
      fmt(s.seconds, 2),
      `**${fmt(s.rate)}**`,
      `**${fmt(median(ratios), 2)}**`,
      fmt(s.p50),
      fmt(s.p99),
      String(s.duplicates),
      String(s.errors),
      perRun(results),
    ])
  }
  console.log(`\n${describeRun(report)}`)
  const bytes = report.hubs[0]?.bodyBytes
  const bodies = !bytes
    ? ''
    : bytes.min === bytes.max
      ? `; event bodies ${fmt(bytes.min)} bytes`
      : `; event bodies ${fmt(bytes.min)}–${fmt(bytes.max)} bytes`
  console.log(
    `${fmt(options.webhooks)} webhooks × ${fmt(options.revisions)} revisions = ` +
      `${fmt(options.webhooks * options.revisions)} deliveries per hub run, after ` +
      `${options.warmup} warm-up revision(s); raw: ${fmt(options.rawRequests)} POSTs after ` +
      `${fmt(options.rawWarmup)}; ${options.concurrency} in flight (hub: ` +
      `SVC_HUB_WEBHOOK_CONCURRENCY); ${options.runs} run(s), medians shown; hub log level ` +
      `${options.logLevel}${bodies}\n`,
  )
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i >= 1 && i <= 8 ? '---:' : '---')).join(' | ')} |`)
  for (const row of rows) console.log(`| ${row.join(' | ')} |`)

  const perRequest = (cpuMs, count) => `${fmt((cpuMs * 1000) / count)} µs`
  const all = (results, value) => results.map(value).join(' / ')
  console.log(
    `\nraw: CPU per POST, sender ${all(raw, (r) => perRequest(r.cpuMs.sender, r.requests))}, ` +
      `receiver ${all(raw, (r) => perRequest(r.cpuMs.receiver, r.requests))}.`,
  )
  for (const kind of Object.keys(STORES)) {
    const results = report.hubs.filter((h) => h.kind === kind)
    if (results.length === 0) continue
    const s = summarize(results)
    const ratio = median(results.map((r) => r.rate / raw[r.run - 1].rate))
    const met = s.rate >= TARGET.rate && ratio >= TARGET.ratio
    console.log(
      `\n${STORES[kind]}: pushes answered in ${all(results, (r) => r.pushes.medianMs)} ms ` +
        `(median per run); the last push answered at ${all(results, (r) => fmt(r.pushes.lastAnsweredS, 2))} s ` +
        `of ${all(results, (r) => fmt(r.seconds, 2))} s; the first delivery came ` +
        `${all(results, (r) => r.firstDeliveryMs)} ms after the first event; p90 ` +
        `${all(results, (r) => r.latencyMs.p90)} ms, max ${all(results, (r) => r.latencyMs.max)} ms. ` +
        `CPU per delivery: hub ${all(results, (r) => perRequest(r.cpuMs.hub, r.deliveries))} ` +
        `(all threads; pushes included), receiver ${all(results, (r) => perRequest(r.cpuMs.receiver, r.deliveries))}. ` +
        `Target (≥ ${fmt(TARGET.rate)}/s and ≥ ${TARGET.ratio} of raw): ${met ? 'met' : 'not met'}.`,
    )
  }
  for (const skipped of report.skipped) console.log(`\nskipped: ${skipped}`)
  for (const hub of report.hubs)
    for (const problem of hub.problems)
      console.log(`\n${STORES[hub.kind]} run ${hub.run}: ${problem}`)
  for (const hub of report.hubs) {
    for (const p of hub.profiles ?? []) {
      console.log(
        `\nprofile of the hub (${STORES[hub.kind]} run ${hub.run}), thread ${p.thread}` +
          `${p.thread === 0 ? ' (main)' : ' (worker)'}, the measured ${fmt(p.totalMs / 1000, 2)} s: ${p.file}`,
      )
      console.log(`  by place: ${p.places.slice(0, 10).map(share).join(', ')}`)
      if (p.thread !== 0) continue
      console.log('  by function (self time):')
      for (const f of p.functions)
        console.log(`    ${fmt(f.share * 100, 1).padStart(5)} %  ${f.name}`)
      console.log('  workspace functions (inclusive time):')
      for (const f of p.inclusive)
        console.log(`    ${fmt(f.share * 100, 1).padStart(5)} %  ${f.name}`)
    }
  }
}

function share({ name, share }) {
  return `${name} ${fmt(share * 100, 1)} %`
}

function distinct(values) {
  return [...new Set(values)].map((v) => fmt(v)).join(' / ')
}

// ---- main

function readOptions(argv) {
  const args = parseArgs(argv)
  const integer = (name, fallback, min = 1) => {
    const value = Number(args[name] ?? fallback)
    if (!Number.isInteger(value) || value < min)
      throw new Error(`--${name} must be an integer of at least ${min}, got ${args[name]}`)
    return value
  }
  const stores = readStores(args)
  const webhooks = integer('webhooks', 500)
  const revisions = integer('revisions', 10)
  return {
    webhooks,
    revisions,
    runs: integer('runs', 3),
    warmup: integer('warmup', 2, 0),
    concurrency: integer('concurrency', 128),
    rawRequests: integer('raw-requests', webhooks * revisions),
    rawWarmup: integer('raw-warmup', 1000, 0),
    stores,
    logLevel: String(args['log-level'] ?? 'info'),
    timeout: integer('timeout', 120),
    profile: args.profile === undefined ? undefined : String(args.profile),
  }
}

async function main() {
  const options = readOptions(process.argv.slice(2))
  const { report, stores } = await startReport(options)
  report.raw = []
  if (stores.length === 0) throw new Error('no store to measure')

  const workDir = await mkdtemp(join(tmpdir(), 'svc-bench-webhooks-'))
  onExit(() => rm(workDir, { recursive: true, force: true }))
  const receiver = await startLocalServer('webhook receiver', 'webhook-receiver.js')

  // Each round: every hub, then the raw baseline with a body the hubs just sent (same size).
  for (let run = 1; run <= options.runs; run++) {
    let sample
    for (const store of stores) {
      const result = await benchHub(store, run, receiver, options)
      sample ??= result.sample
      delete result.sample
      report.hubs.push(result)
    }
    if (!sample) throw new Error('no event reached the receiver: nothing to size the raw POSTs by')
    report.raw.push(await benchRaw(receiver, options, sample, workDir))
  }
  await receiver.stop()
  await finishReport(report, 'webhooks', printReport)
}

await runMain(main)
