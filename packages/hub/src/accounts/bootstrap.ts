import { SCOPES } from '../auth/scopes.js'
import type { Store } from '../store/store.js'
import { createToken, type CreatedToken } from './admin.js'

export const ADMIN_HANDLE = 'admin'

/**
 * On the first start with an empty store, creates the `admin` user and a PAT with every scope.
 * Answers the PAT (to print once) or undefined when the store already had accounts. Two hubs
 * starting on one empty database at once make one admin: the loser's insert fails and it skips.
 */
export async function bootstrapAdmin(store: Store): Promise<CreatedToken | undefined> {
  if (!(await store.accounts.isEmpty())) return undefined
  try {
    return await store.transaction(async (tx) => {
      await tx.accounts.create(ADMIN_HANDLE, 'user')
      return createToken(tx, ADMIN_HANDLE, SCOPES.join(','))
    })
  } catch (error) {
    if (store.capabilities.isUniqueViolation(error)) return undefined
    throw error
  }
}
