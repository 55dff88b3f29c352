import { existsSync, mkdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { SCOPED_NAME, SLUG_RULE } from '@svc/project-format'
import type { CommandIO } from '../../command-io.js'
import { RecipeError } from '../../errors.js'
import { resolveCredentials } from '../../hub/credentials.js'
import { currentUser } from '../../hub/user.js'
import { findAppRoot, PROJECT_NAME, projectPaths, SVC_DIR } from '../../project/app-root.js'
import { basePathProblem, defaultBasePath, writeClientConfig } from '../../project/client-config.js'
import { installedPackage } from '../../project/official-generators.js'
import { ENGINE_IMPORT, writeRootManifest } from '../../project/root-manifest.js'
import { writeFileAtomic } from '../../project/write-files.js'

export type InitOptions = {
  readonly project?: string | undefined
  /** The stack the project publishes to; by default `@<login's handle>/<project>`, else `@local/<project>`. */
  readonly name?: string | undefined
  readonly basePath?: string | undefined
}

export type InitResult = {
  readonly type: 'initialized'
  readonly projectName: string
  readonly name: string
  /** Where `name` came from: `--name`, the logged-in user's handle, or the `@local` placeholder. */
  readonly nameFrom: 'flag' | 'login' | 'placeholder'
  /** What to do about a placeholder name before `svc publish`, and why it is one. */
  readonly note?: string
  /** The project's folder, absolute. */
  readonly path: string
  readonly basePath: string
}

const RECIPE = {
  usage: 'svc init <project> [--name @account/slug] [--base-path <dir>] [--json]',
  example: 'svc init demo',
}

/** What a project never commits: the files `svc bundle` derives from the others. */
const DERIVED = ['bundle.js', 'worker.ts', 'server.ts', 'server.js']

/**
 * `svc init <project>`: a new project under `.svc/` of the app root (the nearest folder with
 * `.svc/`, or this one): its root manifest pinned to the shipped engine, and a `client.json`.
 */
export async function init(options: InitOptions, io: CommandIO): Promise<InitResult> {
  const { project } = options
  const { cwd } = io
  if (project === undefined || !PROJECT_NAME.test(project))
    throw new RecipeError({
      ...RECIPE,
      problem:
        project === undefined
          ? 'svc init needs a project name.'
          : `'${project}' is not a project name: ${SLUG_RULE}.`,
      discover: `ls ${SVC_DIR} (the projects that exist)`,
    })
  const appRoot = findAppRoot(cwd) ?? cwd
  const paths = projectPaths(appRoot, project)
  if (existsSync(paths.dir))
    throw new RecipeError({
      ...RECIPE,
      problem: `The project '${project}' already exists at ${paths.dir}.`,
      discover: `ls ${join(relative(cwd, appRoot), SVC_DIR)}`,
    })
  const chosen = options.name
    ? { name: options.name, nameFrom: 'flag' as const }
    : await defaultName(project, io.env, relative(cwd, paths.rootManifest))
  const { name } = chosen
  if (!SCOPED_NAME.test(name))
    throw new RecipeError({
      ...RECIPE,
      problem: `--name '${name}' is not a stack name: it must be scoped, @account/slug.`,
      discover: 'grep \'"name"\' .svc/*/deno.json (the stacks other projects publish to)',
    })
  const basePath = options.basePath ?? defaultBasePath(project)
  const problem = basePathProblem(resolve(appRoot, basePath), appRoot)
  if (problem !== undefined)
    throw new RecipeError({
      ...RECIPE,
      problem: `--base-path: ${problem}.`,
      discover: 'ls (a folder of its own, such as src/generated)',
    })
  mkdirSync(paths.settingsDir, { recursive: true })
  writeRootManifest(paths.rootManifest, {
    name,
    version: '0.1.0',
    imports: {
      [ENGINE_IMPORT]: `jsr:${ENGINE_IMPORT}@^${installedPackage(ENGINE_IMPORT).version}`,
    },
  })
  writeClientConfig(paths.clientConfig, { settings: { basePath, enrichments: {} } })
  writeFileAtomic(join(paths.dir, '.gitignore'), `${DERIVED.join('\n')}\n`)
  return { type: 'initialized', projectName: project, ...chosen, path: paths.dir, basePath }
}

/** Publishing names the project's stack; how long init waits to learn the user's handle. */
const WHOAMI_TIMEOUT_MS = 5_000

/**
 * `@<handle>/<project>` for the user the stored login (or `$SVC_HUB_TOKEN`) belongs to;
 * `@local/<project>` when there is none or the hub does not answer, with what to do about it:
 * no hub has the account `local`, so that name cannot be published.
 */
async function defaultName(
  project: string,
  env: CommandIO['env'],
  manifest: string,
): Promise<Pick<InitResult, 'name' | 'nameFrom' | 'note'>> {
  const placeholder = `@local/${project}`
  const fix = `set "name": "@<your handle>/${project}" in ${manifest} before svc publish (or give svc init --name)`
  let credentials
  try {
    credentials = resolveCredentials({}, env)
  } catch {
    credentials = undefined
  }
  if (!credentials?.token)
    return {
      name: placeholder,
      nameFrom: 'placeholder',
      note: `not logged in, so the stack is ${placeholder}, a placeholder no hub has: run svc login, then ${fix}.`,
    }
  try {
    const user = await currentUser(credentials.origin, credentials.token, WHOAMI_TIMEOUT_MS)
    return { name: `@${user.handle}/${project}`, nameFrom: 'login' }
  } catch (error) {
    return {
      name: placeholder,
      nameFrom: 'placeholder',
      note: `could not learn your handle from ${credentials.origin} (${(error as Error).message}), so the stack is ${placeholder}, a placeholder no hub has: ${fix}.`,
    }
  }
}
