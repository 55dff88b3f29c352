import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Readable } from 'node:stream'
import { afterEach } from 'vitest'
import { runAdmin } from '../../src/admin/run-admin.js'
import { openStore, type Store, type StoreOptions } from '../../src/store/index.js'
import { dropSchema, newSchemaName, postgresUrl, type StoreKind } from './databases.js'
import { assertBuildFresh } from './fresh-build.js'

export const HUB_BIN = fileURLToPath(new URL('../../bin/svc-hub.js', import.meta.url))

export type HubProcess = {
  readonly kind: StoreKind
  /** The hub's process id (that of the `under` command, which execs the hub). */
  readonly pid: number
  /** Where the hub listens, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** The one-time PAT of `admin` printed on first start. */
  readonly adminPat: string
  readonly env: NodeJS.ProcessEnv
  /** The SQLite data directory (also made for PostgreSQL) and the PostgreSQL schema, if any. */
  readonly dataDir: string
  readonly schema: string | undefined
  /** Everything the hub printed on stdout so far (JSON log lines) and stderr. */
  stdout(): string
  stderr(): string
  /**
   * Runs `svc-hub admin <args>` against the same store, in this process (`runAdmin`): the same
   * commands, output and exit codes as the binary, without starting Node for each.
   */
  admin(args: readonly string[], stdin?: string): Promise<CommandRun>
  /** Runs the real `svc-hub admin <args>` binary; `started` is told its process. */
  adminProcess(
    args: readonly string[],
    started?: (child: ChildProcess) => void,
  ): Promise<CommandRun>
  /** Opens the hub's store directly; close it when done. */
  openStore(): Promise<Store>
  /**
   * One handle on the hub's store, opened on first use and closed by `dispose`: for the
   * snapshots of many tests, without opening (and migrating) a store for each.
   */
  sharedStore(): Promise<Store>
  /** SIGTERM, wait for exit; answers the exit code. */
  stop(): Promise<number | null>
  /** SIGKILL (`kill -9`): no shutdown at all; answers when the process is gone. */
  kill(): Promise<void>
  /** Starts `svc-hub worker` (the dispatcher alone) on the same store and environment. */
  startWorker(env?: NodeJS.ProcessEnv, descriptors?: Descriptors): Promise<WorkerProcess>
  /** Stops the hub and deletes its data directory or schema. */
  dispose(): Promise<void>
}

export type CommandRun = { code: number | null; stdout: string; stderr: string }

export type WorkerProcess = {
  readonly pid: number
  stdout(): string
  stop(): Promise<number | null>
  kill(): Promise<void>
}

export type StartOptions = {
  env?: NodeJS.ProcessEnv
  /**
   * Start on the store of an earlier hub (stopped first) instead of a new, empty one. Both
   * hubs' `dispose` then delete the same data directory or schema; either may run first.
   */
  reuse?: Pick<HubProcess, 'dataDir' | 'schema'>
  /** More arguments of `svc-hub serve`, such as `--no-dispatcher`. */
  args?: readonly string[]
  /**
   * A command the hub runs under, followed by the hub's own command line (`node svc-hub.js serve
   * …`), which it must exec so that the process stays the one started: e.g. `['unshare', '-rm',
   * 'sh', '-c', 'mount … && exec "$0" "$@"']`.
   */
  under?: readonly string[]
  /** Descriptors the hub inherits open besides stdin, stdout and stderr. */
  descriptors?: Descriptors
}

/** Descriptors a hub process inherits: its descriptor number → a descriptor of this process. */
export type Descriptors = Readonly<Record<number, number>>

/**
 * Starts the real `svc-hub serve` on a free loopback port with a new, empty store of `kind`
 * (or the store of `options.reuse`).
 */
export async function startHub(kind: StoreKind, options: StartOptions = {}): Promise<HubProcess> {
  assertBuildFresh()
  const dataDir = options.reuse?.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-hub-test-'))
  const schema =
    kind !== 'postgres' ? undefined : options.reuse ? options.reuse.schema : newSchemaName()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_HUB_DATA: dataDir,
    SVC_HUB_LOG_LEVEL: 'info',
    ...(kind === 'postgres'
      ? { DATABASE_URL: postgresUrl(), SVC_HUB_DATABASE_SCHEMA: schema }
      : {}),
    ...options.env,
  }
  if (kind === 'sqlite') delete env.DATABASE_URL
  const storeOptions: StoreOptions =
    kind === 'sqlite'
      ? { kind: 'sqlite', dataDir }
      : { kind: 'postgres', url: postgresUrl(), ...(schema ? { schema } : {}) }

  const running = spawnHubBin(
    ['serve', ...(options.args ?? [])],
    env,
    options.under,
    options.descriptors,
  )
  const { child, stdout, stderr } = running

  const url = await waitFor(
    child,
    () => {
      for (const line of stdout().split('\n')) {
        if (!line.includes('"listening"')) continue
        return (JSON.parse(line) as { url: string }).url
      }
      return undefined
    },
    () => `stdout:\n${stdout()}\nstderr:\n${stderr()}`,
  )
  const adminPat = /svc_pat_[A-Za-z0-9_-]{43}/.exec(stderr())?.[0] ?? ''
  let shared: Promise<Store> | undefined

  return {
    kind,
    pid: child.pid!,
    url,
    adminPat,
    env,
    dataDir,
    schema,
    stdout,
    stderr,
    admin: (args, stdin) => runAdminHere(args, env, stdin),
    adminProcess: (args, started) => runNode([HUB_BIN, 'admin', ...args], env, started),
    openStore: () => openStore(storeOptions),
    sharedStore: () => (shared ??= openStore(storeOptions)),
    stop: running.stop,
    kill: running.kill,
    startWorker: (extra = {}, descriptors) => startWorkerProcess({ ...env, ...extra }, descriptors),
    dispose: async () => {
      await running.stop()
      if (shared) await (await shared).close()
      rmSync(dataDir, { recursive: true, force: true })
      if (schema) await dropSchema(schema)
    },
  }
}

/** `runAdmin` with `env`, `stdin` as its input, and its output collected. */
async function runAdminHere(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
): Promise<CommandRun> {
  let stdout = ''
  let stderr = ''
  const code = await runAdmin(args, {
    env,
    stdin: Readable.from([stdin]),
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  })
  return { code, stdout, stderr }
}

/** `svc-hub worker` with `env`, once it says it started. */
async function startWorkerProcess(
  env: NodeJS.ProcessEnv,
  descriptors?: Descriptors,
): Promise<WorkerProcess> {
  const running = spawnHubBin(['worker'], env, [], descriptors)
  await waitFor(
    running.child,
    () => (running.stdout().includes('webhook worker started') ? true : undefined),
    () => `stdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`,
  )
  return running
}

/**
 * The hub and worker processes of this test file that ended without being told to: the test
 * during which one ended fails, whatever it asserted (a request that kills the hub is a failure
 * even when its answer looked right).
 */
const unexpectedExits: string[] = []

afterEach(() => {
  const exits = unexpectedExits.splice(0)
  if (exits.length > 0) throw new Error(exits.join('\n\n'))
})

/** `svc-hub <args>`, its output collected, and the ways to end it. */
function spawnHubBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  under: readonly string[] = [],
  descriptors?: Descriptors,
) {
  assertBuildFresh()
  const [file, ...prefix] = [...under, process.execPath]
  const child = spawn(file, [...prefix, HUB_BIN, ...args], {
    env,
    stdio: stdioWith(descriptors),
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  let told = false
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!told) {
        unexpectedExits.push(
          `svc-hub ${args[0]} exited on its own (code ${code}, signal ${signal}); stderr:\n${stderr.slice(-4000)}`,
        )
      }
      resolve(code)
    }),
  )
  let stopped: Promise<number | null> | undefined
  return {
    child,
    pid: child.pid!,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    // Once: a second SIGTERM would find the hub's handler gone and end it at once.
    stop: () => {
      told = true
      if (!stopped) {
        if (child.exitCode === null) child.kill('SIGTERM')
        stopped = exited
      }
      return stopped
    },
    kill: async () => {
      told = true
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

/** stdin ignored, stdout and stderr piped, and `descriptors` at their numbers (none between). */
function stdioWith(descriptors: Descriptors = {}): StdioOptions {
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe']
  for (const [at, fd] of Object.entries(descriptors)) {
    while (stdio.length < Number(at)) stdio.push('ignore')
    stdio[Number(at)] = fd
  }
  return stdio
}

async function waitFor<T>(
  child: ChildProcess,
  check: () => T | undefined,
  describe: () => string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value !== undefined) return value
    if (child.exitCode !== null)
      throw new Error(`svc-hub exited with ${child.exitCode}\n${describe()}`)
    if (Date.now() > deadline)
      throw new Error(`svc-hub did not start in ${timeoutMs} ms\n${describe()}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Runs `node <args>` with `env` and collects its output; `started` is told the process. */
export function runNode(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  started?: (child: ChildProcess) => void,
): Promise<CommandRun> {
  assertBuildFresh()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    started?.(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
