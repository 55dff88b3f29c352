import { ApiError } from '../errors/index.js'
import type { AccountRow, Role } from '../store/schema.js'
import type { Repos } from '../store/store.js'
import type { Caller } from './caller.js'

export type Access = 'read' | 'write'

const GRANTS: Record<Role, readonly Access[]> = {
  owner: ['read', 'write'],
  writer: ['read', 'write'],
  reader: ['read'],
}

/** The account `handle`, or 404 when no user or organisation has it. */
export async function accountOrThrow(repos: Repos, handle: string): Promise<AccountRow> {
  const account = await repos.accounts.find(handle)
  if (!account) throw new ApiError('not_found', `No user or organisation is named '${handle}'.`)
  return account
}

/** What `caller` may do on `account`: everything on itself; its role's grants in an organisation. */
export async function accessTo(
  repos: Repos,
  caller: Caller,
  account: AccountRow,
): Promise<readonly Access[]> {
  if (account.kind === 'user') return account.id === caller.userId ? GRANTS.owner : []
  const role = await repos.accounts.roleOf(account.id, caller.userId)
  return role ? GRANTS[role] : []
}

/** Throws 403 unless `caller` has `access` on `account`; `what` names the resource in the message. */
export async function requireAccess(
  repos: Repos,
  caller: Caller,
  account: AccountRow,
  access: Access,
  what: string,
): Promise<void> {
  const granted = await accessTo(repos, caller, account)
  if (granted.includes(access)) return
  const role =
    account.kind === 'org' ? await repos.accounts.roleOf(account.id, caller.userId) : undefined
  const why =
    account.kind === 'user'
      ? `only '${account.handle}' can ${access} ${what} of that user`
      : role
        ? `your role in '${account.handle}' is ${role}, which cannot ${access} ${what}`
        : `you are not a member of the organisation '${account.handle}'`
  throw new ApiError('forbidden', `Not allowed: ${why}.`, { account: account.handle, access })
}
