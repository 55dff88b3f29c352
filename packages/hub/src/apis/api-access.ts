import type { Caller } from '../auth/caller.js'
import { accountOrThrow, hasAccess, requireAccess } from '../auth/access.js'
import type { Scope } from '../auth/scopes.js'
import { ApiError } from '../errors/index.js'
import { requireScope } from '../middleware/authenticate.js'
import type { ApiWithOwner } from '../store/apis-repo.js'
import type { Repos } from '../store/store.js'

/** Scopes that let a token read private APIs (public ones need no token at all). */
export const API_READ_SCOPES: readonly Scope[] = ['read', 'write:apis']

/**
 * The API `owner/slug` if the caller may read it. A public API is readable by anyone, with or
 * without a token. A private one needs read access on its owner and a token with `read` or
 * `write:apis`; to everyone else it is 404, exactly as an API that does not exist, so its
 * existence is not told.
 */
export async function readableApi(
  repos: Repos,
  caller: Caller | undefined,
  owner: string,
  slug: string,
): Promise<ApiWithOwner> {
  const account = await accountOrThrow(repos, owner)
  const api = await repos.apis.find(owner, slug)
  if (api?.visibility === 'public') return api
  if (!caller || !(await hasAccess(repos, caller, account, 'read'))) throw hidden(owner, slug)
  requireScope(caller, ...API_READ_SCOPES)
  if (!api) throw missing(owner, slug)
  return api
}

/**
 * The API `owner/slug` if the caller may write to it (the caller's scope is checked already):
 * 404 when it does not exist or is private to the caller, as for reading; 403 `forbidden`
 * when the caller can read it but has no write access on its owner.
 */
export async function writableApi(
  repos: Repos,
  caller: Caller,
  owner: string,
  slug: string,
): Promise<ApiWithOwner> {
  const account = await accountOrThrow(repos, owner)
  const api = await repos.apis.find(owner, slug)
  if (!(await hasAccess(repos, caller, account, 'write'))) {
    if (api?.visibility !== 'public' && !(await hasAccess(repos, caller, account, 'read')))
      throw hidden(owner, slug)
    await requireAccess(repos, caller, account, 'write', 'APIs')
  }
  if (!api) throw missing(owner, slug)
  return api
}

function hidden(owner: string, slug: string): ApiError {
  return new ApiError('not_found', `There is no API ${owner}/${slug} that you can read.`)
}

function missing(owner: string, slug: string): ApiError {
  return new ApiError('not_found', `There is no API ${owner}/${slug}.`)
}
