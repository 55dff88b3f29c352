import type { QuotaId } from '@svc/hub-api'
import { ApiError } from '../errors/index.js'
import type { Repos } from '../store/store.js'
import type { Amount, ChargeLimits, QuotaRefusal } from '../store/usage-repo.js'
import type { QuotaLimits } from './settings.js'
import { quotaRow, quotasOf, type QuotaKind } from './table.js'

/** The account that owns what a write stores: it pays for it. */
export type Owner = { readonly id: string; readonly handle: string }

/** The default limits of `kind`'s two quotas, as the store checks them. */
export function chargeLimits(limits: QuotaLimits, kind: QuotaKind): ChargeLimits {
  const [items, bytes] = quotasOf(kind)
  return {
    items: { quota: items.id, limit: limits[items.id] },
    bytes: { quota: bytes.id, limit: limits[bytes.id] },
  }
}

/**
 * Counts what a write stores against its owner's quotas, inside the write's transaction `tx`;
 * past a quota it throws 413 `quota_exceeded`, and the transaction writes nothing.
 */
export async function chargeStorage(
  tx: Repos,
  limits: QuotaLimits,
  owner: Owner,
  kind: QuotaKind,
  adding: Amount,
): Promise<void> {
  const refusal = await tx.usage.charge(owner.id, kind, adding, chargeLimits(limits, kind))
  if (refusal) throw quotaExceeded(owner.handle, refusal)
}

/** The 413 `quota_exceeded` of a refused charge (docs/api/errors.md). */
export function quotaExceeded(account: string, refusal: QuotaRefusal): ApiError {
  const row = quotaRow(refusal.quota as QuotaId)
  return new ApiError('quota_exceeded', `${overQuota(account, refusal)} Nothing was stored.`, {
    quota: row.id,
    account,
    used: refusal.used,
    limit: refusal.limit,
    adding: refusal.adding,
    setting: row.setting,
    custom: refusal.custom,
  })
}

/**
 * What a refusal says, in one or two sentences: which account, which quota and its limit, what
 * it stores, what the write would add, and what sets the limit.
 */
export function overQuota(account: string, refusal: QuotaRefusal): string {
  const row = quotaRow(refusal.quota as QuotaId)
  const amount = (n: number) => quotaAmount(n, row.measure)
  const source = refusal.custom
    ? `its own limit, set with svc-hub admin set-quota`
    : `the hub's default, ${row.setting}`
  return (
    `This would take ${account} past its quota of ${amount(refusal.limit)} ${row.label} (${source}): ` +
    `it stores ${amount(refusal.used)}, and this adds ${amount(refusal.adding)}.`
  )
}

/** An amount of a quota for people: a size for a bytes quota (`48.0 MiB`), else a count (`1,200`). */
export function quotaAmount(n: number, measure: 'bytes' | 'count' | 'items'): string {
  return measure === 'bytes' ? formatSize(n) : n.toLocaleString('en')
}

/** Bytes for people: `512 B`, `3.4 KiB`, `48.0 MiB`, `2.00 GiB`. */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`
}
