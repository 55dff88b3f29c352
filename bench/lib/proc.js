import { readFileSync } from 'node:fs'

/** CPU time (user + system, every thread) of `pid` so far, in ms; clock ticks taken as 100/s. Linux only: undefined elsewhere. */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}
