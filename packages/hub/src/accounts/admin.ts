import { hashSecret, newSecret, PAT_PREFIX, API_KEY_PREFIX } from '../auth/secrets.js'
import { parseScopes, SCOPES, type Scope } from '../auth/scopes.js'
import type { AccountRow, Role } from '../store/schema.js'
import type { Repos, Store } from '../store/store.js'
import { isHandle, RESERVED_HANDLES } from '@svc/project-format'

/** An operator mistake (exit 1 with the message): a taken handle, an unknown user … */
export class AdminError extends Error {
  override readonly name = 'AdminError'
}

export type CreatedToken = {
  id: string
  user: string
  token: string
  scopes: Scope[]
  expiresAt: string | null
}

const ROLES: readonly Role[] = ['owner', 'writer', 'reader']
const MAX_EXPIRY_DAYS = 3650

export function createAccount(
  store: Store,
  handle: string,
  kind: 'user' | 'org',
): Promise<AccountRow> {
  return claimHandle(store, handle, () => store.accounts.create(handle, kind))
}

/** Creates the organisation and makes `ownerHandle` its owner, in one transaction. */
export async function createOrg(
  store: Store,
  handle: string,
  ownerHandle: string,
): Promise<AccountRow> {
  const owner = await accountOf(store, ownerHandle, 'user')
  return claimHandle(store, handle, () =>
    store.transaction(async (tx) => {
      const org = await tx.accounts.create(handle, 'org')
      await tx.accounts.setRole(org.id, owner.id, 'owner')
      return org
    }),
  )
}

async function claimHandle<T>(store: Store, handle: string, create: () => Promise<T>): Promise<T> {
  if (!isHandle(handle)) {
    throw new AdminError(
      `'${handle}' is not a valid handle: use 1–39 lowercase letters, digits or inner hyphens`,
    )
  }
  if (RESERVED_HANDLES.has(handle)) {
    throw new AdminError(`the handle '${handle}' is reserved: it names a page of the hub`)
  }
  try {
    return await create()
  } catch (error) {
    if (store.capabilities.isUniqueViolation(error)) {
      throw new AdminError(`the handle '${handle}' is taken by a user or an organisation`)
    }
    throw error
  }
}

export async function addMember(
  store: Store,
  orgHandle: string,
  userHandle: string,
  role: string,
): Promise<{ org: string; user: string; role: Role }> {
  if (!ROLES.includes(role as Role)) {
    throw new AdminError(`'${role}' is not a role; use owner, writer or reader`)
  }
  const org = await accountOf(store, orgHandle, 'org')
  const user = await accountOf(store, userHandle, 'user')
  const current = await store.accounts.roleOf(org.id, user.id)
  if (current === 'owner' && role !== 'owner' && (await store.accounts.ownerCount(org.id)) === 1) {
    throw new AdminError(
      `${user.handle} is the only owner of ${org.handle}; make another member owner first`,
    )
  }
  await store.accounts.setRole(org.id, user.id, role as Role)
  return { org: org.handle, user: user.handle, role: role as Role }
}

export async function createToken(
  repos: Repos,
  userHandle: string,
  scopesText: string,
  expiresDays?: number,
  note: string | null = null,
): Promise<CreatedToken> {
  const parsed = parseScopes(scopesText)
  if (!parsed.ok) {
    throw new AdminError(
      `unknown scope ${parsed.unknown.map((s) => `'${s}'`).join(', ')}; scopes are ${SCOPES.join(', ')}`,
    )
  }
  if (parsed.scopes.length === 0)
    throw new AdminError(`give at least one scope of ${SCOPES.join(', ')}`)
  if (
    expiresDays !== undefined &&
    (!Number.isInteger(expiresDays) || expiresDays < 1 || expiresDays > MAX_EXPIRY_DAYS)
  ) {
    throw new AdminError(`--expires must be a whole number of days from 1 to ${MAX_EXPIRY_DAYS}`)
  }
  const user = await accountOf(repos, userHandle, 'user')
  const token = newSecret(PAT_PREFIX)
  const expiresAt =
    expiresDays === undefined ? null : new Date(Date.now() + expiresDays * 86_400_000).toISOString()
  const row = await repos.accounts.insertToken({
    userId: user.id,
    hash: hashSecret(token),
    scopes: parsed.scopes,
    note,
    expiresAt,
  })
  return { id: row.id, user: user.handle, token, scopes: parsed.scopes, expiresAt }
}

export async function revokeToken(
  store: Store,
  id: string,
): Promise<{ id: string; revokedAt: string }> {
  const row = await store.accounts.revokeToken(id)
  if (!row?.revoked_at) throw new AdminError(`there is no token '${id}'`)
  return { id: row.id, revokedAt: row.revoked_at }
}

/** `createdBy`: the user who made it in the web app; none for `svc-hub admin`. */
export async function createApiKey(
  store: Store,
  orgHandle: string,
  createdBy: string | null = null,
): Promise<{ id: string; org: string; key: string }> {
  const org = await accountOf(store, orgHandle, 'org')
  const key = newSecret(API_KEY_PREFIX)
  const id = await store.accounts.insertApiKey({
    orgId: org.id,
    hash: hashSecret(key),
    createdBy,
  })
  return { id, org: org.handle, key }
}

/** Revokes one of the organisation's API keys; again, it reports the first revocation. */
export async function revokeApiKey(
  store: Store,
  orgHandle: string,
  id: string,
): Promise<{ id: string; org: string; revokedAt: string }> {
  const org = await accountOf(store, orgHandle, 'org')
  const key = await store.accountSettings.revokeApiKey(org.id, id)
  if (!key?.revoked_at) throw new AdminError(`${org.handle} has no API key '${id}'`)
  return { id: key.id, org: org.handle, revokedAt: key.revoked_at }
}

/** Takes the user out of the organisation; its only owner stays (as `addMember` keeps it). */
export async function removeMember(
  store: Store,
  orgHandle: string,
  userHandle: string,
): Promise<{ org: string; user: string }> {
  const org = await accountOf(store, orgHandle, 'org')
  const user = await accountOf(store, userHandle, 'user')
  const current = await store.accounts.roleOf(org.id, user.id)
  if (!current) throw new AdminError(`${user.handle} is not a member of ${org.handle}`)
  if (current === 'owner' && (await store.accounts.ownerCount(org.id)) === 1) {
    throw new AdminError(
      `${user.handle} is the only owner of ${org.handle}; make another member owner first`,
    )
  }
  await store.accountSettings.removeMember(org.id, user.id)
  return { org: org.handle, user: user.handle }
}

async function accountOf(repos: Repos, handle: string, kind: 'user' | 'org'): Promise<AccountRow> {
  const account = await repos.accounts.find(handle)
  if (!account)
    throw new AdminError(`there is no ${kind === 'user' ? 'user' : 'organisation'} '${handle}'`)
  if (account.kind !== kind) {
    throw new AdminError(
      `'${handle}' is ${account.kind === 'user' ? 'a user' : 'an organisation'}, not ${kind === 'user' ? 'a user' : 'an organisation'}`,
    )
  }
  return account
}
