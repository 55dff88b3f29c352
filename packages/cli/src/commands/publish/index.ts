import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { StackVersionSchema } from '@svc/hub-api'
import { isSemverVersion, parseScopedName } from '@svc/project-format'
import { buildBundle } from '../../bundle/build-bundle.js'
import type { CommandIO } from '../../command-io.js'
import { atStage, StageFailure, stageFailed, type StageFailed } from '../../errors.js'
import { hubAdvice } from '../../hub/advice.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { hubRequest } from '../../hub/hub-client.js'
import { requireToken } from '../../hub/require-token.js'
import { isStrict } from '../../interactive.js'
import { openProject } from '../../project/open-project.js'
import { collectSourceFiles } from '../../project/source-files.js'
import { checkAccount } from './account-check.js'

export type PublishOptions = {
  readonly project?: string | undefined
  readonly token?: string | undefined
  /** The version; `version` of the root manifest by default. */
  readonly version?: string | undefined
  readonly origin?: string | undefined
  readonly json?: boolean | undefined
  readonly input?: boolean | undefined
}

export type PublishStage = 'version' | 'identity' | 'bundle' | 'publish'

export type PublishResult =
  | {
      readonly type: 'published'
      readonly projectName: string
      readonly bundlePath: string
      readonly bundleBytes: number
      readonly bundleSha256: string
      readonly stack: { readonly account: string; readonly slug: string }
      readonly version: string
      readonly versionUrl: string
      readonly sourceFileCount: number
      readonly sourceTotalBytes: number
    }
  | StageFailed<PublishStage>

const RECIPE = {
  usage:
    'svc publish [project] [--token <pat>] [--version <semver>] [--origin <url>] [--json] [--no-input]',
  example: 'svc publish demo --version 1.0.0',
}

/**
 * `svc publish <project>`: resolves the version and the stack from the root manifest before any
 * network call, checks that the token's user may have the stack's account (`account-check.ts`),
 * bundles `server.js`, and uploads it with the project's source as one stack version. A stage that
 * fails is a `failed` result naming it; a missing project or token is a recipe error, and so is
 * an unnamed project in strict mode, even the only one (SPEC 4.9).
 */
export async function publish(options: PublishOptions, io: CommandIO): Promise<PublishResult> {
  const paths = openProject(options.project, io.cwd, RECIPE, { strict: isStrict(options) })
  const credentials = requireToken(resolveCredentials(options, io.env), {
    command: 'publish',
    ...RECIPE,
  })
  try {
    const manifest = readManifest(paths.rootManifest)
    const version =
      options.version ?? (typeof manifest.version === 'string' ? manifest.version : undefined)
    if (version === undefined)
      throw new StageFailure(
        'version',
        `no version: give --version, or set "version" in ${relative(io.cwd, paths.rootManifest)}`,
      )
    if (!isSemverVersion(version))
      throw new StageFailure('version', `'${version}' is not a semver version such as 1.2.0`)
    const name = manifest.name
    const stack = typeof name === 'string' ? parseScopedName(name) : undefined
    if (stack === undefined)
      throw new StageFailure(
        'identity',
        name === undefined
          ? `no stack name: set "name": "@account/slug" in ${relative(io.cwd, paths.rootManifest)}`
          : `the name '${String(name)}' is not scoped: it must be @account/slug`,
      )
    const { account, slug } = stack
    await checkAccount(stack, credentials, relative(io.cwd, paths.rootManifest))
    const { bundle, files } = await atStage('bundle', async () => {
      const built = await buildBundle(paths, 'server', version)
      return { bundle: readFileSync(built.path), files: collectSourceFiles(paths.dir) }
    })
    const form = new FormData()
    form.set('version', version)
    form.set('bundle', new Blob([bundle]), 'server.js')
    for (const file of files)
      form.append('files', new Blob([readFileSync(file.absolute)]), file.path)
    const record = await hubRequest(credentials.origin, credentials.token, {
      method: 'POST',
      path: `/v1/stacks/${account}/${slug}/versions`,
      answer: StackVersionSchema,
      form,
      timeoutMs: 300_000,
    }).then(
      (answer) => answer.body,
      (error: unknown) => {
        throw new StageFailure(
          'publish',
          hubAdvice('publish', error, { ...credentials, target: `@${account}/${slug}` }),
        )
      },
    )
    return {
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
  } catch (error) {
    return stageFailed<PublishStage>(error, paths.name)
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
