import { spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { constants } from 'node:os'
import type { Readable } from 'node:stream'
import type { RunLimits } from '../config.js'
import { offload } from '../offload/pool.js'
import { receiveAnswer, type RunArtifact } from './answer.js'
import { LogTail } from './log-tail.js'
import { CHILD_ENV, nodeArgs } from './node-args.js'
import { makeRunDir, runPaths, sandboxCommand, type Sandbox } from './sandbox.js'
import { inheritableDescriptors } from './inherited-descriptors.js'
import { requestFrame } from './request-frame.js'
import { WRAPPER, wrapperArgs } from './wrapper.js'

export type { RunArtifact } from './answer.js'

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
  /** Where the process runs (sandbox-probe.ts found it working). */
  readonly sandbox: Sandbox
  /** Ends the run early (the hub is stopping); it then fails with `reason`. */
  readonly signal?: AbortSignal
}

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

/** Runs fail with these words when their process ran out of heap or of writable memory. */
const OUT_OF_MEMORY =
  /heap out of memory|Reached heap limit|Allocation failed|process out of memory/i

/**
 * Executes `server.js` in `input.sandbox` and asks it for the artifacts of the document: the
 * bundle is written to a new temp dir (its cwd; nothing else is in it), started with Node's heap
 * limit set to `limits.memoryMb`, under Node's permission model, with an environment of only
 * PORT=0, HOST=127.0.0.1 and NODE_ENV=production. Once it says it listens, the runner sends the
 * document and the client settings over its stdin, and the wrapper inside POSTs them to
 * `/artifacts` (wrapper.ts); at most `limits.maxOutputBytes` of the answer are read from fd 3,
 * and as much of its log (stdout and stderr; more kills it). The whole run, from spawn to the
 * answer read, has `limits.timeoutMs`; past it the process gets SIGKILL. The process is always
 * killed and the temp dir always removed before this resolves. It never rejects: a failure is
 * `{ ok: false, reason }`, one sentence for people.
 */
export async function runBundle(input: RunInput): Promise<RunResult> {
  const started = performance.now()
  const log = new LogTail()
  const elapsed = () => Math.round(performance.now() - started)
  const { limits, sandbox } = input
  let dir: string | undefined
  let child: ReturnType<typeof spawn> | undefined
  let exited: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  try {
    dir = await makeRunDir(sandbox, input.bundle)
    // The hub closed what it inherited at start; what is open without close-on-exec now (in a
    // process that embeds the hub, say) the wrapper closes before the bundle loads.
    const inherited = await inheritableDescriptors()
    const args = nodeArgs(runPaths(sandbox, dir), limits.memoryMb, WRAPPER, wrapperArgs(inherited))
    const command = sandboxCommand(sandbox, dir, limits, args)
    child = spawn(command.file, command.args, {
      cwd: dir,
      env: { ...CHILD_ENV },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
      ...(command.uid === undefined ? {} : { uid: command.uid, gid: command.gid }),
    })
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
    const answer = receiveAnswer(proc.stdio[3] as Readable, limits.maxOutputBytes)

    // A bundle that prints without end must not keep the hub reading: past the limit it dies.
    let printed = 0
    let printedTooMuch = false
    const printedText = (chunk: Buffer): string | undefined => {
      printed += chunk.byteLength
      if (printed <= limits.maxOutputBytes) return chunk.toString('utf8')
      if (!printedTooMuch && proc.pid !== undefined) killGroup(proc.pid)
      printedTooMuch = true
      return undefined
    }
    proc.stderr?.on('data', (chunk: Buffer) => {
      const text = printedText(chunk)
      if (text !== undefined) log.push(text)
    })
    const port = new Promise<number>((resolve) => {
      let pending = ''
      proc.stdout?.on('data', (chunk: Buffer) => {
        const text = printedText(chunk)
        if (text === undefined) return
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

    // A timer of its own: on Node 20 an AbortSignal.timeout() inside AbortSignal.any() can be
    // garbage-collected before it fires, and the run would outlive its limit.
    let timedOut = false
    const ended = new Promise<'ended'>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true
        resolve('ended')
      }, limits.timeoutMs)
      if (input.signal?.aborted) resolve('ended')
      input.signal?.addEventListener('abort', () => resolve('ended'), { once: true })
    })
    const why = (): string => {
      if (input.signal?.aborted) return 'The hub stopped during the run.'
      if (printedTooMuch) {
        return `server.js printed more than ${limits.maxOutputBytes} bytes, the hub's limit.`
      }
      if (exit && outOfMemory(log.text())) {
        return `server.js ran out of memory (the limit is ${limits.memoryMb} MB).`
      }
      if (timedOut) {
        return `server.js did not finish within the time limit (${seconds(limits.timeoutMs)}).`
      }
      if (exit) return `server.js exited (${exitText(exit, sandbox)}) before it answered.`
      return 'server.js failed.'
    }
    const failed = (reason = why()): RunResult => ({
      ok: false,
      reason,
      log: log.text(),
      durationMs: elapsed(),
    })

    const first = await Promise.race([port, exited.then(() => 'exited' as const), ended])
    if (first === 'exited' || first === 'ended') return failed()
    const frame = await requestFrame(first, {
      schema: input.document,
      protocol: input.protocol,
      clientSettings: input.clientSettings,
    })
    for (const part of frame) proc.stdin?.write(part)

    const got = await Promise.race([answer, ended])
    if (got === 'ended') return failed()
    if (got === 'none') {
      // The answer ended without one: the process is dying. Give its exit a moment to be seen,
      // so that an out-of-memory death is told as such.
      await Promise.race([exited, ended, delay(1000)])
      return failed()
    }
    if (got === 'too-large') {
      return failed(`server.js answered more than ${limits.maxOutputBytes} bytes, the hub's limit.`)
    }
    // Its log went past the limit before the answer came: it was being killed for that.
    if (printedTooMuch) return failed()
    // Off the event loop: up to 50 MiB to parse, then every artifact to encode and hash. The
    // answer's buffer is moved to the worker, the artifacts' come back the same way.
    const parsed = await offload('runAnswer', got, [got.body.buffer as ArrayBuffer])
    if (typeof parsed === 'string') return failed(parsed)
    return { ok: true, ...parsed, log: log.text(), durationMs: elapsed() }
  } catch (error) {
    return {
      ok: false,
      reason: `The hub could not run server.js: ${(error as Error).message}.`,
      log: log.text(),
      durationMs: elapsed(),
    }
  } finally {
    clearTimeout(timer)
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

function outOfMemory(log: string): boolean {
  return OUT_OF_MEMORY.test(log)
}

function exitText(
  exit: { code: number | null; signal: NodeJS.Signals | null },
  sandbox: Sandbox,
): string {
  if (exit.signal) return `signal ${exit.signal}`
  // bwrap exits with 128 + the signal that ended the process inside.
  const signal = sandbox.kind === 'bwrap' && exit.code !== null ? signalName(exit.code - 128) : ''
  if (signal) return `signal ${signal}`
  return `code ${exit.code ?? 'unknown'}`
}

function signalName(number: number): string | undefined {
  return Object.entries(constants.signals).find(([, value]) => value === number)?.[0]
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
