import type { Context } from 'hono'
import { accountOrThrow, hasAccess, requireAccess, type Access } from '../auth/access.js'
import type { Caller, KeyCaller } from '../auth/caller.js'
import { ApiError, invalidRequest } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { requireCaller } from '../middleware/authenticate.js'
import type { LibraryRow } from '../store/schema.js'
import type { Repos } from '../store/store.js'

/** Who asks for libraries: a user with a PAT, or an organisation with one of its API keys. */
export type LibraryCaller =
  | { readonly kind: 'user'; readonly user: Caller }
  | { readonly kind: 'key'; readonly key: KeyCaller }

/** The organisation a library request acts for. */
export type LibraryOrg = { readonly id: string; readonly handle: string }

/** The caller of a route behind `needsUserOrKey`. */
export function libraryCaller(c: Context<HubEnv>): LibraryCaller {
  const key = c.get('keyCaller')
  return key ? { kind: 'key', key } : { kind: 'user', user: requireCaller(c) }
}

/** Whose idempotency keys a request's key is among: an organisation's (API key) or a user's (PAT). */
export function idempotencyScope(who: LibraryCaller): string {
  return who.kind === 'key' ? `org:${who.key.orgId}` : `user:${who.user.userId}`
}

/**
 * The organisation named by the `org` query parameter, with `access` on it: for an API key its
 * own organisation (the default; another one is 403), for a PAT the organisation it names (404
 * when none has the handle, 422 for a user, 403 without the role).
 */
export async function namedOrg(
  repos: Repos,
  who: LibraryCaller,
  handle: string,
  access: Access,
): Promise<LibraryOrg> {
  if (who.kind === 'key') {
    if (handle === who.key.orgHandle) return { id: who.key.orgId, handle }
    throw new ApiError(
      'forbidden',
      `Not allowed: this API key belongs to '${who.key.orgHandle}', not to '${handle}'.`,
      { account: handle, access },
    )
  }
  const account = await accountOrThrow(repos, handle)
  if (account.kind !== 'org') {
    throw invalidRequest([
      {
        path: 'query.org',
        message: 'must name an organisation; libraries belong to organisations',
      },
    ])
  }
  await requireAccess(repos, who.user, account, access, 'libraries')
  return { id: account.id, handle: account.handle }
}

/** The library `id` if the caller may read it; 404 alike when it does not exist or may not. */
export async function readableLibrary(
  repos: Repos,
  who: LibraryCaller,
  id: string,
): Promise<LibraryRow> {
  const row = await repos.libraries.find(id)
  if (row && (await canRead(repos, who, row.org_id))) return row
  throw new ApiError('not_found', `There is no library ${id}.`)
}

async function canRead(repos: Repos, who: LibraryCaller, orgId: string): Promise<boolean> {
  if (who.kind === 'key') return who.key.orgId === orgId
  const org = await repos.accounts.findById(orgId)
  return org !== undefined && (await hasAccess(repos, who.user, org, 'read'))
}
