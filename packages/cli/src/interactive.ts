import type { CommandIO } from './command-io.js'

/**
 * Strict mode (SPEC 4.9): `--json` or `--no-input`. A script asked for it, so nothing is guessed
 * for it either, where the spec says so: no prompt, and no project picked when one is not named.
 */
export function isStrict(flags: {
  readonly json?: boolean | undefined
  readonly input?: boolean | undefined
}): boolean {
  return Boolean(flags.json) || flags.input === false
}

/**
 * Whether a command may ask: never under `--json` or `--no-input`, and only when both its input
 * and the stream its questions go to (stderr) are terminals. A pipe never waits on a prompt.
 */
export function canPrompt(
  flags: { readonly json?: boolean | undefined; readonly input?: boolean | undefined },
  io: Pick<CommandIO, 'stdin' | 'stderr'>,
): boolean {
  if (isStrict(flags)) return false
  return Boolean(io.stdin.isTTY && io.stderr.isTTY)
}

/** The streams a @clack/prompts question reads and writes. */
export function promptStreams(io: Pick<CommandIO, 'stdin' | 'stderr'>) {
  return { input: io.stdin as NodeJS.ReadStream, output: io.stderr as NodeJS.WriteStream }
}
