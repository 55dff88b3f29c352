import { ApiError } from '../errors/index.js'
import type { AccountWithRoleRow } from '../store/accounts-repo.js'
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
  return found(handle, await repos.accounts.find(handle))
}

/** The account `handle` with the caller's role in it (one query), or 404 as `accountOrThrow`. */
export async function accountWithRoleOrThrow(
  repos: Repos,
  caller: Caller,
  handle: string,
): Promise<AccountWithRoleRow> {
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
  return allows(caller, { account, role: await roleIn(repos, caller, account) }, access)
}

/** The caller's role in `account`: none in a user account (asked of no one) or for a non-member. */
async function roleIn(
  repos: Repos,
  caller: Caller,
  account: AccountRow,
): Promise<Role | undefined> {
  return account.kind === 'user' ? undefined : repos.accounts.roleOf(account.id, caller.userId)
}

/** The rule of `hasAccess` on an account whose caller's role is known already. */
export function allows(
  caller: Caller,
  { account, role }: AccountWithRoleRow,
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
  requireAccessWith(caller, { account, role: await roleIn(repos, caller, account) }, access, what)
}

/** `requireAccess` on an account whose caller's role is known already (no query). */
export function requireAccessWith(
  caller: Caller,
  known: AccountWithRoleRow,
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
