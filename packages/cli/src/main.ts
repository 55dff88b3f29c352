import { CommanderError, type Command } from 'commander'
import { DocumentError } from '@svc/engine'
import { processIO, type CommandIO } from './command-io.js'
import {
  CommandError,
  EXIT,
  formatDocumentError,
  formatRecipe,
  RecipeError,
  type ExitCode,
  type Recipe,
} from './errors.js'
import { commandPath, examplesOf } from './help.js'
import { createProgram } from './program.js'
import { CLI_VERSION } from './version.js'

/** A commander parse error (unknown option, extra argument …) and the command it happened in. */
class UsageError extends Error {
  override readonly name = 'UsageError'
  constructor(
    readonly error: CommanderError,
    readonly command: Command,
  ) {
    super(error.message)
  }

  /** SPEC §7.8's recipe for what commander refused, with its did-you-mean in the problem. */
  get recipe(): Recipe {
    const [first = '', ...rest] = this.error.message.split('\n')
    const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim())?.[1]
    const problem = `${first.replace(/^error: /, '')}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`
    const path = commandPath(this.command)
    const svc = path ? `svc ${path}` : 'svc'
    return {
      problem,
      usage: `${svc} ${this.command.usage()}`,
      example: examplesOf(this.command)[0] ?? (path ? `${svc} --help` : 'svc check openapi.yaml'),
      discover: `${svc} --help`,
    }
  }
}

/**
 * Runs `svc` with `argv` (without `node` and the script) and resolves to its exit code: the one
 * place where what a command threw becomes an exit code. Everything it reads and writes goes
 * through `io`, so runs in one process do not share a folder, an environment or streams.
 */
export async function run(argv: readonly string[], io: CommandIO): Promise<ExitCode> {
  const { stdout, stderr } = io
  let code: ExitCode = EXIT.ok
  const program = createProgram(io, (exit) => (code = exit))
  const commands = new Set(program.commands.map((command) => command.name()))
  const wire = (command: Command) => {
    command.exitOverride((error) => {
      // Help and version are not errors; a parse error becomes a recipe in `report`.
      if (error.exitCode === 0 || error.code === 'commander.help') throw error
      throw new UsageError(error, command)
    })
    command.configureOutput({
      writeOut: (text) => void stdout.write(text),
      writeErr: (text) => void stderr.write(text),
      outputError: () => {},
    })
    command.commands.forEach(wire)
  }
  wire(program)
  try {
    await program.parseAsync(argv, { from: 'user' })
    return code
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.version') {
      const { versionNotice } = await import('./hub/version-notice.js')
      await versionNotice(CLI_VERSION, io)
      return EXIT.ok
    }
    const name = argv.find((arg) => commands.has(arg))
    // A command with subcommands (`svc api push`): the deepest one named.
    let command = program.commands.find((c) => c.name() === name)
    for (let rest = argv.slice(argv.indexOf(name ?? '') + 1); command; rest = rest.slice(1)) {
      const next = command.commands.find((c) => c.name() === rest[0])
      if (!next) break
      command = next
    }
    const exit = report(error, stderr, command ? commandPath(command) : undefined)
    // Under --json (or --format json), stdout holds exactly one object even when the command
    // could not run.
    const takesJson = command?.options.some((option) => option.long === '--json') ?? false
    if (takesJson && asksForJson(argv) && exit !== EXIT.ok) stdout.write(jsonFailure(error, exit))
    return exit
  }
}

function asksForJson(argv: readonly string[]): boolean {
  return argv.some(
    (arg, index) =>
      arg === '--json' ||
      arg === '--format=json' ||
      (arg === '--format' && argv[index + 1] === 'json'),
  )
}

function jsonFailure(error: unknown, exit: ExitCode): string {
  const message =
    error instanceof RecipeError || error instanceof UsageError
      ? error.recipe.problem
      : error instanceof Error && !(error instanceof CommanderError)
        ? error.message
        : 'invalid arguments; see stderr'
  const code =
    exit === EXIT.usage || error instanceof UsageError
      ? 'usage'
      : error instanceof DocumentError
        ? 'unreadable_document'
        : error instanceof CommandError || isSystemError(error)
          ? 'failed'
          : 'internal'
  return `${JSON.stringify({ type: 'error', code, exitCode: exit, message }, null, 2)}\n`
}

function report(
  error: unknown,
  stderr: NodeJS.WritableStream,
  command: string | undefined,
): ExitCode {
  if (error instanceof UsageError) {
    const path = commandPath(error.command)
    stderr.write(
      `${formatRecipe(error.recipe)}\nRun 'svc ${path ? `${path} ` : ''}--help' for usage.\n`,
    )
    return EXIT.usage
  }
  if (error instanceof RecipeError) {
    stderr.write(formatRecipe(error.recipe) + '\n')
    return EXIT.usage
  }
  if (error instanceof CommanderError) {
    // Help and version are successes; every other commander error is a usage error, already printed.
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.exitCode === 0
    )
      return EXIT.ok
    stderr.write(`Run 'svc ${command ? `${command} ` : ''}--help' for usage.\n`)
    return EXIT.usage
  }
  if (error instanceof DocumentError) {
    stderr.write(formatDocumentError(error) + '\n')
    return EXIT.failure
  }
  if (error instanceof CommandError || isSystemError(error)) {
    stderr.write(`error: ${error.message}\n`)
    return EXIT.failure
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  stderr.write(
    `internal error: ${detail}\nThis is a bug in svc; please report it with the command you ran.\n`,
  )
  return EXIT.failure
}

/** A failure of the file system or the OS (`EACCES`, `ENOSPC` …): the user's to fix, not a bug. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!) &&
    'syscall' in error
  )
}

/** The `svc` bin: the only place that sets the process exit code. */
export async function main(argv: readonly string[]): Promise<void> {
  // A reader that stops early (`svc check … | head`) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
  process.exitCode = await run(argv, processIO())
  // A command's work is done when run() resolves. Waiting for the event loop to empty (an idle
  // keep-alive socket) and for V8 to tear down a large heap (the model of a 13 MB description)
  // only delays the exit; the output is flushed first.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  process.exit()
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0) return Promise.resolve()
  return new Promise((resolve) => {
    stream.once('drain', resolve)
    stream.once('close', resolve)
  })
}
