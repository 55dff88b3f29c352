// Server processes for the HTTP benchmarks: start one, wait for its `listening` log line, stop it.
import { spawn } from 'node:child_process'

const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 15_000
/** Only the end of a child's output is kept: a hub under load logs a line per request. */
const KEEP_CHARS = 64_000

const running = new Set()

/**
 * Runs `node <args>` with `env` and answers once it prints a JSON line with msg "listening" and
 * `url` on stdout (pino's format, also printed by bench/lib/hello-server.js), or, with `readyWhen`,
 * the first stdout line that it answers something other than undefined for (then `url` is that).
 */
export async function startServer({ label, args, env, readyWhen = listeningUrl }) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let stdout = ''
  let stderr = ''
  let url
  let partial = ''
  const errorLines = []
  let errorCount = 0
  child.stdout.on('data', (chunk) => {
    const text = chunk.toString('utf8')
    stdout = keepEnd(stdout + text)
    const lines = (partial + text).split('\n')
    partial = lines.pop()
    for (const line of lines) {
      if (url === undefined) url = readyWhen(line)
      // pino levels: 50 error, 60 fatal
      if (/"level":(50|60)\b/.test(line) && ++errorCount <= 5) errorLines.push(line.slice(0, 2000))
    }
  })
  child.stderr.on('data', (chunk) => (stderr = keepEnd(stderr + chunk.toString('utf8'))))
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child)
      resolve(signal ?? code)
    }),
  )

  const deadline = Date.now() + START_TIMEOUT_MS
  while (url === undefined) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${label} exited with ${child.exitCode ?? child.signalCode}\n${stderr}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`${label} did not start in ${START_TIMEOUT_MS} ms\n${stdout}\n${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }

  let stopping
  return {
    label,
    url,
    pid: child.pid,
    stdout: () => stdout,
    stderr: () => stderr,
    /** How many error or fatal log lines it printed, and the first few. */
    errors: () => ({ count: errorCount, first: [...errorLines] }),
    /** SIGTERM, SIGKILL when it has not exited in time; answers the exit code or signal. */
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
        const status = await exited
        clearTimeout(timer)
        return status
      })()),
  }
}

/** Kills whatever is still running (on an error or a signal); only children started here. */
export function killAll() {
  for (const child of running) child.kill('SIGKILL')
}

function listeningUrl(line) {
  if (!line.includes('"listening"')) return undefined
  try {
    const entry = JSON.parse(line)
    return entry.msg === 'listening' && typeof entry.url === 'string' ? entry.url : undefined
  } catch {
    return undefined
  }
}

function keepEnd(text) {
  return text.length > KEEP_CHARS ? text.slice(-KEEP_CHARS) : text
}
