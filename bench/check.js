// `svc check` on GitHub's api.github.com.json as a user runs it, whole process from spawn to exit,
// against a script that calls @scalar/openapi-parser's `validate` on the same file.
// Usage: node bench/check.js [--runs N] [--baseline <another checkout's packages/cli/bin/svc.js>]
import { readFileSync, rmSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { distinctErrors, measureAll, readRuns, runNode } from './lib/child-runs.js'
import {
  describeMachine,
  describeRevision,
  loadAverage,
  machineInfo,
  sourceRevision,
} from './lib/machine.js'
import { median, parseArgs, round } from './lib/stats.js'
import { fmt, printTable } from './lib/table.js'

const SELF = fileURLToPath(import.meta.url)
const ROOT = join(dirname(SELF), '..')
const INPUT = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const RESULT_FILE = join(ROOT, 'bench/results/check.json')
const BIN = join(ROOT, 'packages/cli/bin/svc.js')
const CPU_HOOK = join(ROOT, 'bench/lib/exit-cpu.cjs')
const TIMEOUT_MS = 5 * 60_000

// Each tool: the node arguments of one whole run. `svc-dist` is the CLI without its bundle.
const TOOLS = {
  svc: { label: 'svc check', args: [BIN, 'check', INPUT] },
  'svc-dist': { label: 'svc check, unbundled dist', args: [SELF, '--child', 'svc-dist', INPUT] },
  scalar: { label: '@scalar/openapi-parser validate', args: [SELF, '--child', 'scalar', INPUT] },
}

// ---- children: what the two peers run

async function runChild(tool, file) {
  if (tool === 'scalar') {
    const { validate } = await import('@scalar/openapi-parser')
    const result = await validate(readFileSync(file, 'utf8'))
    console.log(`valid: ${result.valid}, errors: ${result.errors?.length ?? 0}`)
  } else if (tool === 'svc-dist') {
    const { main } = await import(join(ROOT, 'packages/cli/dist/main.js'))
    await main(['check', file])
  } else throw new Error(`unknown tool ${tool}`)
}

// ---- parent: a fresh process per (tool, run), tools interleaved so drift hits all alike

async function sample(name) {
  const cpuFile = join(tmpdir(), `svc-bench-check-${process.pid}.json`)
  rmSync(cpuFile, { force: true })
  // The hook writes the process's CPU time when it exits: wall time moves with the other work on
  // the machine, CPU time much less.
  const run = await runNode(['--require', CPU_HOOK, ...TOOLS[name].args], {
    env: { ...process.env, SVC_BENCH_CPU_FILE: cpuFile },
    timeoutMs: TIMEOUT_MS,
  })
  let cpuMs = null
  try {
    cpuMs = JSON.parse(readFileSync(cpuFile, 'utf8')).cpuMs
  } catch {}
  rmSync(cpuFile, { force: true })
  if (run.code !== 0 && !(name.startsWith('svc') && run.code === 1))
    return { error: { message: `exit ${run.signal ?? run.code}`, stderr: run.stderr.slice(-2000) } }
  return { ms: run.ms, cpuMs, code: run.code, output: run.stdout.trim().split('\n').slice(0, 2) }
}

function summarize(samples) {
  const rows = {}
  for (const [name, list] of Object.entries(samples)) {
    const ok = list.filter((s) => !s.error)
    rows[name] = {
      label: TOOLS[name].label,
      runs: list.length,
      failed: list.length - ok.length,
      ms: ok.length ? median(ok.map((s) => s.ms)) : null,
      minMs: ok.length ? Math.min(...ok.map((s) => s.ms)) : null,
      cpuMs: ok.length ? median(ok.map((s) => s.cpuMs ?? NaN)) : null,
      samplesMs: ok.map((s) => round(s.ms)),
      output: ok[0]?.output ?? null,
      errors: list.filter((s) => s.error).map((s) => s.error),
    }
  }
  for (const row of Object.values(rows)) {
    row.ratio = row.ms && rows.svc.ms ? row.ms / rows.svc.ms : null
    row.cpuRatio = row.cpuMs && rows.svc.cpuMs ? row.cpuMs / rows.svc.cpuMs : null
  }
  return rows
}

function printReport(rows, machine, meta) {
  console.log(
    `\n${meta.input} (${round(meta.inputBytes / 1e6, 1)} MB), whole process (spawn to exit), ${meta.runs} runs per tool, interleaved; medians`,
  )
  console.log(`machine: ${describeMachine(machine, meta.loadBefore, meta.loadAfter)}`)
  console.log(`source: ${describeRevision(meta.source, 'source')}\n`)
  printTable(
    ['tool', 'wall ms', 'min ms', '× svc', 'cpu ms', 'cpu × svc'],
    Object.values(rows).map((row) => [
      row.label + (row.failed ? ` (${row.failed}/${row.runs} failed)` : ''),
      fmt(row.ms),
      fmt(row.minMs),
      fmt(row.ratio, 2),
      fmt(row.cpuMs),
      fmt(row.cpuRatio, 2),
    ]),
  )
  for (const row of Object.values(rows))
    for (const error of distinctErrors(row.errors))
      console.log(`\n${row.label} failed: ${error.message}\n${error.stderr ?? ''}`)
  console.log(`\nsvc: ${rows.svc.output?.join(' / ')}\nscalar: ${rows.scalar.output?.join(' / ')}`)
}

async function main() {
  const args = parseArgs(process.argv.slice(2, 4))
  if (args.child) return runChild(args.child, process.argv[4])
  Object.assign(args, parseArgs(process.argv.slice(2)))
  const runs = readRuns(args, 9)
  // An earlier build of svc, run the same way: a before/after figure from one interleaved run.
  if (args.baseline)
    TOOLS['svc-baseline'] = { label: 'svc check, baseline', args: [args.baseline, 'check', INPUT] }
  const meta = {
    input: relative(ROOT, INPUT),
    inputBytes: (await readFile(INPUT)).length,
    runs,
    ...(args.baseline ? { baseline: args.baseline } : {}),
    date: new Date().toISOString(),
    loadBefore: loadAverage(),
    source: sourceRevision(ROOT, 'packages'),
  }
  const rows = summarize(
    await measureAll(Object.keys(TOOLS), runs, {
      width: 9,
      sample,
      describe: (s) => `${round(s.ms)} ms, cpu ${round(s.cpuMs ?? NaN)} ms`,
    }),
  )
  meta.loadAfter = loadAverage()
  const machine = machineInfo()
  printReport(rows, machine, meta)
  await mkdir(dirname(RESULT_FILE), { recursive: true })
  await writeFile(RESULT_FILE, `${JSON.stringify({ ...meta, machine, tools: rows }, null, 2)}\n`)
  console.log(`\nwrote ${relative(ROOT, RESULT_FILE)}`)
}

await main()
