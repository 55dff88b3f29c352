import { lstatSync, readlinkSync } from 'node:fs'
import { chown, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunLimits } from '../config.js'

/** How runs are isolated, once the sandbox was found to work (sandbox-probe.ts). */
export type Sandbox =
  | { readonly kind: 'bwrap'; readonly bwrap: string; readonly prlimit: string }
  | { readonly kind: 'none' }

/** Where the bundle's folder and its private temp are, as the run's process sees them. */
export type RunPaths = { readonly bundle: string; readonly temp: string | undefined }

/** What to spawn for a run, and as whom (`uid`/`gid` only when the hub is root). */
export type SandboxCommand = {
  readonly file: string
  readonly args: readonly string[]
  readonly uid?: number
  readonly gid?: number
}

/** The user and group a run takes when the hub is root: `nobody`, which owns nothing. */
export const RUN_UID = 65534

/** Memory a run may use on top of its V8 heap (Buffers, code, thread stacks). */
export const OFF_HEAP_MB = 512

/** Threads and processes of one sandbox: Node needs about 15. */
export const MAX_TASKS = 32

/** Size of the private temp, and of any one file written. */
export const TEMP_BYTES = 16 * 1024 * 1024

const MAX_OPEN_FILES = 256
const BUNDLE_DIR = '/bundle'
const TEMP_DIR = '/tmp'

/**
 * A new folder under the system temp dir holding only `server.js` (mode 0600); in a sandbox
 * started by root, owned by the run's user, who must read it. The caller removes it.
 */
export async function makeRunDir(sandbox: Sandbox, bundle: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-run-'))
  const file = join(dir, 'server.js')
  await writeFile(file, bundle, { mode: 0o600 })
  if (sandbox.kind === 'bwrap' && runsAsRoot()) {
    await chown(dir, RUN_UID, RUN_UID)
    await chown(file, RUN_UID, RUN_UID)
  }
  return dir
}

export function runPaths(sandbox: Sandbox, dir: string): RunPaths {
  return sandbox.kind === 'bwrap'
    ? { bundle: BUNDLE_DIR, temp: TEMP_DIR }
    : { bundle: dir, temp: undefined }
}

/**
 * The command that runs `node …nodeArgs` for the run in `dir`. With bubblewrap: new user, PID,
 * network, IPC, UTS and cgroup namespaces (no network but its own loopback, no process of the
 * host in sight), no capabilities, no further user namespaces, killed with the hub; a read-only
 * view of `/usr` (with `/lib*` as on the host) and of the bundle's folder at `/bundle`, a fresh
 * `/proc` and `/dev`, a size-limited tmpfs at `/tmp`, nothing else (no `/etc`, no home, no
 * hub data). Inside, `prlimit` sets the kernel's limits before Node starts: writable memory
 * (heap + {@link OFF_HEAP_MB}), CPU seconds, tasks, file size, open files, no core dumps.
 * RLIMIT_AS would be simpler but Node's fetch reserves 10 GiB of address space for WebAssembly.
 */
export function sandboxCommand(
  sandbox: Sandbox,
  dir: string,
  limits: RunLimits,
  nodeArgs: readonly string[],
): SandboxCommand {
  if (sandbox.kind === 'none') return { file: process.execPath, args: nodeArgs }
  const dataBytes = (limits.memoryMb + OFF_HEAP_MB) * 1024 * 1024
  const cpuSeconds = Math.ceil(limits.timeoutMs / 1000) + 1
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    String(RUN_UID),
    '--gid',
    String(RUN_UID),
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'svc-run',
    '--ro-bind',
    '/usr',
    '/usr',
    ...rootLinks(),
    ...bindOutsideUsr(process.execPath),
    ...bindOutsideUsr(sandbox.prlimit),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // --size applies to the next --tmpfs.
    '--size',
    String(TEMP_BYTES),
    '--tmpfs',
    TEMP_DIR,
    '--ro-bind',
    dir,
    BUNDLE_DIR,
    '--chdir',
    BUNDLE_DIR,
    '--',
    sandbox.prlimit,
    `--data=${dataBytes}`,
    `--cpu=${cpuSeconds}`,
    `--nproc=${MAX_TASKS}`,
    `--fsize=${TEMP_BYTES}`,
    `--nofile=${MAX_OPEN_FILES}`,
    '--core=0',
    '--',
    process.execPath,
    ...nodeArgs,
  ]
  return runsAsRoot()
    ? { file: sandbox.bwrap, args, uid: RUN_UID, gid: RUN_UID }
    : { file: sandbox.bwrap, args }
}

function runsAsRoot(): boolean {
  return process.getuid?.() === 0
}

/** `/lib`, `/lib64` …: symlinks into `/usr` on merged-/usr systems, real folders elsewhere. */
function rootLinks(): string[] {
  const args: string[] = []
  for (const path of ['/lib', '/lib32', '/lib64', '/libx32']) {
    try {
      const stat = lstatSync(path)
      if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path)
      else if (stat.isDirectory()) args.push('--ro-bind', path, path)
    } catch {
      // Not on this system.
    }
  }
  return args
}

/** A binary installed outside `/usr` (Node from nvm, say) is bound read-only where it is. */
function bindOutsideUsr(file: string): string[] {
  return file.startsWith('/usr/') ? [] : ['--ro-bind', file, file]
}
