import type { CommandIO } from './command-io.js'

/**
 * Whether a command may ask: never under `--json` or `--no-input`, and only when both its input
 * and the stream its questions go to (stderr) are terminals. A pipe never waits on a prompt.
 */
export function canPrompt(
  flags: { readonly json?: boolean | undefined; readonly input?: boolean | undefined },
  io: Pick<CommandIO, 'stdin' | 'stderr'>,
): boolean {
  if (flags.json || flags.input === false) return false
  return Boolean(io.stdin.isTTY && io.stderr.isTTY)
}

/** The streams a @clack/prompts question reads and writes. */
export function promptStreams(io: Pick<CommandIO, 'stdin' | 'stderr'>) {
  return { input: io.stdin as NodeJS.ReadStream, output: io.stderr as NodeJS.WriteStream }
}
