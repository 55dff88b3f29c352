import { CommanderError } from 'commander'
import { AdminError } from './accounts/admin.js'
import { ConfigError } from './config.js'
import { StoreConfigError } from './store/index.js'

export const EXIT_FAILURE = 1
export const EXIT_USAGE = 2

/**
 * The exit code of `svc-hub` for what a command threw, after writing the reason with `writeErr`:
 * 2 for usage (commander printed it already), 1 for the rest, 0 for `--help` and `--version`.
 */
export function exitCodeFor(error: unknown, writeErr: (text: string) => void): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE
  if (
    error instanceof AdminError ||
    error instanceof ConfigError ||
    error instanceof StoreConfigError ||
    // The database does not answer, a file cannot be read …: the message says it all (where
    // the hub cannot listen, server.ts has made it a ConfigError naming PORT or HOST).
    isSystemError(error)
  ) {
    writeErr(`error: ${error.message}\n`)
  } else {
    writeErr(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  }
  return EXIT_FAILURE
}

/** An error from the system or a database server (it has a `code`), not a bug of the hub. */
function isSystemError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && 'code' in error && typeof error.code === 'string'
}
