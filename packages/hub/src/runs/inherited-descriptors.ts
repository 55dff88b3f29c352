import { closeSync, fstat, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { promisify } from 'node:util'

/** `O_CLOEXEC` in the octal `flags` of `/proc/self/fdinfo/<fd>` (Linux, every architecture). */
const O_CLOEXEC = 0o2000000

/** A descriptor the hub inherited open, and what it was open on (`/proc/self/fd/<fd>`). */
export type InheritedDescriptor = { readonly fd: number; readonly target: string }

/**
 * A descriptor this process passes on to every process it starts, and what it is open on as
 * `dev:ino` (fstat's device and inode), so that the process it reaches can tell it is the same.
 */
export type InheritableDescriptor = { readonly fd: number; readonly id: string }

/**
 * Closes every descriptor above stderr that this process inherited without close-on-exec, but
 * Node's IPC channel, and answers which. Called first thing by `svc-hub serve`, `worker` and
 * `admin`: Node and its libraries open their own with close-on-exec, so these came from whoever
 * started the hub (`exec 200>>file`, a supervisor that leaks its pipes), and would otherwise be
 * open in every run's sandbox, where bubblewrap does not close them and Node's permission model
 * does not check reads and writes through a descriptor. Linux only (`/proc`); none elsewhere.
 */
export function closeInheritedDescriptors(): InheritedDescriptor[] {
  const channel = ipcChannel()
  const closed: InheritedDescriptor[] = []
  for (const fd of listSync()) {
    if (fd === channel || !inheritable(readSync(`/proc/self/fdinfo/${fd}`))) continue
    const target = targetOf(fd)
    try {
      closeSync(fd)
      closed.push({ fd, target })
    } catch {
      // Gone meanwhile.
    }
  }
  return closed
}

/**
 * Logs the descriptors {@link closeInheritedDescriptors} closed, if any. At debug level: nothing
 * is wrong once they are closed, and some launchers (CI runners, job wrappers) leave one open for
 * every process they start, which would put the line at the head of every log.
 */
export function logClosedDescriptors(
  closed: readonly InheritedDescriptor[],
  log: { debug(object: object, message: string): void },
): void {
  if (closed.length === 0) return
  log.debug(
    { descriptors: closed },
    'closed descriptors the hub inherited open without close-on-exec; runs would have had them',
  )
}

/**
 * The descriptors above stderr that a process started now would inherit (open without
 * close-on-exec), whatever this process is: what the run's wrapper closes before the bundle
 * loads (wrapper.ts). None where there is no `/proc`.
 */
export async function inheritableDescriptors(): Promise<InheritableDescriptor[]> {
  let entries: string[]
  try {
    entries = await readdir('/proc/self/fd')
  } catch {
    return []
  }
  const found: InheritableDescriptor[] = []
  for (const fd of entries.map(Number).filter((fd) => fd > 2)) {
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => undefined)
    if (!inheritable(info)) continue
    const stat = await fstatBig(fd).catch(() => undefined)
    if (stat) found.push({ fd, id: `${stat.dev}:${stat.ino}` })
  }
  return found
}

const fstatBig = promisify((fd: number, done: Parameters<typeof fstat>[2]) =>
  fstat(fd, { bigint: true }, done),
)

/** Whether an fdinfo text says the descriptor stays open across exec. */
function inheritable(fdinfo: string | undefined): boolean {
  const flags = fdinfo === undefined ? undefined : /^flags:\s*([0-7]+)$/m.exec(fdinfo)?.[1]
  return flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0
}

function listSync(): number[] {
  try {
    return readdirSync('/proc/self/fd')
      .map(Number)
      .filter((fd) => fd > 2)
  } catch {
    return []
  }
}

function readSync(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

function targetOf(fd: number): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`)
  } catch {
    return 'unknown'
  }
}

/** Node's IPC channel to the process that forked the hub, which stays. */
function ipcChannel(): number | undefined {
  const fd = (process.channel as { fd?: unknown } | undefined)?.fd
  return typeof fd === 'number' ? fd : undefined
}
