// Diffs two real pairs of API descriptions with svc and a peer, each call in a fresh child process:
// GitHub Enterprise Server 3.18 → 3.19 (OpenAPI 3.0, about 11 MB each) beside Atlassian's
// openapi-diff and api-smart-diff, and GitHub's GraphQL schema 14.58.0 → 15.26.1 beside @graphql-inspector/core.
// Every figure includes reading both files, parsing (or building) both and diffing. Each pair also
// has svc's whole CLI process (`svc diff old new --json`, timed from outside) beside each tool's
// whole child process (Node start-up, import, the call): the `process ms` column.
// Usage: node bench/diff.js [--runs N] [--only openapi|graphql] [--peer-heap-mb MB]
import { spawnSync } from 'node:child_process'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
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
const ENGINE = join(ROOT, 'packages/engine/dist/index.js')
const SVC_BIN = join(ROOT, 'packages/cli/bin/svc.js')
const RESULT_FILE = join(ROOT, 'bench/results/diff.json')
const SVC_TIMEOUT_MS = 5 * 60_000
/** A peer that needs longer than this on a pair is reported as timed out, not measured. */
const PEER_TIMEOUT_MS = 120_000
const TARGET_MS = 1000

const PAIRS = {
  openapi: {
    label: 'GitHub Enterprise Server 3.18 → 3.19 (OpenAPI 3.0 JSON)',
    old: join(ROOT, 'node_modules/@octokit/openapi/generated/ghes-3.18.json'),
    new: join(ROOT, 'node_modules/@octokit/openapi/generated/ghes-3.19.json'),
  },
  graphql: {
    label: `GitHub GraphQL schema ${version('@octokit/graphql-schema-14')} → ${version('@octokit/graphql-schema')} (SDL)`,
    old: join(ROOT, 'node_modules/@octokit/graphql-schema-14/schema.graphql'),
    new: join(ROOT, 'node_modules/@octokit/graphql-schema/schema.graphql'),
  },
}

// Each tool: its pair, how to load it (timed apart, not included) and one call from the file paths.
const TOOLS = {
  svc: {
    pair: 'openapi',
    label: 'svc diffDocuments',
    load: async () => (await import(ENGINE)).diffDocuments,
    call: async (diffDocuments, pair) => summarizeSvc(await svcDiff(diffDocuments, pair)),
  },
  'svc-cli': svcCli('openapi'),
  'openapi-diff': {
    pair: 'openapi',
    peer: true,
    label: `openapi-diff ${version('openapi-diff')} diffSpecs`,
    load: async () => (await import('openapi-diff')).default,
    call: async (openapiDiff, pair) => {
      const spec = async (location) => ({
        content: await readFile(location, 'utf8'),
        location,
        format: 'openapi3',
      })
      const result = await openapiDiff.diffSpecs({
        sourceSpec: await spec(pair.old),
        destinationSpec: await spec(pair.new),
      })
      return {
        breaking: result.breakingDifferences?.length ?? 0,
        nonBreaking: result.nonBreakingDifferences?.length ?? 0,
        unclassified: result.unclassifiedDifferences?.length ?? 0,
      }
    },
  },
  'api-smart-diff': {
    pair: 'openapi',
    peer: true,
    label: `api-smart-diff ${version('api-smart-diff')} apiCompare`,
    load: async () => {
      // It prints one line per node its own rules fail on (GitHub's anyOf of `required` lists,
      // about 8,000 lines); the harness keeps stderr for a crash report, so they are dropped.
      console.error = () => {}
      return (await import('api-smart-diff')).apiCompare
    },
    call: async (apiCompare, pair) => {
      const read = async (path) => JSON.parse(await readFile(path, 'utf8'))
      const { diffs } = apiCompare(await read(pair.old), await read(pair.new))
      const types = {}
      for (const { type } of diffs) types[type] = (types[type] ?? 0) + 1
      return { changes: diffs.length, ...types }
    },
  },
  'svc-graphql': {
    pair: 'graphql',
    label: 'svc diffDocuments',
    load: async () => (await import(ENGINE)).diffDocuments,
    call: async (diffDocuments, pair) => summarizeSvc(await svcDiff(diffDocuments, pair)),
  },
  'svc-cli-graphql': svcCli('graphql'),
  'graphql-inspector': {
    pair: 'graphql',
    peer: true,
    label: `@graphql-inspector/core ${version('@graphql-inspector/core')} diff`,
    load: async () => ({
      buildSchema: (await import('graphql')).buildSchema,
      diff: (await import('@graphql-inspector/core')).diff,
    }),
    call: async ({ buildSchema, diff }, pair) => {
      // 15.26.1 declares EnterpriseOwnerInfo.repositoryDeployKeySetting twice, which graphql-js's
      // SDL validation refuses; svc reports it as a parse issue and goes on, so the peer skips it.
      const build = async (path) =>
        buildSchema(await readFile(path, 'utf8'), { assumeValidSDL: true })
      const changes = await diff(await build(pair.old), await build(pair.new))
      const levels = { BREAKING: 0, DANGEROUS: 0, NON_BREAKING: 0 }
      // svc lists description changes only on definitions present on both sides; these show how
      // many of the peer's entries are description or deprecation-reason changes.
      const descriptions = { ...levels }
      const byType = {}
      for (const { criticality, type } of changes) {
        levels[criticality.level]++
        if (/DESCRIPTION|DEPRECATION_REASON/.test(type)) descriptions[criticality.level]++
        byType[type] = (byType[type] ?? 0) + 1
      }
      return { changes: changes.length, ...levels, descriptions, topTypes: top(byType) }
    },
  },
}

/** The whole `svc diff old new --json` process on a pair. */
function svcCli(pair) {
  return {
    pair,
    label: 'svc diff --json (whole CLI process)',
    // Timed around a grandchild: its import time, CPU time and memory are not this process's.
    ownProcess: false,
    load: async () => null,
    call: async (_, { old, new: next }) => {
      const run = spawnSync(process.execPath, [SVC_BIN, 'diff', old, next, '--json'], {
        maxBuffer: 512 * 1024 * 1024,
        encoding: 'utf8',
      })
      if (run.status !== 0) throw new Error(`svc diff exited with ${run.status}: ${run.stderr}`)
      return { counts: JSON.parse(run.stdout).counts, stdoutBytes: run.stdout.length }
    },
  }
}

async function svcDiff(diffDocuments, pair) {
  // As `svc diff` does: both texts with their paths, and a reader for relative refs.
  const source = async (origin) => ({ text: await readFile(origin, 'utf8'), origin })
  return diffDocuments(await source(pair.old), await source(pair.new), {
    readFile: (path) => readFileSync(path, 'utf8'),
  })
}

function summarizeSvc({ summary, counts, changes }) {
  const byId = {}
  for (const change of changes) byId[change.id] = (byId[change.id] ?? 0) + 1
  return { counts, changes: changes.length, details: summary.details, topIds: top(byId) }
}

/** The 12 most frequent keys of a tally, most frequent first. */
function top(tally) {
  return Object.entries(tally)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 12)
}

function version(name) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'))
      .version
  } catch {
    return '?'
  }
}

// ---- child: one cold call, reported as one JSON line on stdout

async function runChild(toolName) {
  const tool = TOOLS[toolName]
  await reportSample(toolName, tool.load, async (handle, report) => {
    const call = await timed(() => tool.call(handle, PAIRS[tool.pair]))
    report.summary = call.value
    report.ms = call.ms
    report.cpuMs = call.cpuMs
  })
}

// ---- parent: a fresh child per (tool, run), tools interleaved so drift hits all of them alike

function measureTools(tools, runs, { peerHeapMb }) {
  return measureAll(tools, runs, {
    width: 18,
    // A tool that crashed or timed out once is not tried again: each try can cost minutes.
    retryFailed: false,
    sample: (name) => {
      const tool = TOOLS[name]
      return runSample(SELF, name, {
        nodeArgs: tool.peer && peerHeapMb ? [`--max-old-space-size=${peerHeapMb}`] : [],
        timeoutMs: tool.peer ? PEER_TIMEOUT_MS : SVC_TIMEOUT_MS,
      })
    },
    describe: (sample, name) =>
      TOOLS[name].ownProcess === false
        ? `${round(sample.ms)} ms`
        : `${round(sample.ms)} ms (load ${round(sample.loadMs)} ms, ${round(sample.maxRssMb)} MB)`,
  })
}

function summarize(samples) {
  const rows = {}
  for (const [name, list] of Object.entries(samples)) {
    const ok = list.filter((s) => !s.error)
    const times = ok.map((s) => s.ms)
    rows[name] = {
      label: TOOLS[name].label,
      pair: TOOLS[name].pair,
      runs: list.length,
      failed: list.length - ok.length,
      medianMs: ok.length ? median(times) : null,
      minMs: ok.length ? Math.min(...times) : null,
      cpuMs: ok.length && TOOLS[name].ownProcess !== false ? median(ok.map((s) => s.cpuMs)) : null,
      loadMs:
        ok.length && TOOLS[name].ownProcess !== false ? median(ok.map((s) => s.loadMs)) : null,
      maxRssMb:
        ok.length && TOOLS[name].ownProcess !== false ? median(ok.map((s) => s.maxRssMb)) : null,
      // The whole process: the grandchild's for svc diff, the child's (start-up, import, call) otherwise.
      processMs: ok.length
        ? median(ok.map((s) => (TOOLS[name].ownProcess === false ? s.ms : s.processMs)))
        : null,
      runsMs: times,
      summary: ok[0]?.summary ?? null,
      errors: list.filter((s) => s.error).map((s) => s.error),
    }
  }
  // Every row's time as a multiple of svc's on the same pair (the house "× svc").
  const svcOf = { openapi: rows.svc, graphql: rows['svc-graphql'] }
  const cliOf = { openapi: rows['svc-cli'], graphql: rows['svc-cli-graphql'] }
  for (const row of Object.values(rows)) {
    const svc = svcOf[row.pair]
    row.ratio = row.medianMs === null || !svc?.medianMs ? null : row.medianMs / svc.medianMs
    const cli = cliOf[row.pair]
    row.processRatio =
      row.processMs === null || !cli?.processMs ? null : row.processMs / cli.processMs
  }
  return rows
}

function printTables(rows, meta) {
  const header = [
    'tool',
    'median ms',
    'min ms',
    '× svc',
    'process ms',
    '× svc diff',
    'cpu ms',
    'import ms',
    'max RSS MB',
  ]
  for (const [pairName, pair] of Object.entries(PAIRS)) {
    const pairRows = Object.values(rows).filter((row) => row.pair === pairName)
    if (pairRows.length === 0) continue
    const body = pairRows.map((row) => [
      row.label + (row.failed ? ` (failed)` : ''),
      fmt(row.medianMs),
      fmt(row.minMs),
      fmt(row.ratio, 2),
      fmt(row.processMs),
      fmt(row.processRatio, 2),
      fmt(row.cpuMs),
      fmt(row.loadMs),
      fmt(row.maxRssMb),
    ])
    const bytes = meta.pairs[pairName]
    console.log(
      `\n${pair.label}: ${relative(ROOT, pair.old)} (${mb(bytes.old)}) → ${relative(ROOT, pair.new)} (${mb(bytes.new)})`,
    )
    printTable(header, body)
    for (const row of pairRows) {
      for (const error of distinctErrors(row.errors))
        console.log(
          `${row.label} failed: ${error.message}\n${error.stack ?? firstLines(error.stderr)}`,
        )
    }
  }
}

function printResults(rows) {
  const svc = rows.svc?.summary
  if (svc) {
    console.log(`\nsvc, OpenAPI: ${JSON.stringify(svc.counts)}, ${svc.changes} changes`)
    for (const [section, d] of Object.entries(svc.details))
      console.log(`  ${section.padEnd(16)} +${d.added} −${d.deleted} ~${d.modified}`)
    console.log(`  most frequent: ${svc.topIds.map(([id, n]) => `${id} ${n}`).join(', ')}`)
    const met = rows.svc.medianMs < TARGET_MS ? 'met' : 'MISSED'
    console.log(`  target under ${TARGET_MS} ms: ${met} (median ${fmt(rows.svc.medianMs)} ms)`)
  }
  for (const name of ['openapi-diff', 'api-smart-diff']) {
    const peer = rows[name]
    if (peer?.summary) console.log(`${name}, OpenAPI: ${JSON.stringify(peer.summary)}`)
  }
  const gql = rows['svc-graphql']?.summary
  const inspector = rows['graphql-inspector']?.summary
  const [cli, peer] = [rows['svc-cli-graphql'], rows['graphql-inspector']]
  if (cli?.processMs && peer?.processMs)
    console.log(
      `\nGraphQL, whole process: svc diff --json ${fmt(cli.processMs)} ms, graphql-inspector ${fmt(peer.processMs)} ms: svc ${fmt(peer.processMs / cli.processMs, 2)}× as fast (target at least 1.0×)`,
    )
  if (gql) {
    console.log(`\nGraphQL, counts by level side by side:`)
    const pairs = [
      ['breaking', gql.counts.breaking, 'BREAKING', inspector?.BREAKING],
      ['warning', gql.counts.warning, 'DANGEROUS', inspector?.DANGEROUS],
      ['info', gql.counts.info, 'NON_BREAKING', inspector?.NON_BREAKING],
      ['total', gql.changes, 'total', inspector?.changes],
    ]
    for (const [level, n, peerLevel, m] of pairs)
      console.log(
        `  svc ${level.padEnd(8)} ${String(n).padStart(6)}   inspector ${peerLevel.padEnd(12)} ${m === undefined ? '—' : String(m).padStart(6)}`,
      )
    if (inspector) {
      const d = inspector.descriptions
      console.log(
        `  of the inspector's, description or deprecation-reason changes (svc lists those on definitions on both sides): BREAKING ${d.BREAKING}, DANGEROUS ${d.DANGEROUS}, NON_BREAKING ${d.NON_BREAKING}`,
      )
      console.log(
        `  inspector most frequent: ${inspector.topTypes.map(([t, n]) => `${t} ${n}`).join(', ')}`,
      )
    }
    for (const [section, d] of Object.entries(gql.details))
      console.log(`  svc ${section.padEnd(12)} +${d.added} −${d.deleted} ~${d.modified}`)
    console.log(`  svc most frequent: ${gql.topIds.map(([id, n]) => `${id} ${n}`).join(', ')}`)
  }
}

/** What a crashed child said about it, without V8's GC trace and native stack dump. */
function firstLines(stderr = '') {
  const said = stderr.split('\n').filter((line) => /error/i.test(line) && !/^\s*\d+: 0x/.test(line))
  return said.slice(0, 4).join('\n')
}

function mb(bytes) {
  return `${round(bytes / 1e6, 1)} MB`
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.child) return runChild(args.child)
  const runs = readRuns(args)
  if (args.only !== undefined && !(args.only in PAIRS))
    throw new Error(`--only must be one of ${Object.keys(PAIRS).join(', ')}, got ${args.only}`)
  const peerHeapMb = args['peer-heap-mb'] === undefined ? undefined : Number(args['peer-heap-mb'])
  const tools = Object.keys(TOOLS).filter((name) => !args.only || TOOLS[name].pair === args.only)
  const pairs = {}
  for (const [name, pair] of Object.entries(PAIRS))
    pairs[name] = { old: (await stat(pair.old)).size, new: (await stat(pair.new)).size }
  const meta = {
    runs,
    date: new Date().toISOString(),
    pairs,
    peerTimeoutMs: PEER_TIMEOUT_MS,
    peerHeapMb: peerHeapMb ?? 'default',
    loadBefore: loadAverage(),
    engine: engineRevision(ROOT),
  }
  const rows = summarize(await measureTools(tools, runs, { peerHeapMb }))
  meta.loadAfter = loadAverage()
  const machine = machineInfo()
  console.log(
    `\n${runs} fresh processes per tool (a tool that fails is not retried); each figure reads, parses and diffs both documents`,
  )
  console.log(`machine: ${describeMachine(machine, meta.loadBefore, meta.loadAfter)}`)
  console.log(
    `engine: ${describeRevision(meta.engine)}; peers: ${PEER_TIMEOUT_MS / 1000} s limit, heap ${meta.peerHeapMb}`,
  )
  printTables(rows, meta)
  printResults(rows)
  await mkdir(dirname(RESULT_FILE), { recursive: true })
  await writeFile(RESULT_FILE, `${JSON.stringify({ ...meta, machine, tools: rows }, null, 2)}\n`)
  console.log(`\nwrote ${relative(ROOT, RESULT_FILE)}`)
}

await main()
