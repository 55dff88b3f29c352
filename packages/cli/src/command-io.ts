/**
 * Everything a command reads from or writes to outside its options. `run` gets it whole, so a
 * test runs a command in process with its own folder, environment and streams, and nothing a
 * command does reaches `process.cwd()`, `process.env` or the process's streams.
 */
export type CommandIO = {
  /** The folder relative paths, the app root and project lookups start from. */
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean }
  /** The result: text, or exactly one JSON object under `--json`. */
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean }
  /** Diagnostics, progress and prompts. */
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean }
}

/** The IO of the `svc` process itself: the one place that reads the process's globals. */
export function processIO(): CommandIO {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  }
}
