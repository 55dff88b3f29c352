import { Command, InvalidArgumentError, Option } from 'commander'
import type { ExitCode } from './errors.js'
import { createOutput, type OutputOptions } from './output.js'

export type ProgramIO = OutputOptions & {
  readonly cwd?: string
  readonly stdin?: NodeJS.ReadableStream
}

declare const SVC_VERSION: string | undefined

/**
 * Declares every command and its flags; each action lazy-loads its module, so `svc --help`
 * stays fast. The exit code of the action that ran is reported through `onExit`.
 */
export function createProgram(io: ProgramIO, onExit: (code: ExitCode) => void): Command {
  const program = new Command('svc')
    .description(
      'Check, convert and generate code from API descriptions (OpenAPI 2.0 / 3.0 / 3.1, GraphQL SDL).',
    )
    .version(typeof SVC_VERSION === 'string' ? SVC_VERSION : '0.1.0')
    .showSuggestionAfterError()
  const common = { ...(io.cwd ? { cwd: io.cwd } : {}), ...(io.stdin ? { stdin: io.stdin } : {}) }

  program
    .command('check')
    .description('Parse an API description and report every parse issue, grouped by level.')
    .argument('[input]', 'a file path, an http(s) URL, or - for standard input')
    .option('--json', 'print exactly one JSON object { parseIssues, summary } on stdout')
    .option('--debug', 'also show debug-level issues in the text report')
    .addOption(
      new Option('--max-bytes <bytes>', 'refuse documents larger than this').argParser(
        positiveInteger,
      ),
    )
    .action(
      async (
        input: string | undefined,
        flags: { json?: boolean; debug?: boolean; maxBytes?: number },
      ) => {
        const { checkAction } = await import('./commands/check/action.js')
        onExit(
          await checkAction(
            input,
            flags,
            createOutput({ ...io, json: Boolean(flags.json) }),
            common,
          ),
        )
      },
    )

  program
    .command('to-v3-json')
    .description(
      'Print an OpenAPI 3 JSON document for any OpenAPI input (Swagger 2.0 is converted).',
    )
    .argument('[input]', 'a file path, an http(s) URL, or - for standard input')
    .option('-o, --output <file>', 'write the document to this file instead of stdout')
    .action(async (input: string | undefined, flags: { output?: string }) => {
      const { toV3JsonAction } = await import('./commands/to-v3-json/action.js')
      onExit(await toV3JsonAction(input, flags, createOutput({ ...io, json: true }), common))
    })

  program
    .command('diff')
    .description(
      'List what changed between two API descriptions, breaking changes first (OpenAPI or GraphQL SDL).',
    )
    .argument('[old]', 'the old description: a file path, an http(s) URL, or - for standard input')
    .argument('[new]', 'the new description, likewise (only one of the two can be -)')
    .option('--json', 'print exactly one JSON object { summary, counts, changes } on stdout')
    .addOption(
      new Option('--fail-on <level>', 'exit 1 when any change is at this level or above').choices([
        'breaking',
        'warning',
      ]),
    )
    .action(
      async (
        oldInput: string | undefined,
        newInput: string | undefined,
        flags: { json?: boolean; failOn?: 'breaking' | 'warning' },
      ) => {
        const { diffAction } = await import('./commands/diff/action.js')
        onExit(
          await diffAction(
            oldInput,
            newInput,
            flags,
            createOutput({ ...io, json: Boolean(flags.json) }),
            common,
          ),
        )
      },
    )

  return program
}

function positiveInteger(value: string): number {
  const parsed = Number(value)
  // InvalidArgumentError makes commander report a usage error (exit 2) instead of a crash.
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('Expected a positive whole number of bytes.')
  }
  return parsed
}
