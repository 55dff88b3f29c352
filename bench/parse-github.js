// Parses GitHub's api.github.com.json with svc and its peers, each in fresh child processes.
// Usage: node bench/parse-github.js [--runs N]
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  distinctErrors,
  measureAll,
  readRuns,
  reportSample,
  runSample,
  timed,
} from './lib/child-runs.js'
import {
  describeMachine,
  describeRevision,
  engineRevision,
  loadAverage,
  machineInfo,
} from './lib/machine.js'
import { median, parseArgs, round } from './lib/stats.js'
import { fmt, printTable } from './lib/table.js'

const SELF = fileURLToPath(import.meta.url)
const ROOT = join(dirname(SELF), '..')
const INPUT = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const RESULT_FILE = join(ROOT, 'bench/results/parse-github.json')
const WARM_CALLS = 3
const CHILD_TIMEOUT_MS = 5 * 60_000

// Each tool: how to load it (not timed as the call) and one call from the text already in memory.
const TOOLS = {
  svc: {
    label: 'svc parseApi',
    load: async () => (await import(join(ROOT, 'packages/engine/dist/index.js'))).parseApi,
    call: async (parseApi, text) => summarizeSvc(await parseApi({ text })),
  },
  'svc-positions': {
    label: 'svc parseApi positions:true',
    load: async () => (await import(join(ROOT, 'packages/engine/dist/index.js'))).parseApi,
    call: async (parseApi, text) => summarizeSvc(await parseApi({ text }, { positions: true })),
  },
  'swagger-parser': {
    label: '@apidevtools/swagger-parser validate',
    load: async () => (await import('@apidevtools/swagger-parser')).default,
    // validate dereferences the object in place, so every call needs its own JSON.parse; it is timed.
    call: async (SwaggerParser, text) => {
      await SwaggerParser.validate(JSON.parse(text))
      return { valid: true }
    },
  },
  scalar: {
    label: '@scalar/openapi-parser validate',
    load: async () => (await import('@scalar/openapi-parser')).validate,
    call: async (validate, text) => {
      const result = await validate(text)
      return { valid: result.valid, errors: result.errors?.length ?? 0 }
    },
  },
  'json-parse': {
    label: 'JSON.parse (floor)',
    load: async () => JSON.parse,
    call: async (parse, text) => ({ keys: Object.keys(parse(text)).length }),
  },
}

function summarizeSvc({ parseIssues, source }) {
  const levels = { error: 0, warning: 0, debug: 0 }
  for (const issue of parseIssues) levels[issue.level]++
  return {
    version: source.version,
    issues: parseIssues.length,
    ...levels,
    withLine: parseIssues.filter((i) => i.line !== undefined).length,
  }
}

// ---- child: one cold call, then WARM_CALLS warm ones, reported as one JSON line on stdout

async function runChild(toolName) {
  const tool = TOOLS[toolName]
  const text = await readFile(INPUT, 'utf8')
  await reportSample(toolName, tool.load, async (handle, report) => {
    const cold = await timed(() => tool.call(handle, text))
    report.summary = cold.value
    report.coldMs = cold.ms
    report.coldCpuMs = cold.cpuMs
    const warm = []
    for (let i = 0; i < WARM_CALLS; i++) warm.push(await timed(() => tool.call(handle, text)))
    report.warmMs = median(warm.map((w) => w.ms))
    report.warmCpuMs = median(warm.map((w) => w.cpuMs))
    report.warmRuns = warm.map((w) => w.ms)
  })
}

// ---- parent: fresh child per (tool, run), tools interleaved so drift hits all of them alike

function measureTools(runs) {
  return measureAll(Object.keys(TOOLS), runs, {
    width: 15,
    sample: (name) => runSample(SELF, name, { timeoutMs: CHILD_TIMEOUT_MS }),
    describe: (sample) => `cold ${round(sample.coldMs)} ms, warm ${round(sample.warmMs)} ms`,
  })
}

function summarize(samples) {
  const rows = {}
  for (const [name, list] of Object.entries(samples)) {
    const ok = list.filter((s) => !s.error)
    rows[name] = {
      label: TOOLS[name].label,
      runs: list.length,
      failed: list.length - ok.length,
      coldMs: ok.length ? median(ok.map((s) => s.coldMs)) : null,
      warmMs: ok.length ? median(ok.map((s) => s.warmMs)) : null,
      coldCpuMs: ok.length ? median(ok.map((s) => s.coldCpuMs)) : null,
      warmCpuMs: ok.length ? median(ok.map((s) => s.warmCpuMs)) : null,
      loadMs: ok.length ? median(ok.map((s) => s.loadMs)) : null,
      maxRssMb: ok.length ? median(ok.map((s) => s.maxRssMb)) : null,
      summary: ok[0]?.summary ?? null,
      errors: list.filter((s) => s.error).map((s) => s.error),
    }
  }
  const svc = rows.svc
  for (const row of Object.values(rows)) {
    row.coldRatio = ratio(row.coldMs, svc.coldMs)
    row.warmRatio = ratio(row.warmMs, svc.warmMs)
  }
  return rows
}

function ratio(ms, svcMs) {
  return ms === null || !svcMs ? null : ms / svcMs
}

function printReport(rows, machine, meta) {
  const header = [
    'tool',
    'cold ms',
    'warm ms',
    'cold ×svc',
    'warm ×svc',
    'cold cpu ms',
    'warm cpu ms',
    'import ms',
    'max RSS MB',
  ]
  const body = Object.values(rows).map((row) => [
    row.label + (row.failed ? ` (${row.failed}/${row.runs} failed)` : ''),
    fmt(row.coldMs),
    fmt(row.warmMs),
    fmt(row.coldRatio, 2),
    fmt(row.warmRatio, 2),
    fmt(row.coldCpuMs),
    fmt(row.warmCpuMs),
    fmt(row.loadMs),
    fmt(row.maxRssMb),
  ])
  console.log(
    `\n${meta.input} (${round(meta.inputBytes / 1e6, 1)} MB), ${meta.runs} fresh processes per tool; warm = median of ${WARM_CALLS} calls after the cold one`,
  )
  console.log(`machine: ${describeMachine(machine, meta.loadBefore, meta.loadAfter)}`)
  console.log(`engine: ${describeRevision(meta.engine)}\n`)
  printTable(header, body)
  for (const row of Object.values(rows)) {
    for (const error of distinctErrors(row.errors))
      console.log(`\n${row.label} failed: ${error.message}\n${error.stack ?? error.stderr ?? ''}`)
  }
  console.log(
    `\nsvc result: ${JSON.stringify(rows.svc.summary)}; svc positions:true: ${JSON.stringify(rows['svc-positions'].summary)}`,
  )
  console.log(
    `scalar result: ${JSON.stringify(rows.scalar.summary)}; swagger-parser result: ${JSON.stringify(rows['swagger-parser'].summary)}`,
  )
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.child) return runChild(args.child)
  const runs = readRuns(args)
  const inputBytes = (await readFile(INPUT)).length
  const meta = {
    input: relative(ROOT, INPUT),
    inputBytes,
    runs,
    warmCalls: WARM_CALLS,
    date: new Date().toISOString(),
    // Other work on the machine skews timings; the 1-minute load average shows when it did.
    loadBefore: loadAverage(),
    engine: engineRevision(ROOT),
  }
  const rows = summarize(await measureTools(runs))
  meta.loadAfter = loadAverage()
  const machine = machineInfo()
  printReport(rows, machine, meta)
  await mkdir(dirname(RESULT_FILE), { recursive: true })
  await writeFile(RESULT_FILE, `${JSON.stringify({ ...meta, machine, tools: rows }, null, 2)}\n`)
  console.log(`\nwrote ${relative(ROOT, RESULT_FILE)}`)
}

await main()
