// Generates code from GitHub's api.github.com.json with svc and its peers, each call in a fresh
// child process that writes its files to a temporary directory: svc's engine (parseApi, then
// generate with @svc/gen-typescript, @svc/gen-zod and @svc/gen-fetch-client), openapi-typescript
// 7, openapi-zod-client and hey-api (@hey-api/openapi-ts with its typescript, zod and sdk plugins);
// and the real CLI, `svc generate` on a project with gen-typescript and gen-zod, without and with
// the V8 code cache of its bundle.
// Usage: node bench/generate.js [--runs N] [--only tool,tool] [--profile DIR]
//   [--only: just these tools (names of TOOLS), to try one; the recorded table runs them all]
//   [--profile DIR: one more svc child (types + zod + client) under `node --cpu-prof`,
//    summarised over the timed call only]
//   [--base-cli DIR: one more CLI row, `svc generate` with DIR/packages/cli/bin/svc.js (a build of
//    another commit), in the same project, for a before/after in one run]
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  distinctErrors,
  measureAll,
  readRuns,
  reportSample,
  runNode,
  runSample,
  timed,
} from './lib/child-runs.js'
import { profilesIn, summarizeProfile } from './lib/cpu-profile.js'
import {
  describeMachine,
  describeRevision,
  engineRevision,
  loadAverage,
  machineInfo,
  sourceRevision,
} from './lib/machine.js'
import { median, parseArgs, round } from './lib/stats.js'
import { fmt, printTable } from './lib/table.js'

const SELF = fileURLToPath(import.meta.url)
const ROOT = join(dirname(SELF), '..')
const INPUT = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const RESULT_FILE = join(ROOT, 'bench/results/generate.json')
const SVC_BIN = join(ROOT, 'packages/cli/bin/svc.js')
const SVC_TIMEOUT_MS = 5 * 60_000
/** A peer that needs longer than this is reported as timed out, not measured. */
const PEER_TIMEOUT_MS = 120_000
/** hey-api needs two to three minutes on GitHub's description on this machine. */
const HEY_API_TIMEOUT_MS = 10 * 60_000
/** svc types + zod, engine time (parse, generate and render; no start-up, no import). */
const TARGET_MS = 600
/**
 * openapi-typescript's whole process over svc types + zod + client's. Issue 22 set it at 3× once
 * the output carries JSDoc and one property a line (it was 5× over types + zod for one-line
 * output).
 */
const TARGET_RATIO = 3
/** hey-api's whole process over svc types + zod + client's (issue 22). */
const TARGET_HEY_API_RATIO = 20
/** openapi-typescript's whole process over `svc generate`'s, types + zod, code cache present (issue 24). */
const TARGET_CLI_RATIO = 5

const svcEngine = async () => ({
  parseApi: (await import('@svc/engine')).parseApi,
  generate: (await import('@svc/engine/generate')).generate,
  typescriptEntry: (await import('@svc/gen-typescript')).typescriptEntry,
  zodEntry: (await import('@svc/gen-zod')).zodEntry,
  fetchClientEntry: (await import('@svc/gen-fetch-client')).fetchClientEntry,
})

/** Every operation of the client parses its JSON responses with their zod schemas. */
const VALIDATE = { enrichments: { '@svc/gen-fetch-client': { _generator: { validate: true } } } }

/**
 * Each tool: how to load it (timed apart, not included) and one run from the text in memory, as
 * timed steps: `parse` (reading the description), `generate` (generating and printing the code)
 * and `write` (the files, into `outDir`), reported by `step(name, fn)`; a run that answers
 * `files` has them written by the child. `against`: the svc row it is compared with like for
 * like.
 */
const TOOLS = {
  // The CLI as a user runs it: one project (set up once) with gen-typescript and gen-zod, `svc
  // generate demo <file> --json` a process; cold removes the code cache of bundle.js first.
  'svc-cli-cold': { label: 'svc generate (CLI), types + zod, no code cache', cli: 'cold' },
  'svc-cli-warm': { label: 'svc generate (CLI), types + zod, code cache present', cli: 'warm' },
  'svc-cli-base': { label: 'svc generate (CLI of --base-cli), types + zod', cli: 'base' },
  'svc-client': {
    label: 'svc types + zod + client (validate)',
    load: svcEngine,
    run: (svc, text, step) =>
      runSvc(svc, text, step, [svc.typescriptEntry, svc.zodEntry, svc.fetchClientEntry], VALIDATE),
  },
  'svc-all': {
    label: 'svc types + zod',
    load: svcEngine,
    run: (svc, text, step) => runSvc(svc, text, step, [svc.typescriptEntry, svc.zodEntry]),
  },
  'svc-types': {
    label: 'svc types (@svc/gen-typescript)',
    load: svcEngine,
    run: (svc, text, step) => runSvc(svc, text, step, [svc.typescriptEntry]),
  },
  'svc-zod': {
    label: 'svc zod (@svc/gen-zod)',
    load: svcEngine,
    run: (svc, text, step) => runSvc(svc, text, step, [svc.zodEntry]),
  },
  'openapi-typescript': {
    label: `openapi-typescript ${version('openapi-typescript')}`,
    peer: true,
    against: 'svc-types',
    load: loadOpenapiTs,
    run: (ots, text, step) => runOpenapiTs(ots, text, step, (doc) => doc),
  },
  'openapi-typescript-schemas': {
    label: `openapi-typescript ${version('openapi-typescript')}, component schemas only`,
    peer: true,
    against: 'svc-types',
    load: loadOpenapiTs,
    // svc's generators emit the models (components.schemas) only; this is the peer on just those.
    run: (ots, text, step) =>
      runOpenapiTs(ots, text, step, (doc) => ({
        openapi: doc.openapi,
        info: doc.info,
        paths: {},
        components: { schemas: doc.components.schemas },
      })),
  },
  'hey-api': {
    label: `hey-api ${version('@hey-api/openapi-ts')} (types + zod + sdk)`,
    peer: true,
    timeoutMs: HEY_API_TIMEOUT_MS,
    against: 'svc-client',
    load: async () => ({ createClient: (await import('@hey-api/openapi-ts')).createClient }),
    run: async ({ createClient }, text, step, outDir) => {
      const doc = await step('parse', () => JSON.parse(text))
      // createClient generates and writes the files in one call (its own `postProcess` formatter
      // is off by default: the output is printed by its TypeScript printer).
      await step('generate', () =>
        createClient({
          input: doc,
          output: { path: outDir },
          plugins: [
            '@hey-api/typescript',
            'zod',
            // validator: the sdk parses responses with the zod plugin's schemas, as svc's validate.
            { name: '@hey-api/sdk', validator: true },
          ],
          logs: { level: 'silent', file: false },
        }),
      )
      return {}
    },
  },
  'openapi-zod-client': {
    label: `openapi-zod-client ${version('openapi-zod-client')}`,
    peer: true,
    against: 'svc-zod',
    load: async () => ({
      SwaggerParser: (await import('@apidevtools/swagger-parser')).default,
      generateZodClientFromOpenAPI: (await import('openapi-zod-client'))
        .generateZodClientFromOpenAPI,
    }),
    run: async ({ SwaggerParser, generateZodClientFromOpenAPI }, text, step) => {
      // As its CLI does: SwaggerParser.bundle (refs stay refs), then generate; the default
      // template, formatted with prettier (which it always runs).
      const doc = await step('parse', async () => SwaggerParser.bundle(JSON.parse(text)))
      const code = await step('generate', () =>
        generateZodClientFromOpenAPI({ openApiDoc: doc, disableWriteToFile: true }),
      )
      return { files: { 'client.ts': code } }
    },
  },
}

async function runSvc({ parseApi, generate }, text, step, generators, settings) {
  const parsed = await step('parse', () => parseApi({ text }))
  const result = await step('generate', () => generate({ parsed, generators, settings }))
  const items = {}
  for (const [id, byItem] of Object.entries(result.manifest.results)) {
    const statuses = (items[id.replace('@svc/gen-', '')] = {})
    for (const { status } of Object.values(byItem)) statuses[status] = (statuses[status] ?? 0) + 1
  }
  const errors = parsed.parseIssues.filter((issue) => issue.level === 'error').length
  return {
    files: Object.fromEntries(result.files),
    summary: { parseIssues: parsed.parseIssues.length, parseErrors: errors, items },
    inner: {
      generateMs: result.manifest.timings.generateMs,
      renderMs: result.manifest.timings.renderMs,
    },
  }
}

async function loadOpenapiTs() {
  const { default: openapiTS, astToString } = await import('openapi-typescript')
  return { openapiTS, astToString }
}

async function runOpenapiTs({ openapiTS, astToString }, text, step, select) {
  // The peer takes an object: JSON.parse is its parse step (svc's parseApi includes its own).
  const doc = await step('parse', () => select(JSON.parse(text)))
  let astMs
  const code = await step('generate', async () => {
    const started = performance.now()
    // openapiTS validates and bundles with Redocly, then builds the AST; astToString prints it.
    const ast = await openapiTS(doc, { silent: true })
    astMs = performance.now() - started
    return astToString(ast)
  })
  return { files: { 'schema.d.ts': code }, inner: { openapiTsMs: astMs } }
}

function version(name) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'))
      .version
  } catch {
    return '?'
  }
}

// ---- child: one cold run, reported as one JSON line on stdout

async function runChild(toolName) {
  const tool = TOOLS[toolName]
  const text = await readFile(INPUT, 'utf8')
  await reportSample(toolName, tool.load, async (handle, report) => {
    const steps = {}
    const step = async (name, call) => {
      const { value, ms, cpuMs } = await timed(call)
      steps[name] = { ms, cpuMs }
      return value
    }
    const outDir = await mkdtemp(join(tmpdir(), `svc-bench-generate-${toolName}-`))
    report.outDir = outDir
    // The timed call as monotonic ms (the clock of V8's CPU profiles), for --profile.
    const fromMono = Number(process.hrtime.bigint()) / 1e6
    const run = await timed(async () => {
      const value = await tool.run(handle, text, step, outDir)
      if (value.files) await step('write', () => writeFiles(outDir, value.files))
      return value
    })
    const toMono = Number(process.hrtime.bigint()) / 1e6
    report.ms = run.ms
    report.cpuMs = run.cpuMs
    report.parseMs = steps.parse.ms
    report.generateMs = steps.generate.ms
    report.writeMs = steps.write?.ms ?? null
    report.window = { fromMono, toMono }
    report.inner = run.value.inner
    report.summary = run.value.summary
    // The output is measured by the parent, so that the process's own time is the tool's.
  })
}

async function writeFiles(dir, files) {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

/** Every file under `dir`, by its path relative to it. */
async function readTree(dir) {
  const files = {}
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath ?? entry.path, entry.name)
    files[relative(dir, path)] = await readFile(path, 'utf8')
  }
  return files
}

/**
 * Bytes, lines, TypeScript tokens (no whitespace, no comments) and the longest line (in
 * characters) of the files, and in all.
 */
async function measureOutput(files) {
  const ts = (await import('typescript')).default
  const sizes = {}
  for (const [path, content] of Object.entries(files)) {
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, true)
    scanner.setText(content)
    let tokens = 0
    while (scanner.scan() !== ts.SyntaxKind.EndOfFileToken) tokens++
    const lines = content.split('\n')
    sizes[path] = {
      bytes: Buffer.byteLength(content),
      lines: lines.length - (content.endsWith('\n') ? 1 : 0),
      tokens,
      longestLine: lines.reduce((longest, line) => Math.max(longest, line.length), 0),
      linesOver100: lines.filter((line) => line.length > 100).length,
    }
  }
  const all = Object.values(sizes)
  const sum = (key) => all.reduce((total, size) => total + size[key], 0)
  return {
    files: all.length,
    bytes: sum('bytes'),
    lines: sum('lines'),
    tokens: sum('tokens'),
    longestLine: Math.max(0, ...all.map((size) => size.longestLine)),
    linesOver100: sum('linesOver100'),
    byFile: sizes,
  }
}

// ---- parent: a fresh child per (tool, run), tools interleaved so drift hits all of them alike

/** An app root with the project `demo` (gen-typescript, gen-zod) and its bundle, made by the CLI. */
async function setUpCliProject() {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-generate-cli-'))
  for (const args of [
    ['init', 'demo'],
    ['install', 'gen-typescript', 'gen-zod'],
    ['bundle', 'demo'],
  ]) {
    const run = await runNode([SVC_BIN, ...args], { cwd: dir, timeoutMs: SVC_TIMEOUT_MS })
    if (run.code !== 0) throw new Error(`svc ${args.join(' ')} failed: ${run.stderr}`)
  }
  return dir
}

/** One `svc generate` process in the project: its wall time, and the command's own total. */
async function sampleCli(tool, mode, dir, baseCli) {
  const cache = join(dir, '.svc/demo/.cache')
  const bin = mode === 'base' ? join(baseCli, 'packages/cli/bin/svc.js') : SVC_BIN
  const generate = () =>
    runNode([bin, 'generate', 'demo', INPUT, '--json'], { cwd: dir, timeoutMs: SVC_TIMEOUT_MS })
  if (mode === 'cold') await rm(cache, { recursive: true, force: true })
  else if (mode === 'warm' && !existsSync(join(cache, 'bundle.js.v8cache'))) await generate()
  const run = await generate()
  let report
  try {
    report = JSON.parse(run.stdout)
  } catch {
    return { tool, error: { message: `exit ${run.code}`, stderr: run.stderr.slice(-2000) } }
  }
  if (run.code !== 0 || report.type !== 'generated')
    return { tool, error: { message: `exit ${run.code}: ${report.message ?? report.type}` } }
  return {
    tool,
    ms: report.stats.totalTimeMs,
    processMs: run.ms,
    parseMs: null,
    generateMs: null,
    writeMs: null,
    cpuMs: null,
    loadMs: null,
    maxRssMb: null,
    outDir: join(dir, report.basePath),
  }
}

function measureTools(names, runs, cliDir, baseCli) {
  const measured = new Set()
  return measureAll(names, runs, {
    width: 26,
    // A peer that crashed or timed out once is not tried again: each try can cost minutes.
    retryFailed: false,
    sample: async (name) => {
      const tool = TOOLS[name]
      if (tool.cli) {
        const sample = await sampleCli(name, tool.cli, cliDir, baseCli)
        if (sample.outDir && !sample.error && !measured.has(name)) {
          measured.add(name)
          sample.output = await measureOutput(await readTree(sample.outDir))
        }
        return sample
      }
      const timeoutMs = tool.timeoutMs ?? (tool.peer ? PEER_TIMEOUT_MS : SVC_TIMEOUT_MS)
      const sample = await runSample(SELF, name, { timeoutMs })
      // The output of one run per tool is measured (they are all alike), then every one removed.
      if (sample.outDir && !sample.error && !measured.has(name)) {
        measured.add(name)
        sample.output = await measureOutput(await readTree(sample.outDir))
      }
      if (sample.outDir) await rm(sample.outDir, { recursive: true, force: true })
      return sample
    },
    describe: (s) =>
      s.parseMs === null
        ? `process ${round(s.processMs)} ms (the command's own ${round(s.ms)} ms)`
        : `${round(s.ms)} ms (parse ${round(s.parseMs)} + generate ${round(s.generateMs)}` +
          `${s.writeMs === null ? '' : ` + write ${round(s.writeMs)}`}; ` +
          `process ${round(s.processMs)} ms, load ${round(s.loadMs)} ms, ${round(s.maxRssMb)} MB)`,
  })
}

function summarize(samples) {
  const rows = {}
  for (const [name, list] of Object.entries(samples)) {
    const ok = list.filter((s) => !s.error)
    const med = (pick) => (ok.length ? median(ok.map(pick)) : null)
    const times = ok.map((s) => s.ms)
    rows[name] = {
      label: TOOLS[name].label,
      against: TOOLS[name].against ?? null,
      runs: list.length,
      failed: list.length - ok.length,
      medianMs: med((s) => s.ms),
      minMs: ok.length ? Math.min(...times) : null,
      maxMs: ok.length ? Math.max(...times) : null,
      parseMs: med((s) => s.parseMs),
      generateMs: med((s) => s.generateMs),
      writeMs: ok.some((s) => s.writeMs !== null) ? med((s) => s.writeMs ?? 0) : null,
      processMs: med((s) => s.processMs),
      cpuMs: med((s) => s.cpuMs),
      loadMs: med((s) => s.loadMs),
      maxRssMb: med((s) => s.maxRssMb),
      inner: ok.length ? medianOf(ok.map((s) => s.inner ?? {})) : null,
      runsMs: times,
      output: ok.find((s) => s.output)?.output ?? null,
      summary: ok[0]?.summary ?? null,
      errors: list.filter((s) => s.error).map((s) => s.error),
    }
  }
  const all = rows['svc-all']
  const client = rows['svc-client']
  for (const row of Object.values(rows)) {
    const like = row.against ? rows[row.against] : null
    row.ratio = ratio(row.medianMs, like?.medianMs)
    row.ratioToAll = ratio(row.medianMs, all?.medianMs)
    row.ratioToClient = ratio(row.medianMs, client?.medianMs)
    row.processRatioToClient = ratio(row.processMs, client?.processMs)
    row.processRatioToCliWarm = ratio(row.processMs, rows['svc-cli-warm']?.processMs)
    row.processRatioToCliCold = ratio(row.processMs, rows['svc-cli-cold']?.processMs)
  }
  return rows
}

/** The median of every key of the objects. */
function medianOf(objects) {
  const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))]
  return Object.fromEntries(
    keys.map((key) => [key, median(objects.map((o) => o[key]).filter((v) => v !== undefined))]),
  )
}

function ratio(ms, svcMs) {
  return ms === null || ms === undefined || !svcMs ? null : ms / svcMs
}

function printReport(rows, machine, meta) {
  const header = [
    'tool',
    'parse ms',
    'generate ms',
    'write ms',
    'total ms',
    'min–max ms',
    'process ms',
    '× svc like',
    '× svc t+z+c',
    '× svc t+z+c, process',
    'cpu ms',
    'import ms',
    'max RSS MB',
    'files',
    'output bytes',
    'lines',
    'longest line',
    'tokens',
  ]
  const count = (row, key) => (row.output ? row.output[key].toLocaleString('en') : '—')
  const body = Object.values(rows).map((row) => [
    row.label + (row.failed ? ` (${row.failed}/${row.runs} failed: ${reason(row)})` : ''),
    fmt(row.parseMs),
    fmt(row.generateMs),
    row.writeMs === null ? 'in generate' : fmt(row.writeMs),
    fmt(row.medianMs),
    row.minMs === null ? '—' : `${fmt(row.minMs)}–${fmt(row.maxMs)}`,
    fmt(row.processMs),
    fmt(row.ratio, 2),
    fmt(row.ratioToClient, 2),
    fmt(row.processRatioToClient, 2),
    fmt(row.cpuMs),
    fmt(row.loadMs),
    fmt(row.maxRssMb),
    count(row, 'files'),
    count(row, 'bytes'),
    count(row, 'lines'),
    count(row, 'longestLine'),
    count(row, 'tokens'),
  ])
  console.log(
    `\n${meta.input} (${round(meta.inputBytes / 1e6, 1)} MB), ${meta.runs} fresh processes per tool (a peer that fails is not retried); ` +
      `one cold run each from the text in memory, writing its files to a temporary directory`,
  )
  console.log(`machine: ${describeMachine(machine, meta.loadBefore, meta.loadAfter)}`)
  console.log(
    `engine: ${describeRevision(meta.engine)}; generators: ${describeRevision(meta.generators, 'generator')}; ` +
      `peers: ${PEER_TIMEOUT_MS / 1000} s limit (hey-api ${HEY_API_TIMEOUT_MS / 1000} s)`,
  )
  console.log(
    'parse: svc parseApi({ text }); openapi-typescript and hey-api JSON.parse; openapi-zod-client JSON.parse + SwaggerParser.bundle\n' +
      'generate: svc generate() (generate + render); openapi-typescript openapiTS() + astToString(); openapi-zod-client generateZodClientFromOpenAPI() (with prettier); hey-api createClient() (writes its files too)\n' +
      'total: parse + generate + write, module loading not included; process: the whole child process, spawn to exit (Node start-up, imports, reading the file)\n' +
      '× svc like: over svc types (openapi-typescript), svc zod (openapi-zod-client) or svc types + zod + client (hey-api); × svc t+z+c: over svc types + zod + client\n',
  )
  printTable(header, body)
  for (const row of Object.values(rows)) {
    for (const error of distinctErrors(row.errors))
      console.log(
        `\n${row.label} failed: ${error.message}\n${error.stack ?? firstLines(error.stderr)}`,
      )
  }
  console.log('')
  for (const row of Object.values(rows)) {
    if (!row.output) continue
    const files = Object.entries(row.output.byFile)
      .sort(([, a], [, b]) => b.bytes - a.bytes)
      .slice(0, 4)
      .map(
        ([path, s]) =>
          `${path} ${s.bytes.toLocaleString('en')} B / ${s.lines.toLocaleString('en')} lines / longest ${s.longestLine.toLocaleString('en')}`,
      )
      .join(', ')
    const inner = Object.entries(row.inner ?? {})
      .map(([key, ms]) => `${key} ${fmt(ms)}`)
      .join(', ')
    console.log(
      `${row.label}: ${files}; ${row.output.linesOver100.toLocaleString('en')} lines over 100 columns${inner ? `; median ${inner}` : ''}`,
    )
    if (row.summary) console.log(`  ${JSON.stringify(row.summary)}`)
  }
  console.log('')
  const all = rows['svc-all']
  if (all?.medianMs !== null && all !== undefined) {
    const met = all.medianMs < TARGET_MS ? 'met' : 'MISSED'
    console.log(
      `target svc types + zod under ${TARGET_MS} ms of engine time: ${met} (median ${fmt(all.medianMs)} ms: parse ${fmt(all.parseMs)}, generate + render ${fmt(all.generateMs)}, write ${fmt(all.writeMs)})`,
    )
  }
  const target = (peer, times) => {
    const row = rows[peer]
    if (!row || row.processRatioToClient === null) return
    const met = row.processRatioToClient >= times ? 'met' : 'MISSED'
    console.log(
      `target svc types + zod + client at least ${times}× faster than ${row.label}, whole process: ${met} ` +
        `(${fmt(row.processRatioToClient, 2)}×; ${fmt(row.ratioToClient, 2)}× without start-up and imports)`,
    )
  }
  target('openapi-typescript', TARGET_RATIO)
  target('hey-api', TARGET_HEY_API_RATIO)
  const ots = rows['openapi-typescript']
  if (ots?.processRatioToCliWarm !== null && ots?.processRatioToCliWarm !== undefined) {
    const met = ots.processRatioToCliWarm >= TARGET_CLI_RATIO ? 'met' : 'MISSED'
    console.log(
      `target svc generate (CLI, types + zod, code cache present) at least ${TARGET_CLI_RATIO}× faster than ${ots.label}, whole process: ${met} ` +
        `(${fmt(ots.processRatioToCliWarm, 2)}×: ${fmt(ots.processMs)} ms over ${fmt(rows['svc-cli-warm'].processMs)} ms; ` +
        `without the cache ${fmt(ots.processRatioToCliCold, 2)}×` +
        `${rows['svc-cli-base'] ? `; the --base-cli build ${fmt(ratio(ots.processMs, rows['svc-cli-base'].processMs), 2)}×` : ''})`,
    )
  }
}

function reason(row) {
  const message = row.errors[0]?.message.split('\n')[0] ?? ''
  return message.length > 80 ? `${message.slice(0, 79)}…` : message
}

/** What a crashed child said about it, without V8's GC trace and native stack dump. */
function firstLines(stderr = '') {
  const said = stderr.split('\n').filter((line) => /error/i.test(line) && !/^\s*\d+: 0x/.test(line))
  return said.slice(0, 4).join('\n')
}

// ---- --profile: one more svc types + zod + client child under --cpu-prof, summarised over the
// run only

async function profileSvc(dir) {
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const run = await runNode(
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, SELF, '--child', 'svc-client'],
    {
      timeoutMs: SVC_TIMEOUT_MS,
    },
  )
  const report = JSON.parse(run.stdout.trim().split('\n').at(-1))
  if (report.outDir) await rm(report.outDir, { recursive: true, force: true })
  if (report.error) throw new Error(`the profiled run failed: ${report.error.message}`)
  const [main] = await profilesIn(dir)
  // A profile's times are microseconds on the monotonic clock the child read with hrtime, so the
  // window is given in monotonic ms and the profile's end as its own endTime.
  const { endTime } = JSON.parse(await readFile(main.file, 'utf8'))
  const window = {
    fromMs: report.window.fromMono,
    toMs: report.window.toMono,
    endedAtMs: endTime / 1000,
  }
  const profile = await summarizeProfile(main.file, { window, top: 25 })
  console.log(
    `\nprofile of svc types + zod + client (${fmt(report.ms)} ms: parse ${fmt(report.parseMs)}, generate ${fmt(report.generateMs)}, write ${fmt(report.writeMs)}; ` +
      `profiled ${fmt(profile.totalMs)} ms of it): ${shown(main.file)}`,
  )
  const pct = (f) =>
    `${fmt(f.share * 100, 1).padStart(5)} %  ${fmt(f.ms).padStart(4)} ms  ${f.name}`
  console.log(
    `  by place: ${profile.places
      .slice(0, 12)
      .map((p) => `${p.name} ${fmt(p.share * 100, 1)} %`)
      .join(', ')}`,
  )
  console.log('  by function (self time):')
  for (const f of profile.functions) console.log(`    ${pct(f)}`)
  console.log('  workspace functions (inclusive time):')
  for (const f of profile.inclusive) console.log(`    ${pct(f)}`)
  return profile
}

/** A path under the workspace relative to it, any other as it is. */
function shown(path) {
  const inside = relative(ROOT, path)
  return inside.startsWith('..') ? path : inside
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.child) return runChild(args.child)
  const runs = readRuns(args)
  const baseCli = args['base-cli'] === undefined ? undefined : resolve(String(args['base-cli']))
  const names =
    args.only === undefined
      ? Object.keys(TOOLS).filter((name) => name !== 'svc-cli-base' || baseCli)
      : String(args.only).split(',')
  if (names.includes('svc-cli-base') && !baseCli)
    throw new Error('svc-cli-base needs --base-cli DIR')
  for (const name of names) if (!TOOLS[name]) throw new Error(`--only: no tool ${name}`)
  const meta = {
    input: relative(ROOT, INPUT),
    inputBytes: (await readFile(INPUT)).length,
    runs,
    date: new Date().toISOString(),
    peerTimeoutMs: PEER_TIMEOUT_MS,
    // Other work on the machine skews timings; the 1-minute load average shows when it did.
    loadBefore: loadAverage(),
    engine: engineRevision(ROOT),
    generators: sourceRevision(ROOT, 'packages/generators'),
  }
  const cliDir = names.some((name) => TOOLS[name].cli) ? await setUpCliProject() : undefined
  const rows = summarize(await measureTools(names, runs, cliDir, baseCli))
  if (cliDir) await rm(cliDir, { recursive: true, force: true })
  meta.loadAfter = loadAverage()
  const machine = machineInfo()
  printReport(rows, machine, meta)
  if (args.profile === true) throw new Error('--profile needs a directory')
  const profile =
    args.profile === undefined ? undefined : await profileSvc(resolve(String(args.profile)))
  // A partial run (--only) is a try, not a result.
  if (args.only !== undefined) return
  await mkdir(dirname(RESULT_FILE), { recursive: true })
  await writeFile(
    RESULT_FILE,
    `${JSON.stringify({ ...meta, machine, tools: rows, profile }, null, 2)}\n`,
  )
  console.log(`\nwrote ${relative(ROOT, RESULT_FILE)}`)
}

await main()
