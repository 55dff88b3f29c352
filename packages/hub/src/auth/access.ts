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

/** Whether `caller` has `access` on `account` (the rule `requireAccess` enforces, without throwing). */
export async function hasAccess(
  repos: Repos,
  caller: Caller,
  account: AccountRow,
  access: Access,
): Promise<boolean> {
  if (account.kind === 'user') return account.id === caller.userId
  const role = await repos.accounts.roleOf(account.id, caller.userId)
  return role !== undefined && GRANTS[role].includes(access)
}

/** Throws 403 unless `caller` has `access` on `account`; `what` names the resource in the message. */
export async function requireAccess(
  repos: Repos,
  caller: Caller,
  account: AccountRow,
  access: Access,
  what: string,
): Promise<void> {
  if (await hasAccess(repos, caller, account, access)) return
  if (account.kind === 'user')
    throw forbidden(`only '${account.handle}' can ${access} ${what} of that user`)
  const role = await repos.accounts.roleOf(account.id, caller.userId)
  throw forbidden(
    role
      ? `your role in '${account.handle}' is ${role}, which cannot ${access} ${what}`
      : `you are not a member of the organisation '${account.handle}'`,
  )

  function forbidden(why: string): ApiError {
    return new ApiError('forbidden', `Not allowed: ${why}.`, { account: account.handle, access })
  }
}
