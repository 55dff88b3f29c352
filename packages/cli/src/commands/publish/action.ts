import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import semver from 'semver'
import { buildBundle } from '../../bundle/build-bundle.js'
import { EXIT, RecipeError, type ExitCode } from '../../errors.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { StackVersionSchema } from '@svc/hub-api'
import { hubRequest } from '../../hub/hub-client.js'
import type { Output } from '../../output.js'
import { openProject } from '../../project/open-project.js'
import { SCOPED_NAME } from '../../project/root-manifest.js'
import { collectSourceFiles } from '../../project/source-files.js'
import { createHash } from 'node:crypto'

export type PublishFlags = {
  token?: string
  version?: string
  origin?: string
  json?: boolean
  input?: boolean
}

export type PublishStage = 'version' | 'identity' | 'bundle' | 'publish'

const RECIPE = {
  usage:
    'svc publish <project> [--token <pat>] [--version <semver>] [--origin <url>] [--json] [--no-input]',
  example: 'svc publish demo --version 1.0.0',
}

/** What the hub answers a publish with (docs/api/stacks.md). */
type StackVersion = {
  stack: { account: string; slug: string }
  version: string
  versionUrl: string
  bundleBytes: number
  bundleSha256: string
  sourceFileCount: number
  sourceTotalBytes: number
}

class StageFailure extends Error {
  constructor(
    readonly stage: PublishStage,
    reason: string,
  ) {
    super(reason)
  }
}

/**
 * `svc publish <project>` (SPEC §4.9): resolves the version and the stack from the root
 * manifest before any network call, bundles `server.js`, and uploads it with the project's
 * source as one stack version. Exit 1 at the stage that failed, with its reason; exit 2 for a
 * missing project or token.
 */
export async function publishAction(
  project: string | undefined,
  flags: PublishFlags,
  output: Output,
  io: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<ExitCode> {
  const paths = openProject(project, io.cwd, { ...RECIPE })
  const credentials = resolveCredentials(flags, io.env)
  if (credentials.token === undefined)
    throw new RecipeError({
      ...RECIPE,
      problem: 'svc publish needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
      discover: 'svc login --help',
    })
  try {
    const manifest = readManifest(paths.rootManifest)
    const version =
      flags.version ?? (typeof manifest.version === 'string' ? manifest.version : undefined)
    if (version === undefined)
      throw new StageFailure(
        'version',
        `no version: give --version, or set "version" in ${relative(io.cwd, paths.rootManifest)}`,
      )
    if (semver.valid(version) !== version)
      throw new StageFailure('version', `'${version}' is not a semver version such as 1.2.0`)
    const name = manifest.name
    if (typeof name !== 'string' || !SCOPED_NAME.test(name))
      throw new StageFailure(
        'identity',
        name === undefined
          ? `no stack name: set "name": "@account/slug" in ${relative(io.cwd, paths.rootManifest)}`
          : `the name '${String(name)}' is not scoped: it must be @account/slug`,
      )
    const [account, slug] = name.slice(1).split('/') as [string, string]
    let bundle: Buffer
    let files
    try {
      const built = await buildBundle(paths, 'server', version)
      bundle = readFileSync(built.path)
      files = collectSourceFiles(paths.dir)
    } catch (error) {
      throw new StageFailure('bundle', (error as Error).message)
    }
    const form = new FormData()
    form.set('version', version)
    form.set('bundle', new Blob([bundle]), 'server.js')
    for (const file of files)
      form.append('files', new Blob([readFileSync(file.absolute)]), file.path)
    let record: StackVersion
    try {
      record = (
        await hubRequest(credentials.origin, credentials.token, {
          method: 'POST',
          path: `/v1/stacks/${account}/${slug}/versions`,
          answer: StackVersionSchema,
          form,
          timeoutMs: 300_000,
        })
      ).body
    } catch (error) {
      throw new StageFailure('publish', (error as Error).message)
    }
    const result = {
      type: 'published',
      projectName: paths.name,
      bundlePath: paths.serverBundle,
      bundleBytes: bundle.byteLength,
      bundleSha256: createHash('sha256').update(bundle).digest('hex'),
      stack: { account: record.stack.account, slug: record.stack.slug },
      version: record.version,
      versionUrl: record.versionUrl,
      sourceFileCount: record.sourceFileCount,
      sourceTotalBytes: record.sourceTotalBytes,
    }
    if (flags.json) output.json(result)
    else {
      output.result(`Published ${paths.name} as ${account}/${slug}@${record.version}`)
      output.result(`  bundle   ${relative(io.cwd, result.bundlePath)}`)
      output.result(`  bytes    ${result.bundleBytes}`)
      output.result(`  sha256   ${result.bundleSha256}`)
      output.result(`  source   ${result.sourceFileCount} files, ${result.sourceTotalBytes} bytes`)
      output.result(`  version  ${result.versionUrl}`)
    }
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof StageFailure)) throw error
    if (flags.json)
      output.json({
        type: 'failed',
        projectName: paths.name,
        reason: error.message,
        stage: error.stage,
      })
    else
      output.diagnostic(
        `Publishing ${paths.name} failed at stage ${error.stage}:\n  ${error.message}`,
      )
    return EXIT.failure
  }
}

/** The root manifest as it is: publish judges `version` and `name` itself, stage by stage. */
function readManifest(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch (error) {
    throw new StageFailure(
      'identity',
      `${path} cannot be read as JSON: ${(error as Error).message}`,
    )
  }
}
