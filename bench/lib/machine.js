// What a result was measured on: the machine, and the engine's source revision.
import { execFileSync } from 'node:child_process'
import { cpus, loadavg, totalmem } from 'node:os'
import { round } from './stats.js'

export function machineInfo() {
  const cpuList = cpus()
  return {
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    memoryGb: round(totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  }
}

/** Other work on the machine skews timings; the 1-minute load average shows when it did. */
export function loadAverage() {
  return round(loadavg()[0], 2)
}

/** The commit, and the engine files that differ from it: dist is built from the working tree. */
export function engineRevision(root) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
    const changed = git('status', '--porcelain', '--', 'packages/engine/src')
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      uncommitted: changed ? changed.split('\n').map((l) => l.slice(3)) : [],
    }
  } catch {
    return { commit: 'unknown', uncommitted: [] }
  }
}

export function describeRevision({ commit, uncommitted }) {
  return uncommitted.length
    ? `${commit} + ${uncommitted.length} uncommitted engine file(s)`
    : commit
}
