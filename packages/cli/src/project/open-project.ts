import { existsSync } from 'node:fs'
import { RecipeError, type Recipe } from '../errors.js'
import { findAppRoot, listProjects, projectPaths, type ProjectPaths } from './app-root.js'

/** Where the projects of this folder are listed: the Discover line of project recipes. */
export const DISCOVER_PROJECTS = 'svc doctor (lists the projects of this app root)'

/**
 * The project a command names, in the app root above `cwd`. Without a name, the only project
 * of the app root when `defaultToOnly` and there is exactly one; otherwise a recipe error.
 */
export function openProject(
  name: string | undefined,
  cwd: string,
  recipe: Omit<Recipe, 'problem' | 'discover'>,
  options: { defaultToOnly?: boolean } = {},
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
    if (options.defaultToOnly && projects.length === 1) return projectPaths(appRoot, projects[0]!)
    throw withProblem(
      projects.length === 0
        ? 'This app root has no project yet.'
        : `Name the project: this app root has ${projects.join(', ')}.`,
    )
  }
  const paths = projectPaths(appRoot, name)
  if (!existsSync(paths.rootManifest))
    throw withProblem(
      `No project '${name}' in ${appRoot}${projects.length > 0 ? ` (projects: ${projects.join(', ')})` : ''}.`,
    )
  return paths
}
