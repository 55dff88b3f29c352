import pc from 'picocolors'
import type { CommandIO } from './command-io.js'

/** What `--format` takes: text (the default), JSON (`--json`), and the CI formats. */
export const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'github', 'junit'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/** The CI formats, written from a report (`src/report/`). */
export function isReportFormat(
  format: OutputFormat,
): format is Exclude<OutputFormat, 'text' | 'json'> {
  return format === 'markdown' || format === 'github' || format === 'junit'
}

/** Where a command's result is written: results on stdout, diagnostics and progress on stderr. */
export type Output = {
  /**
   * `json` under `--json`: stdout then holds exactly one JSON value; `markdown`, `github` and
   * `junit` (`--format`, on the commands that take it) hold one report in that format.
   */
  readonly format: OutputFormat
  /** The working folder, for showing paths relative to it. */
  readonly cwd: string
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

/** No colour: each paint returns its text as it is. */
export const plain: Colors = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
  green: (t) => t,
}

/** Colour is off under `--json`, when `NO_COLOR` is set, and when stdout is not a terminal. */
export function createOutput(
  io: Pick<CommandIO, 'stdout' | 'stderr' | 'env' | 'cwd'>,
  format: Output['format'],
): Output {
  const useColor =
    format === 'text' && !('NO_COLOR' in io.env) && Boolean(io.stdout.isTTY) && pc.isColorSupported
  return {
    format,
    cwd: io.cwd,
    color: useColor ? pc : plain,
    result: (line) => void io.stdout.write(line + '\n'),
    json: (value) => void io.stdout.write(JSON.stringify(value, null, 2) + '\n'),
    diagnostic: (line) => void io.stderr.write(line + '\n'),
  }
}
