import { existsSync } from 'node:fs'
import { RecipeError, type Recipe } from '../errors.js'
import { findAppRoot, listProjects, projectPaths, type ProjectPaths } from './app-root.js'

/** Where the projects of this folder are listed: the Discover line of project recipes. */
export const DISCOVER_PROJECTS = 'svc doctor (lists the projects of this app root)'

/** How `[project]` reads in every command's help: the inference below, said once. */
export const PROJECT_ARGUMENT = 'the project under .svc/ (default: the only one)'

/**
 * The project a command names, in the app root above `cwd`. Without a name, the only project
 * of the app root when there is exactly one, for every command alike; with none or several, a
 * recipe error listing them. `strict` (publish and push in strict mode, SPEC 4.9) picks none:
 * a script that sends a project to a hub names it.
 */
export function openProject(
  name: string | undefined,
  cwd: string,
  recipe: Omit<Recipe, 'problem' | 'discover'>,
  options: { readonly strict?: boolean } = {},
): ProjectPaths {
  const appRoot = findAppRoot(cwd)
  const withProblem = (problem: string, discover = DISCOVER_PROJECTS) =>
    new RecipeError({ ...recipe, problem, discover })
  if (appRoot === undefined)
    throw withProblem(
      'No svc project here: no .svc folder in this folder or above it.',
      'svc init <project> (creates the first project here)',
    )
  const projects = listProjects(appRoot)
  if (name === undefined || name === '') {
    if (projects.length === 1 && !options.strict) return projectPaths(appRoot, projects[0]!)
    throw withProblem(
      projects.length === 0
        ? `This app root (${appRoot}) has no project yet.`
        : projects.length === 1
          ? `Name the project: --json and --no-input never pick one, not even the only one (${projects[0]!}).`
          : `Name the project: this app root has ${projects.join(', ')}.`,
      projects.length === 0 ? 'svc init <project> (creates one)' : DISCOVER_PROJECTS,
    )
  }
  const paths = projectPaths(appRoot, name)
  if (!existsSync(paths.rootManifest))
    throw withProblem(
      `No project '${name}' in ${appRoot}${projects.length > 0 ? ` (projects: ${projects.join(', ')})` : ''}.`,
    )
  return paths
}
