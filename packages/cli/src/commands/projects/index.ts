import { ProjectListSchema, type ProjectListItem } from '@svc/hub-api'
import type { CommandIO } from '../../command-io.js'
import {
  allPages,
  checkOwner,
  hubCredentials,
  type HubOptions,
  type SubcommandRecipe,
} from '../api/common.js'

export type ProjectsListOptions = HubOptions & { readonly owner?: string | undefined }

export type ProjectsListResult = {
  readonly type: 'projects'
  readonly origin: string
  /** By account, then slug. */
  readonly projects: readonly ProjectListItem[]
}

const RECIPE: SubcommandRecipe = {
  command: 'projects list',
  usage: 'svc projects list [--owner <account>] [--origin <url>] [--token <pat>] [--json]',
  example: 'svc projects list --owner acme',
}

/**
 * `svc projects list`: `GET /v1/projects`, every page: the projects of the token's user and of
 * the organisations it belongs to.
 */
export async function projectsList(
  options: ProjectsListOptions,
  io: CommandIO,
): Promise<ProjectsListResult> {
  checkOwner(options.owner, RECIPE)
  const credentials = hubCredentials(options, io, RECIPE, true)
  const projects = await allPages(
    credentials,
    'projects list',
    options.owner ?? credentials.origin,
    { path: '/v1/projects', query: { account: options.owner }, answer: ProjectListSchema },
    (page) => page.projects,
  )
  return { type: 'projects', origin: credentials.origin, projects }
}
