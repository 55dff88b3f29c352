// The hub over real HTTP, each server in its own process: GET config requests/second beside a bare
// Hono hello-world, and stack publishing (publishes/second, latency), on SQLite and PostgreSQL.
// Usage: node bench/hub.js [--seconds 10] [--connections 50] [--publish-seconds 20 | --publishes M]
//   [--concurrency 4] [--warmup 3] [--stores sqlite,postgres] [--log-level info]
//   [--only get|publish] [--profile DIR: a V8 CPU profile of each hub into DIR]
// PostgreSQL: SVC_BENCH_DATABASE_URL, else SVC_TEST_DATABASE_URL, else the local test database.
// SVC_BENCH_HUB_BIN: the svc-hub.js to run instead of packages/hub/bin/svc-hub.js.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  call,
  createBenchAccount,
  describeRun,
  expectStatus,
  finishReport,
  fmt,
  progress,
  readStores,
  runMain,
  startHub,
  startLocalServer,
  startReport,
  STORES,
  withPostgres,
} from './lib/hub-runs.js'
import { publishUpload } from './lib/publish-body.js'
import { runLoad } from './lib/load.js'
import { parseArgs, round } from './lib/stats.js'

// What the bench creates in each hub: an organisation owned by a user with its own PAT, an API,
// a stack (published to) and a project bound to both (its config is read).
const ORG = 'acme'
const STACK = 'billing-stack'
const PROJECT = 'billing-app'
const SCOPES = 'read,write:releases,write:projects,write:apis'

/**
 * The GETs measured on each hub: GET config, and two cheaper routes that show where its time
 * goes: /healthz (the hub's middleware, no store) and /readyz (one `select 1`).
 */
const GETS = {
  healthz: { path: '/healthz', label: '/healthz (no store)' },
  readyz: { path: '/readyz', label: '/readyz (select 1)' },
  config: {
    path: `/v1/projects/${ORG}/${PROJECT}/config`,
    label: 'config',
    authenticated: true,
  },
}

/** Publish modes: what a new version shares with the earlier ones. */
const PUBLISH_MODES = {
  shared: { label: 'sources unchanged', uniqueFiles: false },
  unique: { label: 'every file new', uniqueFiles: true },
}

// ---- load generation

/**
 * One autocannon run against `base` (one request shape), with every response's status counted.
 * `rate` counts 2xx responses only, over the run's wall time.
 */
function load(base, { path, method = 'GET', headers, body, connections, seconds, amount }) {
  return runLoad({
    url: base,
    connections,
    seconds,
    amount,
    timeout: method === 'GET' ? 10 : 120,
    request: {
      method,
      path,
      headers,
      ...(body ? { setupRequest: (request) => ({ ...request, body: body() }) } : {}),
    },
  })
}

function describeLoad(name, r, unit) {
  const failed = r.non2xx + r.errors
  return (
    `${name}: ${fmt(r.rate, r.rate < 100 ? 1 : 0)} ${unit}/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms` +
    (failed ? ` (${r.non2xx} non-2xx, ${r.errors} errors${r.sample ? `: ${r.sample}` : ''})` : '')
  )
}

// ---- the hello-world floor

async function benchHello(server, options, when) {
  const shape = { path: '/', connections: options.connections }
  await load(server.url, { ...shape, seconds: options.warmup })
  const result = await load(server.url, { ...shape, seconds: options.seconds })
  progress(describeLoad(`hello-world (${when})`, result, 'req'))
  return result
}

// ---- one hub

async function benchHub(kind, options, upload) {
  const hub = await startHub(kind, {
    tmpPrefix: 'svc-hub-bench-',
    logLevel: options.logLevel,
    profileDir: options.profile,
  })
  const { dataDir, schema } = hub
  const problems = []
  try {
    const report = { store: kind, problems }
    const token = await setUp(hub, upload, problems)
    const auth = { authorization: `Bearer ${token}` }
    const size = () => (schema ? schemaBytes(schema) : dirBytes(dataDir))

    report.get = {}
    for (const [name, { path, label, authenticated }] of Object.entries(GETS)) {
      if (options.only === 'publish') break
      const get = { path, headers: authenticated ? auth : {}, connections: options.connections }
      await load(hub.url, { ...get, seconds: options.warmup })
      report.get[name] = await load(hub.url, { ...get, seconds: options.seconds })
      progress(describeLoad(`${STORES[kind]} GET ${label}`, report.get[name], 'req'))
    }

    // Every publish is a new version; the counter is shared by every run against this hub.
    let patch = 1
    report.publish = {}
    for (const [mode, { label, uniqueFiles }] of Object.entries(PUBLISH_MODES)) {
      if (options.only === 'get') break
      const publish = {
        method: 'POST',
        path: `/v1/stacks/${ORG}/${STACK}/versions`,
        headers: { ...auth, 'content-type': upload.contentType },
        body: () => upload.body(`1.0.${patch++}`, { uniqueFiles }),
        connections: options.concurrency,
      }
      await load(hub.url, { ...publish, seconds: options.warmup })
      const before = { bytes: await size(), versions: await versionCount(hub.url, auth) }
      const result = await load(hub.url, {
        ...publish,
        seconds: options.publishSeconds,
        amount: options.publishes,
      })
      // A publish cut off by the end of the run may still land: count what the store holds.
      const stored = (await versionCount(hub.url, auth)) - before.versions
      result.storedVersions = stored
      result.storedBytesPerPublish = stored ? ((await size()) - before.bytes) / stored : null
      result.uploadMbPerSecond = (result.rate * upload.bytes) / 1e6
      report.publish[mode] = result
      progress(describeLoad(`${STORES[kind]} publish, ${label}`, result, 'publishes'))
    }

    const logged = hub.errors()
    if (logged.count) {
      problems.push(`the hub logged ${logged.count} error line(s); first: ${logged.first[0]}`)
    }
    const status = await hub.stop()
    if (status !== 0) problems.push(`svc-hub serve exited with ${status} on SIGTERM`)
    if (kind === 'sqlite') report.storeMb = round((await dirBytes(dataDir)) / 1e6, 1)
    else report.storeMb = round((await schemaBytes(schema)) / 1e6, 1)
    for (const problem of problems) progress(`${STORES[kind]}: ${problem}`)
    return report
  } finally {
    await hub.release()
  }
}

/** The bench's user, organisation, PAT, API, first stack version and project; answers the PAT. */
async function setUp(hub, upload, problems) {
  const { adminPat } = hub
  if (!adminPat) problems.push('no admin PAT on stderr at first start')
  else await expectStatus(200, call(hub.url, '/v1/user', { token: adminPat }), 'GET /v1/user')

  const { token } = await createBenchAccount(hub.env, ORG, SCOPES)

  await expectStatus(
    201,
    call(hub.url, '/v1/apis', { token, json: { owner: ORG, slug: 'billing', name: 'Billing' } }),
    'POST /v1/apis',
  )
  const first = await expectStatus(
    201,
    call(hub.url, `/v1/stacks/${ORG}/${STACK}/versions`, {
      token,
      method: 'POST',
      headers: { 'content-type': upload.contentType },
      body: upload.body('1.0.0'),
    }),
    'publish 1.0.0',
  )
  if (first.body.sourceFileCount !== upload.fileCount) {
    throw new Error(
      `publish 1.0.0 stored ${first.body.sourceFileCount} files, not ${upload.fileCount}`,
    )
  }
  await expectStatus(
    201,
    call(hub.url, '/v1/projects', {
      token,
      json: { account: ORG, slug: PROJECT, stack: `@${ORG}/${STACK}`, api: `${ORG}/billing` },
    }),
    'POST /v1/projects',
  )
  const config = await expectStatus(
    200,
    call(hub.url, `/v1/projects/${ORG}/${PROJECT}/config`, { token }),
    'GET config',
  )
  if (config.body.project?.slug !== PROJECT) throw new Error(`GET config answered ${config.text}`)
  return token
}

async function versionCount(base, auth) {
  const reply = await expectStatus(
    200,
    call(base, `/v1/stacks/${ORG}/${STACK}`, { headers: auth }),
    'GET stack',
  )
  return reply.body.versions.length
}

// ---- stores

/** Bytes of every table of `schema` with its indexes and TOAST (where the blobs go). */
function schemaBytes(schema) {
  return withPostgres(async (client) => {
    const { rows } = await client.query(
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as bytes
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind = 'r'`,
      [schema],
    )
    return Number(rows[0].bytes)
  })
}

async function dirBytes(dir) {
  let total = 0
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size
  return total
}

// ---- report

function printReport(report) {
  const { options, upload } = report
  const hello = report.hello
  const helloRate = mean(hello.map((h) => h.rate))
  const rows = [
    [
      'Hono hello-world',
      'GET /',
      options.connections,
      fmt(helloRate),
      hello.map((h) => h.latencyMs.p50).join(' / '),
      hello.map((h) => h.latencyMs.p99).join(' / '),
      '1',
      `mean of the runs before / after the hubs: ${hello.map((h) => fmt(h.rate)).join(' / ')} req/s`,
    ],
  ]
  for (const hub of report.hubs) {
    for (const [name, { label }] of Object.entries(GETS)) {
      const g = hub.get[name]
      if (!g) continue
      const ratio = fmt(g.rate / helloRate, 3)
      rows.push([
        `hub, ${STORES[hub.store]}`,
        `GET ${label}`,
        options.connections,
        fmt(g.rate),
        g.latencyMs.p50,
        g.latencyMs.p99,
        name === 'config' ? `**${ratio}**` : ratio,
        `${fmt(g.ok)} requests` + failures(g),
      ])
    }
  }
  for (const hub of report.hubs) {
    for (const [mode, { label }] of Object.entries(PUBLISH_MODES)) {
      const p = hub.publish[mode]
      if (!p) continue
      const stored = p.storedBytesPerPublish
      rows.push([
        `hub, ${STORES[hub.store]}`,
        `publish, ${label}`,
        options.concurrency,
        `**${fmt(p.rate, 1)}**`,
        p.latencyMs.p50,
        p.latencyMs.p99,
        '',
        `${p.ok} publishes, ${fmt(p.uploadMbPerSecond, 1)} MB/s uploaded, ` +
          `store grew ${stored === null ? '—' : fmt(stored / 1e6, 2)} MB each` +
          failures(p),
      ])
    }
  }
  const header = [
    'server',
    'request',
    'conc.',
    'per second',
    'p50 ms',
    'p99 ms',
    '÷ hello',
    'notes',
  ]
  console.log(`\n${describeRun(report)}`)
  const publishFor = options.publishes
    ? `${options.publishes} publishes`
    : `${options.publishSeconds} s`
  console.log(
    `GET: ${options.seconds} s at ${options.connections} connections; publish: ${publishFor} at ` +
      `concurrency ${options.concurrency}, each a ${fmt(upload.bytes / 1e6, 2)} MB upload ` +
      `(1 MB bundle + ${upload.fileCount} files); ${options.warmup} s warm-up before each; ` +
      `hub log level ${options.logLevel}\n`,
  )
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i >= 2 && i <= 6 ? '---:' : '---')).join(' | ')} |`)
  for (const row of rows) console.log(`| ${row.join(' | ')} |`)
  for (const skipped of report.skipped) console.log(`\nskipped: ${skipped}`)
  for (const hub of report.hubs)
    for (const problem of hub.problems) console.log(`\n${STORES[hub.store]}: ${problem}`)
}

function failures(r) {
  const failed = r.non2xx + r.errors
  return failed
    ? `; ${failed} failed (${JSON.stringify(r.statuses)}${r.sample ? `; ${r.sample}` : ''})`
    : ''
}

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length
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
  const stores = readStores(args)
  if (args.only !== undefined && args.only !== 'get' && args.only !== 'publish')
    throw new Error('--only takes get or publish')
  return {
    seconds: number('seconds', 10),
    connections: number('connections', 50),
    publishSeconds: number('publish-seconds', 20),
    publishes: args.publishes === undefined ? undefined : number('publishes'),
    concurrency: number('concurrency', 4),
    warmup: number('warmup', 3),
    stores,
    logLevel: String(args['log-level'] ?? 'info'),
    only: args.only,
    profile: args.profile,
  }
}

async function main() {
  const options = readOptions(process.argv.slice(2))
  const upload = publishUpload({ account: ORG, slug: STACK })
  const { report, stores } = await startReport(options, {
    upload: { bytes: upload.bytes, fileCount: upload.fileCount },
  })
  report.hello = []

  const hello = await startLocalServer('hello-world', 'hello-server.js')
  report.hello.push(await benchHello(hello, options, 'before the hubs'))
  for (const store of stores) report.hubs.push(await benchHub(store, options, upload))
  report.hello.push(await benchHello(hello, options, 'after the hubs'))
  await hello.stop()
  await finishReport(report, 'hub', printReport)
}

await runMain(main)
