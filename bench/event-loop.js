// Does a large body stall the hub? A poller on a thread of its own (bench/lib/healthz-poller.js)
// asks a real `svc-hub serve` for `/healthz` every 5 ms while the hub handles one piece of work,
// and the latency of every probe is kept: p50, p99 and max per case, on SQLite and PostgreSQL.
// Cases (each `--rounds` times, 3; the poller runs only while the work does):
//   idle           nothing else, for 3 s: the baseline of the poller and the machine
//   push-raw       a 28 MB OpenAPI document pushed raw (application/json) as a new revision
//   push-envelope  the same pushed as a JSON envelope {"document": "…"}
//   run-answer     a run whose server.js answers ten 4.8 MB artifacts (48 MB)
// A case is one row of CASES: `setup(ctx)` once per hub, then `work(ctx, round)` per round, which
// answers when the work is done; another case (a document bomb, say) is one more row.
// Usage: node bench/event-loop.js [--rounds 3] [--stores sqlite,postgres] [--cases a,b]
//   [--baseline <other checkout>/packages/hub/bin/svc-hub.js]: that build too, round by round
//   in turn with this one, so that both see the same machine (it is shared and noisy).
//   [--profile <dir>]: each hub writes a V8 CPU profile of its threads under <dir>/<build>.
//   SVC_BENCH_HUB_BIN=<other checkout>/packages/hub/bin/svc-hub.js measures another build.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startPoller } from './lib/healthz-poller.js'
import {
  call,
  describeRun,
  expectStatus,
  finishReport,
  fmt,
  HUB_BIN,
  progress,
  readStores,
  ROOT,
  runMain,
  startHub,
  startReport,
  STORES,
} from './lib/hub-runs.js'
import { median, parseArgs, percentile } from './lib/stats.js'

const GITHUB = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const PETSTORE = join(ROOT, 'node_modules/@readme/oas-examples/3.0/json/petstore.json')
const DOCUMENT_BYTES = 28_000_000
const ARTIFACTS = 10
const ARTIFACT_BYTES = 4_800_000
const IDLE_MS = 3000
const HUB_ENV = {
  // An envelope escapes the document's quotes: 28 MB of JSON grows past the default 32 MiB.
  SVC_HUB_MAX_DOCUMENT_BYTES: String(64 * 1024 * 1024),
  SVC_HUB_RUN_TIMEOUT_MS: '120000',
}

/**
 * GitHub's REST description with its paths repeated under `/copy-<k>` until it is near
 * {@link DOCUMENT_BYTES}, and one more path, `/svc-bench/<n>`, padded to about that size: a
 * distinct 28 MB document for each n, made of real operations and schemas.
 */
function documents(count) {
  const base = JSON.parse(readFileSync(GITHUB, 'utf8'))
  const pathsBytes = Buffer.byteLength(JSON.stringify(base.paths))
  const otherBytes = Buffer.byteLength(JSON.stringify(base)) - pathsBytes
  const paths = { ...base.paths }
  for (let k = 1; otherBytes + (k + 1) * pathsBytes < DOCUMENT_BYTES; k++) {
    for (const [path, item] of Object.entries(base.paths)) paths[`/copy-${k}${path}`] = item
  }
  const make = (n, padding) => {
    const document = { ...base, info: { ...base.info, 'x-svc-bench-padding': padding } }
    document.paths = { ...paths }
    document.paths[`/svc-bench/${n}`] = {
      get: { operationId: `svc-bench-${n}`, responses: { 200: { description: 'ok' } } },
    }
    return JSON.stringify(document)
  }
  const padding = 'x'.repeat(Math.max(0, DOCUMENT_BYTES - Buffer.byteLength(make(0, ''))))
  return Array.from({ length: count }, (_, n) => make(n, padding))
}

/** A server.js that answers ten 4.8 MB artifacts, new bytes each run (no blob is shared). */
const RUN_BUNDLE = `
const http = require('node:http')
const server = http.createServer((request, response) => {
  request.resume()
  request.on('end', () => {
    const nonce = Math.random().toString(36).slice(2)
    const artifacts = {}
    for (let i = 0; i < ${ARTIFACTS}; i++) {
      artifacts['generated/part-' + i + '.ts'] =
        ('// ' + nonce + ' ' + i + '\\n').padEnd(${ARTIFACT_BYTES}, 'export const value = 1;')
    }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ artifacts, manifest: { parseIssues: [] } }))
  })
})
server.listen(Number(process.env.PORT), process.env.HOST, () =>
  console.log(JSON.stringify({ msg: 'listening', port: server.address().port })))
`

const pushCase = (id, label, bodyOf) => ({
  id,
  label,
  async setup(ctx) {
    const slug = `big-${id}`
    await expectStatus(
      201,
      ctx.v1('/apis', { json: { owner: 'admin', slug, name: slug, visibility: 'private' } }),
      'create the API',
    )
    ctx.state[id] = { slug, next: 0 }
  },
  async work(ctx) {
    const state = ctx.state[id]
    const document = ctx.documents[state.next++ % ctx.documents.length]
    await expectStatus(
      201,
      ctx.v1(`/apis/admin/${state.slug}/revisions`, {
        body: bodyOf(document),
        headers: { 'content-type': 'application/json' },
      }),
      `push to admin/${state.slug}`,
    )
  },
})

/** The cases, in the order they run. */
const CASES = [
  {
    id: 'idle',
    label: 'idle',
    setup() {},
    work: () => new Promise((resolve) => setTimeout(resolve, IDLE_MS)),
  },
  pushCase('push-raw', '28 MB document pushed raw', (document) => document),
  pushCase('push-envelope', '28 MB document pushed as a JSON envelope', (document) =>
    JSON.stringify({ document }),
  ),
  {
    id: 'run-answer',
    label: `run answering ${ARTIFACTS} × ${ARTIFACT_BYTES / 1e6} MB artifacts`,
    async setup(ctx) {
      await expectStatus(
        201,
        ctx.v1('/apis', { json: { owner: 'admin', slug: 'pets', name: 'Pets' } }),
        'create the API',
      )
      await expectStatus(
        201,
        ctx.v1('/apis/admin/pets/revisions', {
          body: readFileSync(PETSTORE),
          headers: { 'content-type': 'application/json' },
        }),
        'push the Petstore',
      )
      const form = new FormData()
      form.append('version', '1.0.0')
      form.append('bundle', new Blob([RUN_BUNDLE]), 'server.js')
      const manifest = JSON.stringify({ name: '@admin/web', version: '1.0.0', imports: {} })
      form.append('files', new Blob([manifest]), 'deno.json')
      const published = await fetch(`${ctx.hub.url}/v1/stacks/admin/web/versions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.hub.adminPat}` },
        body: form,
      })
      if (published.status !== 201) throw new Error(`publish: ${await published.text()}`)
      await expectStatus(
        201,
        ctx.v1('/projects', {
          json: { account: 'admin', slug: 'shop', stack: '@admin/web', api: 'admin/pets' },
        }),
        'create the project',
      )
      const deployed = await expectStatus(
        201,
        ctx.v1('/projects/admin/shop/deployments', { json: { stackVersion: '1.0.0' } }),
        'deploy',
      )
      ctx.state.deployment = deployed.body.id
    },
    async work(ctx) {
      const started = await expectStatus(
        202,
        ctx.v1('/projects/admin/shop/runs', { json: { deployment: ctx.state.deployment } }),
        'start a run',
      )
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const run = (await ctx.v1(`/projects/admin/shop/runs/${started.body.id}`)).body
        if (run.status === 'running') continue
        if (run.status !== 'succeeded') throw new Error(`the run failed: ${run.error}\n${run.log}`)
        const bytes = run.artifacts.reduce((sum, a) => sum + a.size, 0)
        if (bytes !== ARTIFACTS * ARTIFACT_BYTES) throw new Error(`the run kept ${bytes} bytes`)
        return
      }
    },
  },
]

await runMain(async () => {
  const given = parseArgs(process.argv.slice(2))
  const chosen = String(given.cases ?? CASES.map((c) => c.id).join(',')).split(',')
  for (const id of chosen) if (!CASES.some((c) => c.id === id)) throw new Error(`no case '${id}'`)
  const options = {
    rounds: Number(given.rounds ?? 3),
    stores: readStores(given),
    cases: chosen,
    ...(given.baseline ? { baseline: String(given.baseline) } : {}),
  }
  const builds = [
    { build: 'this', bin: HUB_BIN },
    ...(options.baseline ? [{ build: 'baseline', bin: options.baseline }] : []),
  ]
  const cases = CASES.filter((c) => chosen.includes(c.id))
  const { report, stores } = await startReport(options, { intervalMs: 5 })
  const pushes = cases.filter((c) => c.id.startsWith('push-')).length
  progress('building the 28 MB documents')
  const built = pushes > 0 ? documents(options.rounds + 1) : []
  report.documentBytes = built[0] === undefined ? null : Buffer.byteLength(built[0])

  for (const kind of stores) {
    const hubs = []
    for (const { build, bin } of builds) {
      progress(`${STORES[kind]}: starting a hub (${build})`)
      const hub = await startHub(kind, {
        tmpPrefix: 'svc-bench-event-loop-',
        logLevel: 'info',
        env: HUB_ENV,
        bin,
        ...(given.profile ? { profileDir: join(String(given.profile), build) } : {}),
      })
      const v1 = (path, init = {}) => call(hub.url, `/v1${path}`, { token: hub.adminPat, ...init })
      const ctx = { hub, v1, documents: built, state: {} }
      for (const c of cases) await c.setup(ctx)
      hubs.push({ build, ctx, latencies: {}, workMs: {} })
    }
    for (const c of cases) {
      // Round by round, each build in turn: both see the same machine.
      for (let round = 0; round < options.rounds; round++) {
        for (const hub of hubs) {
          progress(`${STORES[kind]}: ${c.label}, round ${round + 1} (${hub.build})`)
          const poller = startPoller(hub.ctx.hub.url, { intervalMs: report.intervalMs })
          await poller.started
          const t0 = performance.now()
          try {
            await c.work(hub.ctx, round)
          } finally {
            ;(hub.workMs[c.id] ??= []).push(performance.now() - t0)
            ;(hub.latencies[c.id] ??= []).push(...(await poller.stop()))
          }
        }
      }
      for (const hub of hubs) {
        const latencies = hub.latencies[c.id]
        report.hubs.push({
          store: kind,
          build: hub.build,
          case: c.id,
          label: c.label,
          rounds: options.rounds,
          workMs: median(hub.workMs[c.id]),
          probes: latencies.length,
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
          maxMs: Math.max(...latencies),
        })
      }
    }
    for (const hub of hubs) await hub.ctx.hub.release()
  }

  await finishReport(report, 'event-loop', (r) => {
    console.log(`\n${describeRun(r)}`)
    if (r.options.baseline) console.log(`baseline: ${r.options.baseline}`)
    console.log(
      `/healthz every ${r.intervalMs} ms (open loop, own thread) while the hub works; ${r.options.rounds} rounds per case` +
        (r.documentBytes ? `; documents of ${fmt(r.documentBytes / 1e6, 1)} MB` : '') +
        '\n',
    )
    console.log('| store | case | hub | work s (median) | probes | p50 ms | p99 ms | max ms |')
    console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |')
    for (const h of r.hubs) {
      console.log(
        `| ${STORES[h.store]} | ${h.label} | ${h.build} | ${fmt(h.workMs / 1000, 1)} | ${h.probes} | ${fmt(h.p50Ms, 1)} | ${fmt(h.p99Ms, 1)} | ${fmt(h.maxMs, 1)} |`,
      )
    }
  })
})
