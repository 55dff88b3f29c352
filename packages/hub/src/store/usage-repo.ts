import { sql, type Kysely } from 'kysely'
import { now } from './ids.js'
import type { Database, UsageKind } from './schema.js'

/** How many items and bytes. */
export type Amount = { readonly items: number; readonly bytes: number }

/**
 * The default limits a charge is checked against (0: no limit), with the quota each one is: an
 * account's own limit for that quota (`quota_overrides`) replaces its default.
 */
export type ChargeLimits = {
  readonly items: { readonly quota: string; readonly limit: number }
  readonly bytes: { readonly quota: string; readonly limit: number }
}

/** A charge that would take the account past `quota`: nothing was changed. */
export type QuotaRefusal = {
  readonly quota: string
  readonly used: number
  readonly limit: number
  readonly adding: number
  /** Whether the limit is the account's own, not the default. */
  readonly custom: boolean
}

/** Thrown inside a writing transaction (which then writes nothing) by a refused charge. */
export class OverQuota extends Error {
  override readonly name = 'OverQuota'
  constructor(
    readonly accountId: string,
    readonly refusal: QuotaRefusal,
  ) {
    super(`account ${accountId} is over its quota ${refusal.quota}`)
  }
}

export const NOTHING: Amount = { items: 0, bytes: 0 }

/**
 * What each account owns (items and bytes per kind) and its own quota limits. Usage is a counter
 * per account and kind that every write changes in its own transaction: reading it is one row,
 * and `charge` checks and adds under the row's lock, so concurrent writes cannot pass a quota
 * together. Content-addressed blobs shared by several records count for each record (each
 * account pays for what it stores, whether or not the bytes exist elsewhere).
 */
export class UsageRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds `adding` (negative to give back) to the account's usage of `kind`, unless that takes it
   * past a limit of `limits`: then nothing changes and the refusal says which quota. A limit is
   * checked only when its amount grows. Run it in the writing transaction: the row stays locked
   * (PostgreSQL) or the write lock held (SQLite) until it ends, so the check holds at commit.
   */
  async charge(
    accountId: string,
    kind: UsageKind,
    adding: Amount,
    limits?: ChargeLimits,
  ): Promise<QuotaRefusal | undefined> {
    if (adding.items === 0 && adding.bytes === 0) return undefined
    const after = await this.#add(accountId, kind, adding)
    const growing = (['items', 'bytes'] as const).filter((m) => limits && adding[m] > 0)
    if (growing.length === 0) return undefined
    const own = await this.overrides(accountId)
    for (const measure of growing) {
      const { quota, limit: fallback } = limits![measure]
      const limit = own[quota] ?? fallback
      if (limit === 0 || after[measure] <= limit) continue
      await this.#add(accountId, kind, { items: -adding.items, bytes: -adding.bytes })
      const used = after[measure] - adding[measure]
      return { quota, used, limit, adding: adding[measure], custom: quota in own }
    }
    return undefined
  }

  async #add(accountId: string, kind: UsageKind, adding: Amount): Promise<Amount> {
    const row = await this.db
      .insertInto('account_usage')
      .values({ account_id: accountId, kind, items: adding.items, bytes: adding.bytes })
      .onConflict((oc) =>
        oc.columns(['account_id', 'kind']).doUpdateSet({
          items: sql`account_usage.items + ${adding.items}`,
          bytes: sql`account_usage.bytes + ${adding.bytes}`,
        }),
      )
      .returning(['items', 'bytes'])
      .executeTakeFirstOrThrow()
    return { items: Number(row.items), bytes: Number(row.bytes) }
  }

  /** What the account owns, per kind (kinds it never stored are absent). */
  async usage(accountId: string): Promise<Partial<Record<UsageKind, Amount>>> {
    const rows = await this.db
      .selectFrom('account_usage')
      .select(['kind', 'items', 'bytes'])
      .where('account_id', '=', accountId)
      .execute()
    return Object.fromEntries(
      rows.map((row) => [row.kind, { items: Number(row.items), bytes: Number(row.bytes) }]),
    )
  }

  /** The account's own limits, by quota id. */
  async overrides(accountId: string): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('quota_overrides')
      .select(['quota', 'quota_limit'])
      .where('account_id', '=', accountId)
      .execute()
    return Object.fromEntries(rows.map((row) => [row.quota, Number(row.quota_limit)]))
  }

  /** Sets the account's own limit for one quota (made, or replaced). */
  async setOverride(accountId: string, quota: string, limit: number): Promise<void> {
    const updated_at = now()
    await this.db
      .insertInto('quota_overrides')
      .values({ account_id: accountId, quota, quota_limit: limit, updated_at })
      .onConflict((oc) =>
        oc.columns(['account_id', 'quota']).doUpdateSet({ quota_limit: limit, updated_at }),
      )
      .execute()
  }

  /** Removes the account's own limit for one quota; false when it had none. */
  async deleteOverride(accountId: string, quota: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('quota_overrides')
      .where('account_id', '=', accountId)
      .where('quota', '=', quota)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  /**
   * Counts again what the account owns from the records themselves and makes that its usage
   * (`svc-hub admin recount-usage`). Run it in a transaction: it locks the account's usage rows
   * first, so a write that charges meanwhile is counted once, before or after.
   */
  async recount(accountId: string, rowLocks: boolean): Promise<Record<UsageKind, Amount>> {
    for (const kind of KINDS) await this.#add(accountId, kind, NOTHING)
    if (rowLocks) {
      await this.db
        .selectFrom('account_usage')
        .select('kind')
        .where('account_id', '=', accountId)
        .forUpdate()
        .execute()
    }
    const counted = await this.#count(accountId)
    for (const kind of KINDS) {
      await this.db
        .updateTable('account_usage')
        .set({ items: counted[kind].items, bytes: counted[kind].bytes })
        .where('account_id', '=', accountId)
        .where('kind', '=', kind)
        .execute()
    }
    return counted
  }

  async #count(accountId: string): Promise<Record<UsageKind, Amount>> {
    const db = this.db
    const amount = (row: { n: unknown; b: unknown } | undefined): Amount => ({
      items: Number(row?.n ?? 0),
      bytes: Number(row?.b ?? 0),
    })
    const [revisions, versions, artifacts, baseFiles] = await Promise.all([
      db
        .selectFrom('revisions')
        .innerJoin('apis', 'apis.id', 'revisions.api_id')
        .where('apis.account_id', '=', accountId)
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('revisions.size').as('b')])
        .executeTakeFirst(),
      db
        .selectFrom('stack_versions')
        .innerJoin('stacks', 'stacks.id', 'stack_versions.stack_id')
        .where('stacks.account_id', '=', accountId)
        .select((eb) => [
          eb.fn.countAll().as('n'),
          eb.fn
            .sum(
              eb('stack_versions.bundle_bytes', '+', eb.ref('stack_versions.source_total_bytes')),
            )
            .as('b'),
        ])
        .executeTakeFirst(),
      db
        .selectFrom('run_artifacts')
        .innerJoin('runs', 'runs.id', 'run_artifacts.run_id')
        .innerJoin('projects', 'projects.id', 'runs.project_id')
        .where('projects.account_id', '=', accountId)
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('run_artifacts.size').as('b')])
        .executeTakeFirst(),
      db
        .selectFrom('project_base_files')
        .innerJoin('projects', 'projects.id', 'project_base_files.project_id')
        .where('projects.account_id', '=', accountId)
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('project_base_files.size').as('b')])
        .executeTakeFirst(),
    ])
    return {
      revisions: amount(revisions),
      stackVersions: amount(versions),
      runArtifacts: amount(artifacts),
      baseFiles: amount(baseFiles),
    }
  }
}

const KINDS: readonly UsageKind[] = ['revisions', 'stackVersions', 'runArtifacts', 'baseFiles']
