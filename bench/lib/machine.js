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

/** The machine and the load average before and after a run, as the reports print them. */
export function describeMachine(machine, loadBefore, loadAfter) {
  return (
    `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node} (${machine.platform}); ` +
    `load average ${loadBefore} before, ${loadAfter} after`
  )
}

/** Other work on the machine skews timings; the 1-minute load average shows when it did. */
export function loadAverage() {
  return round(loadavg()[0], 2)
}

/** The commit, and the engine files that differ from it: dist is built from the working tree. */
export function engineRevision(root) {
  return sourceRevision(root, 'packages/engine/src')
}

/** The commit, and the files under `dir` (relative to `root`) that differ from it. */
export function sourceRevision(root, dir) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trimEnd()
    // Not trimmed at the start: a porcelain line begins with its two status columns (` M path`).
    const changed = git('status', '--porcelain', '--', dir)
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      uncommitted: changed ? changed.split('\n').map((l) => l.slice(3)) : [],
    }
  } catch {
    return { commit: 'unknown', uncommitted: [] }
  }
}

export function describeRevision({ commit, uncommitted }, what = 'engine') {
  return uncommitted.length
    ? `${commit} + ${uncommitted.length} uncommitted ${what} file(s)`
    : commit
}
