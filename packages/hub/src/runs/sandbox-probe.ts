import { spawn } from 'node:child_process'
import { accessSync, constants, realpathSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import type { Logger } from 'pino'
import type { RunSandboxMode, RunSettings } from '../config.js'
import { CHILD_ENV, nodeArgs } from './node-args.js'
import {
  makeRunDir,
  runPaths,
  sandboxCommand,
  type Sandbox,
  type SandboxCommand,
} from './sandbox.js'

/** Whether runs can start, and in which sandbox; or why they cannot. */
export type SandboxProbe =
  { readonly ok: true; readonly sandbox: Sandbox } | { readonly ok: false; readonly reason: string }

const probes = new Map<RunSandboxMode, Promise<SandboxProbe>>()

/**
 * The sandbox of `settings.sandbox`, tried once per process: with `bwrap`, `node` is started in
 * the very sandbox a run gets (same flags, limits and user) and must print `ok`. Installing
 * bubblewrap later takes a restart of the hub.
 */
export function findSandbox(settings: RunSettings): Promise<SandboxProbe> {
  let probe = probes.get(settings.sandbox)
  if (!probe) {
    probe = probeSandbox(settings)
    probes.set(settings.sandbox, probe)
  }
  return probe
}

/** How runs go on this hub, as its `listening` log line says (`runs`). */
export type RunsStatus = 'sandboxed' | 'unsandboxed' | 'unavailable'

/**
 * Finds the sandbox when the hub starts, and warns in its log when runs are unsafe (the operator
 * opted out) or refused (no sandbox starts, with the reason).
 */
export async function announceSandbox(
  settings: RunSettings,
  log: Pick<Logger, 'warn'>,
): Promise<RunsStatus> {
  const found = await findSandbox(settings)
  if (!found.ok) {
    log.warn(
      { sandbox: settings.sandbox, reason: found.reason },
      'runs are unavailable: no sandbox starts; install bubblewrap 0.8 or later with unprivileged user namespaces, or set SVC_HUB_RUN_SANDBOX=unsafe-none',
    )
    return 'unavailable'
  }
  if (found.sandbox.kind === 'none') {
    log.warn(
      { sandbox: settings.sandbox },
      "runs are not sandboxed (SVC_HUB_RUN_SANDBOX=unsafe-none): a published bundle runs as the hub's user and can reach its network and processes",
    )
    return 'unsandboxed'
  }
  return 'sandboxed'
}

const NONE: SandboxProbe = { ok: true, sandbox: { kind: 'none' } }

/** What a refused run is told: what is missing, and the operator's two ways out. */
export function sandboxRefusal(reason: string): string {
  return (
    `Runs are unavailable on this hub: it cannot start the sandbox a run needs (${reason}). ` +
    'Its operator must install bubblewrap 0.8 or later (Debian: apt-get install bubblewrap) ' +
    'with unprivileged user namespaces enabled and restart the hub, or set ' +
    'SVC_HUB_RUN_SANDBOX=unsafe-none to run bundles without a sandbox.'
  )
}

const PROBE_TIMEOUT_MS = 15_000

/** {@link findSandbox} without the cache, looking for bwrap on `path`. */
export async function probeSandbox(
  settings: RunSettings,
  path = process.env.PATH ?? '',
): Promise<SandboxProbe> {
  if (settings.sandbox === 'unsafe-none') return NONE
  const bwrap = onPath('bwrap', path)
  if (!bwrap) return { ok: false, reason: 'bwrap is not on PATH' }
  const prlimit = onPath('prlimit', path)
  if (!prlimit) return { ok: false, reason: 'prlimit (util-linux) is not on PATH' }
  const sandbox: Sandbox = { kind: 'bwrap', bwrap, prlimit }
  let dir: string | undefined
  try {
    dir = await makeRunDir(sandbox, new Uint8Array())
    const args = nodeArgs(runPaths(sandbox, dir), settings.memoryMb, "process.stdout.write('ok')")
    const command = sandboxCommand(sandbox, dir, settings, args)
    const outcome = await runToEnd(command, dir)
    if (outcome.code === 0 && outcome.stdout === 'ok') return { ok: true, sandbox }
    const said = outcome.stderr.trim().split('\n')[0]?.slice(0, 200)
    return { ok: false, reason: said || `bwrap exited with ${outcome.code ?? 'a signal'}` }
  } catch (error) {
    return { ok: false, reason: `bwrap could not start: ${(error as Error).message}` }
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Runs `command` in `cwd` with the run's environment and nothing on stdin, and collects what it
 * printed; killed after {@link PROBE_TIMEOUT_MS}.
 */
export function runToEnd(
  command: SandboxCommand,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      cwd,
      env: { ...CHILD_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: PROBE_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      ...(command.uid === undefined ? {} : { uid: command.uid, gid: command.gid }),
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** The real path of `name` in the first folder of PATH holding an executable file of that name. */
function onPath(name: string, path: string): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (!folder.startsWith('/')) continue
    const candidate = join(folder, name)
    try {
      accessSync(candidate, constants.X_OK)
      return realpathSync(candidate)
    } catch {
      // Not here.
    }
  }
  return undefined
}
