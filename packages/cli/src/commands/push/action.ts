import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { confirm, isCancel } from '@clack/prompts'
import { EXIT, RecipeError, type ExitCode } from '../../errors.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { BaseFilesSchema, ProjectConfigResponseSchema } from '@svc/hub-api'
import type { z } from 'zod'
import { HubError, hubRequest } from '../../hub/hub-client.js'
import { canPrompt } from '../../interactive.js'
import type { Output } from '../../output.js'
import { collectBaseFiles } from '../../project/base-files.js'
import {
  readClientConfig,
  writeClientConfig,
  type ClientConfig,
} from '../../project/client-config.js'
import { openProject } from '../../project/open-project.js'
import { parseDestination, type Destination } from './destination.js'

export type PushFlags = {
  project?: string
  origin?: string
  token?: string
  baseFiles?: boolean
  baseFilesOnly?: boolean
  force?: boolean
  json?: boolean
  input?: boolean
}

export type PushStage = 'read' | 'destination' | 'push'

export type PushIO = {
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean }
}

const RECIPE = {
  usage:
    'svc push <project> [--project <@account/slug>] [--origin <url>] [--token <pat>] [--base-files | --base-files-only] [--force] [--json] [--no-input]',
  example: 'svc push demo --project @acme/billing',
}

class StageFailure extends Error {
  constructor(
    readonly stage: PushStage,
    reason: string,
  ) {
    super(reason)
  }
}

/**
 * `svc push <project>` (SPEC §4.9): sends the project's `client.json` settings to a hub project
 * that exists (created in the web app), after `GET …/config` as the overwrite pre-check, and with
 * `--base-files` the app's hand-authored files. `remoteWritten` is true when this push replaced
 * the hub project's config (false with `--base-files-only`, which leaves it untouched).
 */
export async function pushAction(
  project: string | undefined,
  flags: PushFlags,
  output: Output,
  io: PushIO,
): Promise<ExitCode> {
  if (flags.baseFiles && flags.baseFilesOnly)
    throw new RecipeError({
      ...RECIPE,
      problem: 'Give --base-files or --base-files-only, not both.',
      discover: 'svc push --help',
    })
  const paths = openProject(project, io.cwd, RECIPE)
  let destination: Destination | undefined
  const fail = (error: StageFailure) => {
    if (flags.json)
      output.json({
        type: 'failed',
        projectName: paths.name,
        reason: error.message,
        stage: error.stage,
      })
    else
      output.diagnostic(`Pushing ${paths.name} failed at stage ${error.stage}:\n  ${error.message}`)
    return EXIT.failure
  }
  try {
    let config: ClientConfig
    try {
      config = readClientConfig(paths.clientConfig)
    } catch (error) {
      throw new StageFailure('read', (error as Error).message)
    }
    const named = flags.project ?? config.project
    if (named === undefined)
      throw new RecipeError({
        ...RECIPE,
        problem: `No destination: give --project @account/slug, or set "project" in ${relative(io.cwd, paths.clientConfig)}.`,
        discover: 'the project page of the web app (projects are created there)',
      })
    destination = parseDestination(named)
    if (destination === undefined)
      throw new StageFailure('destination', `'${named}' is not a project: it must be @account/slug`)
    const credentials = resolveCredentials(flags, io.env)
    if (credentials.token === undefined)
      throw new RecipeError({
        ...RECIPE,
        problem: 'svc push needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
        discover: 'svc login --help',
      })
    const base = `/v1/projects/${destination.account}/${destination.slug}`
    const request = <T>(
      method: 'GET' | 'PUT',
      path: string,
      answer: z.ZodType<T>,
      body: { json?: unknown; form?: FormData },
    ) =>
      hubRequest(credentials.origin, credentials.token, {
        method,
        path: `${base}${path}`,
        answer,
        ...body,
      }).catch((error: unknown) => {
        throw new StageFailure('push', pushReason(error, destination!, credentials.origin))
      })
    let overwrote = false
    let enrichmentCount = 0
    if (!flags.baseFilesOnly) {
      const existing = (await request('GET', '/config', ProjectConfigResponseSchema, {})).body
      overwrote = existing.updatedAt !== null
      if (overwrote && !flags.force && canPrompt(flags, io)) {
        const answer = await confirm({
          message: `@${destination.account}/${destination.slug} on ${credentials.origin} has a config (${existing.enrichmentCount} enrichments). Replace it?`,
          initialValue: false,
          input: io.stdin as NodeJS.ReadStream,
          output: io.stderr as NodeJS.WriteStream,
        })
        if (isCancel(answer) || !answer) {
          const aborted = { type: 'aborted', projectName: paths.name, project: destination }
          if (flags.json) output.json(aborted)
          else
            output.result(
              `Push of ${paths.name} aborted: @${destination.account}/${destination.slug} is unchanged.`,
            )
          return EXIT.ok
        }
      }
      const written = await request('PUT', '/client-config', ProjectConfigResponseSchema, {
        json: {
          ...(config.source === undefined ? {} : { source: config.source }),
          settings: config.settings,
        },
      })
      enrichmentCount = written.body.enrichmentCount
    }
    let baseFilesPushed = 0
    if (flags.baseFiles || flags.baseFilesOnly) {
      const files = collectBaseFiles(paths.appRoot)
      const form = new FormData()
      for (const file of files)
        form.append('files', new Blob([readFileSync(file.absolute)]), file.path)
      await request('PUT', '/preview/base-files', BaseFilesSchema, { form })
      baseFilesPushed = files.length
    }
    const recorded = flags.project !== undefined && flags.project !== config.project
    if (recorded) writeClientConfig(paths.clientConfig, { ...config, project: flags.project })
    const result = {
      type: 'pushed',
      projectName: paths.name,
      project: destination,
      origin: credentials.origin,
      enrichmentCount,
      overwroteExistingConfig: overwrote && !flags.baseFilesOnly,
      remoteWritten: !flags.baseFilesOnly,
      baseFilesPushed,
    }
    if (flags.json) output.json(result)
    else {
      output.result(`Pushed ${paths.name} to ${destination.account}/${destination.slug}`)
      output.result(`  origin       ${credentials.origin}`)
      output.result(
        `  enrichments  ${flags.baseFilesOnly ? 'config untouched (--base-files-only)' : enrichmentCount}`,
      )
      if (flags.baseFiles || flags.baseFilesOnly) output.result(`  base files   ${baseFilesPushed}`)
      if (result.overwroteExistingConfig) output.result('  replaced existing config')
      if (recorded) output.result('  recorded destination in client.json#project')
    }
    return EXIT.ok
  } catch (error) {
    if (error instanceof StageFailure) return fail(error)
    throw error
  }
}

function pushReason(error: unknown, destination: Destination, origin: string): string {
  const name = `@${destination.account}/${destination.slug}`
  if (error instanceof HubError && error.status === 404)
    return `the project ${name} does not exist on ${origin}; create it in the web app first (svc push never creates one)`
  if (error instanceof HubError && error.status === 403)
    return `not allowed to write ${name} (${error.message}); the token needs write:projects and write access to the project`
  if (error instanceof HubError && error.status === 401)
    return `the hub refused the token (${error.message}); run svc login again or pass --token`
  return (error as Error).message
}
