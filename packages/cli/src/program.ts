import { Command, InvalidArgumentError, Option } from 'commander'
import type { ExitCode } from './errors.js'
import { createOutput, type OutputOptions } from './output.js'

export type ProgramIO = OutputOptions & {
  readonly cwd?: string
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean }
  readonly env?: NodeJS.ProcessEnv
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
    // The program's own options (-V, --version) only before the command: `svc publish demo
    // --version 1.0.0` is publish's --version, not the CLI's.
    .enablePositionalOptions()
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

  const cwd = io.cwd ?? process.cwd()
  const json = (flags: { json?: boolean }) => createOutput({ ...io, json: Boolean(flags.json) })
  const noInput = '--no-input'
  const noInputHelp = 'never prompt; refuse what would need an answer (strict mode)'

  program
    .command('init')
    .description('Create a project under .svc/ of the app root: its deno.json and client.json.')
    .argument('[project]', 'the project name: a slug (lowercase letters, digits, . _ -)')
    .option(
      '--name <@account/slug>',
      'the stack the project publishes to (default @local/<project>)',
    )
    .option('--base-path <dir>', 'where generated files go, relative to the app root')
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(
      async (
        project: string | undefined,
        flags: { json?: boolean; name?: string; basePath?: string },
      ) => {
        const { initAction } = await import('./commands/init/action.js')
        onExit(initAction(project, flags, json(flags), cwd))
      },
    )

  program
    .command('install')
    .description("Import official generators into a project's deno.json.")
    .argument('[generators...]', 'gen-typescript, gen-zod, gen-fetch-client, gen-graphql-client')
    .option('-p, --project <project>', 'the project (default: the only one)')
    .option('--list', 'list the generators svc ships')
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(
      async (names: string[], flags: { json?: boolean; project?: string; list?: boolean }) => {
        const { installAction } = await import('./commands/install/action.js')
        onExit(installAction(names, flags, json(flags), cwd))
      },
    )

  program
    .command('clone')
    .description("Copy an official generator's source into a project, to change what it emits.")
    .argument('[project]', 'the project')
    .option('-g, --generator <generator>', 'the generator to clone, e.g. gen-zod')
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(async (project: string | undefined, flags: { json?: boolean; generator?: string }) => {
      const { cloneAction } = await import('./commands/clone/action.js')
      onExit(cloneAction(project, flags, json(flags), cwd))
    })

  program
    .command('remove')
    .description('Take generators out of a project; a cloned one needs --force.')
    .argument('[generators...]', 'the generators to remove')
    .option('-p, --project <project>', 'the project (default: the only one)')
    .option('--force', "also delete a cloned generator's folder")
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(
      async (names: string[], flags: { json?: boolean; project?: string; force?: boolean }) => {
        const { removeAction } = await import('./commands/remove/action.js')
        onExit(removeAction(names, flags, json(flags), cwd))
      },
    )

  program
    .command('bundle')
    .description("Bundle a project's generators with the engine into .svc/<project>/bundle.js.")
    .argument('[project]', 'the project')
    .option('--server', 'build the stack server instead: a self-contained .svc/<project>/server.js')
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(async (project: string | undefined, flags: { json?: boolean; server?: boolean }) => {
      const { bundleAction } = await import('./commands/bundle/action.js')
      onExit(await bundleAction(project, flags, json(flags), cwd))
    })

  program
    .command('generate')
    .description("Run a project's generators over a schema and write the files under its basePath.")
    .argument('[project]', 'the project')
    .argument('[schema]', 'a file path, an http(s) URL, or - (default: source in client.json)')
    .option('--json', 'print exactly one JSON object on stdout (strict mode)')
    .option(noInput, noInputHelp)
    .action(
      async (
        project: string | undefined,
        schema: string | undefined,
        flags: { json?: boolean; input?: boolean },
      ) => {
        const { generateAction } = await import('./commands/generate/action.js')
        onExit(
          await generateAction(project, schema, flags, json(flags), {
            cwd,
            ...(io.stdin ? { stdin: io.stdin } : {}),
            stderr: io.stderr ?? process.stderr,
          }),
        )
      },
    )

  program
    .command('doctor')
    .description(
      'Check the machine and the projects of this app root; each problem comes with a fix.',
    )
    .option('-p, --project <project>', 'check only this project')
    .option('--json', 'print exactly one JSON object { checks, summary } on stdout')
    .option(noInput, noInputHelp)
    .action(async (flags: { json?: boolean; project?: string }) => {
      const { doctorAction } = await import('./commands/doctor/action.js')
      onExit(doctorAction(flags, json(flags), cwd, program.version() ?? '0.1.0'))
    })

  const env = io.env ?? process.env
  const stdin = io.stdin ?? process.stdin
  const stderr = io.stderr ?? process.stderr

  program
    .command('login')
    .description('Check a personal access token with the hub and store it with the origin.')
    .option('--origin <url>', 'the hub (default: $SVC_API_ORIGIN, then http://localhost:8080)')
    .option('--token <pat>', 'the personal access token')
    .option('--with-token', 'read the token from standard input')
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(
      async (flags: {
        origin?: string
        token?: string
        withToken?: boolean
        json?: boolean
        input?: boolean
      }) => {
        const { loginAction } = await import('./commands/login/action.js')
        onExit(await loginAction(flags, json(flags), { env, stdin, stderr }))
      },
    )

  program
    .command('logout')
    .description('Remove the stored login.')
    .option('--json', 'print exactly one JSON object on stdout')
    .action(async (flags: { json?: boolean }) => {
      const { logoutAction } = await import('./commands/logout/action.js')
      onExit(logoutAction(flags, json(flags), env))
    })

  program
    .command('whoami')
    .description('Who the token belongs to, on which hub.')
    .option('--token <pat>', 'the personal access token (default: $SVC_HUB_TOKEN, then the login)')
    .option(
      '--origin <url>',
      'the hub (default: $SVC_API_ORIGIN, then the login, then http://localhost:8080)',
    )
    .option('--json', 'print exactly one JSON object on stdout')
    .action(async (flags: { json?: boolean; token?: string; origin?: string }) => {
      const { whoamiAction } = await import('./commands/whoami/action.js')
      onExit(await whoamiAction(flags, json(flags), env))
    })

  program
    .command('publish')
    .description(
      "Bundle a project's stack server and publish it with its source as a stack version.",
    )
    .argument('[project]', 'the local project under .svc/')
    .option('--token <pat>', 'the personal access token (default: $SVC_HUB_TOKEN, then the login)')
    .option('--version <semver>', 'the version (default: version in deno.json)')
    .option(
      '--origin <url>',
      'the hub (default: $SVC_API_ORIGIN, then the login, then http://localhost:8080)',
    )
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(
      async (
        project: string | undefined,
        flags: {
          token?: string
          version?: string
          origin?: string
          json?: boolean
          input?: boolean
        },
      ) => {
        const { publishAction } = await import('./commands/publish/action.js')
        onExit(await publishAction(project, flags, json(flags), { cwd, env }))
      },
    )

  program
    .command('push')
    .description(
      "Replace a hub project's config with the project's client.json, and optionally its base files.",
    )
    .argument('[project]', 'the local project under .svc/')
    .option(
      '--project <@account/slug>',
      'the hub project (default: project in client.json); recorded there',
    )
    .option(
      '--origin <url>',
      'the hub (default: $SVC_API_ORIGIN, then the login, then http://localhost:8080)',
    )
    .option('--token <pat>', 'the personal access token (default: $SVC_HUB_TOKEN, then the login)')
    .option('--base-files', "also push the app's base files")
    .option('--base-files-only', 'push only the base files; leave the config untouched')
    .option('--force', 'replace an existing config without asking')
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(
      async (project: string | undefined, flags: Record<string, string | boolean | undefined>) => {
        const { pushAction } = await import('./commands/push/action.js')
        onExit(await pushAction(project, flags, json(flags), { cwd, env, stdin, stderr }))
      },
    )

  program
    .command('pull')
    .description("Unfold a hub project's config back into the project's client.json.")
    .argument('[project]', 'the local project under .svc/')
    .option('--project <@account/slug>', 'the hub project (default: project in client.json)')
    .option(
      '--origin <url>',
      'the hub (default: $SVC_API_ORIGIN, then the login, then http://localhost:8080)',
    )
    .option('--token <pat>', 'the personal access token (default: $SVC_HUB_TOKEN, then the login)')
    .option('--force', 'replace local enrichments, include and skip that differ without asking')
    .option('--json', 'print exactly one JSON object on stdout')
    .option(noInput, noInputHelp)
    .action(
      async (project: string | undefined, flags: Record<string, string | boolean | undefined>) => {
        const { pullAction } = await import('./commands/pull/action.js')
        onExit(await pullAction(project, flags, json(flags), { cwd, env, stdin, stderr }))
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
