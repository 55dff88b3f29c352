// The CLI's hub commands end to end, each a real `node packages/cli/bin/svc.js …` process with a
// temporary HOME and SVC_HUB_TOKEN / SVC_API_ORIGIN, against real `svc-hub serve`s on free
// loopback ports (one on a fresh SQLite store, one on a fresh PostgreSQL schema, both up for the
// whole run). Measured in one run, the samples of every command interleaved round by round:
//   - `svc publish <p> --json --version 1.0.N` (a new version per sample) of the `svc init`
//     project with gen-typescript and gen-zod, and of the same project with 500 generated
//     TypeScript modules under its src/;
//   - `svc bundle <p> --server --json` alone, the part of a publish that is not the upload (its
//     wall time and the totalTimeMs it reports);
//   - `svc push <p> --json --force` of a client.json with 50 enrichment rows, and
//     `svc push <p> --json --base-files-only` of an app root with 200 base files;
//   - the floor: `node -e ""` and `svc --version` (Node's start-up and the CLI's module loading);
//   - the hub's own time for each request (durationMs of its request log line) and server.js's size.
// Usage: node bench/publish.js [--runs 9] [--stores sqlite,postgres] [--source-files 500]
//   [--base-files 200] [--enrichments 50]
// PostgreSQL: SVC_BENCH_DATABASE_URL, else SVC_TEST_DATABASE_URL, else the local test database.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { distinctErrors, measureAll, readRuns } from './lib/child-runs.js'
import {
  call,
  createBenchAccount,
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
  startReport,
  STORES,
} from './lib/hub-runs.js'
import { describeRevision, loadAverage, sourceRevision } from './lib/machine.js'
import { writeAppFiles, writeGeneratedModules } from './lib/source-tree.js'
import { median, parseArgs } from './lib/stats.js'

const SVC_BIN = join(ROOT, 'packages/cli/bin/svc.js')
const ORG = 'acme'
const SCOPES = 'read,write:releases,write:projects,write:apis'
const GENERATORS = ['gen-typescript', 'gen-zod']
/** The hub project pushed to: bound to the stack of the small project and an API. */
const HUB_PROJECT = 'web-app'
const COMMAND_TIMEOUT_MS = 120_000

// ---- processes

/**
 * `node <args>` in `cwd` with `env`, to its end (killed after COMMAND_TIMEOUT_MS). Answers
 * `{ code, signal, stdout, stderr, ms }`, `ms` from spawning to its exit.
 */
function runIn(cwd, args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS)
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-8000)))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started })
    })
  })
}

/** `svc <args>` in `cwd`; throws unless it exits 0. Answers its run, with `json` when --json. */
async function svc(cwd, args, env) {
  const run = await runIn(cwd, [SVC_BIN, ...args], env)
  if (run.code !== 0)
    throw new Error(
      `svc ${args.join(' ')} exited with ${run.signal ?? run.code}: ${run.stdout.slice(0, 1500)}${run.stderr.slice(-1500)}`,
    )
  return args.includes('--json') ? { ...run, json: JSON.parse(run.stdout) } : run
}

async function tempDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  onExit(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/**
 * The environment of every svc process: this one's, less anything that would change where svc
 * finds its login or whether it colours, with HOME a temp folder; with `hub`, its origin and PAT.
 */
function cliEnv(home, hub) {
  const env = { ...process.env, HOME: home, NO_COLOR: '1' }
  for (const name of ['XDG_CONFIG_HOME', 'FORCE_COLOR', 'SVC_HUB_TOKEN', 'SVC_API_ORIGIN'])
    delete env[name]
  if (hub) Object.assign(env, { SVC_API_ORIGIN: hub.url, SVC_HUB_TOKEN: hub.token })
  return env
}

// ---- the app roots, made once with the CLI and shared by every hub

/**
 * `settings.enrichments` that the hub folds into exactly `count` rows (docs/api/projects.md): a
 * `_stack` value, a `_generator` setting for each of the two generators, then models for
 * gen-typescript (every fifth with a second variant) and operations for gen-zod, alternately.
 */
function enrichments(count) {
  const typescript = { _generator: { indent: 2 } }
  const zod = { _generator: { strict: true } }
  const all = {
    _stack: { team: 'billing' },
    '@svc/gen-typescript': typescript,
    '@svc/gen-zod': zod,
  }
  let rows = 3
  for (let i = 0; rows < count; i++) {
    if (i % 2 === 0) {
      const model = `Invoice${i}`
      const variants = { main: { exportName: `${model}Record` } }
      if (i % 10 === 0 && rows + 2 <= count)
        variants['line-items'] = { exportName: `${model}Lines` }
      typescript[model] = variants
      rows += Object.keys(variants).length
    } else {
      zod[`/invoices/{invoiceId}/items${i}`] = { get: { main: { name: `listInvoiceItems${i}` } } }
      rows += 1
    }
  }
  return all
}

/**
 * Three app roots: `small` (project demo, @acme/demo: `svc init` and the two generators), `big`
 * (project big, @acme/big: the same and `sourceFiles` generated modules under .svc/big/src/),
 * and `web` (project web, never published: a client.json with `enrichments` rows bound to the hub
 * project acme/web-app, and `baseFiles` files of its own).
 */
async function makeApps(options, env) {
  const apps = {}
  const project = async (key, name, extra) => {
    const dir = await tempDir(`svc-publish-bench-${key}-`)
    await svc(dir, ['init', name, '--name', `@${ORG}/${name}`], env)
    if (key !== 'web') await svc(dir, ['install', ...GENERATORS, '--project', name], env)
    apps[key] = { dir, project: name, stack: name, ...(extra ? await extra(dir) : {}) }
  }
  await project('small', 'demo')
  await project('big', 'big', (dir) =>
    writeGeneratedModules(join(dir, '.svc/big'), { count: options.sourceFiles, under: 'src' }),
  )
  await project('web', 'web', async (dir) => {
    const client = join(dir, '.svc/web/.settings/client.json')
    const config = JSON.parse(await readFile(client, 'utf8'))
    config.project = `@${ORG}/${HUB_PROJECT}`
    config.settings = {
      ...config.settings,
      basePath: 'src/api',
      skip: ['/internal/health'],
      enrichments: enrichments(options.enrichments),
    }
    const text = `${JSON.stringify(config, null, 2)}\n`
    await writeFile(client, text)
    const base = await writeAppFiles(dir, { count: options.baseFiles })
    return { clientJsonBytes: Buffer.byteLength(text), baseFileBytes: base.bytes }
  })
  const small = apps.small
  const big = apps.big
  progress(
    `app roots: ${small.dir} (demo), ${big.dir} (big: ${big.files} modules, ${fmt(big.bytes)} bytes), ` +
      `${apps.web.dir} (web: client.json ${fmt(apps.web.clientJsonBytes)} bytes, ` +
      `${options.baseFiles} base files, ${fmt(apps.web.baseFileBytes)} bytes)`,
  )
  return apps
}

// ---- a hub

/** The last request the hub logged for `method` and `path`: `{ requestId, status, durationMs }`. */
function lastRequest(hub, method, path) {
  const lines = hub.stdout().split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]
    if (!line.includes('"msg":"request"') || !line.includes(path)) continue
    try {
      const entry = JSON.parse(line)
      if (entry.method === method && entry.path === path) return entry
    } catch {
      // The first line kept may be cut.
    }
  }
  return undefined
}

/**
 * Runs `work` and answers what it answers with `hubMs`: the sum of the hub's durationMs of the
 * new requests it logged for each of `requests` ([method, path]); undefined when one is missing.
 */
async function withHubTime(hub, requests, work) {
  const before = requests.map(([method, path]) => lastRequest(hub, method, path)?.requestId)
  const result = await work()
  // The hub logs the line when the answer is ready; the CLI may exit a moment before it is read.
  let hubMs
  for (let attempt = 0; attempt < 20 && hubMs === undefined; attempt++) {
    const entries = requests.map(([method, path]) => lastRequest(hub, method, path))
    if (entries.every((entry, i) => entry && entry.requestId !== before[i]))
      hubMs = entries.reduce((sum, entry) => sum + entry.durationMs, 0)
    else await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return { ...result, hubMs }
}

/**
 * `svc-hub serve` on a fresh store of `kind`, with the user `bench`, the organisation `acme` it
 * owns and a PAT; then (unmeasured, also the warm-up) the first version of both stacks, the API
 * acme/web-api, the hub project acme/web-app on @acme/demo, and a first push of both kinds.
 */
async function startBenchHub(kind, apps, home, options) {
  const hub = await startHub(kind, { tmpPrefix: 'svc-publish-bench-', logLevel: 'info' })
  const { token } = await createBenchAccount(hub.env, ORG, SCOPES)
  const bench = { ...hub, kind, token, versions: { demo: 0, big: 0 } }
  bench.cli = cliEnv(home, bench)

  for (const key of ['small', 'big']) {
    const { dir, project } = apps[key]
    await svc(dir, ['publish', project, '--json', '--version', '1.0.0'], bench.cli)
  }
  await expectStatus(
    201,
    call(hub.url, '/v1/apis', { token, json: { owner: ORG, slug: 'web-api', name: 'Web' } }),
    'POST /v1/apis',
  )
  await expectStatus(
    201,
    call(hub.url, '/v1/projects', {
      token,
      json: { account: ORG, slug: HUB_PROJECT, stack: `@${ORG}/demo`, api: `${ORG}/web-api` },
    }),
    'POST /v1/projects',
  )
  const web = apps.web
  const pushed = await svc(web.dir, ['push', web.project, '--json', '--force'], bench.cli)
  if (pushed.json.enrichmentCount !== options.enrichments)
    throw new Error(
      `the hub stored ${pushed.json.enrichmentCount} enrichment rows, not ${options.enrichments}`,
    )
  const files = await svc(web.dir, ['push', web.project, '--json', '--base-files-only'], bench.cli)
  if (files.json.baseFilesPushed !== options.baseFiles)
    throw new Error(`svc pushed ${files.json.baseFilesPushed} base files, not ${options.baseFiles}`)
  return bench
}

// ---- the commands measured

/** Every command measured against `hub`, by name: each answers one sample. */
function hubCommands(hub, apps, options) {
  const label = STORES[hub.kind]
  const publish = (key, expectFiles) => async () => {
    const { dir, project, stack } = apps[key]
    const version = `1.0.${++hub.versions[stack]}`
    const path = `/v1/stacks/${ORG}/${stack}/versions`
    const run = await withHubTime(hub, [['POST', path]], () =>
      svc(dir, ['publish', project, '--json', '--version', version], hub.cli),
    )
    const reply = run.json
    if (reply.version !== version || reply.sourceFileCount !== expectFiles)
      throw new Error(`publish answered ${run.stdout.slice(0, 600)}`)
    return {
      ms: run.ms,
      hubMs: run.hubMs,
      bundleBytes: reply.bundleBytes,
      sourceFileCount: reply.sourceFileCount,
      sourceTotalBytes: reply.sourceTotalBytes,
    }
  }
  const web = apps.web
  const projectPath = `/v1/projects/${ORG}/${HUB_PROJECT}`
  return {
    [`publish demo, ${label}`]: publish('small', 2),
    [`publish big, ${label}`]: publish('big', options.sourceFiles + 2),
    [`push config, ${label}`]: async () => {
      const run = await withHubTime(
        hub,
        [
          ['GET', `${projectPath}/config`],
          ['PUT', `${projectPath}/client-config`],
        ],
        () => svc(web.dir, ['push', web.project, '--json', '--force'], hub.cli),
      )
      if (run.json.enrichmentCount !== options.enrichments || !run.json.remoteWritten)
        throw new Error(`push answered ${run.stdout.slice(0, 600)}`)
      return { ms: run.ms, hubMs: run.hubMs, enrichmentCount: run.json.enrichmentCount }
    },
    [`push base files, ${label}`]: async () => {
      const run = await withHubTime(hub, [['PUT', `${projectPath}/preview/base-files`]], () =>
        svc(web.dir, ['push', web.project, '--json', '--base-files-only'], hub.cli),
      )
      if (run.json.baseFilesPushed !== options.baseFiles)
        throw new Error(`push answered ${run.stdout.slice(0, 600)}`)
      return { ms: run.ms, hubMs: run.hubMs, baseFilesPushed: run.json.baseFilesPushed }
    },
  }
}

/** The commands that need no hub: the floor, and bundling alone. */
function localCommands(apps, env) {
  const bundle = (key) => async () => {
    const { dir, project } = apps[key]
    const run = await svc(dir, ['bundle', project, '--server', '--json'], env)
    return { ms: run.ms, cliMs: run.json.totalTimeMs, bytes: run.json.bytes }
  }
  return {
    'node -e ""': async () => {
      const run = await runIn(apps.small.dir, ['-e', ''], env)
      if (run.code !== 0) throw new Error(`node -e "" exited with ${run.code}`)
      return { ms: run.ms }
    },
    'svc --version': async () => ({ ms: (await svc(apps.small.dir, ['--version'], env)).ms }),
    'bundle demo': bundle('small'),
    'bundle big': bundle('big'),
  }
}

// ---- report

function summarize(samples) {
  const ok = samples.filter((s) => !s.error)
  const of = (key) => {
    const values = ok.map((s) => s[key]).filter((v) => typeof v === 'number')
    return values.length ? median(values) : null
  }
  const times = ok.map((s) => s.ms)
  return {
    count: ok.length,
    failed: samples.length - ok.length,
    errors: distinctErrors(samples.filter((s) => s.error).map((s) => s.error)),
    ms: of('ms'),
    minMs: times.length ? Math.min(...times) : null,
    maxMs: times.length ? Math.max(...times) : null,
    hubMs: of('hubMs'),
    cliMs: of('cliMs'),
    samples,
  }
}

/** The median of `a[i].ms − b[i].ms` over the rounds where both succeeded; null for none. */
function pairedMedian(a, b) {
  const differences = a.flatMap((s, i) => (s.error || !b[i] || b[i].error ? [] : [s.ms - b[i].ms]))
  return differences.length ? median(differences) : null
}

/** How the report names each command, and what a floor row stands for. */
const COMMANDS = {
  'node -e ""': { command: '`node -e ""`', note: "Node's start-up" },
  'svc --version': {
    command: '`svc --version`',
    note: "+ the CLI's module loading: the floor",
  },
  'bundle demo': { command: '`svc bundle demo --server --json`' },
  'bundle big': { command: '`svc bundle big --server --json`' },
  'publish demo': { command: '`svc publish demo --json --version 1.0.N`' },
  'publish big': { command: '`svc publish big --json --version 1.0.N`' },
  'push config': { command: '`svc push web --json --force`' },
  'push base files': { command: '`svc push web --json --base-files-only`' },
}

function printReport(report) {
  const { options, results, apps } = report
  const row = (name) => {
    const [key, store] = name.split(', ')
    const r = results[name]
    const c = COMMANDS[key]
    const notes = c.note ? [c.note] : []
    if (key.startsWith('bundle')) notes.push(`CLI says ${fmt(r.cliMs)} ms`)
    if (key === 'publish demo' || key === 'publish big') {
      const app = key === 'publish demo' ? apps.small : apps.big
      notes.push(
        `${app.sourceFileCount} source files, ${fmt(app.uploadBytes / 1e6, 2)} MB uploaded`,
      )
      if (r.overBundleMs != null)
        notes.push(
          `− \`svc bundle ${key.split(' ')[1]}\` of the same round: ${fmt(r.overBundleMs)} ms`,
        )
    }
    if (key === 'push config')
      notes.push(`${options.enrichments} enrichment rows; GET config + PUT`)
    if (key === 'push base files')
      notes.push(`${options.baseFiles} files, ${fmt(apps.web.baseFileBytes / 1e6, 2)} MB`)
    if (r.failed) notes.push(`**${r.failed} failed**: ${r.errors[0]?.message.split('\n')[0]}`)
    return [
      c.command,
      store ?? '—',
      r.ms === null ? '—' : `**${fmt(r.ms)}**`,
      r.minMs === null ? '—' : `${fmt(r.minMs)}–${fmt(r.maxMs)}`,
      r.overFloorMs == null ? '' : fmt(r.overFloorMs),
      r.hubMs === null ? '' : fmt(r.hubMs),
      notes.join('; '),
    ]
  }
  console.log(`\nmachine: ${describeRun(report)}; CLI at ${describeRevision(report.cli, 'CLI')}`)
  console.log(
    `${options.runs} samples of each command, interleaved round by round after one warm-up of each, ` +
      'every hub up for the whole run; ' +
      'every command a fresh `node packages/cli/bin/svc.js` process (temp HOME, SVC_HUB_TOKEN and ' +
      'SVC_API_ORIGIN), timed from spawn to exit; the hub in its own process on a free loopback ' +
      'port, logging at info; "hub ms" is the median durationMs of its request log lines; ' +
      '"− `svc --version`" and "− `svc bundle`" are medians of the differences within each round',
  )
  const load = report.loadDuring
  console.log(
    `1-minute load average at the start of the samples: ${load.min}–${load.max} (median ${load.median})\n`,
  )
  const header = [
    'command',
    'hub',
    'median ms',
    'min–max ms',
    '− `svc --version` ms',
    'hub ms',
    'notes',
  ]
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i >= 2 && i <= 5 ? '---:' : '---')).join(' | ')} |`)
  for (const name of Object.keys(results)) console.log(`| ${row(name).join(' | ')} |`)

  console.log(
    `\nserver.js: ${fmt(report.serverJs.bytes)} bytes (${fmt(report.serverJs.bytes / 1e6, 2)} MB, gzip ` +
      `${fmt(report.serverJs.gzipBytes)}) for demo, ${fmt(report.serverJs.bigBytes)} bytes for big`,
  )
  console.log(
    `big: ${apps.big.files} generated modules, ${fmt(apps.big.bytes)} bytes (` +
      `${fmt(apps.big.bytes / apps.big.files / 1024, 1)} KiB on average); web: client.json ` +
      `${fmt(apps.web.clientJsonBytes)} bytes, ${options.baseFiles} base files of ${fmt(apps.web.baseFileBytes)} bytes`,
  )
  for (const skipped of report.skipped) console.log(`\nskipped: ${skipped}`)
  for (const problem of report.problems) console.log(`\nproblem: ${problem}`)
}

// ---- main

function readOptions(argv) {
  const args = parseArgs(argv)
  const count = (name, fallback) => {
    const value = Number(args[name] ?? fallback)
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`--${name} must be a positive whole number`)
    return value
  }
  const options = {
    runs: readRuns(args, 9),
    stores: readStores(args),
    sourceFiles: count('source-files', 500),
    baseFiles: count('base-files', 200),
    enrichments: count('enrichments', 50),
  }
  if (options.enrichments < 3) throw new Error('--enrichments must be at least 3')
  if (options.baseFiles < 10) throw new Error('--base-files must be at least 10')
  return options
}

async function main() {
  const options = readOptions(process.argv.slice(2))
  const { report, stores } = await startReport(options, {
    cli: sourceRevision(ROOT, 'packages/cli/src'),
  })
  report.problems = []
  report.results = {}
  const home = await tempDir('svc-publish-bench-home-')
  const apps = await makeApps(options, cliEnv(home))
  report.apps = {
    small: { dir: apps.small.dir },
    big: { dir: apps.big.dir, files: apps.big.files, bytes: apps.big.bytes },
    web: {
      dir: apps.web.dir,
      clientJsonBytes: apps.web.clientJsonBytes,
      baseFileBytes: apps.web.baseFileBytes,
    },
  }

  // Every hub is up for the whole run, so that the rounds interleave every command: drift (other
  // work on the machine) then hits all of them alike, and a publish and its bundle alone are
  // sampled side by side. A hub waiting for its turn only polls its webhook queue.
  const hubs = []
  for (const kind of stores) {
    progress(`${STORES[kind]}: starting the hub and the warm-up`)
    hubs.push(await startBenchHub(kind, apps, home, options))
  }
  const commands = { ...localCommands(apps, cliEnv(home)) }
  for (const hub of hubs) Object.assign(commands, hubCommands(hub, apps, options))
  const names = Object.keys(commands)
  for (const name of names) await commands[name]()
  const samples = await measureAll(names, options.runs, {
    sample: async (name) => {
      const load = loadAverage()
      try {
        return { ...(await commands[name]()), load }
      } catch (error) {
        return {
          tool: name,
          load,
          error: { message: error instanceof Error ? error.message : String(error) },
        }
      }
    },
    describe: (s) =>
      `${fmt(s.ms)} ms` +
      (s.hubMs !== undefined ? `, hub ${fmt(s.hubMs, 1)} ms` : '') +
      (s.cliMs !== undefined ? `, CLI says ${s.cliMs} ms` : ''),
    width: Math.max(...names.map((n) => n.length)),
  })
  for (const name of names) report.results[name] = summarize(samples[name])
  // Differences taken within each round, where drift is alike, then their median.
  for (const name of names) {
    const r = report.results[name]
    if (name !== 'svc --version' && name !== 'node -e ""')
      r.overFloorMs = pairedMedian(samples[name], samples['svc --version'])
    const bundle = /^publish (\w+),/.exec(name)?.[1]
    if (bundle) r.overBundleMs = pairedMedian(samples[name], samples[`bundle ${bundle}`])
  }
  const loads = Object.values(samples).flatMap((list) => list.map((s) => s.load))
  report.loadDuring = { min: Math.min(...loads), median: median(loads), max: Math.max(...loads) }
  for (const key of ['small', 'big']) {
    const last = samples[`publish ${apps[key].project}, ${STORES[hubs[0].kind]}`].findLast(
      (s) => !s.error,
    )
    if (last) {
      report.apps[key].sourceFileCount = last.sourceFileCount
      report.apps[key].uploadBytes = last.bundleBytes + last.sourceTotalBytes
      report.apps[key].bundleBytes = last.bundleBytes
    }
  }
  for (const hub of hubs) {
    const logged = hub.errors()
    if (logged.count)
      report.problems.push(
        `${STORES[hub.kind]}: the hub logged ${logged.count} error line(s); first: ${logged.first[0]}`,
      )
    const status = await hub.stop()
    if (status !== 0)
      report.problems.push(`${STORES[hub.kind]}: svc-hub serve exited with ${status}`)
    await hub.release()
  }

  // server.js as the last publish of each project built it.
  const demoJs = await readFile(join(apps.small.dir, '.svc/demo/server.js'))
  const bigJs = await readFile(join(apps.big.dir, '.svc/big/server.js'))
  report.serverJs = {
    bytes: demoJs.length,
    gzipBytes: gzipSync(demoJs).length,
    bigBytes: bigJs.length,
  }
  await finishReport(report, 'publish', printReport)
}

await runMain(main)
