// What the run sandbox costs: one run of a real published server.js (`svc bundle --server` with
// gen-typescript and gen-zod) through the hub's runner, in bubblewrap (what every hub does) and
// with SVC_HUB_RUN_SANDBOX=unsafe-none (no sandbox), interleaved, on the Petstore and on GitHub's
// REST description (13 MB). A run is the whole of it: the process started, server.js loaded, the
// document sent, the artifacts read back, the process killed and its folder removed.
// Usage: node bench/runs.js [--runs 7] [--github-runs 3]
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, runMain } from './lib/hub-runs.js'
import { describeMachine, loadAverage, machineInfo } from './lib/machine.js'
import { median, parseArgs } from './lib/stats.js'

const SVC_BIN = join(ROOT, 'packages/cli/bin/svc.js')
const PETSTORE = join(ROOT, 'node_modules/@readme/oas-examples/3.0/json/petstore.json')
const GITHUB = join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json')
const LIMITS = { timeoutMs: 120_000, memoryMb: 2048, maxOutputBytes: 200 * 1024 * 1024 }

/** `svc init`, `install`, `bundle --server` in a scratch folder: the server.js a publish ships. */
function buildServerJs() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-runs-'))
  try {
    for (const args of [
      ['init', 'demo'],
      ['install', 'gen-typescript', 'gen-zod'],
      ['bundle', 'demo', '--server'],
    ]) {
      const run = spawnSync(process.execPath, [SVC_BIN, ...args], { cwd: dir, encoding: 'utf8' })
      if (run.status !== 0) throw new Error(`svc ${args.join(' ')} failed: ${run.stderr}`)
    }
    return readFileSync(join(dir, '.svc/demo/server.js'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await runMain(async () => {
  const given = parseArgs(process.argv.slice(2))
  const args = { runs: Number(given.runs ?? 7), 'github-runs': Number(given['github-runs'] ?? 3) }
  const loadBefore = loadAverage()
  const { runBundle } = await import(join(ROOT, 'packages/hub/dist/runs/runner.js'))
  const { findSandbox } = await import(join(ROOT, 'packages/hub/dist/runs/sandbox-probe.js'))
  const probe = await findSandbox({ ...LIMITS, sandbox: 'bwrap' })
  if (!probe.ok) throw new Error(`no sandbox on this machine: ${probe.reason}`)
  const modes = { bwrap: probe.sandbox, 'unsafe-none': { kind: 'none' } }
  const bundle = buildServerJs()
  console.log(`server.js: ${bundle.byteLength} bytes`)
  const rows = []
  for (const [name, file, runs] of [
    ['Petstore', PETSTORE, args.runs],
    ['GitHub REST (13 MB)', GITHUB, args['github-runs']],
  ]) {
    const document = readFileSync(file, 'utf8')
    const times = { bwrap: [], 'unsafe-none': [] }
    for (let i = 0; i < runs; i++) {
      // Interleaved, so that both modes see the same machine.
      for (const [mode, sandbox] of Object.entries(modes)) {
        const result = await runBundle({
          bundle,
          document,
          protocol: 'oas',
          clientSettings: {},
          limits: LIMITS,
          sandbox,
        })
        if (!result.ok) throw new Error(`${name} in ${mode}: ${result.reason}\n${result.log}`)
        times[mode].push(result.durationMs)
      }
    }
    const sandboxed = median(times.bwrap)
    const bare = median(times['unsafe-none'])
    rows.push({ name, runs, sandboxed, bare, ratio: sandboxed / bare })
  }
  console.log(describeMachine(machineInfo(), loadBefore, loadAverage()) + '\n')
  console.log('| document | runs | bwrap ms (median) | unsafe-none ms (median) | bwrap ÷ none |')
  console.log('| --- | ---: | ---: | ---: | ---: |')
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.runs} | ${r.sandboxed} | ${r.bare} | ${r.ratio.toFixed(2)} |`)
  }
})
