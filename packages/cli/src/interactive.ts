/**
 * Whether a command may ask: never under `--json` or `--no-input`, and only when both its input
 * and the stream its questions go to (stderr) are terminals. A pipe never waits on a prompt.
 */
export function canPrompt(
  flags: { json?: boolean | undefined; input?: boolean | undefined },
  io: { stdin?: { isTTY?: boolean } | undefined; stderr?: { isTTY?: boolean } | undefined } = {},
): boolean {
  if (flags.json || flags.input === false) return false
  const stdin = io.stdin ?? process.stdin
  const stderr = io.stderr ?? process.stderr
  return Boolean(stdin.isTTY && stderr.isTTY)
}
