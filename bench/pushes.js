// Concurrent revision pushes to one API: `--pushers` clients (4) each push `--rounds` (3)
// distinct GitHub REST descriptions (13 MB; each one a path `/svc-bench/<n>` apart) to the same
// API of a real `svc-hub serve`, all at once, on SQLite and on PostgreSQL. Reports each push's
// latency (p50, p99, max), how many did not get 201, the wall time, and how many diffs the hub ran
// (its `svc_hub_document_analysis_seconds_count`): pushes that take turns diff once each.
// Usage: node bench/pushes.js [--pushers 4] [--rounds 3] [--stores sqlite,postgres]
//   SVC_BENCH_HUB_BIN=<other checkout>/packages/hub/bin/svc-hub.js measures another build.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  call,
  describeRun,
  expectStatus,
  finishReport,
  fmt,
  progress,
  readStores,
  ROOT,
  runMain,
  startHub,
  startReport,
  STORES,
} from './lib/hub-runs.js'
import { percentile, parseArgs } from './lib/stats.js'

const GITHUB = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')

/** GitHub's description with one more operation, `GET /svc-bench/<n>`: distinct for each n. */
function variant(base, n) {
  const document = { ...base, paths: { ...base.paths } }
  document.paths[`/svc-bench/${n}`] = {
    get: { operationId: `svc-bench-${n}`, responses: { 200: { description: 'ok' } } },
  }
  return Buffer.from(JSON.stringify(document))
}

/** The hub's count of documents analysed, by kind (`read`, `diff`). */
async function analyses(url) {
  const metrics = await call(url, '/metrics')
  const counts = {}
  for (const [, kind, count] of metrics.text.matchAll(
    /^svc_hub_document_analysis_seconds_count\{kind="(\w+)"\} (\d+)$/gm,
  )) {
    counts[kind] = Number(count)
  }
  return counts
}

await runMain(async () => {
  const given = parseArgs(process.argv.slice(2))
  const options = {
    pushers: Number(given.pushers ?? 4),
    rounds: Number(given.rounds ?? 3),
    stores: readStores(given),
  }
  const { report, stores } = await startReport(options)
  const base = JSON.parse(readFileSync(GITHUB, 'utf8'))
  const documents = Array.from({ length: options.pushers * options.rounds + 1 }, (_, n) =>
    variant(base, n),
  )
  report.documentBytes = documents[0].byteLength

  for (const kind of stores) {
    progress(`${STORES[kind]}: starting a hub`)
    const hub = await startHub(kind, { tmpPrefix: 'svc-bench-pushes-', logLevel: 'info' })
    const push = (body) =>
      call(hub.url, '/v1/apis/admin/github/revisions', {
        token: hub.adminPat,
        body,
        headers: { 'content-type': 'application/json' },
      })
    await expectStatus(
      201,
      call(hub.url, '/v1/apis', {
        token: hub.adminPat,
        json: { owner: 'admin', slug: 'github', name: 'GitHub', visibility: 'private' },
      }),
      'create the API',
    )
    await expectStatus(201, push(documents[0]), 'the first revision')
    const before = await analyses(hub.url)

    progress(`${STORES[kind]}: ${options.pushers} pushers × ${options.rounds} pushes`)
    const latencies = []
    const refused = []
    const started = performance.now()
    await Promise.all(
      Array.from({ length: options.pushers }, async (_, p) => {
        for (let r = 0; r < options.rounds; r++) {
          const t0 = performance.now()
          const reply = await push(documents[1 + p * options.rounds + r])
          latencies.push(performance.now() - t0)
          if (reply.status !== 201) refused.push(`${reply.status} ${reply.body?.code ?? ''}`)
        }
      }),
    )
    const wallMs = performance.now() - started
    const after = await analyses(hub.url)
    report.hubs.push({
      store: kind,
      pushes: latencies.length,
      refused,
      wallMs,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: Math.max(...latencies),
      diffs: (after.diff ?? 0) - (before.diff ?? 0),
    })
    await hub.release()
  }

  await finishReport(report, 'pushes', (r) => {
    console.log(`\n${describeRun(r)}`)
    console.log(
      `${r.options.pushers} concurrent pushers × ${r.options.rounds} pushes of GitHub REST (${fmt(r.documentBytes / 1e6, 1)} MB each) to one API\n`,
    )
    console.log('| store | pushes | not 201 | p50 ms | p99 ms | max ms | wall s | diffs run |')
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const h of r.hubs) {
      console.log(
        `| ${STORES[h.store]} | ${h.pushes} | ${h.refused.length} | ${fmt(h.p50Ms)} | ${fmt(h.p99Ms)} | ${fmt(h.maxMs)} | ${fmt(h.wallMs / 1000, 1)} | ${h.diffs} |`,
      )
    }
  })
})
