import type { AccountUsage } from '@svc/hub-api'
import type { AccountRow } from '../store/schema.js'
import type { Repos } from '../store/store.js'
import type { QuotaLimits } from './settings.js'
import { DEFAULT_QUOTAS } from './table.js'

/**
 * What `account` stores against each of its quotas, with the limit that applies (its own, or
 * the default; null for no limit): the answer of `GET /v1/accounts/{account}/usage`. Two reads
 * of a few rows each: the usage counters and the account's own limits.
 */
export async function accountUsage(
  repos: Repos,
  account: AccountRow,
  limits: QuotaLimits,
): Promise<AccountUsage> {
  const [usage, own] = await Promise.all([
    repos.usage.usage(account.id),
    repos.usage.overrides(account.id),
  ])
  return {
    account: account.handle,
    kind: account.kind,
    quotas: DEFAULT_QUOTAS.map((row) => {
      const limit = own[row.id] ?? limits[row.id]
      const amount = usage[row.kind]
      return {
        quota: row.id,
        unit: row.measure === 'bytes' ? ('bytes' as const) : ('items' as const),
        used: Math.max(0, (row.measure === 'bytes' ? amount?.bytes : amount?.items) ?? 0),
        limit: limit === 0 ? null : limit,
        custom: row.id in own,
        setting: row.setting,
      }
    }),
  }
}
