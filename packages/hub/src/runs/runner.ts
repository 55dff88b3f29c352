import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunLimits } from '../config.js'
import { LogTail } from './log-tail.js'

/** What one run executes: a stack version's `server.js`, the document, the project's settings. */
export type RunInput = {
  /** The bytes of the published `server.js`. */
  readonly bundle: Uint8Array
  /** The API's revision document, as its text. */
  readonly document: string
  readonly protocol: 'oas' | 'gql'
  /** client.json `settings` (the project's config, unfolded). */
  readonly clientSettings: Record<string, unknown>
  readonly limits: RunLimits
  /** Ends the run early (the hub is stopping); it then fails with `reason`. */
  readonly signal?: AbortSignal
}

export type RunArtifact = { path: string; size: number; sha256: string; data: Uint8Array }

export type RunResult =
  | {
      readonly ok: true
      readonly artifacts: RunArtifact[]
      /** The manifest the bundle answered (parse issues, enrichment warnings …). */
      readonly manifest: Record<string, unknown>
      readonly log: string
      readonly durationMs: number
    }
  | {
      readonly ok: false
      readonly reason: string
      readonly log: string
      readonly durationMs: number
    }

/**
 * Started as `node -e WRAPPER` in the run's temp dir: it leaves when its stdin closes (the hub that
 * spawned it died without killing it), then loads `server.js`, which listens and prints
 * `{"msg":"listening","port":N}` on stdout.
 */
const WRAPPER = `
const leave = () => process.exit(70)
process.stdin.on('end', leave)
process.stdin.on('error', leave)
process.stdin.resume()
import(require('node:url').pathToFileURL(require('node:path').resolve('server.js')).href).catch(
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
`

/** `--permission` since Node 22.13 and 23.5; `--experimental-permission` before. */
export const PERMISSION_FLAG = permissionFlag(process.versions.node)

function permissionFlag(version: string): string {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  const stable = major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)
  return stable ? '--permission' : '--experimental-permission'
}

/** The whole environment of the child: nothing of the hub's is passed on. */
export const CHILD_ENV = { PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' } as const

/** Runs fail with these words when their process ran out of heap. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i

/**
 * Executes `server.js` in a child process and asks it for the artifacts of the document: the
 * bundle is written to a new temp dir (its cwd; nothing else is in it), started with Node's
 * heap limit set to `limits.memoryMb` and an environment of only PORT=0, HOST=127.0.0.1 and
 * NODE_ENV=production, in its own process group. Once it says it listens, the runner POSTs
 * `/artifacts` with the document inline and the client settings, and reads at most
 * `limits.maxOutputBytes` of the answer. The whole run, from spawn to the answer read, has
 * `limits.timeoutMs`; past it the process group gets SIGKILL. The process group is always killed
 * and the temp dir always removed before this resolves. It never rejects: a failure is
 * `{ ok: false, reason }`, one sentence for people.
 */
export async function runBundle(input: RunInput): Promise<RunResult> {
  const started = performance.now()
  const log = new LogTail()
  const elapsed = () => Math.round(performance.now() - started)
  let dir: string | undefined
  let child: ReturnType<typeof spawn> | undefined
  let exited: Promise<void> = Promise.resolve()
  try {
    dir = await mkdtemp(join(tmpdir(), 'svc-run-'))
    await writeFile(join(dir, 'server.js'), input.bundle, { mode: 0o600 })
    const { limits } = input
    child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${limits.memoryMb}`,
        // Node's permission model: the bundle reads its own folder only, writes nothing, and
        // starts no processes or workers; the hub's data, config and secrets stay out of reach.
        PERMISSION_FLAG,
        `--allow-fs-read=${dir}/`,
        '--no-warnings=ExperimentalWarning',
        '-e',
        WRAPPER,
      ],
      {
        cwd: dir,
        env: { ...CHILD_ENV },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      },
    )
    const proc = child
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    exited = new Promise<void>((resolve) => {
      proc.once('close', (code, signal) => {
        exit = { code, signal }
        resolve()
      })
      proc.once('error', (error) => {
        log.push(`could not start the process: ${error.message}\n`)
        exit ??= { code: null, signal: null }
        resolve()
      })
    })
    proc.stdin?.on('error', () => {})
    proc.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')))

    const port = new Promise<number>((resolve) => {
      let pending = ''
      proc.stdout?.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8')
        log.push(text)
        pending += text
        let newline: number
        while ((newline = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, newline)
          pending = pending.slice(newline + 1)
          const announced = listeningPort(line)
          if (announced !== undefined) resolve(announced)
        }
        // A line longer than this is not the announcement.
        if (pending.length > 64 * 1024) pending = ''
      })
    })

    const deadline = AbortSignal.any([
      AbortSignal.timeout(limits.timeoutMs),
      ...(input.signal ? [input.signal] : []),
    ])
    const ended = new Promise<'ended'>((resolve) => {
      if (deadline.aborted) resolve('ended')
      deadline.addEventListener('abort', () => resolve('ended'), { once: true })
    })
    const why = (): string => {
      if (input.signal?.aborted) return 'The hub stopped during the run.'
      if (exit && outOfMemory(log.text())) {
        return `server.js ran out of memory (the limit is ${limits.memoryMb} MB).`
      }
      if (deadline.aborted) {
        return `server.js did not finish within the time limit (${seconds(limits.timeoutMs)}).`
      }
      if (exit) return `server.js exited (${exitText(exit)}) before it answered.`
      return 'server.js failed.'
    }

    const first = await Promise.race([port, exited.then(() => 'exited' as const), ended])
    if (first === 'exited' || first === 'ended') {
      return { ok: false, reason: why(), log: log.text(), durationMs: elapsed() }
    }

    // The process dying mid-request also ends the wait: its socket closes.
    const request = AbortSignal.any([deadline, abortOn(exited)])
    let answer: { status: number; body: string } | 'too-large'
    try {
      answer = await postArtifacts(first, input, request, limits.maxOutputBytes)
    } catch {
      // Give the exit a moment to be seen, so an out-of-memory death is told as such.
      if (!deadline.aborted) await Promise.race([exited, delay(1000)])
      return { ok: false, reason: why(), log: log.text(), durationMs: elapsed() }
    }
    if (answer === 'too-large') {
      return {
        ok: false,
        reason: `server.js answered more than ${limits.maxOutputBytes} bytes, the hub's limit.`,
        log: log.text(),
        durationMs: elapsed(),
      }
    }
    const parsed = readAnswer(answer)
    if (typeof parsed === 'string') {
      return { ok: false, reason: parsed, log: log.text(), durationMs: elapsed() }
    }
    return { ok: true, ...parsed, log: log.text(), durationMs: elapsed() }
  } catch (error) {
    return {
      ok: false,
      reason: `The hub could not run server.js: ${(error as Error).message}.`,
      log: log.text(),
      durationMs: elapsed(),
    }
  } finally {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      killGroup(child.pid)
      await exited
    }
    if (dir) await rm(dir, { recursive: true, force: true })
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
}

/** The port of `{"msg":"listening","port":N}`, the line `startStackServer` prints. */
function listeningPort(line: string): number | undefined {
  if (!line.startsWith('{')) return undefined
  try {
    const value = JSON.parse(line) as { msg?: unknown; port?: unknown }
    if (value.msg !== 'listening') return undefined
    const port = value.port
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536
      ? port
      : undefined
  } catch {
    return undefined
  }
}

async function postArtifacts(
  port: number,
  input: RunInput,
  signal: AbortSignal,
  maxBytes: number,
): Promise<{ status: number; body: string } | 'too-large'> {
  const response = await fetch(`http://127.0.0.1:${port}/artifacts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schema: input.document,
      protocol: input.protocol,
      clientSettings: input.clientSettings,
    }),
    signal,
  })
  const length = Number(response.headers.get('content-length') ?? NaN)
  if (Number.isFinite(length) && length > maxBytes) {
    await response.body?.cancel()
    return 'too-large'
  }
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > maxBytes) {
        await reader.cancel()
        return 'too-large'
      }
      chunks.push(value)
    }
  }
  return { status: response.status, body: Buffer.concat(chunks).toString('utf8') }
}

/** The artifacts and manifest of a 200, or why the answer is not one. */
function readAnswer(answer: {
  status: number
  body: string
}): { artifacts: RunArtifact[]; manifest: Record<string, unknown> } | string {
  let value: unknown
  try {
    value = JSON.parse(answer.body)
  } catch {
    return `server.js answered ${answer.status} with a body that is not JSON.`
  }
  if (answer.status !== 200) {
    const error = isObject(value) ? value : {}
    const code = typeof error.error === 'string' ? error.error : 'an error'
    const message = typeof error.message === 'string' ? ` ${error.message}` : ''
    return printable(`server.js answered ${answer.status} ${code}:${message}`).slice(0, 2000)
  }
  if (!isObject(value) || !isObject(value.artifacts) || !isObject(value.manifest)) {
    return 'server.js answered 200 without { artifacts, manifest }.'
  }
  const entries = Object.entries(value.artifacts)
  if (entries.length > MAX_ARTIFACTS) {
    return `server.js answered ${entries.length} artifacts; the hub keeps at most ${MAX_ARTIFACTS}.`
  }
  const artifacts: RunArtifact[] = []
  for (const [path, content] of entries) {
    const named = printable(JSON.stringify(path.slice(0, 200)))
    if (typeof content !== 'string')
      return `server.js answered an artifact that is not text: ${named}.`
    if (!safeArtifactPath(path))
      return `server.js answered an artifact path the hub refuses: ${named}.`
    const data = new TextEncoder().encode(content)
    artifacts.push({
      path,
      size: data.byteLength,
      sha256: createHash('sha256').update(data).digest('hex'),
      data,
    })
  }
  return { artifacts, manifest: value.manifest }
}

/** A relative path of at most 1024 characters, no `.`/`..` segments, no NUL or backslash. */
function safeArtifactPath(path: string): boolean {
  if (path.length === 0 || path.length > 1024 || path.startsWith('/')) return false
  if (
    /[\0\\]/.test(path) ||
    /[\ud800-\udfff]/.test(path.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))
  )
    return false
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
}

/** Most files one run may make. */
export const MAX_ARTIFACTS = 10_000

/** Text the bundle chose, made storable: no NUL (PostgreSQL refuses it), no lone surrogate. */
function printable(text: string): string {
  return text
    .replace(/\0/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function outOfMemory(log: string): boolean {
  return OUT_OF_MEMORY.test(log)
}

function exitText(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  if (exit.signal) return `signal ${exit.signal}`
  return `code ${exit.code ?? 'unknown'}`
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

function abortOn(done: Promise<void>): AbortSignal {
  const controller = new AbortController()
  void done.then(() => controller.abort())
  return controller.signal
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
