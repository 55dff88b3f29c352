import { ApiError } from '../errors/index.js'
import type { AccountRow, Role } from '../store/schema.js'
import type { Repos } from '../store/store.js'
import type { Caller } from './caller.js'

export type Access = 'read' | 'write'

/** An account with the caller's role in it: none on a user account or for a non-member. */
export type AccountWithRole = { readonly account: AccountRow; readonly role: Role | undefined }

const GRANTS: Record<Role, readonly Access[]> = {
  owner: ['read', 'write'],
  writer: ['read', 'write'],
  reader: ['read'],
}

/** The account `handle`, or 404 when no user or organisation has it. */
export async function accountOrThrow(repos: Repos, handle: string): Promise<AccountRow> {
  return found(handle, await repos.accounts.find(handle))
}

/** The account `handle` with the caller's role in it (one query), or 404 as `accountOrThrow`. */
export async function accountWithRoleOrThrow(
  repos: Repos,
  caller: Caller,
  handle: string,
): Promise<AccountWithRole> {
  return found(handle, await repos.accounts.findWithRole(handle, caller.userId))
}

function found<T>(handle: string, row: T | undefined): T {
  if (!row) throw new ApiError('not_found', `No user or organisation is named '${handle}'.`)
  return row
}

/** Whether `caller` has `access` on `account` (the rule `requireAccess` enforces, without throwing). */
export async function hasAccess(
  repos: Repos,
  caller: Caller,
  account: AccountRow,
  access: Access,
): Promise<boolean> {
  if (account.kind === 'user') return account.id === caller.userId
  return allows(
    caller,
    { account, role: await repos.accounts.roleOf(account.id, caller.userId) },
    access,
  )
}

/** The rule of `hasAccess` on an account whose caller's role is known already. */
export function allows(
  caller: Caller,
  { account, role }: AccountWithRole,
  access: Access,
): boolean {
  if (account.kind === 'user') return account.id === caller.userId
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
  const role =
    account.kind === 'user' ? undefined : await repos.accounts.roleOf(account.id, caller.userId)
  requireAccessWith(caller, { account, role }, access, what)
}

/** `requireAccess` on an account whose caller's role is known already (no query). */
export function requireAccessWith(
  caller: Caller,
  known: AccountWithRole,
  access: Access,
  what: string,
): void {
  if (allows(caller, known, access)) return
  const { account, role } = known
  if (account.kind === 'user')
    throw forbidden(`only '${account.handle}' can ${access} ${what} of that user`)
  throw forbidden(
    role
      ? `your role in '${account.handle}' is ${role}, which cannot ${access} ${what}`
      : `you are not a member of the organisation '${account.handle}'`,
  )

  function forbidden(why: string): ApiError {
    return new ApiError('forbidden', `Not allowed: ${why}.`, { account: account.handle, access })
  }
}
