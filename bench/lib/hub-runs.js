// What the benches that run the hub over real HTTP (bench/hub.js, bench/webhooks.js) share: where
// the hub is, the stores and PostgreSQL they measure, a hub started on a fresh store, cleanup on
// the way out (also on an error or ^C), one-off HTTP requests, and the frame of their reports.
// Importing this module installs the SIGINT/SIGTERM handlers.
// PostgreSQL: SVC_BENCH_DATABASE_URL, else SVC_TEST_DATABASE_URL, else the local test database.
// SVC_BENCH_HUB_BIN: the svc-hub.js to run instead of packages/hub/bin/svc-hub.js.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import {
  describeMachine,
  describeRevision,
  loadAverage,
  machineInfo,
  sourceRevision,
} from './machine.js'
import { runNode } from './child-runs.js'
import { killAll, startServer } from './servers.js'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
export const HUB_BIN = process.env.SVC_BENCH_HUB_BIN || join(ROOT, 'packages/hub/bin/svc-hub.js')
const PG_URL =
  process.env.SVC_BENCH_DATABASE_URL ||
  process.env.SVC_TEST_DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/test'
/** The stores a hub runs on, by `--stores` name, with the name the reports give them. */
export const STORES = { sqlite: 'SQLite', postgres: 'PostgreSQL' }
/** The admin PAT a hub prints on its first start. */
export const ADMIN_PAT = /svc_pat_[A-Za-z0-9_-]{43}/

// ---- cleanup: children, temp dirs and schemas go on the way out, also on an error or ^C

const cleanups = []

/** Registers `work` for the end of the run; answers a function that runs it now (once). */
export function onExit(work) {
  let done
  const run = () => (done ??= Promise.resolve().then(work))
  cleanups.push(run)
  return run
}

async function cleanUp() {
  killAll()
  for (const run of cleanups.reverse()) {
    try {
      await run()
    } catch (error) {
      process.stderr.write(`cleanup failed: ${error instanceof Error ? error.message : error}\n`)
    }
  }
  cleanups.length = 0
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the servers and cleaning up\n`)
    cleanUp().finally(() => process.exit(130))
  })
}

/** Runs a bench's `main`, then every cleanup; an error goes to stderr with exit code 1. */
export async function runMain(main) {
  try {
    await main()
  } catch (error) {
    process.exitCode = 1
    const cause =
      error instanceof Error && error.cause ? `\ncause: ${error.cause.stack ?? error.cause}` : ''
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : error}${cause}\n`,
    )
  } finally {
    await cleanUp()
  }
}

export function progress(text) {
  process.stderr.write(`${text}\n`)
}

// ---- servers

/**
 * Starts `node <script>` (a path under bench/lib) on a free loopback port; it is stopped on the
 * way out. Answers the server of `startServer`, its `stop` now also a cleanup.
 */
export async function startLocalServer(label, script) {
  const server = await startServer({
    label,
    args: [join(ROOT, 'bench/lib', script)],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
  })
  return { ...server, stop: onExit(() => server.stop()) }
}

/**
 * Starts `svc-hub serve` in its own process on a fresh store of `kind` (`sqlite`, `postgres`): its
 * data in a new temp dir named from `tmpPrefix`, and on PostgreSQL a new schema. `env` is added to
 * its environment; with `profileDir`, it writes a V8 CPU profile there; `bin` is the svc-hub.js
 * to run (HUB_BIN by default). Answers the server of
 * `startServer` with `env` (its environment, for `svc-hub admin`), `dataDir`, `schema`,
 * `adminPat` (the admin's PAT it printed at first start, if any), `stop` (also a cleanup) and
 * `release`: stops it and removes its data, else done on the way out.
 */
export async function startHub(
  kind,
  { tmpPrefix, logLevel, env: extra = {}, profileDir, bin = HUB_BIN },
) {
  const store = await freshStore(kind, tmpPrefix)
  const { dataDir, schema } = store
  const env = {
    ...hubEnv(store, logLevel),
    // Throughput benches send far more than a caller's limits allow; the limiter is measured on
    // its own (bench/rate-limits.js passes its own setting).
    SVC_HUB_RATE_LIMITS: 'off',
    ...extra,
  }

  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const hub = await startServer({
    label: `svc-hub (${kind})`,
    args: [...profile, bin, 'serve'],
    env,
  })
  const stop = onExit(() => hub.stop())
  const release = async () => {
    await stop()
    await store.remove()
  }
  const adminPat = ADMIN_PAT.exec(hub.stderr())?.[0]
  return { ...hub, env, dataDir, schema, adminPat, stop, release }
}

/**
 * A new, empty store for hub processes: a temp dir named from `tmpPrefix` for the data and, on
 * PostgreSQL, a new schema; `remove` deletes both, else done on the way out.
 */
export async function freshStore(kind, tmpPrefix) {
  const dataDir = await mkdtemp(join(tmpdir(), tmpPrefix))
  const removeDir = onExit(() => rm(dataDir, { recursive: true, force: true }))
  const schema = kind === 'postgres' ? `svc_bench_${randomBytes(6).toString('hex')}` : undefined
  const dropIt = schema ? onExit(() => dropSchema(schema)) : async () => {}
  return {
    dataDir,
    schema,
    remove: async () => {
      await dropIt()
      await removeDir()
    },
  }
}

/** The environment of a hub process on `store` (freshStore's), on a free loopback port. */
export function hubEnv({ dataDir, schema }, logLevel) {
  const env = {
    ...process.env,
    NO_COLOR: '1',
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_HUB_DATA: dataDir,
    SVC_HUB_LOG_LEVEL: logLevel,
  }
  delete env.DATABASE_URL
  delete env.SVC_HUB_DATABASE_SCHEMA
  if (schema) Object.assign(env, { DATABASE_URL: PG_URL, SVC_HUB_DATABASE_SCHEMA: schema })
  return env
}

/**
 * Through `svc-hub admin` on the store of `env` (a hub's environment): the user `bench`, the
 * organisation `org` it owns, and a PAT of bench's with `scopes`; answers the user and the PAT.
 */
export async function createBenchAccount(env, org, scopes) {
  const admin = async (...args) => {
    const run = await runNode([HUB_BIN, 'admin', ...args, '--json'], { env })
    if (run.code !== 0) throw new Error(`svc-hub admin ${args.join(' ')}: ${run.stderr}`)
    return JSON.parse(run.stdout)
  }
  const user = await admin('create-user', 'bench')
  await admin('create-org', org, '--owner', 'bench')
  const { token } = await admin('create-token', 'bench', '--scopes', scopes)
  return { user, token }
}

// ---- HTTP

/**
 * One request; answers `{ status, headers, body, text }` (`body` parsed when it is JSON). Without an
 * `agent`, on its own connection, so that no kept-alive connection from an earlier step (the setup
 * pauses for admin commands; a later hub may get an earlier one's port) is closed under it.
 */
export function call(base, path, { token, method, json, body, headers = {}, agent = false } = {}) {
  const all = { ...headers }
  if (token) all.authorization = `Bearer ${token}`
  let payload = body
  if (json !== undefined) {
    all['content-type'] = 'application/json'
    payload = JSON.stringify(json)
  }
  if (typeof payload === 'string') payload = Buffer.from(payload)
  if (payload !== undefined) all['content-length'] = String(payload.byteLength)
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, base),
      { method: method ?? (payload ? 'POST' : 'GET'), headers: all, agent },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let parsed
          try {
            parsed = JSON.parse(text)
          } catch {
            parsed = undefined
          }
          resolve({ status: response.statusCode, headers: response.headers, body: parsed, text })
        })
      },
    )
    request.on('error', reject)
    request.end(payload)
  })
}

/** Awaits `reply` (from `call`); throws unless its status is `status`. */
export async function expectStatus(status, reply, what) {
  const r = await reply
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${r.text}`)
  return r
}

// ---- stores

/** The `--stores` option (`args` from `parseArgs`): store names, every one known. */
export function readStores(args) {
  const stores = String(args.stores ?? 'sqlite,postgres').split(',')
  for (const store of stores) if (!STORES[store]) throw new Error(`unknown store '${store}'`)
  return stores
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('select 1')
    return { ok: true }
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message : String(error) }
  } finally {
    await client.end().catch(() => {})
  }
}

/** Runs `work(client)` on a new connection to PG_URL, closed after it. */
export async function withPostgres(work) {
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

async function dropSchema(schema) {
  await withPostgres((client) => client.query(`drop schema if exists "${schema}" cascade`))
}

function redact(url) {
  try {
    const u = new URL(url)
    u.password = ''
    return u.href
  } catch {
    return '(unparseable URL)'
  }
}

// ---- report

/**
 * A report's start, `{ report, stores }`: the report holds when, the options, `fields`, the load
 * average and the hub's revision, and empty `skipped` and `hubs`; `stores` are `options.stores`
 * less PostgreSQL when nothing answers at PG_URL (then in `skipped`). Says on stderr what is
 * skipped, and when the load average will skew the figures.
 */
export async function startReport(options, fields = {}) {
  const report = {
    date: new Date().toISOString(),
    options,
    ...fields,
    loadBefore: loadAverage(),
    hub: sourceRevision(ROOT, 'packages/hub/src'),
    ...(process.env.SVC_BENCH_HUB_BIN ? { hubBin: HUB_BIN } : {}),
    skipped: [],
    hubs: [],
  }
  if (report.loadBefore > 0.5) {
    progress(`note: load average ${report.loadBefore} before the run; other work skews the figures`)
  }
  const stores = [...options.stores]
  if (stores.includes('postgres')) {
    const answer = await postgresAnswers()
    if (!answer.ok) {
      const why = `PostgreSQL: nothing answers at ${redact(PG_URL)} (${answer.why}); set SVC_BENCH_DATABASE_URL`
      progress(`skipping ${why}`)
      report.skipped.push(why)
      stores.splice(stores.indexOf('postgres'), 1)
    }
  }
  return { report, stores }
}

/**
 * Adds the load average after and the machine to `report`, `print`s it and writes it to
 * bench/results/<name>.json.
 */
export async function finishReport(report, name, print) {
  const file = join(ROOT, 'bench/results', `${name}.json`)
  report.loadAfter = loadAverage()
  report.machine = machineInfo()
  print(report)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nwrote ${relative(ROOT, file)}`)
}

/** The machine, the load averages and the hub's revision (or SVC_BENCH_HUB_BIN), on one line. */
export function describeRun(report) {
  const revision = report.hubBin ?? describeRevision(report.hub, 'hub')
  return `${describeMachine(report.machine, report.loadBefore, report.loadAfter)}; hub at ${revision}`
}

/** A number for the reports: `digits` decimals, thousands separated, `—` for none. */
export function fmt(value, digits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) return '—'
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })
}
