import type { Kysely } from 'kysely'
import { byCodeUnits, now } from './ids.js'
import type { Database, RateLimitOverrideRow } from './schema.js'

/** One organisation's own limit for one route. */
export type RateLimitOverride = {
  readonly method: string
  readonly path: string
  readonly max: number
  readonly windowSeconds: number
}

/** An override with the organisation it belongs to (what the limiter caches). */
export type OrgRateLimitOverride = RateLimitOverride & {
  readonly orgId: string
  readonly orgHandle: string
}

/** Organisations' rate-limit overrides (docs/api/rate-limits.md). */
export class RateLimitsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The overrides of `orgId`, by path, then method. */
  async list(orgId: string): Promise<RateLimitOverride[]> {
    const rows = await this.db
      .selectFrom('rate_limit_overrides')
      .selectAll()
      .where('org_id', '=', orgId)
      .execute()
    return rows.map(override).sort(byRoute)
  }

  /** Every organisation's overrides (a small table: the limiter reads it whole and caches it). */
  async listAll(): Promise<OrgRateLimitOverride[]> {
    const rows = await this.db
      .selectFrom('rate_limit_overrides')
      .innerJoin('accounts', 'accounts.id', 'rate_limit_overrides.org_id')
      .selectAll('rate_limit_overrides')
      .select('accounts.handle as org_handle')
      .execute()
    return rows
      .map((row) => ({ ...override(row), orgId: row.org_id, orgHandle: row.org_handle }))
      .sort((a, b) => byCodeUnits(a.orgId, b.orgId) || byRoute(a, b))
  }

  /** Sets the override of one route (made, or replaced when the organisation has one). */
  async set(orgId: string, limit: RateLimitOverride): Promise<void> {
    const values = { max: limit.max, window_seconds: limit.windowSeconds, updated_at: now() }
    await this.db
      .insertInto('rate_limit_overrides')
      .values({ org_id: orgId, method: limit.method, path: limit.path, ...values })
      .onConflict((oc) => oc.columns(['org_id', 'method', 'path']).doUpdateSet(values))
      .execute()
  }

  /**
   * Makes `limits` the organisation's whole set of overrides. Run it in a transaction
   * (`store.transaction`), so that readers see the old set or the new one.
   */
  async replace(orgId: string, limits: readonly RateLimitOverride[]): Promise<void> {
    await this.db.deleteFrom('rate_limit_overrides').where('org_id', '=', orgId).execute()
    if (limits.length === 0) return
    const updated_at = now()
    await this.db
      .insertInto('rate_limit_overrides')
      .values(
        limits.map((l) => ({
          org_id: orgId,
          method: l.method,
          path: l.path,
          max: l.max,
          window_seconds: l.windowSeconds,
          updated_at,
        })),
      )
      .execute()
  }

  /** Removes the override of one route; false when there was none. */
  async delete(orgId: string, method: string, path: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('rate_limit_overrides')
      .where('org_id', '=', orgId)
      .where('method', '=', method)
      .where('path', '=', path)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }
}

function override(row: RateLimitOverrideRow): RateLimitOverride {
  return { method: row.method, path: row.path, max: row.max, windowSeconds: row.window_seconds }
}

function byRoute(a: RateLimitOverride, b: RateLimitOverride): number {
  return byCodeUnits(a.path, b.path) || byCodeUnits(a.method, b.method)
}
