import type { RunPaths } from './sandbox.js'

/** `--permission` since Node 22.13 and 23.5; `--experimental-permission` before. */
export const PERMISSION_FLAG = permissionFlag(process.versions.node)

function permissionFlag(version: string): string {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  const stable = major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)
  return stable ? '--permission' : '--experimental-permission'
}

/** The whole environment of a run's process: nothing of the hub's is passed on. */
export const CHILD_ENV = { PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' } as const

/**
 * Node's options for a run's process that evaluates `script` (`argv` its `process.argv[1…]`):
 * its heap limit, and Node's permission model, the second layer inside the sandbox: the bundle
 * reads its own folder (and its private temp, which it may also write), and starts no processes
 * or workers.
 */
export function nodeArgs(
  paths: RunPaths,
  memoryMb: number,
  script: string,
  argv: readonly string[] = [],
): string[] {
  return [
    `--max-old-space-size=${memoryMb}`,
    PERMISSION_FLAG,
    `--allow-fs-read=${paths.bundle}/`,
    ...(paths.temp ? [`--allow-fs-read=${paths.temp}/`, `--allow-fs-write=${paths.temp}/`] : []),
    '--no-warnings=ExperimentalWarning',
    '-e',
    script,
    ...argv,
  ]
}
