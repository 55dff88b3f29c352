import type { Context } from 'hono'
import { requireAccessWith, type Access } from '../auth/access.js'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { requireCaller } from '../middleware/authenticate.js'
import type { ProjectWithRefs } from '../store/projects-repo.js'

/**
 * The project of the route's `{account}/{slug}` once the caller may `access` it: 401 without a
 * token, 403 without the scope or without access to the account (before existence is told),
 * then 404. The account, the caller's role and the project come in one query.
 */
export async function projectFor(c: Context<HubEnv>, access: Access): Promise<ProjectWithRefs> {
  const caller = requireCaller(c)
  const handle = c.req.param('account') ?? ''
  const slug = c.req.param('slug') ?? ''
  const { store } = c.get('hub')
  const found = await store.projects.findWithAccess(handle, slug, caller.userId)
  if (!found) throw new ApiError('not_found', `No user or organisation is named '${handle}'.`)
  requireAccessWith(caller, found, access, 'projects')
  if (!found.project) {
    throw new ApiError(
      'not_found',
      `There is no project ${handle}/${slug}; create it in the web app first.`,
    )
  }
  return found.project
}
