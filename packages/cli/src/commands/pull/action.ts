import { relative } from 'node:path'
import { confirm, isCancel } from '@clack/prompts'
import { CommandError, EXIT, RecipeError, type ExitCode } from '../../errors.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { UnfoldedClientConfigSchema } from '@svc/hub-api'
import { HubError, hubRequest } from '../../hub/hub-client.js'
import { canPrompt } from '../../interactive.js'
import type { Output } from '../../output.js'
import { readClientConfig, writeClientConfig } from '../../project/client-config.js'
import { openProject } from '../../project/open-project.js'
import { formatDestination, parseDestination } from '../push/destination.js'

export type PullFlags = {
  project?: string
  origin?: string
  token?: string
  force?: boolean
  json?: boolean
  input?: boolean
}

const RECIPE = {
  usage:
    'svc pull <project> [--project <@account/slug>] [--origin <url>] [--token <pat>] [--force] [--json]',
  example: 'svc pull demo --project @acme/billing',
}

/** The settings a pull replaces; `basePath`, `importExtension` and keys of your own stay. */
const PULLED = ['enrichments', 'include', 'skip'] as const

/**
 * `svc pull <project>`: unfolds the hub project's config back into `client.json`: enrichments,
 * include and skip are replaced, every other key is kept. Local settings that differ are only
 * replaced with `--force` or a yes on a terminal.
 */
export async function pullAction(
  project: string | undefined,
  flags: PullFlags,
  output: Output,
  io: {
    cwd: string
    env: NodeJS.ProcessEnv
    stdin: NodeJS.ReadableStream & { isTTY?: boolean }
    stderr: NodeJS.WritableStream & { isTTY?: boolean }
  },
): Promise<ExitCode> {
  const paths = openProject(project, io.cwd, RECIPE)
  const config = readClientConfig(paths.clientConfig)
  const named = flags.project ?? config.project
  if (named === undefined)
    throw new RecipeError({
      ...RECIPE,
      problem: `No project to pull from: give --project @account/slug, or set "project" in ${relative(io.cwd, paths.clientConfig)}.`,
      discover: 'the project page of the web app',
    })
  const destination = parseDestination(named)
  if (destination === undefined)
    throw new CommandError(`'${named}' is not a project: it must be @account/slug`)
  const credentials = resolveCredentials(flags, io.env)
  if (credentials.token === undefined)
    throw new RecipeError({
      ...RECIPE,
      problem: 'svc pull needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
      discover: 'svc login --help',
    })
  const remote = await hubRequest(credentials.origin, credentials.token, {
    method: 'GET',
    path: `/v1/projects/${destination.account}/${destination.slug}/client-config`,
    answer: UnfoldedClientConfigSchema,
  }).catch((error: unknown) => {
    const name = formatDestination(destination)
    throw new CommandError(
      error instanceof HubError && error.status === 404
        ? `the project ${name} does not exist on ${credentials.origin}`
        : `cannot pull ${name}: ${(error as Error).message}`,
    )
  })
  const local = config.settings as Record<string, unknown>
  const incoming = remote.body.settings
  const changed = PULLED.filter(
    (key) => JSON.stringify(local[key] ?? null) !== JSON.stringify(incoming[key] ?? null),
  )
  const losesLocal = changed.some((key) => !isEmpty(local[key]))
  if (losesLocal && !flags.force) {
    const asked = canPrompt(flags, io)
      ? await confirm({
          message: `Replace the local ${changed.join(', ')} of ${paths.name} with ${formatDestination(destination)}'s?`,
          initialValue: false,
          input: io.stdin as NodeJS.ReadStream,
          output: io.stderr as NodeJS.WriteStream,
        })
      : undefined
    if (asked === undefined)
      throw new CommandError(
        `the local ${changed.join(', ')} of ${paths.name} differ from ${formatDestination(destination)}'s; pass --force to replace them`,
      )
    if (isCancel(asked) || !asked) {
      if (flags.json)
        output.json({ type: 'aborted', projectName: paths.name, project: destination })
      else output.result(`Pull aborted: ${relative(io.cwd, paths.clientConfig)} is unchanged.`)
      return EXIT.ok
    }
  }
  const settings: Record<string, unknown> = { ...local }
  for (const key of PULLED) {
    if (incoming[key] === undefined) delete settings[key]
    else settings[key] = incoming[key]
  }
  const recorded = flags.project !== undefined && flags.project !== config.project
  writeClientConfig(paths.clientConfig, {
    ...config,
    ...(recorded ? { project: flags.project } : {}),
    settings,
  })
  if (flags.json)
    output.json({
      type: 'pulled',
      projectName: paths.name,
      project: destination,
      origin: credentials.origin,
      changed,
    })
  else
    output.result(
      changed.length === 0
        ? `${paths.name} already matches ${formatDestination(destination)}.`
        : `Pulled ${formatDestination(destination)} into ${relative(io.cwd, paths.clientConfig)}: replaced ${changed.join(', ')}.`,
    )
  return EXIT.ok
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true
  if (Array.isArray(value)) return value.length === 0
  return typeof value === 'object' && Object.keys(value).length === 0
}
