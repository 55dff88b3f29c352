// Fair shares of runs: how long account B waits for its run to start while account A keeps its
// own queue of runs full. A real `svc-hub serve` (runs in bubblewrap) on each store; A's runs are
// of a bundle that loops until the run time limit (`--timeout-ms`, 3 s), and A asks again as soon
// as its queue (SVC_HUB_RUN_QUEUE_PER_ACCOUNT, `--per-account` 3) has room; B asks for a run of a
// quick bundle every `--interval` seconds (5), `--b-runs` times (8), each once its previous run
// ended (so each is B's first run in the queue: what the fairness bounds; a B that asks faster
// than its share queues behind its own runs). B's wait is from sending its request to the run's
// `startedAt` (when the hub takes it from the queue to start its process), both on this
// machine's clock. Measured alone (A asks for nothing) and under A's flood, p50/p99/max; under
// the flood the bound is one of A's runs (the time limit, with the sandbox's start and end).
// Usage: node bench/run-fairness.js [--b-runs 8] [--interval 5] [--timeout-ms 3000]
//   [--per-account 3] [--stores sqlite,postgres]
//   SVC_BENCH_HUB_BIN=<other checkout>/packages/hub/bin/svc-hub.js measures another build.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { runNode } from './lib/child-runs.js'
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
import { parseArgs, percentile } from './lib/stats.js'

const PETSTORE = join(ROOT, 'node_modules/@readme/oas-examples/3.0/json/petstore.json')
const ORG = 'acme'
const SCOPES = 'read,write:releases,write:projects,write:apis'

/** A server.js that listens as a published one does and answers /artifacts with `answer`. */
function serverJs(answer) {
  return `
const http = require('node:http')
const server = http.createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    ${answer}
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ artifacts: { 'types.ts': 'export type Pet = { id: number }' }, manifest: {} }))
  })
})
server.listen(Number(process.env.PORT), process.env.HOST, () =>
  console.log(JSON.stringify({ msg: 'listening', port: server.address().port })))
`
}

const LOOP = serverJs('for (;;) {}')
const QUICK = serverJs('')

/** Users `flood` (A) and `other` (B), writers of ORG (owned by `owner`), with a PAT each. */
async function makeAccounts(env) {
  const admin = async (...args) => {
    const run = await runNode([HUB_BIN, 'admin', ...args, '--json'], { env })
    if (run.code !== 0) throw new Error(`svc-hub admin ${args.join(' ')}: ${run.stderr}`)
    return JSON.parse(run.stdout)
  }
  const tokens = {}
  for (const user of ['owner', 'flood', 'other']) {
    await admin('create-user', user)
    if (user === 'owner') await admin('create-org', ORG, '--owner', 'owner')
    else await admin('add-member', ORG, user, '--role', 'writer')
    tokens[user] = (await admin('create-token', user, '--scopes', SCOPES)).token
  }
  return tokens
}

async function publish(url, token, version, bundle) {
  const form = new FormData()
  form.append('version', version)
  form.append('bundle', new Blob([bundle]), 'server.js')
  const manifest = JSON.stringify({ name: `@${ORG}/web`, version, imports: {} })
  form.append('files', new Blob([manifest]), 'deno.json')
  const response = await fetch(`${url}/v1/stacks/${ORG}/web/versions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  if (response.status !== 201) throw new Error(`publish ${version}: ${await response.text()}`)
}

/** The stack's two versions, an API with the Petstore, a project and a deployment of each. */
async function setUp(url, token) {
  await publish(url, token, '1.0.0', LOOP)
  await publish(url, token, '1.1.0', QUICK)
  await expectStatus(
    201,
    call(url, '/v1/apis', { token, json: { owner: ORG, slug: 'petstore', name: 'Petstore' } }),
    'create the API',
  )
  await expectStatus(
    201,
    call(url, `/v1/apis/${ORG}/petstore/revisions`, {
      token,
      body: readFileSync(PETSTORE),
      headers: { 'content-type': 'application/json' },
    }),
    'push the Petstore',
  )
  const project = { account: ORG, slug: 'shop', stack: `@${ORG}/web`, api: `${ORG}/petstore` }
  await expectStatus(201, call(url, '/v1/projects', { token, json: project }), 'the project')
  const deploy = async (stackVersion) =>
    (
      await expectStatus(
        201,
        call(url, `/v1/projects/${ORG}/shop/deployments`, { token, json: { stackVersion } }),
        `deploy ${stackVersion}`,
      )
    ).body.id
  return { loop: await deploy('1.0.0'), quick: await deploy('1.1.0') }
}

const ask = (url, token, deployment) =>
  call(url, `/v1/projects/${ORG}/shop/runs`, { token, json: { deployment } })

async function settled(url, token, id) {
  for (;;) {
    const reply = await call(url, `/v1/projects/${ORG}/shop/runs/${id}`, { token })
    if (reply.body?.status !== 'running') return reply.body
    await sleep(100)
  }
}

/**
 * B's runs, one every `interval` seconds or once its previous one ended if later: answers each
 * one's wait from ask to start (ms). With
 * `flood`, A keeps its queue full meanwhile; answers too how many of A's runs were accepted and
 * refused with 429.
 */
async function measure(url, tokens, deployments, options, flood) {
  let stop = false
  const a = { accepted: 0, refused: 0 }
  const flooding = flood
    ? (async () => {
        while (!stop) {
          const reply = await ask(url, tokens.flood, deployments.loop)
          if (reply.status === 202) a.accepted++
          else if (reply.status === 429) {
            a.refused++
            await sleep(200)
          } else throw new Error(`A's run: ${reply.status} ${reply.text}`)
        }
      })()
    : Promise.resolve()
  // Under the flood, B's first ask comes once A's queue is full.
  if (flood) while (a.refused === 0) await sleep(50)
  const waits = []
  for (let i = 0; i < options['b-runs']; i++) {
    const askedAt = Date.now()
    const reply = await ask(url, tokens.other, deployments.quick)
    if (reply.status !== 202) throw new Error(`B's run: ${reply.status} ${reply.text}`)
    const run = await settled(url, tokens.other, reply.body.id)
    if (run.status !== 'succeeded') throw new Error(`B's run failed: ${run.error}`)
    waits.push(Date.parse(run.startedAt) - askedAt)
    await sleep(Math.max(0, askedAt + options.interval * 1000 - Date.now()))
  }
  stop = true
  await flooding
  return { waits, a }
}

await runMain(async () => {
  const given = parseArgs(process.argv.slice(2))
  const options = {
    'b-runs': Number(given['b-runs'] ?? 8),
    interval: Number(given.interval ?? 5),
    'timeout-ms': Number(given['timeout-ms'] ?? 3000),
    'per-account': Number(given['per-account'] ?? 3),
    stores: readStores(given),
  }
  const { report, stores } = await startReport(options)
  for (const kind of stores) {
    progress(`${STORES[kind]}: starting a hub`)
    const hub = await startHub(kind, {
      tmpPrefix: 'svc-bench-run-fairness-',
      logLevel: 'info',
      env: {
        SVC_HUB_RUN_TIMEOUT_MS: String(options['timeout-ms']),
        SVC_HUB_RUN_QUEUE_PER_ACCOUNT: String(options['per-account']),
      },
    })
    const tokens = await makeAccounts(hub.env)
    const deployments = await setUp(hub.url, tokens.owner)
    for (const flood of [false, true]) {
      progress(
        `${STORES[kind]}: B's ${options['b-runs']} runs ${flood ? "under A's flood" : 'alone'}`,
      )
      const { waits, a } = await measure(hub.url, tokens, deployments, options, flood)
      report.hubs.push({
        store: kind,
        flood,
        runs: waits.length,
        p50Ms: percentile(waits, 50),
        p99Ms: percentile(waits, 99),
        maxMs: Math.max(...waits),
        aAccepted: a.accepted,
        aRefused: a.refused,
      })
    }
    await hub.release()
  }

  await finishReport(report, 'run-fairness', (r) => {
    console.log(`\n${describeRun(r)}`)
    console.log(
      `B asks for a quick run every ${r.options.interval} s (once its previous one ended); under the flood, A keeps ${r.options['per-account']} runs of a bundle that loops until the ${fmt(r.options['timeout-ms'] / 1000, 1)} s time limit waiting or running, asking again at once (429 queue_full otherwise)\n`,
    )
    console.log(
      "| store | A's flood | B's runs | B's wait p50 ms | p99 ms | max ms | A's runs accepted | A's asks refused (429) |",
    )
    console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const h of r.hubs) {
      console.log(
        `| ${STORES[h.store]} | ${h.flood ? 'yes' : 'no'} | ${h.runs} | ${fmt(h.p50Ms)} | ${fmt(h.p99Ms)} | ${fmt(h.maxMs)} | ${h.flood ? h.aAccepted : '—'} | ${h.flood ? h.aRefused : '—'} |`,
      )
    }
  })
})
