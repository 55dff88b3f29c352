import type { AccountUsage, QuotaUsage } from '@svc/hub-api'
import { AdminError } from '../accounts/admin.js'
import type { AccountRow } from '../store/schema.js'
import type { Store } from '../store/store.js'
import { quotaAmount } from './charge.js'
import type { QuotaLimits } from './settings.js'
import { DEFAULT_QUOTAS, findQuota, type QuotaRow } from './table.js'
import { accountUsage } from './usage.js'

/** The largest limit an override may set: 2^53 - 1 (a count or bytes a double holds exactly). */
const MAX_LIMIT = Number.MAX_SAFE_INTEGER

/** `svc-hub admin set-quota`: the account's own limit for one quota (0 or `unlimited`: none). */
export async function setQuota(
  store: Store,
  handle: string,
  quota: string,
  limitText: string,
  limits: QuotaLimits,
): Promise<QuotaUsage & { account: string }> {
  const account = await accountOf(store, handle)
  const row = quotaOf(quota)
  const limit = limitText === 'unlimited' ? 0 : wholeNumber(limitText)
  await store.usage.setOverride(account.id, row.id, limit)
  return oneQuota(await accountUsage(store, account, limits), row)
}

/** `svc-hub admin clear-quota`: removes the account's own limit; the default applies again. */
export async function clearQuota(
  store: Store,
  handle: string,
  quota: string,
  limits: QuotaLimits,
): Promise<QuotaUsage & { account: string }> {
  const account = await accountOf(store, handle)
  const row = quotaOf(quota)
  if (!(await store.usage.deleteOverride(account.id, row.id))) {
    throw new AdminError(`${account.handle} has no quota of its own for ${row.id}`)
  }
  return oneQuota(await accountUsage(store, account, limits), row)
}

/** `svc-hub admin quotas`: what the account stores against each quota, and the limits. */
export async function showQuotas(
  store: Store,
  handle: string,
  limits: QuotaLimits,
): Promise<AccountUsage> {
  return accountUsage(store, await accountOf(store, handle), limits)
}

/**
 * `svc-hub admin recount-usage`: counts what the account stores again from the records (after
 * rows were changed by hand, say) and makes that its usage.
 */
export async function recountUsage(
  store: Store,
  handle: string,
  limits: QuotaLimits,
): Promise<AccountUsage> {
  const account = await accountOf(store, handle)
  await store.transaction((tx) => tx.usage.recount(account.id, store.capabilities.rowLocks))
  return accountUsage(store, account, limits)
}

/** One line per quota: `runArtifactBytes  1.2 MiB of 2.00 GiB (default, SVC_HUB_…)`. */
export function usageLines(usage: AccountUsage): string {
  const width = Math.max(...usage.quotas.map((q) => q.quota.length))
  return usage.quotas.map((q) => `${q.quota.padEnd(width)}  ${quotaLine(q)}`).join('\n')
}

/** `1.2 MiB of 2.00 GiB (default, SVC_HUB_QUOTA_RUN_ARTIFACT_BYTES)`. */
export function quotaLine(q: QuotaUsage): string {
  const amount = (n: number) => quotaAmount(n, q.unit)
  const limit = q.limit === null ? 'no limit' : amount(q.limit)
  return `${amount(q.used)} of ${limit} (${q.custom ? 'own limit' : `default, ${q.setting}`})`
}

function oneQuota(usage: AccountUsage, row: QuotaRow): QuotaUsage & { account: string } {
  return { account: usage.account, ...usage.quotas.find((q) => q.quota === row.id)! }
}

async function accountOf(store: Store, handle: string): Promise<AccountRow> {
  const account = await store.accounts.find(handle)
  if (!account) throw new AdminError(`there is no user or organisation '${handle}'`)
  return account
}

function quotaOf(id: string): QuotaRow {
  const row = findQuota(id)
  if (!row) {
    throw new AdminError(
      `'${id}' is not a quota; the quotas are ${DEFAULT_QUOTAS.map((q) => q.id).join(', ')}`,
    )
  }
  return row
}

function wholeNumber(text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value > MAX_LIMIT) {
    throw new AdminError(
      `the limit must be a whole number (bytes for a …Bytes quota), or 0 or 'unlimited' for no limit; got '${text}'`,
    )
  }
  return value
}
