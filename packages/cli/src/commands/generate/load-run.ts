import { existsSync } from 'node:fs'
import { isAbsolute, relative, resolve } from 'node:path'
import { outOfSyncMessage } from '../../bundle/bundle-header.js'
import { bundleState } from '../../bundle/freshness.js'
import type { CommandIO } from '../../command-io.js'
import { CommandError, RecipeError } from '../../errors.js'
import { locateCommandInput, type LoadedSource, type LocatedFile } from '../../input/read-source.js'
import { findAppRoot, listProjects, type ProjectPaths } from '../../project/app-root.js'
import {
  basePathOf,
  basePathProblem,
  readClientConfig,
  type ClientConfig,
} from '../../project/client-config.js'
import { openProject } from '../../project/open-project.js'
import { compositionOf, readRootManifest } from '../../project/root-manifest.js'

/** Everything a generate needs before its bundle runs. */
export type LoadedRun = {
  readonly paths: ProjectPaths
  readonly settings: ClientConfig['settings']
  /** The document: a local file is only located; the bundle's worker reads it. */
  readonly loaded: LoadedSource | LocatedFile
  /** The folder the files go to, absolute. */
  readonly basePath: string
  /** The schema as the user named it: the argument, or `source` of client.json. */
  readonly source: string
}

const RECIPE = {
  usage: 'svc generate [project] [schema] [--json] [--no-input]',
  example: 'svc generate demo ./openapi.yaml',
}

/**
 * Opens the project, checks its generators and `basePath`, reads the schema, and makes sure the
 * bundle is fresh: built when missing; built again when stale outside strict mode, refused with a
 * recipe error in it.
 */
export async function loadRun(
  options: {
    readonly project?: string | undefined
    readonly schema?: string | undefined
    readonly json?: boolean | undefined
    readonly input?: boolean | undefined
  },
  io: CommandIO,
): Promise<LoadedRun> {
  const strict = Boolean(options.json) || options.input === false
  const { project, schema } = schemaOnly(options, io.cwd)
  const paths = openProject(project, io.cwd, RECIPE)
  const rootManifest = readRootManifest(paths.rootManifest)
  const config = readClientConfig(paths.clientConfig)
  const composition = compositionOf(rootManifest, paths.dir)
  if (composition.problems.length > 0)
    throw new CommandError(
      `${paths.rootManifest}: the generators are inconsistent:\n  ${composition.problems.join('\n  ')}`,
    )
  if (composition.generators.length === 0)
    throw new RecipeError({
      ...RECIPE,
      problem: `The project '${paths.name}' has no generators.`,
      discover: 'svc install --list',
    })
  const source = schema ?? config.source
  const schemaRecipe = {
    ...RECIPE,
    problem: `svc generate needs a schema: give it as an argument, or set "source" in ${relative(io.cwd, paths.clientConfig)}.`,
    discover: "git ls-files '*.yaml' '*.yml' '*.json' '*.graphql'",
  }
  if (source === undefined) throw new RecipeError(schemaRecipe)
  const basePath = basePathOf(config, paths.appRoot, paths.name)
  const problem = basePathProblem(basePath, paths.appRoot)
  if (problem !== undefined)
    throw new CommandError(
      `${problem}; set settings.basePath in ${relative(io.cwd, paths.clientConfig)}`,
    )
  const loaded = await locateCommandInput(
    resolveSource(source, schema === undefined, paths.appRoot),
    schemaRecipe,
    { cwd: io.cwd, stdin: io.stdin },
  )
  const state = bundleState(paths, composition.generators)
  if (state.state !== 'fresh') {
    // A missing bundle is built even in strict mode: nothing can be out of sync with it yet.
    if (strict && state.state !== 'missing')
      throw new RecipeError({
        problem: outOfSyncMessage(state.stale),
        usage: 'svc bundle [project]',
        example: `svc bundle ${paths.name}`,
        discover: `svc doctor --json (the project-bundle/${paths.name} check)`,
      })
    io.stderr.write(
      state.state === 'missing'
        ? `Bundling ${paths.name} (no bundle.js yet)…\n`
        : `Bundling ${paths.name} again: ${outOfSyncMessage(state.stale)}\n`,
    )
    // esbuild is loaded only when a bundle is built: a run with a fresh one does without it.
    const { buildBundle } = await import('../../bundle/build-bundle.js')
    await buildBundle(paths)
  }
  return { paths, settings: config.settings, loaded, basePath, source }
}

/**
 * `svc generate openapi.yaml`: the one argument is the schema when it is no project but a file, an
 * http(s) URL or `-`; the project is then the only one (or the recipe error that lists them).
 */
function schemaOnly(
  options: { readonly project?: string | undefined; readonly schema?: string | undefined },
  cwd: string,
): { project: string | undefined; schema: string | undefined } {
  const { project, schema } = options
  if (project === undefined || schema !== undefined) return { project, schema }
  const appRoot = findAppRoot(cwd)
  const projects = appRoot === undefined ? [] : listProjects(appRoot)
  const isSource =
    project === '-' || /^https?:\/\//i.test(project) || existsSync(resolve(cwd, project))
  return !projects.includes(project) && isSource
    ? { project: undefined, schema: project }
    : { project, schema }
}

/** A `source` from client.json is relative to the app root; an argument to the working folder. */
function resolveSource(source: string, fromConfig: boolean, appRoot: string): string {
  if (!fromConfig || source === '-' || /^https?:\/\//i.test(source) || isAbsolute(source))
    return source
  return resolve(appRoot, source)
}
