import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { confirm, isCancel } from '@clack/prompts'
import {
  BaseFilesSchema,
  ProjectConfigResponseSchema,
  type ClientConfig as ClientConfigBody,
} from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import { atStage, RecipeError, StageFailure, stageFailed, type StageFailed } from '../../errors.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { requireToken } from '../../hub/require-token.js'
import { canPrompt, isStrict, promptStreams } from '../../interactive.js'
import { collectBaseFiles } from '../../project/base-files.js'
import { readClientConfig, writeClientConfig } from '../../project/client-config.js'
import { openProject } from '../../project/open-project.js'
import {
  destinationFlag,
  formatDestination,
  parseDestination,
  type Destination,
} from './destination.js'
import { projectRequest } from './project-request.js'

export type PushOptions = {
  /** The local project under `.svc/`. */
  readonly localProject?: string | undefined
  /** The hub project `@account/slug`; `project` of client.json by default. */
  readonly project?: string | undefined
  readonly origin?: string | undefined
  readonly token?: string | undefined
  readonly baseFiles?: boolean | undefined
  readonly baseFilesOnly?: boolean | undefined
  readonly force?: boolean | undefined
  readonly json?: boolean | undefined
  readonly input?: boolean | undefined
}

export type PushStage = 'read' | 'destination' | 'push'

export type PushResult =
  | {
      readonly type: 'pushed'
      readonly projectName: string
      readonly project: Destination
      readonly origin: string
      readonly enrichmentCount: number
      readonly overwroteExistingConfig: boolean
      /** True when this push replaced the hub project's config (not with `--base-files-only`). */
      readonly remoteWritten: boolean
      /** How many base files were sent; 0 without `--base-files` or `--base-files-only`. */
      readonly baseFilesPushed: number
      readonly withBaseFiles: boolean
      /** Whether `--project` was written to client.json#project. */
      readonly recorded: boolean
    }
  | { readonly type: 'aborted'; readonly projectName: string; readonly project: Destination }
  | StageFailed<PushStage>

const RECIPE = {
  usage:
    'svc push [project] [--project <@account/slug>] [--origin <url>] [--token <pat>] [--base-files | --base-files-only] [--force] [--json] [--no-input]',
  example: 'svc push demo --project @acme/billing',
}

/**
 * `svc push <project>`: sends the project's `client.json` settings to a hub project that exists
 * (created in the web app), after `GET …/config` as the overwrite pre-check, and with
 * `--base-files` the app's hand-authored files. In strict mode the project is named, as for
 * publish (SPEC 4.9): a script never sends the only one by default.
 */
export async function push(options: PushOptions, io: CommandIO): Promise<PushResult> {
  if (options.baseFiles && options.baseFilesOnly)
    throw new RecipeError({
      ...RECIPE,
      problem: 'Give --base-files or --base-files-only, not both.',
      discover: 'svc push --help',
    })
  const paths = openProject(options.localProject, io.cwd, RECIPE, { strict: isStrict(options) })
  const flagged =
    options.project === undefined ? undefined : destinationFlag(options.project, RECIPE)
  try {
    const config = await atStage('read', () => readClientConfig(paths.clientConfig))
    const named = options.project ?? config.project
    if (named === undefined)
      throw new RecipeError({
        ...RECIPE,
        problem: `No destination: give --project @account/slug, or set "project" in ${relative(io.cwd, paths.clientConfig)}.`,
        discover: 'svc projects list (projects are created in the web app)',
      })
    const destination = flagged ?? parseDestination(named)
    if (destination === undefined)
      throw new StageFailure('destination', `'${named}' is not a project: it must be @account/slug`)
    const credentials = requireToken(resolveCredentials(options, io.env), {
      command: 'push',
      ...RECIPE,
    })
    const request = projectRequest(credentials, destination)
    let overwrote = false
    let enrichmentCount = 0
    if (!options.baseFilesOnly) {
      const existing = (await request('GET', '/config', ProjectConfigResponseSchema)).body
      overwrote = existing.updatedAt !== null
      if (overwrote && !options.force && canPrompt(options, io)) {
        const answer = await confirm({
          message: `${formatDestination(destination)} on ${credentials.origin} has a config (${existing.enrichmentCount} enrichments). Replace it?`,
          initialValue: false,
          ...promptStreams(io),
        })
        if (isCancel(answer) || !answer)
          return { type: 'aborted', projectName: paths.name, project: destination }
      }
      const written = await request('PUT', '/client-config', ProjectConfigResponseSchema, {
        json: {
          ...(config.source === undefined ? {} : { source: config.source }),
          settings: config.settings,
        } satisfies ClientConfigBody,
      })
      enrichmentCount = written.body.enrichmentCount
    }
    const withBaseFiles = Boolean(options.baseFiles || options.baseFilesOnly)
    let baseFilesPushed = 0
    if (withBaseFiles) {
      const files = collectBaseFiles(paths.appRoot)
      const form = new FormData()
      for (const file of files)
        form.append('files', new Blob([readFileSync(file.absolute)]), file.path)
      await request('PUT', '/preview/base-files', BaseFilesSchema, { form })
      baseFilesPushed = files.length
    }
    const recorded = options.project !== undefined && options.project !== config.project
    if (recorded) writeClientConfig(paths.clientConfig, { ...config, project: options.project })
    return {
      type: 'pushed',
      projectName: paths.name,
      project: destination,
      origin: credentials.origin,
      enrichmentCount,
      overwroteExistingConfig: overwrote && !options.baseFilesOnly,
      remoteWritten: !options.baseFilesOnly,
      baseFilesPushed,
      withBaseFiles,
      recorded,
    }
  } catch (error) {
    return stageFailed<PushStage>(error, paths.name)
  }
}
