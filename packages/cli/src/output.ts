import pc from 'picocolors'

/** Where a command writes: results on stdout, diagnostics and progress on stderr. */
export type Output = {
  /** Writes a line of the command's result to stdout. */
  result(line: string): void
  /** Writes exactly one JSON value to stdout (`--json`). */
  json(value: unknown): void
  /** Writes a diagnostic line to stderr. */
  diagnostic(line: string): void
  readonly color: Colors
}

export type Colors = {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  yellow(text: string): string
  cyan(text: string): string
  green(text: string): string
}

export type OutputOptions = {
  readonly stdout?: NodeJS.WritableStream & { isTTY?: boolean }
  readonly stderr?: NodeJS.WritableStream & { isTTY?: boolean }
  /** Colour is off under `--json`, when `NO_COLOR` is set, and when stdout is not a terminal. */
  readonly json?: boolean
}

/** No colour: each paint returns its text as it is. */
export const plain: Colors = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
  green: (t) => t,
}

export function createOutput(options: OutputOptions = {}): Output {
  const stdout = options.stdout ?? process.stdout
  const stderr = options.stderr ?? process.stderr
  const useColor =
    !options.json && !('NO_COLOR' in process.env) && Boolean(stdout.isTTY) && pc.isColorSupported
  const color: Colors = useColor ? pc : plain
  return {
    color,
    result: (line) => void stdout.write(line + '\n'),
    json: (value) => void stdout.write(JSON.stringify(value, null, 2) + '\n'),
    diagnostic: (line) => void stderr.write(line + '\n'),
  }
}
