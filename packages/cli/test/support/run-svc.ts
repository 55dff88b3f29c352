import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { PassThrough, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { run } from '../../src/main.js'

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
export const SVC_BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url))

export type SvcRun = {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

export type RunOptions = {
  readonly cwd?: string
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  readonly stdin?: string
  /** How long a spawned bin may run, or how long an open-stdin run is waited for. */
  readonly timeoutMs?: number
  /** Set in the command's environment, over this process's; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/**
 * Runs `svc` in this process through `run(argv, io)`, as the bin does but with its own folder,
 * environment and streams, without colour, and collects everything it prints. A test file's
 * runs are isolated from each other and from the test process: no command reads the process's
 * cwd, environment or streams.
 */
export async function runSvc(args: readonly string[], options: RunOptions = {}): Promise<SvcRun> {
  const stdout = captured()
  const stderr = captured()
  const stdin = new PassThrough()
  stdin.end(options.stdin ?? '')
  return runInProcess(args, { ...options, stdin, stdout, stderr })
}

/**
 * `run` with a stdin that stays open: a prompt or a read on it would wait for ever, so after
 * `timeoutMs` the run is given up (`timedOut`) and whatever it printed so far is returned.
 */
export async function runSvcOpenStdin(
  args: readonly string[],
  options: Omit<RunOptions, 'stdin'>,
): Promise<SvcRun & { timedOut: boolean }> {
  const stdout = captured()
  const stderr = captured()
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<SvcRun>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          code: null,
          signal: null,
          stdout: stdout.text(),
          stderr: stderr.text(),
          ms: options.timeoutMs ?? 20_000,
        }),
      options.timeoutMs ?? 20_000,
    )
  })
  const ran = runInProcess(args, { ...options, stdin: new PassThrough(), stdout, stderr })
  const result = await Promise.race([ran, timedOut])
  clearTimeout(timer)
  return { ...result, timedOut: result.code === null }
}

async function runInProcess(
  args: readonly string[],
  options: Omit<RunOptions, 'stdin'> & {
    stdin: PassThrough
    stdout: ReturnType<typeof captured>
    stderr: ReturnType<typeof captured>
  },
): Promise<SvcRun> {
  const started = performance.now()
  const code = await run(args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: testEnv(options.env),
    stdin: options.stdin,
    stdout: options.stdout,
    stderr: options.stderr,
  })
  return {
    code,
    signal: null,
    stdout: options.stdout.text(),
    stderr: options.stderr.text(),
    ms: performance.now() - started,
  }
}

/** A stream that keeps what is written to it; not a terminal, as stdout is in a pipe. */
function captured() {
  const chunks: Buffer[] = []
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk))
      done()
    },
  })
  return Object.assign(stream, { text: () => Buffer.concat(chunks).toString('utf8') })
}

/** This process's environment without colour, with `env` over it; `undefined` removes a variable. */
export function testEnv(env: RunOptions['env'] = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }
  delete merged.FORCE_COLOR
  for (const [name, value] of Object.entries(env))
    if (value === undefined) delete merged[name]
    else merged[name] = value
  return merged
}

/**
 * Runs the real `svc` bin in a child process, for the one smoke test per command that covers
 * the process wiring (bin → main → exit code, the process's streams).
 */
export function runSvcProcess(args: readonly string[], options: RunOptions = {}): Promise<SvcRun> {
  return runCommand(process.execPath, [SVC_BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: testEnv(options.env),
    timeoutMs: options.timeoutMs ?? 60_000,
    stdin: options.stdin ?? '',
  })
}

/**
 * Runs any program in a child process and collects what it printed; `stdin` is written to it
 * (a child that exits before reading it does not fail the run), else its stdin is closed.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; stdin?: string | undefined },
): Promise<SvcRun> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', reject)
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        ms: performance.now() - started,
      }),
    )
    if (child.stdin) {
      child.stdin.on('error', () => {})
      child.stdin.end(options.stdin)
    }
  })
}

/** Parses stdout as exactly one JSON value; JSON.parse rejects anything before or after it. */
export function parseJsonStdout(run: SvcRun): Record<string, unknown> {
  const value: unknown = JSON.parse(run.stdout)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`stdout is JSON but not an object: ${run.stdout.slice(0, 200)}`)
  }
  return value as Record<string, unknown>
}

/** The four lines of a recipe error (SPEC §7.8), in order. */
export function recipeLines(stderr: string): {
  error: string
  usage: string
  example: string
  discover: string
} {
  const lines = stderr.trimEnd().split('\n')
  const find = (prefix: string) => {
    const index = lines.findIndex((line) => line.startsWith(prefix))
    return { index, line: index === -1 ? '' : lines[index]! }
  }
  const error = find('error: ')
  const usage = find('Usage: ')
  const example = find('Example: ')
  const discover = find('Discover: ')
  const order = [error.index, usage.index, example.index, discover.index]
  if (order.includes(-1) || order.some((index, i) => i > 0 && index !== order[i - 1]! + 1)) {
    throw new Error(`not a recipe error (error/Usage/Example/Discover lines in order):\n${stderr}`)
  }
  return { error: error.line, usage: usage.line, example: example.line, discover: discover.line }
}

/** A temporary directory of fixture files, removed by `dispose`. */
export function fixtureDir(files: Readonly<Record<string, string>>): {
  dir: string
  dispose(): void
} {
  const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * The bin runs the compiled dist, so a source edit without a build would test old code (in
 * process runs use the sources; the process smoke tests and the pty tests use the bin): a stale
 * CLI fails with the command to run. A stale engine only warns, since the engine is often
 * mid-edit elsewhere and has its own tests against its sources.
 */
export function assertBuilt(): void {
  for (const pkg of ['engine', 'cli']) {
    const root = join(REPO_ROOT, 'packages', pkg)
    let built: number
    try {
      built = statSync(join(root, 'dist', '.tsbuildinfo')).mtimeMs
    } catch {
      throw new Error(`packages/${pkg} is not built; run node_modules/.bin/tsc -b first.`)
    }
    const stale = newestSource(join(root, 'src'))
    if (stale && stale.mtimeMs > built) {
      const message = `packages/${pkg}/dist is older than ${stale.path}; run node_modules/.bin/tsc -b first.`
      if (pkg === 'cli') throw new Error(message)
      console.warn(`warning: ${message}`)
    }
  }
}

function newestSource(dir: string): { path: string; mtimeMs: number } | undefined {
  let newest: { path: string; mtimeMs: number } | undefined
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (
      !entry.isFile() ||
      !entry.name.endsWith('.ts') ||
      entry.name.endsWith('.test.ts') ||
      entry.name === 'test-support.ts'
    )
      continue
    const path = join(entry.parentPath, entry.name)
    const { mtimeMs } = statSync(path)
    if (!newest || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs }
  }
  return newest
}

/**
 * What stdout holds when a command could not run: nothing, or under `--json` exactly one
 * `{ type: 'error', code, exitCode, message }` object, so a script reading stdout always gets JSON.
 */
export function expectFailureStdout(run: SvcRun, args: readonly string[]): void {
  if (!args.includes('--json')) {
    if (run.stdout !== '') throw new Error(`expected nothing on stdout, got: ${run.stdout}`)
    return
  }
  const report = parseJsonStdout(run)
  if (report.type !== 'error' || report.exitCode !== run.code || typeof report.message !== 'string')
    throw new Error(
      `expected one { type: 'error', exitCode: ${run.code} } object, got: ${run.stdout}`,
    )
}

export type TerminalRun = {
  readonly code: number | null
  /** Everything the terminal showed, without escape sequences and carriage returns. */
  readonly output: string
  /** Whether `answer.after` appeared, so that the keys were typed. */
  readonly answered: boolean
  readonly timedOut: boolean
}

const ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][A-Z0-9]|\r/g

/**
 * `run` on a terminal of 120×40 that this process plays: stdin, stdout and stderr say they are
 * TTYs, so the command may prompt and show progress; what both streams print is what the
 * terminal shows. When `answer.after` shows up, `answer.keys` are typed.
 */
export async function runSvcOnTerminal(
  args: readonly string[],
  options: Omit<RunOptions, 'stdin'> & { answer?: { after: string; keys: string } },
): Promise<TerminalRun> {
  let raw = ''
  let answered = false
  const plain = () => raw.replace(ESCAPES, '')
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      stdin.isRaw = mode
      return stdin
    },
  })
  const screen = () =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          raw += chunk.toString()
          if (options.answer && !answered && plain().includes(options.answer.after)) {
            answered = true
            // Give the prompt a moment to listen for keys before typing.
            setTimeout(() => stdin.write(options.answer!.keys), 200)
          }
          done()
        },
      }),
      { isTTY: true, columns: 120, rows: 40 },
    )
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), options.timeoutMs ?? 30_000)
  })
  const code = await Promise.race([
    run(args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: testEnv(options.env),
      stdin,
      stdout: screen(),
      stderr: screen(),
    }),
    timeout,
  ])
  clearTimeout(timer)
  stdin.end()
  return { code, output: plain(), answered, timedOut: code === null }
}
