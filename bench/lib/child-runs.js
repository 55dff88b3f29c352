// Processes run to their end, and the samples taken that way: each sample is a fresh
// `node <script> --child <tool>` that prints its report as one JSON line on stdout.
import { spawn } from 'node:child_process'
import { round } from './stats.js'

/** Only the end of a child's stderr is kept: a crash can print a long GC trace and native stack. */
const KEEP_STDERR_CHARS = 64_000
/** How much of a failed sample's stderr its error keeps. */
const ERROR_STDERR_CHARS = 2000

/**
 * Runs `node <args>` with `env` (default: this process's), in `cwd`, to its end and collects its output; with
 * `timeoutMs`, kills it after that long. Answers `{ code, signal, stdout, stderr, timedOut, ms }`.
 */
export function runNode(args, { env, timeoutMs, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-KEEP_STDERR_CHARS)))
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true
            child.kill('SIGKILL')
          }, timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, timedOut, ms: performance.now() - started })
    })
  })
}

/**
 * One sample of `tool`: `node [...nodeArgs] <script> --child <tool>` in a fresh process. Answers
 * the JSON line it printed last with `processMs` (the process's wall time, from spawn to exit),
 * or `{ tool, error: { message, stderr } }` when it printed none (it crashed, ran out of heap or
 * ran past `timeoutMs`).
 */
export async function runSample(script, tool, { nodeArgs = [], timeoutMs }) {
  const run = await runNode([...nodeArgs, script, '--child', tool], { timeoutMs })
  try {
    return { ...JSON.parse(run.stdout.trim().split('\n').at(-1)), processMs: run.ms }
  } catch {
    const oom = /heap out of memory/.test(run.stderr) ? ': JavaScript heap out of memory' : ''
    const message = run.timedOut
      ? `no result within ${timeoutMs / 1000} s (killed)`
      : `child exited with ${run.signal ?? run.code} after ${round(run.ms / 1000, 1)} s${oom}`
    return { tool, error: { message, stderr: run.stderr.slice(-ERROR_STDERR_CHARS) } }
  }
}

/**
 * `runs` rounds of `sample(name)` over `tools`, interleaved so that drift hits all of them alike;
 * each sample is logged to stderr as `run i/N <name> <describe(sample)>` with the name padded to
 * `width`. With `retryFailed: false`, a tool whose sample failed is not sampled again.
 */
export async function measureAll(tools, runs, { sample, describe, width, retryFailed = true }) {
  const samples = Object.fromEntries(tools.map((name) => [name, []]))
  for (let run = 1; run <= runs; run++) {
    for (const name of tools) {
      if (!retryFailed && samples[name].some((s) => s.error)) continue
      const result = await sample(name)
      samples[name].push(result)
      const shown = result.error
        ? `error: ${result.error.message.split('\n')[0]}`
        : describe(result, name)
      process.stderr.write(`run ${run}/${runs} ${name.padEnd(width)} ${shown}\n`)
    }
  }
  return samples
}

/** `--runs` (default 5): how many samples of each tool. */
export function readRuns(args, fallback = 5) {
  const runs = Number(args.runs ?? fallback)
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a positive integer, got ${args.runs}`)
  return runs
}

/** `errors` of failed samples, one per message. */
export function distinctErrors(errors) {
  return [...new Map(errors.map((e) => [e.message, e])).values()]
}

// ---- the child's side

/**
 * Loads the tool with `load()` (timed apart as `loadMs`), lets `measure(handle, report)` fill in
 * the report, and prints it as one JSON line on stdout with `maxRssMb`, or with `error` when
 * loading or measuring threw.
 */
export async function reportSample(tool, load, measure) {
  const report = { tool }
  try {
    const started = performance.now()
    const handle = await load()
    report.loadMs = performance.now() - started
    await measure(handle, report)
  } catch (error) {
    report.error = describeError(error)
  }
  report.maxRssMb = process.resourceUsage().maxRSS / 1024
  process.stdout.write(`${JSON.stringify(report)}\n`)
}

/** CPU time (all threads of the process) next to wall time: it moves less when other work shares the cores. */
export async function timed(call) {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const value = await call()
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  return { value, ms, cpuMs: (used.user + used.system) / 1000 }
}

function describeError(error) {
  if (!(error instanceof Error)) return { message: String(error) }
  return {
    name: error.name,
    message: error.message.slice(0, 500),
    stack: error.stack?.split('\n').slice(0, 6).join('\n'),
  }
}
