import { Argument, Command, InvalidArgumentError, Option } from 'commander'
import type { DiffPolicy, DiffProfile } from '@svc/engine'
import type { CommandIO } from './command-io.js'
import type { ExitCode } from './errors.js'
import { declareHelp, finishCommands, noInput } from './help.js'
import { scopeTable } from './hub/advice.js'
import { createOutput, OUTPUT_FORMATS, type Output, type OutputFormat } from './output.js'
import { CLI_VERSION } from './version.js'

type JsonFlag = { readonly json?: boolean; readonly format?: OutputFormat }
type HubFlags = { readonly token?: string; readonly origin?: string }
type InputFlag = { readonly input?: boolean }

/** `--json`; `holds` names what its one object holds, `note` follows the help. */
const json = (holds?: string, note = '') =>
  new Option('--json', `print exactly one JSON object ${holds ? `${holds} ` : ''}on stdout${note}`)
/**
 * `--format text|json|markdown|github|junit`, on the commands whose report CI reads (check,
 * diff, api diff, api push, api refetch). `--json` is `--format json`; the two given and
 * disagreeing is a usage error (the program's preAction hook). Add it with
 * `.addOption(formatOption())` beside `.addOption(json(…))`.
 */
export const formatOption = () =>
  new Option(
    '--format <format>',
    'the report: json (as --json), markdown (a PR comment), github (annotations), junit (XML); default text',
  ).choices(OUTPUT_FORMATS)
/** `--waivers <file>`: the waiver file of the commands that judge a changelog (docs/commands/diff.md). */
export const waiversOption = () =>
  new Option(
    '--waivers <file>',
    'accepted changes (default: svc-waivers.yaml here or above, up to the git root)',
  )
/** The format a command writes in: `--format`, else `json` under `--json`, else text. */
export function outputFormat(flags: JsonFlag): OutputFormat {
  return flags.format ?? (flags.json ? 'json' : 'text')
}
/** `--fail-on`, the CI gate of `svc diff`, `svc api diff`, `svc api push` and `svc api refetch`. */
const failOn = () =>
  new Option('--fail-on <level>', 'exit 1 when any change is at this level or above').choices([
    'breaking',
    'warning',
  ])
const origin = (fallback = 'then the login, ') =>
  new Option(
    '--origin <url>',
    `the hub (default: $SVC_API_ORIGIN, ${fallback}then http://localhost:8080)`,
  )
const token = () =>
  new Option('--token <pat>', 'the personal access token (default: $SVC_HUB_TOKEN, then the login)')
const SOURCE = 'a file path, an http(s) URL, or - for standard input'
/** `[project]`: every command takes the only project of the app root when it is not named. */
const PROJECT = 'the project under .svc/ (default: the only one)'
/** publish and push send the project to a hub: in strict mode they take none by default (SPEC 4.9). */
const PROJECT_NAMED_IN_STRICT_MODE =
  'the project under .svc/ (default: the only one; needed with --json or --no-input)'

/** The engine's DIFF_POLICIES, listed here so that `svc --help` does not load the engine. */
const POLICIES = ['sunset', 'stability', 'version'] as const satisfies readonly DiffPolicy[]

/** The engine's DIFF_PROFILES, listed here for the same reason. */
const PROFILES = ['wire', 'sdk'] as const satisfies readonly DiffProfile[]

/** `--profile wire|sdk` of `svc diff`, `svc api diff` and `svc api push` (docs/diff-rules.md, "SDK profile"). */
const profileOption = () =>
  new Option(
    '--profile <profile>',
    "whose breakage to judge: wire (requests and responses, the default) or sdk (also code svc's generators emit: function and type names, arguments, result unions)",
  ).choices(PROFILES)

/** `--generators`: repeatable, each value one name or a comma list. */
function collectGenerators(value: string, previous: readonly string[] = []): string[] {
  const names = value.split(',').map((name) => name.trim())
  return [...previous, ...names.filter((name) => name !== '')]
}

/** `--policy`: repeatable, each value one name or a comma list (`--policy sunset,version`). */
function collectPolicies(value: string, previous: readonly DiffPolicy[] = []): DiffPolicy[] {
  const names = value.split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !(POLICIES as readonly string[]).includes(name))
  if (unknown.length > 0)
    throw new InvalidArgumentError(
      `${unknown.map((name) => `'${name}'`).join(', ')} is not a policy. Policies: ${POLICIES.join(', ')}.`,
    )
  return [...new Set([...previous, ...(names as DiffPolicy[])])]
}

/**
 * Declares every command and its flags; each action lazy-loads its command and its renderer, so
 * `svc --help` stays fast. The exit code of the action that ran is reported through `onExit`.
 */
export function createProgram(io: CommandIO, onExit: (code: ExitCode) => void): Command {
  const program = new Command('svc')
    .description(
      'Check, convert and generate code from API descriptions (OpenAPI 2.0 / 3.0 / 3.1, GraphQL SDL).',
    )
    // After it prints, run() asks a configured hub whether it agrees (hub/version-notice.ts).
    .version(CLI_VERSION)
    // The program's own options (-V, --version) only before the command: `svc publish demo
    // --version 1.0.0` is publish's --version, not the CLI's.
    .enablePositionalOptions()
    .showSuggestionAfterError()

  /** Renders a command's result in its `--format` (JSON under `--json`), and how it exits. */
  const show = <R>(flags: JsonFlag, render: (result: R, output: Output) => ExitCode, result: R) =>
    onExit(render(result, createOutput(io, outputFormat(flags))))

  // `--json` means `--format json`: both, disagreeing, is a usage error before any work.
  program.hook('preAction', (_program, command) => {
    const { json: jsonFlag, format } = command.opts<JsonFlag>()
    if (jsonFlag && format !== undefined && format !== 'json')
      command.error(`--json means --format json; it cannot go with --format ${format}.`, {
        exitCode: 2,
        code: 'svc.formatConflict',
      })
  })

  program
    .command('check')
    .description('Parse an API description and report every parse issue, grouped by level.')
    .argument('[input]', SOURCE)
    .addOption(json('{ parseIssues, summary }'))
    .addOption(formatOption())
    .option(
      '--debug',
      'also show debug-level issues in the text, markdown, github and junit reports',
    )
    .addOption(
      new Option('--max-bytes <bytes>', 'refuse documents larger than this').argParser(
        positiveInteger,
      ),
    )
    .action(
      async (
        input: string | undefined,
        flags: JsonFlag & { debug?: boolean; maxBytes?: number },
      ) => {
        const { check } = await import('./commands/check/index.js')
        const { renderCheck } = await import('./commands/check/render.js')
        const result = await check({ input, maxBytes: flags.maxBytes }, io)
        show(flags, (r, output) => renderCheck(r, output, { debug: Boolean(flags.debug) }), result)
      },
    )

  program
    .command('to-v3-json')
    .description(
      'Print an OpenAPI 3 JSON document for any OpenAPI input (Swagger 2.0 is converted).',
    )
    .argument('[input]', SOURCE)
    .option('-o, --output <file>', 'write the document to this file instead of stdout')
    .action(async (input: string | undefined, flags: { output?: string }) => {
      const { toV3Json } = await import('./commands/to-v3-json/index.js')
      const { renderToV3Json } = await import('./commands/to-v3-json/render.js')
      show({}, renderToV3Json, await toV3Json({ input, output: flags.output }, io))
    })

  program
    .command('diff')
    .description(
      'List what changed between two API descriptions, breaking changes first (OpenAPI or GraphQL SDL).',
    )
    .argument('[old]', 'the old description: a file path, an http(s) URL, or - for standard input')
    .argument('[new]', 'the new description, likewise (only one of the two can be -)')
    .addOption(json('{ summary, counts, changes }'))
    .addOption(formatOption())
    .addOption(failOn())
    .addOption(waiversOption())
    .addOption(
      new Option(
        '--policy <name>',
        `also apply a convention: ${POLICIES.join(', ')} (repeatable, or a comma list)`,
      ).argParser(collectPolicies),
    )
    .addOption(profileOption())
    .addOption(
      new Option(
        '--generators <names>',
        "with --profile sdk: judge only what breaks these generators' code (gen-typescript, gen-zod, gen-fetch-client, gen-tanstack-query, or another generator's id; repeatable, or a comma list)",
      ).argParser(collectGenerators),
    )
    .option(
      '--project <name>',
      'with --profile sdk: judge only what breaks the code of the generators this project imports',
    )
    .action(
      async (
        old: string | undefined,
        next: string | undefined,
        flags: JsonFlag & {
          failOn?: 'breaking' | 'warning'
          policy?: DiffPolicy[]
          profile?: DiffProfile
          generators?: string[]
          project?: string
          waivers?: string
        },
      ) => {
        const { diff } = await import('./commands/diff/index.js')
        const { renderDiff } = await import('./commands/diff/render.js')
        const options = {
          old,
          new: next,
          failOn: flags.failOn,
          policies: flags.policy,
          profile: flags.profile,
          generators: flags.generators,
          project: flags.project,
          positions: outputFormat(flags) !== 'text',
          waivers: flags.waivers,
        }
        show(flags, renderDiff, await diff(options, io))
      },
    )

  program
    .command('init')
    .description('Create a project under .svc/ of the app root: its deno.json and client.json.')
    .argument('[project]', 'the project name: a slug (lowercase letters, digits, . _ -)')
    .option(
      '--name <@account/slug>',
      'the stack the project publishes to (default @<your login>/<project>, else @local/<project>)',
    )
    .option('--base-path <dir>', 'where generated files go, relative to the app root')
    .addOption(json())
    .addOption(noInput())
    .action(
      async (
        project: string | undefined,
        flags: JsonFlag & { name?: string; basePath?: string },
      ) => {
        const { init } = await import('./commands/init/index.js')
        const { renderInit } = await import('./commands/init/render.js')
        show(flags, renderInit, await init({ ...flags, project }, io))
      },
    )

  program
    .command('install')
    .description("Import official generators into a project's deno.json.")
    .argument(
      '[generators...]',
      'gen-typescript, gen-zod, gen-fetch-client, gen-tanstack-query, gen-graphql-client',
    )
    .option('-p, --project <project>', 'the project (default: the only one)')
    .option('--list', 'list the generators svc ships')
    .addOption(json())
    .addOption(noInput())
    .action(
      async (generators: string[], flags: JsonFlag & { project?: string; list?: boolean }) => {
        const { install } = await import('./commands/install/index.js')
        const { renderInstall } = await import('./commands/install/render.js')
        show(flags, renderInstall, await install({ ...flags, generators }, io))
      },
    )

  program
    .command('clone')
    .description("Copy an official generator's source into a project, to change what it emits.")
    .argument('[project]', PROJECT)
    .option('-g, --generator <generator>', 'the generator to clone, e.g. gen-zod')
    .addOption(json())
    .addOption(noInput())
    .action(async (project: string | undefined, flags: JsonFlag & { generator?: string }) => {
      const { clone } = await import('./commands/clone/index.js')
      const { renderClone } = await import('./commands/clone/render.js')
      show(flags, renderClone, await clone({ ...flags, project }, io))
    })

  program
    .command('remove')
    .description('Take generators out of a project; a cloned one needs --force.')
    .argument('[generators...]', 'the generators to remove')
    .option('-p, --project <project>', 'the project (default: the only one)')
    .option('--force', "also delete a cloned generator's folder")
    .addOption(json())
    .addOption(noInput())
    .action(
      async (generators: string[], flags: JsonFlag & { project?: string; force?: boolean }) => {
        const { remove } = await import('./commands/remove/index.js')
        const { renderRemove } = await import('./commands/remove/render.js')
        show(flags, renderRemove, await remove({ ...flags, generators }, io))
      },
    )

  program
    .command('bundle')
    .description("Bundle a project's generators with the engine into .svc/<project>/bundle.js.")
    .argument('[project]', PROJECT)
    .option('--server', 'build the stack server instead: a self-contained .svc/<project>/server.js')
    .addOption(json())
    .addOption(noInput())
    .action(async (project: string | undefined, flags: JsonFlag & { server?: boolean }) => {
      const { bundle } = await import('./commands/bundle/index.js')
      const { renderBundle } = await import('./commands/bundle/render.js')
      show(flags, renderBundle, await bundle({ ...flags, project }, io))
    })

  program
    .command('generate')
    .description("Run a project's generators over a schema and write the files under its basePath.")
    .argument('[project]', PROJECT)
    .argument('[schema]', 'a file path, an http(s) URL, or - (default: source in client.json)')
    .addOption(json(undefined, ' (strict mode)'))
    .addOption(noInput())
    .action(
      async (
        project: string | undefined,
        schema: string | undefined,
        flags: JsonFlag & InputFlag,
      ) => {
        const { generate } = await import('./commands/generate/index.js')
        const { renderGenerate } = await import('./commands/generate/render.js')
        show(flags, renderGenerate, await generate({ ...flags, project, schema }, io))
      },
    )

  program
    .command('doctor')
    .description(
      'Check the machine, the hub and the login, and the projects of this app root; each problem comes with a fix.',
    )
    .option('-p, --project <project>', 'check only this project')
    .addOption(origin())
    .addOption(token())
    .addOption(json('{ checks, summary }'))
    .addOption(noInput())
    .action(async (flags: JsonFlag & HubFlags & { project?: string }) => {
      const { doctor } = await import('./commands/doctor/index.js')
      const { renderDoctor } = await import('./commands/doctor/render.js')
      const cliVersion = program.version() ?? '0.1.0'
      show(flags, renderDoctor, await doctor({ ...flags, cliVersion }, io))
    })

  program
    .command('login')
    .description('Check a personal access token with the hub and store it with the origin.')
    .addHelpText(
      'after',
      () =>
        `\nMake a token in the hub's web app at <origin>/settings/tokens, with the scopes of the commands you will run:\n${scopeTable()}`,
    )
    .addOption(origin(''))
    .option('--token <pat>', 'the personal access token')
    .option('--with-token', 'read the token from standard input')
    .addOption(json())
    .addOption(noInput())
    .action(async (flags: JsonFlag & InputFlag & HubFlags & { withToken?: boolean }) => {
      const { login } = await import('./commands/login/index.js')
      const { renderLogin } = await import('./commands/login/render.js')
      show(flags, renderLogin, await login(flags, io))
    })

  program
    .command('logout')
    .description('Remove the stored login.')
    .addOption(json())
    .action(async (flags: JsonFlag) => {
      const { logout } = await import('./commands/logout/index.js')
      const { renderLogout } = await import('./commands/logout/render.js')
      show(flags, renderLogout, await logout({}, io))
    })

  program
    .command('whoami')
    .description('Who the token belongs to, on which hub.')
    .addOption(token())
    .addOption(origin())
    .addOption(json())
    .action(async (flags: JsonFlag & HubFlags) => {
      const { whoami } = await import('./commands/whoami/index.js')
      const { renderWhoami } = await import('./commands/whoami/render.js')
      show(flags, renderWhoami, await whoami(flags, io))
    })

  program
    .command('publish')
    .description(
      "Bundle a project's stack server and publish it with its source as a stack version.",
    )
    .argument('[project]', PROJECT_NAMED_IN_STRICT_MODE)
    .addOption(token())
    .option('--version <semver>', 'the version (default: version in deno.json)')
    .addOption(origin())
    .addOption(json())
    .addOption(noInput())
    .action(
      async (project: string | undefined, flags: JsonFlag & HubFlags & { version?: string }) => {
        const { publish } = await import('./commands/publish/index.js')
        const { renderPublish } = await import('./commands/publish/render.js')
        show(flags, renderPublish, await publish({ ...flags, project }, io))
      },
    )

  program
    .command('push')
    .description(
      "Replace a hub project's config with the project's client.json, and optionally its base files.",
    )
    .argument('[project]', PROJECT_NAMED_IN_STRICT_MODE)
    .option(
      '--project <@account/slug>',
      'the hub project (default: project in client.json); recorded there',
    )
    .addOption(origin())
    .addOption(token())
    .option('--base-files', "also push the app's base files")
    .option('--base-files-only', 'push only the base files; leave the config untouched')
    .option('--force', 'replace an existing config without asking')
    .addOption(json())
    .addOption(noInput())
    .action(
      async (
        localProject: string | undefined,
        flags: JsonFlag &
          InputFlag &
          HubFlags & {
            project?: string
            baseFiles?: boolean
            baseFilesOnly?: boolean
            force?: boolean
          },
      ) => {
        const { push } = await import('./commands/push/index.js')
        const { renderPush } = await import('./commands/push/render.js')
        show(flags, renderPush, await push({ ...flags, localProject }, io))
      },
    )

  program
    .command('pull')
    .description("Unfold a hub project's config back into the project's client.json.")
    .argument('[project]', PROJECT)
    .option('--project <@account/slug>', 'the hub project (default: project in client.json)')
    .addOption(origin())
    .addOption(token())
    .option('--force', 'replace local enrichments, include and skip that differ without asking')
    .addOption(json())
    .addOption(noInput())
    .action(
      async (
        localProject: string | undefined,
        flags: JsonFlag & InputFlag & HubFlags & { project?: string; force?: boolean },
      ) => {
        const { pull } = await import('./commands/pull/index.js')
        const { renderPull } = await import('./commands/pull/render.js')
        show(flags, renderPull, await pull({ ...flags, localProject }, io))
      },
    )

  const API_DOCS = 'docs/commands/api.md'
  const WEBHOOK_DOCS = 'docs/commands/api-webhooks.md'
  const API = 'the API: owner/slug or @owner/slug'
  type ApiFlags = JsonFlag & InputFlag & HubFlags

  const api = program
    .command('api')
    .description('Create APIs on the hub, push their revisions (a CI gate), read their changes.')
  declareHelp(
    api,
    [
      'svc api create acme/payments --name "Payments API"',
      'svc api diff acme/payments openapi.yaml --fail-on breaking',
      'svc api diff acme/payments openapi.yaml --profile sdk',
      'svc api push acme/payments openapi.yaml --fail-on breaking',
      'svc api accept acme/payments 4 --reason "POST /pets is gone on purpose"',
      'svc api changes acme/payments',
    ],
    API_DOCS,
  )

  declareHelp(
    api
      .command('create')
      .description('Create an API on the hub (POST /v1/apis).')
      .argument('[api]', API)
      .option('--name <name>', 'the display name (default: the slug)')
      .addOption(
        new Option('--visibility <visibility>', 'who can read it (default: private)').choices([
          'private',
          'public',
        ]),
      )
      .option('--source-url <url>', 'where svc api refetch fetches the document from')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, origin, api }'))
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          flags: ApiFlags & {
            name?: string
            visibility?: 'private' | 'public'
            sourceUrl?: string
          },
        ) => {
          const { apiCreate } = await import('./commands/api/create.js')
          const { renderApiCreate } = await import('./commands/api/create.render.js')
          show(flags, renderApiCreate, await apiCreate({ ...flags, api: name }, io))
        },
      ),
    [
      'svc api create acme/payments',
      'svc api create @acme/payments --name "Payments API" --visibility public',
      'svc api create acme/petstore --source-url https://petstore3.swagger.io/api/v3/openapi.json',
    ],
    API_DOCS,
  )

  declareHelp(
    api
      .command('list')
      .description('List the APIs the token can read (public ones without a token).')
      .option('--owner <account>', 'only the APIs of this account')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, origin, authenticated, apis }'))
      .addOption(noInput())
      .action(async (flags: ApiFlags & { owner?: string }) => {
        const { apiList } = await import('./commands/api/list.js')
        const { renderApiList } = await import('./commands/api/list.render.js')
        show(flags, renderApiList, await apiList(flags, io))
      }),
    ['svc api list', 'svc api list --owner acme --json'],
    API_DOCS,
  )

  declareHelp(
    api
      .command('push')
      .description(
        'Push a new revision of an API and print its changes against the latest; --fail-on gates CI.',
      )
      .argument('[api]', API)
      .argument('[document]', SOURCE)
      .option('--version <label>', "the publisher's version label, e.g. 1.4.0")
      .option('--published-at <date-time>', "the publisher's timestamp (ISO 8601)")
      .addOption(failOn())
      .addOption(profileOption())
      .addOption(waiversOption())
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, revision, previousRevision, summary, counts, changes }'))
      .addOption(formatOption())
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          document: string | undefined,
          flags: ApiFlags & {
            version?: string
            publishedAt?: string
            failOn?: 'breaking' | 'warning'
            profile?: DiffProfile
            waivers?: string
          },
        ) => {
          const { apiPush } = await import('./commands/api/push.js')
          const { renderApiRevision } = await import('./commands/api/push.render.js')
          const positions = outputFormat(flags) !== 'text'
          show(
            flags,
            renderApiRevision,
            await apiPush({ ...flags, api: name, source: document, positions }, io),
          )
        },
      ),
    [
      'svc api push acme/payments openapi.yaml',
      'svc api push acme/payments openapi.yaml --version 1.4.0 --fail-on breaking',
      'curl -s https://example.com/openapi.json | svc api push acme/payments - --json',
    ],
    API_DOCS,
  )

  declareHelp(
    api
      .command('diff')
      .description(
        "Compare a document with an API's revision on the hub, storing nothing: svc diff's changelog and exit codes (a pull-request gate).",
      )
      .argument('[api]', API)
      .argument('[document]', SOURCE)
      .option(
        '--against <revision>',
        'the revision to compare with: latest (default), a sequence number (4 or #4) or an id (rev_…)',
      )
      .addOption(failOn())
      .addOption(
        new Option(
          '--policy <name>',
          `also apply a convention: ${POLICIES.join(', ')} (repeatable, or a comma list)`,
        ).argParser(collectPolicies),
      )
      .addOption(profileOption())
      .addOption(waiversOption())
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ summary, counts, changes }'))
      .addOption(formatOption())
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          document: string | undefined,
          flags: ApiFlags & {
            against?: string
            failOn?: 'breaking' | 'warning'
            policy?: DiffPolicy[]
            profile?: DiffProfile
            waivers?: string
          },
        ) => {
          const { apiDiff } = await import('./commands/api/diff.js')
          const { renderApiDiff } = await import('./commands/api/diff.render.js')
          const options = {
            ...flags,
            api: name,
            source: document,
            policies: flags.policy,
            positions: outputFormat(flags) !== 'text',
          }
          show(flags, renderApiDiff, await apiDiff(options, io))
        },
      ),
    [
      'svc api diff acme/payments openapi.yaml',
      'svc api diff acme/payments openapi.yaml --fail-on breaking',
      'svc api diff acme/payments openapi.yaml --profile sdk',
      'svc api diff acme/payments openapi.yaml --against 4 --json',
    ],
    API_DOCS,
  )

  declareHelp(
    api
      .command('accept')
      .description(
        "Accept a revision's breaking changes and warnings as deliberate, with a reason: svc api push --fail-on then passes on it.",
      )
      .argument('[api]', API)
      .argument('[revision]', 'a sequence number (4 or #4) or a revision id (rev_…)')
      .option('--reason <text>', 'why the changes are deliberate (1 to 500 characters)')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, revision, acceptance, counts }'))
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          revision: string | undefined,
          flags: ApiFlags & { reason?: string },
        ) => {
          const { apiAccept } = await import('./commands/api/accept.js')
          const { renderApiAccept } = await import('./commands/api/accept.render.js')
          show(flags, renderApiAccept, await apiAccept({ ...flags, api: name, revision }, io))
        },
      ),
    [
      'svc api accept acme/payments 4 --reason "POST /pets is gone on purpose"',
      'svc api accept acme/payments rev_5f0c7e2b9d4a1c3e8f6b2a70 --reason "announced in March" --json',
    ],
    API_DOCS,
  )

  declareHelp(
    api
      .command('revisions')
      .description("List an API's revisions, newest first.")
      .argument('[api]', API)
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, origin, revisions }'))
      .addOption(noInput())
      .action(async (name: string | undefined, flags: ApiFlags) => {
        const { apiRevisions } = await import('./commands/api/revisions.js')
        const { renderApiRevisions } = await import('./commands/api/revisions.render.js')
        show(flags, renderApiRevisions, await apiRevisions({ ...flags, api: name }, io))
      }),
    ['svc api revisions acme/payments', 'svc api revisions acme/payments --json'],
    API_DOCS,
  )

  declareHelp(
    api
      .command('changes')
      .description("A revision's changes against the revision before it, breaking first.")
      .argument('[api]', API)
      .argument(
        '[revision]',
        'a sequence number (4 or #4), a revision id (rev_…) or latest (default)',
      )
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ revision, previousRevision, summary, counts, changes }'))
      .addOption(noInput())
      .action(async (name: string | undefined, revision: string | undefined, flags: ApiFlags) => {
        const { apiChanges } = await import('./commands/api/changes.js')
        const { renderApiChanges } = await import('./commands/api/changes.render.js')
        show(flags, renderApiChanges, await apiChanges({ ...flags, api: name, revision }, io))
      }),
    [
      'svc api changes acme/payments',
      'svc api changes acme/payments 4',
      'svc api changes acme/payments rev_5f0c7e2b9d4a1c3e8f6b2a70',
    ],
    API_DOCS,
  )

  declareHelp(
    api
      .command('refetch')
      .description("Have the hub fetch the API's sourceUrl and push what it serves.")
      .argument('[api]', API)
      .addOption(failOn())
      .addOption(waiversOption())
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, revision, previousRevision, summary, counts, changes }'))
      .addOption(formatOption())
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          flags: ApiFlags & { failOn?: 'breaking' | 'warning'; waivers?: string },
        ) => {
          const { apiRefetch } = await import('./commands/api/refetch.js')
          const { renderApiRevision } = await import('./commands/api/push.render.js')
          show(flags, renderApiRevision, await apiRefetch({ ...flags, api: name }, io))
        },
      ),
    ['svc api refetch acme/petstore', 'svc api refetch acme/petstore --fail-on breaking'],
    API_DOCS,
  )

  const webhooks = api
    .command('webhooks')
    .description("Manage an API's webhooks: list, add, update, delete, test, deliveries, retry.")
  declareHelp(
    webhooks,
    [
      'svc api webhooks add acme/payments https://ci.example.com/hooks/svc',
      'svc api webhooks list acme/payments',
    ],
    WEBHOOK_DOCS,
  )
  const WEBHOOK_ID = 'the webhook id (whk_…)'

  declareHelp(
    webhooks
      .command('list')
      .description("List an API's webhooks (never their secrets).")
      .argument('[api]', API)
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, webhooks }'))
      .addOption(noInput())
      .action(async (name: string | undefined, flags: ApiFlags) => {
        const { webhooksList } = await import('./commands/api/webhooks.js')
        const { renderWebhooksList } = await import('./commands/api/webhooks.render.js')
        show(flags, renderWebhooksList, await webhooksList({ ...flags, api: name }, io))
      }),
    ['svc api webhooks list acme/payments'],
    WEBHOOK_DOCS,
  )

  declareHelp(
    webhooks
      .command('add')
      .description('Add a webhook; its signing secret is printed this once.')
      .argument('[api]', API)
      .argument('[url]', 'where the hub POSTs events (http or https)')
      .option('--description <text>', 'a note on what receives the events')
      .addOption(
        new Option(
          '--min-level <level>',
          'send revision events only with a change at this level or above (default: info)',
        ).choices(['breaking', 'warning', 'info']),
      )
      .addOption(
        new Option(
          '--profile <profile>',
          "judge its revision events as wire or sdk (default: the API's diff profile)",
        ).choices(['wire', 'sdk']),
      )
      .option('--inactive', 'add it switched off')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, webhook } (webhook.secret included)'))
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          url: string | undefined,
          flags: ApiFlags & {
            description?: string
            minLevel?: 'breaking' | 'warning' | 'info'
            profile?: 'wire' | 'sdk'
            inactive?: boolean
          },
        ) => {
          const { webhookAdd } = await import('./commands/api/webhooks.js')
          const { renderWebhookAdd } = await import('./commands/api/webhooks.render.js')
          show(flags, renderWebhookAdd, await webhookAdd({ ...flags, api: name, url }, io))
        },
      ),
    [
      'svc api webhooks add acme/payments https://ci.example.com/hooks/svc',
      'svc api webhooks add acme/payments https://chat.example.com/hook --min-level breaking',
    ],
    WEBHOOK_DOCS,
  )

  declareHelp(
    webhooks
      .command('test')
      .description('Queue a test event for one webhook.')
      .argument('[api]', API)
      .argument('[webhook]', WEBHOOK_ID)
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, delivery }'))
      .addOption(noInput())
      .action(async (name: string | undefined, webhookId: string | undefined, flags: ApiFlags) => {
        const { webhookTest } = await import('./commands/api/webhooks.js')
        const { renderWebhookDelivery } = await import('./commands/api/webhooks.render.js')
        show(
          flags,
          renderWebhookDelivery,
          await webhookTest({ ...flags, api: name, webhookId }, io),
        )
      }),
    ['svc api webhooks test acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70'],
    WEBHOOK_DOCS,
  )

  declareHelp(
    webhooks
      .command('deliveries')
      .description("A webhook's newest deliveries, with their state and last answer.")
      .argument('[api]', API)
      .argument('[webhook]', WEBHOOK_ID)
      .addOption(
        new Option('--state <state>', 'only deliveries in this state').choices([
          'pending',
          'succeeded',
          'failed',
        ]),
      )
      .addOption(new Option('--limit <n>', 'how many, 1 to 100 (default 20)').argParser(pageSize))
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, webhookId, deliveries, more }'))
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          webhookId: string | undefined,
          flags: ApiFlags & { state?: 'pending' | 'succeeded' | 'failed'; limit?: number },
        ) => {
          const { webhookDeliveries } = await import('./commands/api/webhooks.js')
          const { renderWebhookDeliveries } = await import('./commands/api/webhooks.render.js')
          const options = { ...flags, api: name, webhookId }
          show(flags, renderWebhookDeliveries, await webhookDeliveries(options, io))
        },
      ),
    ['svc api webhooks deliveries acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --state failed'],
    WEBHOOK_DOCS,
  )

  declareHelp(
    webhooks
      .command('retry')
      .description('Attempt a succeeded or failed delivery again now, with the same event id.')
      .argument('[api]', API)
      .argument('[webhook]', WEBHOOK_ID)
      .argument('[delivery]', 'the delivery id (dlv_…)')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, delivery }'))
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          webhookId: string | undefined,
          deliveryId: string | undefined,
          flags: ApiFlags,
        ) => {
          const { webhookRetry } = await import('./commands/api/webhooks.js')
          const { renderWebhookDelivery } = await import('./commands/api/webhooks.render.js')
          const options = { ...flags, api: name, webhookId, deliveryId }
          show(flags, renderWebhookDelivery, await webhookRetry(options, io))
        },
      ),
    [
      'svc api webhooks retry acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 dlv_0a1b2c3d4e5f60718293a4b5',
    ],
    WEBHOOK_DOCS,
  )

  declareHelp(
    webhooks
      .command('update')
      .description(
        "Change a webhook's URL, description, minimum level, profile or state; rotate its secret.",
      )
      .argument('[api]', API)
      .argument('[webhook]', WEBHOOK_ID)
      .option('--url <url>', 'where the hub POSTs events from now on (http or https)')
      .option('--description <text>', 'a note on what receives the events ("" removes it)')
      .addOption(
        new Option(
          '--min-level <level>',
          'send revision events only with a change at this level or above',
        ).choices(['breaking', 'warning', 'info']),
      )
      .addOption(
        new Option(
          '--profile <profile>',
          "judge its revision events as wire or sdk; api: the API's diff profile",
        ).choices(['wire', 'sdk', 'api']),
      )
      .option('--active', 'switch it on')
      .option('--inactive', 'switch it off')
      .option('--rotate-secret', 'replace its signing secret (printed this once)')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, webhook } (webhook.secret with --rotate-secret)'))
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          webhookId: string | undefined,
          flags: ApiFlags & {
            url?: string
            description?: string
            minLevel?: 'breaking' | 'warning' | 'info'
            profile?: 'wire' | 'sdk' | 'api'
            active?: boolean
            inactive?: boolean
            rotateSecret?: boolean
          },
        ) => {
          const { webhookUpdate } = await import('./commands/api/webhooks.js')
          const { renderWebhookUpdate } = await import('./commands/api/webhooks.render.js')
          const options = { ...flags, api: name, webhookId }
          show(flags, renderWebhookUpdate, await webhookUpdate(options, io))
        },
      ),
    [
      'svc api webhooks update acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --min-level breaking',
      'svc api webhooks update acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --rotate-secret',
    ],
    WEBHOOK_DOCS,
  )

  declareHelp(
    webhooks
      .command('delete')
      .description('Delete a webhook with its delivery log; asks first, or takes --yes.')
      .argument('[api]', API)
      .argument('[webhook]', WEBHOOK_ID)
      .option('--yes', 'delete without asking (needed with --json, --no-input or no terminal)')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, api, webhookId }'))
      .addOption(noInput())
      .action(
        async (
          name: string | undefined,
          webhookId: string | undefined,
          flags: ApiFlags & { yes?: boolean },
        ) => {
          const { webhookDelete } = await import('./commands/api/webhooks.js')
          const { renderWebhookDelete } = await import('./commands/api/webhooks.render.js')
          const options = { ...flags, api: name, webhookId }
          show(flags, renderWebhookDelete, await webhookDelete(options, io))
        },
      ),
    [
      'svc api webhooks delete acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70',
      'svc api webhooks delete acme/payments whk_5f0c7e2b9d4a1c3e8f6b2a70 --yes --json',
    ],
    WEBHOOK_DOCS,
  )

  const projects = program.command('projects').description('List the projects on the hub.')
  declareHelp(projects, ['svc projects list'], 'docs/commands/projects.md')
  declareHelp(
    projects
      .command('list')
      .description("List the hub projects of the token's user and its organisations.")
      .option('--owner <account>', 'only the projects of this account')
      .addOption(origin())
      .addOption(token())
      .addOption(json('{ type, origin, projects }'))
      .addOption(noInput())
      .action(async (flags: ApiFlags & { owner?: string }) => {
        const { projectsList } = await import('./commands/projects/index.js')
        const { renderProjectsList } = await import('./commands/projects/render.js')
        show(flags, renderProjectsList, await projectsList(flags, io))
      }),
    ['svc projects list', 'svc projects list --owner acme --json'],
    'docs/commands/projects.md',
  )

  program
    .command('completion')
    .description('Print a shell completion script for svc: bash, zsh or fish.')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completion } = await import('./commands/completion/index.js')
      io.stdout.write(completion(program, shell))
      onExit(0)
    })

  return finishCommands(program)
}

function pageSize(value: string): number {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 100)
    throw new InvalidArgumentError('Expected a whole number from 1 to 100.')
  return parsed
}

function positiveInteger(value: string): number {
  const parsed = Number(value)
  // InvalidArgumentError makes commander report a usage error (exit 2) instead of a crash.
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('Expected a positive whole number of bytes.')
  }
  return parsed
}
