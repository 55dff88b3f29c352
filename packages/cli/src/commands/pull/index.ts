import { relative } from 'node:path'
import { confirm, isCancel } from '@clack/prompts'
import { UnfoldedClientConfigSchema } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { CommandError, RecipeError } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { hubRequest } from '../../hub/hub-client.js'
import { requireToken } from '../../hub/require-token.js'
import { canPrompt, promptStreams } from '../../interactive.js'
import { readClientConfig, writeClientConfig } from '../../project/client-config.js'
import { openProject } from '../../project/open-project.js'
import {
  destinationFlag,
  formatDestination,
  parseDestination,
  type Destination,
} from '../push/destination.js'

export type PullOptions = {
  /** The local project under `.svc/`. */
  readonly localProject?: string | undefined
  /** The hub project `@account/slug`; `project` of client.json by default. */
  readonly project?: string | undefined
  readonly origin?: string | undefined
  readonly token?: string | undefined
  readonly force?: boolean | undefined
  readonly json?: boolean | undefined
  readonly input?: boolean | undefined
}

export type PullResult = {
  readonly type: 'pulled' | 'aborted'
  readonly projectName: string
  readonly project: Destination
  readonly origin: string
  /** The settings that differed and were replaced (none when aborted). */
  readonly changed: readonly string[]
  /** The client.json written, or left unchanged when aborted. */
  readonly clientConfig: string
}

const RECIPE = {
  usage:
    'svc pull [project] [--project <@account/slug>] [--origin <url>] [--token <pat>] [--force] [--json]',
  example: 'svc pull demo --project @acme/billing',
}

/** The settings a pull replaces; `basePath`, `importExtension` and keys of your own stay. */
const PULLED = ['enrichments', 'include', 'skip'] as const

/**
 * `svc pull <project>`: unfolds the hub project's config back into `client.json`: enrichments,
 * include and skip are replaced, every other key is kept. Local settings that differ are only
 * replaced with `--force` or a yes on a terminal.
 */
export async function pull(options: PullOptions, io: CommandIO): Promise<PullResult> {
  const paths = openProject(options.localProject, io.cwd, RECIPE)
  const flagged =
    options.project === undefined ? undefined : destinationFlag(options.project, RECIPE)
  const config = readClientConfig(paths.clientConfig)
  const named = options.project ?? config.project
  if (named === undefined)
    throw new RecipeError({
      ...RECIPE,
      problem: `No project to pull from: give --project @account/slug, or set "project" in ${relative(io.cwd, paths.clientConfig)}.`,
      discover: 'svc projects list',
    })
  const destination = flagged ?? parseDestination(named)
  if (destination === undefined)
    throw new CommandError(`'${named}' is not a project: it must be @account/slug`)
  const credentials = requireToken(resolveCredentials(options, io.env), {
    command: 'pull',
    ...RECIPE,
  })
  const target = formatDestination(destination)
  const remote = await hubRequest(credentials.origin, credentials.token, {
    method: 'GET',
    path: `/v1/projects/${destination.account}/${destination.slug}/client-config`,
    answer: UnfoldedClientConfigSchema,
  }).catch((error: unknown) => {
    throw new CommandError(hubAdvice('pull', error, { ...credentials, target }))
  })
  const local = config.settings as Record<string, unknown>
  const incoming = remote.body.settings
  const changed = PULLED.filter(
    (key) => JSON.stringify(local[key] ?? null) !== JSON.stringify(incoming[key] ?? null),
  )
  const pulled: PullResult = {
    type: 'pulled',
    projectName: paths.name,
    project: destination,
    origin: credentials.origin,
    changed,
    clientConfig: paths.clientConfig,
  }
  const losesLocal = changed.some((key) => !isEmpty(local[key]))
  if (losesLocal && !options.force) {
    const asked = canPrompt(options, io)
      ? await confirm({
          message: `Replace the local ${changed.join(', ')} of ${paths.name} with ${target}'s?`,
          initialValue: false,
          ...promptStreams(io),
        })
      : undefined
    if (asked === undefined)
      throw new CommandError(
        `the local ${changed.join(', ')} of ${paths.name} differ from ${target}'s; pass --force to replace them`,
      )
    if (isCancel(asked) || !asked) return { ...pulled, type: 'aborted', changed: [] }
  }
  const settings: Record<string, unknown> = { ...local }
  for (const key of PULLED) {
    if (incoming[key] === undefined) delete settings[key]
    else settings[key] = incoming[key]
  }
  const recorded = options.project !== undefined && options.project !== config.project
  writeClientConfig(paths.clientConfig, {
    ...config,
    ...(recorded ? { project: options.project } : {}),
    settings,
  })
  return pulled
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true
  if (Array.isArray(value)) return value.length === 0
  return typeof value === 'object' && Object.keys(value).length === 0
}
