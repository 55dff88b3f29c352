// The stack server a published stack runs, as it ships: `svc bundle demo --server` with the five
// official generators → one self-contained, minified server.js, copied into an empty temp folder
// and run there with `node server.js` (PORT=0, HOST=127.0.0.1; the port read from its first
// stdout line). Measured in one run, every server and the client each in their own process:
//   - server.js: bytes, gzip bytes, and how long `svc bundle --server` takes (also without
//     generators, for the fixed part);
//   - POST /artifacts with the Petstore as `schema` text under autocannon (GET /healthz beside it
//     for the HTTP stack alone);
//   - POST /artifacts with GitHub's REST description (13 MB) one request at a time, as `schema`
//     text and as a `source` URL on a loopback static file server (bench/lib/static-file-server.js,
//     admitted with SVC_STACK_ALLOW_PRIVATE_NETWORKS), with the server's RSS;
//   - the same requests in process, with no HTTP: createServer(...).request('/artifacts', …) in a
//     child process, from the workspace's build of @svc/stack-server and the five official generators.
// Usage: node bench/stack-server.js [--seconds 10] [--warmup 3] [--connections 1,10]
//   [--github-requests 10] [--bundle-runs 5] [--skip-in-process]
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { reportSample, runNode } from './lib/child-runs.js'
import { finishReport, fmt, onExit, progress, ROOT, runMain } from './lib/hub-runs.js'
import { describeMachine, describeRevision, loadAverage, sourceRevision } from './lib/machine.js'
import { startServer } from './lib/servers.js'
import { runLoad } from './lib/load.js'
import { median, parseArgs, percentile } from './lib/stats.js'
import { processCpuMs } from './lib/proc.js'

const SELF = fileURLToPath(import.meta.url)
const SVC_BIN = join(ROOT, 'packages/cli/bin/svc.js')
const PETSTORE = join(ROOT, 'node_modules/@readme/oas-examples/3.0/json/petstore.json')
const GITHUB = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const GENERATORS = [
  'gen-typescript',
  'gen-zod',
  'gen-fetch-client',
  'gen-tanstack-query',
  'gen-graphql-client',
]
/** The size target of server.js with the official generators, minified. */
const TARGET_BYTES = 1.5e6
const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 15_000
const CHILD_TIMEOUT_MS = 10 * 60_000
/** Only the end of a server's output is kept. */
const KEEP_CHARS = 64_000
const JSON_HEADERS = { 'content-type': 'application/json' }

// ---- processes: CPU time and memory from /proc (Linux; undefined elsewhere)

/** RSS and peak RSS (VmHWM) of `pid`, in MB (of 1,024 KiB, as the other benches give RSS). */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 }
  } catch {
    return { rssMb: undefined, peakMb: undefined }
  }
}

/** `node <args>` in `cwd` to its end; throws when it fails. Answers `{ stdout, stderr, ms }`. */
function runIn(cwd, args, what) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const ms = performance.now() - started
      if (code === 0) resolve({ stdout, stderr, ms })
      else reject(new Error(`${what} exited with ${signal ?? code}\n${stdout}${stderr}`))
    })
  })
}

async function tempDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  onExit(() => rm(dir, { recursive: true, force: true }))
  return dir
}

// ---- server.js: built by the CLI, as a publish does

/**
 * A new app root in a temp folder with the project `demo` and `generators` installed, then
 * `svc bundle demo --server --json` `runs` times. Answers the last server.js with its sizes and
 * every build's time: the CLI process's wall time and the figure it reports itself.
 */
async function buildServer(generators, runs) {
  const dir = await tempDir('svc-stack-bench-build-')
  await runIn(dir, [SVC_BIN, 'init', 'demo'], 'svc init')
  if (generators.length > 0)
    await runIn(dir, [SVC_BIN, 'install', ...generators, '--project', 'demo'], 'svc install')
  const builds = []
  for (let run = 1; run <= runs; run++) {
    const { stdout, ms } = await runIn(
      dir,
      [SVC_BIN, 'bundle', 'demo', '--server', '--json'],
      'svc bundle --server',
    )
    const reply = JSON.parse(stdout)
    builds.push({ processMs: ms, cliMs: reply.totalTimeMs, bytes: reply.bytes })
  }
  const path = join(dir, '.svc/demo/server.js')
  const bytes = await readFile(path)
  const bundled = JSON.parse(
    bytes.toString('utf8', 0, 4000).split('\n')[0].slice('// svc-bundle '.length),
  )
  const result = {
    generators: Object.keys(bundled.generators ?? {}),
    path,
    bytes: bytes.length,
    gzipBytes: gzipSync(bytes).length,
    builds,
    processMs: median(builds.map((b) => b.processMs)),
    cliMs: median(builds.map((b) => b.cliMs)),
  }
  const sizes = new Set(builds.map((b) => b.bytes))
  progress(
    `server.js with ${generators.length ? generators.join(', ') : 'no generators'}: ` +
      `${fmt(result.bytes)} bytes (gzip ${fmt(result.gzipBytes)}); svc bundle --server ` +
      `${builds.map((b) => fmt(b.processMs)).join(' / ')} ms` +
      (sizes.size > 1 ? ` (sizes differ between builds: ${[...sizes].join(', ')})` : ''),
  )
  return result
}

// ---- the stack server: server.js alone in an empty folder

/**
 * `node server.js` in `dir` on a free loopback port, with `env` added to this process's
 * environment less any SVC_STACK_ setting. Answers once its first stdout line says it listens:
 * `{ url, pid, startMs, stderr(), stop() }` (stop: SIGTERM, answers the exit code or signal).
 */
async function startStack(dir, label, env = {}) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_STACK_')),
  )
  const started = performance.now()
  const child = spawn(process.execPath, ['server.js'], {
    cwd: dir,
    env: { ...inherited, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  let firstLine
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  )
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-KEEP_CHARS)))
  const line = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${label} printed no line in ${START_TIMEOUT_MS} ms\n${stderr}`))
    }, START_TIMEOUT_MS)
    child.stdout.on('data', (chunk) => {
      stdout = (stdout + chunk).slice(-KEEP_CHARS)
      if (firstLine === undefined && stdout.includes('\n')) {
        firstLine = stdout.slice(0, stdout.indexOf('\n'))
        clearTimeout(timer)
        resolve(firstLine)
      }
    })
    exited.then((status) => {
      clearTimeout(timer)
      reject(new Error(`${label} exited with ${status} before listening\n${stdout}${stderr}`))
    })
  })
  let stopping
  const stop = onExit(
    () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
        const status = await exited
        clearTimeout(timer)
        return status
      })()),
  )
  const first = await line
  const startMs = performance.now() - started
  let listening
  try {
    listening = JSON.parse(first)
  } catch {
    listening = {}
  }
  if (listening.msg !== 'listening' || !Number.isInteger(listening.port))
    throw new Error(`${label}: its first line is not {"msg":"listening",…,"port":N}: ${first}`)
  return {
    label,
    url: `http://127.0.0.1:${listening.port}`,
    pid: child.pid,
    startMs,
    idle: memoryOf(child.pid),
    stdout: () => stdout,
    stderr: () => stderr,
    stop,
  }
}

// ---- HTTP

/**
 * One POST of `body` (a Buffer) on its own connection; answers `{ status, text, ms }`, `ms` from
 * sending to the last byte of the answer.
 */
function post(base, path, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const request = http.request(
      new URL(path, base),
      {
        method: 'POST',
        agent: false,
        headers: { ...JSON_HEADERS, 'content-length': String(body.byteLength) },
      },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const ms = performance.now() - started
          resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString(), ms })
        })
      },
    )
    request.setTimeout(120_000, () => request.destroy(new Error('no answer in 120 s')))
    request.on('error', reject)
    request.end(body)
  })
}

/** Throws unless `reply` is a 200 with artifacts; answers its parsed body. */
function expectArtifacts(reply, what) {
  if (reply.status !== 200)
    throw new Error(`${what}: expected 200, got ${reply.status} ${reply.text.slice(0, 600)}`)
  const body = JSON.parse(reply.text)
  if (Object.keys(body.artifacts ?? {}).length === 0) throw new Error(`${what}: no artifacts`)
  return body
}

/**
 * One autocannon run against `server` (one request shape), every response's status counted, and
 * the CPU the server and this process (the client) used over it. `rate` counts 2xx only.
 */
async function load(server, { method = 'GET', path, body, connections, seconds }) {
  const serverCpu = processCpuMs(server.pid)
  const clientCpu = process.cpuUsage()
  const started = performance.now()
  const run = await runLoad({
    url: server.url,
    connections,
    seconds,
    timeout: 60,
    request: { method, path, ...(body ? { headers: JSON_HEADERS, body } : {}) },
  })
  const wallMs = performance.now() - started
  const client = process.cpuUsage(clientCpu)
  const serverMs = processCpuMs(server.pid)
  return {
    ...run,
    serverCpuShare: serverCpu === undefined ? undefined : (serverMs - serverCpu) / wallMs,
    clientCpuShare: (client.user + client.system) / 1000 / wallMs,
  }
}

/** `warmup` s, then `seconds` s of `shape` against `server`. */
async function loadAfterWarmup(server, shape, options, name) {
  await load(server, { ...shape, seconds: options.warmup })
  const result = await load(server, { ...shape, seconds: options.seconds })
  result.memory = memoryOf(server.pid)
  const failed = result.non2xx + result.errors
  progress(
    `${name}, ${shape.connections} conn.: ${fmt(result.rate, 1)} req/s, p50 ${result.latencyMs.p50} ms, ` +
      `p99 ${result.latencyMs.p99} ms, server CPU ${fmt(result.serverCpuShare * 100)} %` +
      (failed
        ? ` (${result.non2xx} non-2xx, ${result.errors} errors${result.sample ? `: ${result.sample}` : ''})`
        : ''),
  )
  return result
}

/**
 * `count` + 1 POSTs of `body` to /artifacts one after the other (the first a warm-up, reported
 * apart), each on its own connection, with the server's RSS after each.
 */
async function sequential(server, body, count, name) {
  const runs = []
  let first
  let measuredFrom
  for (let i = 0; i <= count; i++) {
    if (i === 1) measuredFrom = { at: performance.now(), cpu: processCpuMs(server.pid) }
    const reply = await post(server.url, '/artifacts', body)
    const parsed = expectArtifacts(reply, `${name}, request ${i + 1}`)
    const run = {
      ms: reply.ms,
      responseBytes: Buffer.byteLength(reply.text),
      files: Object.keys(parsed.artifacts).length,
      generateMs: parsed.manifest.timings.generateMs,
      renderMs: parsed.manifest.timings.renderMs,
      rssMb: memoryOf(server.pid).rssMb,
      ...(parsed.source ? { digest: parsed.source.digest } : {}),
    }
    if (i === 0) first = run
    else runs.push(run)
  }
  const wallMs = performance.now() - measuredFrom.at
  const cpuNow = processCpuMs(server.pid)
  const times = runs.map((r) => r.ms)
  const result = {
    count,
    rate: (count / wallMs) * 1000,
    latencyMs: {
      mean: mean(times),
      p50: median(times),
      min: Math.min(...times),
      max: Math.max(...times),
    },
    first,
    runs,
    generateMs: median(runs.map((r) => r.generateMs)),
    renderMs: median(runs.map((r) => r.renderMs)),
    responseBytes: runs[0].responseBytes,
    files: runs[0].files,
    serverCpuShare:
      measuredFrom.cpu === undefined ? undefined : (cpuNow - measuredFrom.cpu) / wallMs,
    memory: memoryOf(server.pid),
  }
  progress(
    `${name}: median ${fmt(result.latencyMs.p50)} ms (${fmt(result.latencyMs.min)}–${fmt(result.latencyMs.max)}; ` +
      `first ${fmt(first.ms)}), RSS ${runs.map((r) => fmt(r.rssMb)).join(' ')} MB`,
  )
  return result
}

// ---- in process: the same requests through app.request, no HTTP

async function loadInProcess() {
  const { createServer } = await import('@svc/stack-server')
  const generators = []
  for (const name of GENERATORS) generators.push(...(await import(`@svc/${name}`)).generators)
  return createServer({ generators, identity: { name: '@local/demo', version: '0.1.0' } })
}

async function runChild(args) {
  const seconds = Number(args.seconds)
  const warmup = Number(args.warmup)
  const count = Number(args['github-requests'])
  const petstore = JSON.stringify({ schema: await readFile(PETSTORE, 'utf8') })
  const github = JSON.stringify({ schema: await readFile(GITHUB, 'utf8') })
  await reportSample('in-process', loadInProcess, async (app, report) => {
    const request = async (body) => {
      const started = performance.now()
      const response = await app.request('/artifacts', {
        method: 'POST',
        headers: JSON_HEADERS,
        body,
      })
      const text = await response.text()
      return { status: response.status, ms: performance.now() - started, text }
    }
    const repeat = async (body, ms) => {
      const times = []
      const statuses = {}
      const cpu = process.cpuUsage()
      const started = performance.now()
      while (performance.now() - started < ms) {
        const reply = await request(body)
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1
        if (reply.status === 200) times.push(reply.ms)
      }
      const wallMs = performance.now() - started
      const used = process.cpuUsage(cpu)
      return { times, statuses, wallMs, cpuShare: (used.user + used.system) / 1000 / wallMs }
    }
    await repeat(petstore, warmup * 1000)
    const pet = await repeat(petstore, seconds * 1000)
    report.petstore = {
      count: pet.times.length,
      rate: (pet.times.length / pet.wallMs) * 1000,
      statuses: pet.statuses,
      failed: Object.entries(pet.statuses)
        .filter(([status]) => status !== '200')
        .reduce((sum, [, n]) => sum + n, 0),
      latencyMs: {
        mean: mean(pet.times),
        p50: percentile(pet.times, 50),
        p99: percentile(pet.times, 99),
        min: Math.min(...pet.times),
        max: Math.max(...pet.times),
      },
      cpuShare: pet.cpuShare,
      rssMb: process.memoryUsage().rss / 1024 / 1024,
    }
    const runs = []
    let first
    let from
    for (let i = 0; i <= count; i++) {
      if (i === 1) from = { at: performance.now(), cpu: process.cpuUsage() }
      const reply = await request(github)
      if (reply.status !== 200)
        throw new Error(`GitHub in process: ${reply.status} ${reply.text.slice(0, 600)}`)
      const run = { ms: reply.ms, rssMb: process.memoryUsage().rss / 1024 / 1024 }
      if (i === 0) first = run
      else runs.push(run)
    }
    const wallMs = performance.now() - from.at
    const used = process.cpuUsage(from.cpu)
    const times = runs.map((r) => r.ms)
    report.github = {
      count,
      rate: (count / wallMs) * 1000,
      latencyMs: {
        mean: mean(times),
        p50: median(times),
        min: Math.min(...times),
        max: Math.max(...times),
      },
      first,
      runs,
      cpuShare: (used.user + used.system) / 1000 / wallMs,
      rssMb: process.memoryUsage().rss / 1024 / 1024,
    }
  })
}

// ---- report

function printReport(report) {
  const { options, bundles, http: h } = report
  const full = bundles.full
  const bare = bundles.bare
  console.log(
    `\nmachine: ${describeMachine(report.machine, report.loadBefore, report.loadAfter)}; ` +
      `stack server at ${describeRevision(report.stackServer, 'stack-server')}`,
  )
  console.log(
    `server.js: \`svc bundle demo --server\` (${options.bundleRuns} builds each, median), then ` +
      '`node server.js` alone in an empty temp folder, PORT=0 HOST=127.0.0.1; the server, the ' +
      'client (autocannon 8 or one request at a time, this process) and the static file server ' +
      'each in their own process, sharing the cores\n',
  )

  const mb = (bytes) => fmt(bytes / 1e6, 2)
  const bundleRow = (label, b) => [
    label,
    fmt(b.bytes),
    mb(b.bytes),
    fmt(b.bytes / 1024 / 1024, 2),
    fmt(b.gzipBytes),
    mb(b.gzipBytes),
    fmt(b.processMs),
    `${fmt(Math.min(...b.builds.map((x) => x.processMs)))}–${fmt(Math.max(...b.builds.map((x) => x.processMs)))}`,
    fmt(b.cliMs),
  ]
  printMarkdown(
    [
      'server.js',
      'bytes',
      'MB',
      'MiB',
      'gzip bytes',
      'gzip MB',
      '`svc bundle --server` ms',
      'min–max ms',
      'CLI says ms',
    ],
    [
      bundleRow(`official generators (${full.generators.length} in its header)`, full),
      bundleRow('no generators', bare),
    ],
    1,
  )

  const rows = []
  const cpu = (share) => (share === undefined ? '—' : `${fmt(share * 100)} %`)
  const mem = (m) => (m?.rssMb === undefined ? '—' : `${fmt(m.rssMb)} (peak ${fmt(m.peakMb)})`)
  const failed = (r) => {
    const n = r.non2xx + r.errors
    return n ? `**${n}** ${JSON.stringify(r.statuses)}` : '0'
  }
  const loadRow = (request, r, connections) => [
    request,
    'autocannon',
    String(connections),
    fmt(r.rate, r.rate < 100 ? 1 : 0),
    // autocannon's own mean is over whole ms rounded down: connections / rate is the mean time
    // a request is in flight (Little's law).
    fmt((connections / r.rate) * 1000, 2),
    String(r.latencyMs.p50),
    String(r.latencyMs.p99),
    `${r.latencyMs.min}–${r.latencyMs.max}`,
    failed(r),
    `${cpu(r.serverCpuShare)} / ${cpu(r.clientCpuShare)}`,
    mem(r.memory),
  ]
  rows.push(loadRow('`GET /healthz`', h.healthz, options.healthzConnections))
  for (const [connections, r] of Object.entries(h.petstore))
    rows.push(loadRow('`POST /artifacts` Petstore `schema`', r, connections))
  const inProcess = report.inProcess
  if (inProcess?.petstore) {
    const p = inProcess.petstore
    rows.push([
      'Petstore, in process (no HTTP)',
      '`app.request`',
      '1',
      fmt(p.rate, 0),
      fmt(p.latencyMs.mean, 2),
      fmt(p.latencyMs.p50, 1),
      fmt(p.latencyMs.p99, 1),
      `${fmt(p.latencyMs.min, 1)}–${fmt(p.latencyMs.max, 1)}`,
      p.failed ? `**${p.failed}**` : '0',
      cpu(p.cpuShare),
      fmt(p.rssMb),
    ])
  }
  const seqRow = (request, client, r, cpuShare, memory) => [
    request,
    client,
    '1',
    fmt(r.rate, 2),
    fmt(r.latencyMs.mean),
    fmt(r.latencyMs.p50),
    '—',
    `${fmt(r.latencyMs.min)}–${fmt(r.latencyMs.max)}`,
    '0',
    cpu(cpuShare),
    memory,
  ]
  rows.push(
    seqRow(
      '`POST /artifacts` GitHub `schema`',
      `${options.githubRequests} in a row`,
      h.githubSchema,
      h.githubSchema.serverCpuShare,
      mem(h.githubSchema.memory),
    ),
    seqRow(
      '`POST /artifacts` GitHub `source` (loopback)',
      `${options.githubRequests} in a row`,
      h.githubSource,
      h.githubSource.serverCpuShare,
      mem(h.githubSource.memory),
    ),
  )
  if (inProcess?.github)
    rows.push(
      seqRow(
        'GitHub `schema`, in process (no HTTP)',
        '`app.request`',
        inProcess.github,
        inProcess.github.cpuShare,
        fmt(inProcess.github.rssMb),
      ),
    )
  console.log('')
  printMarkdown(
    [
      'request',
      'client',
      'conc.',
      'requests/s',
      'mean ms',
      'p50 ms',
      'p99 ms',
      'min–max ms',
      'failed',
      'CPU server / client',
      'server RSS MB after',
    ],
    rows,
    2,
  )

  console.log(
    `\nautocannon: ${options.warmup} s warm-up, then ${options.seconds} s; requests/s count 2xx. ` +
      `GitHub: one warm-up request, then ${options.githubRequests}, each on a new connection; ` +
      'requests/s = requests / their wall time; latency from sending to the last byte. ' +
      "autocannon's percentiles and min–max are whole ms rounded down (its histogram; p50 0: under " +
      '1 ms), so its mean is given as connections ÷ requests/s. ' +
      'CPU: CPU time / wall time over the measured part (100 % = one core; the server has GC and ' +
      'other helper threads besides its one JavaScript thread).',
  )
  const starts = report.servers.map((s) => s.startMs)
  console.log(
    `start-up of server.js (spawn → listening line): ${starts.map((ms) => fmt(ms)).join(' / ')} ms; ` +
      `RSS when idle ${report.servers.map((s) => fmt(s.idle.rssMb)).join(' / ')} MB`,
  )
  console.log(
    `Petstore: request ${fmt(report.inputs.petstoreBodyBytes)} bytes, answer ${fmt(h.petstoreCheck.responseBytes)} bytes, ` +
      `${h.petstoreCheck.files.length} files (${h.petstoreCheck.files.join(', ')})`,
  )
  for (const [name, r] of [
    ['GitHub schema', h.githubSchema],
    ['GitHub source', h.githubSource],
  ]) {
    console.log(
      `${name}: answer ${fmt(r.responseBytes)} bytes, ${r.files} files; first request ${fmt(r.first.ms)} ms; ` +
        `engine generate ${fmt(r.generateMs)} + render ${fmt(r.renderMs)} ms (median, from the manifest); ` +
        `RSS after each: ${r.runs.map((x) => fmt(x.rssMb)).join(' ')} MB`,
    )
  }
  console.log(
    `GitHub request: ${fmt(report.inputs.githubBodyBytes)} bytes as \`schema\`; the source file ` +
      `${fmt(report.inputs.githubFileBytes)} bytes`,
  )
  if (inProcess?.github)
    console.log(
      `in process: first GitHub request ${fmt(inProcess.github.first.ms)} ms; import ${fmt(inProcess.loadMs)} ms; ` +
        `RSS after each ${inProcess.github.runs.map((x) => fmt(x.rssMb)).join(' ')} MB`,
    )
  if (inProcess?.error) console.log(`in process failed: ${inProcess.error.message}`)

  const met = full.bytes < TARGET_BYTES ? 'met' : 'MISSED'
  console.log(
    `\ntarget server.js under ${TARGET_BYTES / 1e6} MB minified with the official generators: ${met} ` +
      `(${fmt(full.bytes)} bytes = ${mb(full.bytes)} MB = ${fmt(full.bytes / 1024 / 1024, 2)} MiB; gzip ${mb(full.gzipBytes)} MB)`,
  )
  for (const problem of report.problems) console.log(`problem: ${problem}`)
}

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length
}

/** A markdown table; columns from `firstNumeric` on are right-aligned. */
function printMarkdown(header, rows, firstNumeric) {
  console.log(`| ${header.join(' | ')} |`)
  console.log(`| ${header.map((_, i) => (i >= firstNumeric ? '---:' : '---')).join(' | ')} |`)
  for (const row of rows) console.log(`| ${row.join(' | ')} |`)
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
  const connections = String(args.connections ?? '1,10')
    .split(',')
    .map(Number)
  if (connections.some((c) => !Number.isInteger(c) || c < 1))
    throw new Error('--connections takes positive whole numbers, comma-separated')
  return {
    seconds: number('seconds', 10),
    warmup: number('warmup', 3),
    connections,
    healthzConnections: 10,
    githubRequests: number('github-requests', 10),
    bundleRuns: number('bundle-runs', 5),
    inProcess: !args['skip-in-process'],
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.child === 'in-process') return runChild(args)
  const options = readOptions(process.argv.slice(2))
  const petstoreBody = Buffer.from(JSON.stringify({ schema: await readFile(PETSTORE, 'utf8') }))
  const githubText = await readFile(GITHUB, 'utf8')
  const githubBody = Buffer.from(JSON.stringify({ schema: githubText }))
  const report = {
    date: new Date().toISOString(),
    options,
    loadBefore: loadAverage(),
    stackServer: sourceRevision(ROOT, 'packages/stack-server/src'),
    inputs: {
      petstore: relative(ROOT, PETSTORE),
      petstoreBodyBytes: petstoreBody.length,
      github: relative(ROOT, GITHUB),
      githubFileBytes: Buffer.byteLength(githubText),
      githubBodyBytes: githubBody.length,
    },
    problems: [],
    servers: [],
  }
  if (report.loadBefore > 0.5)
    progress(`note: load average ${report.loadBefore} before the run; other work skews the figures`)

  // 1. server.js, as the CLI builds it
  report.bundles = {
    full: await buildServer(GENERATORS, options.bundleRuns),
    bare: await buildServer([], options.bundleRuns),
  }
  const runDir = await tempDir('svc-stack-bench-run-')
  await copyFile(report.bundles.full.path, join(runDir, 'server.js'))
  if ((await readdir(runDir)).length !== 1) throw new Error(`${runDir} holds more than server.js`)

  const stopped = async (server) => {
    const status = await server.stop()
    if (status !== 0) report.problems.push(`${server.label} exited with ${status} on SIGTERM`)
    if (server.stderr().trim())
      report.problems.push(`${server.label} wrote to stderr: ${server.stderr().slice(0, 1000)}`)
    report.servers.push({ label: server.label, startMs: server.startMs, idle: server.idle })
  }

  // 2. the Petstore under autocannon, with GET /healthz as the floor, on one server
  report.http = {}
  const small = await startStack(runDir, 'server.js (Petstore)')
  const check = await post(small.url, '/artifacts', petstoreBody)
  const checked = expectArtifacts(check, 'Petstore')
  report.http.petstoreCheck = {
    responseBytes: Buffer.byteLength(check.text),
    files: Object.keys(checked.artifacts),
  }
  report.http.healthz = await loadAfterWarmup(
    small,
    { path: '/healthz', connections: options.healthzConnections },
    options,
    'GET /healthz',
  )
  report.http.petstore = {}
  for (const connections of options.connections) {
    report.http.petstore[connections] = await loadAfterWarmup(
      small,
      { method: 'POST', path: '/artifacts', body: petstoreBody, connections },
      options,
      'POST /artifacts Petstore',
    )
  }
  await stopped(small)

  // 3. GitHub's description, one request at a time: as schema text, then as a source URL
  const big = await startStack(runDir, 'server.js (GitHub schema)')
  report.http.githubSchema = await sequential(
    big,
    githubBody,
    options.githubRequests,
    'POST /artifacts GitHub schema',
  )
  await stopped(big)

  const files = await startServer({
    label: 'static file server',
    args: [join(ROOT, 'bench/lib/static-file-server.js'), GITHUB],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
  })
  const stopFiles = onExit(() => files.stop())
  const fetching = await startStack(runDir, 'server.js (GitHub source)', {
    SVC_STACK_ALLOW_PRIVATE_NETWORKS: files.url,
  })
  report.http.githubSource = await sequential(
    fetching,
    Buffer.from(JSON.stringify({ source: `${files.url}/api.github.com.json` })),
    options.githubRequests,
    'POST /artifacts GitHub source',
  )
  await stopped(fetching)
  await stopFiles()

  // 4. the same requests in process, no HTTP
  if (options.inProcess) {
    const run = await runNode(
      [
        SELF,
        '--child',
        'in-process',
        '--seconds',
        String(options.seconds),
        '--warmup',
        String(options.warmup),
        '--github-requests',
        String(options.githubRequests),
      ],
      { timeoutMs: CHILD_TIMEOUT_MS },
    )
    try {
      report.inProcess = JSON.parse(run.stdout.trim().split('\n').at(-1))
    } catch {
      report.inProcess = {
        error: {
          message: `child exited with ${run.signal ?? run.code}: ${run.stderr.slice(-1000)}`,
        },
      }
    }
    if (report.inProcess.error)
      report.problems.push(`in process: ${report.inProcess.error.message}`)
    else
      progress(
        `in process: Petstore ${fmt(report.inProcess.petstore.rate)} req/s, p50 ${fmt(report.inProcess.petstore.latencyMs.p50, 1)} ms; ` +
          `GitHub median ${fmt(report.inProcess.github.latencyMs.p50)} ms`,
      )
  }

  await finishReport(report, 'stack-server', printReport)
}

await runMain(main)
