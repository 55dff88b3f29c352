import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** A process as /proc shows it to this test. */
export type ProcessInfo = {
  readonly pid: number
  readonly ppid: number
  /** Its working directory, as far as this process can see it. */
  readonly cwd: string | undefined
  /** Its environment (`NAME=value` entries), when this process may read it. */
  readonly environ: readonly string[]
}

/** The processes below `root`: its children, theirs, and so on. */
export function descendants(root = process.pid): ProcessInfo[] {
  const all = processes()
  const found: ProcessInfo[] = []
  const parents = new Set([root])
  for (let grew = true; grew;) {
    grew = false
    for (const info of all) {
      if (parents.has(info.ppid) && !parents.has(info.pid)) {
        parents.add(info.pid)
        found.push(info)
        grew = true
      }
    }
  }
  return found
}

/** Whether `pid` is a process that has not ended (a zombie has). */
export function alive(pid: number): boolean {
  const stat = read(`/proc/${pid}/stat`)
  return stat !== undefined && afterName(stat)[0] !== 'Z'
}

/** Every process this test can see. */
export function processes(): ProcessInfo[] {
  const all: ProcessInfo[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = read(`/proc/${entry}/stat`)
    if (stat === undefined) continue
    let cwd: string | undefined
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`)
    } catch {
      cwd = undefined
    }
    all.push({
      pid: Number(entry),
      ppid: Number(afterName(stat)[1]),
      cwd,
      environ: (read(`/proc/${entry}/environ`) ?? '').split('\0').filter(Boolean),
    })
  }
  return all
}

/** The fields of /proc/PID/stat after `(comm)`, which may itself hold spaces: state, ppid … */
function afterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
