import { sql, type Kysely } from 'kysely'
import { now } from './ids.js'
import type { Database } from './schema.js'
import { UsageRepo } from './usage-repo.js'

/** Which runs' artifacts go: past the newest `keepRuns` of their deployment, or older than a time. */
export type RetentionRule = {
  /** Runs that stored artifacts kept per deployment, newest first; 0: no such rule. */
  readonly keepRuns: number
  /** Runs that finished before this (ISO time) lose their artifacts; undefined: no such rule. */
  readonly finishedBefore: string | undefined
}

/** What one cleanup removed. */
export type Pruned = {
  readonly runs: number
  readonly files: number
  readonly bytes: number
  /** Blobs no record referenced any more, deleted. */
  readonly blobs: number
}

export const PRUNED_NOTHING: Pruned = { runs: 0, files: 0, bytes: 0, blobs: 0 }

/** The tables and columns that reference a blob: one is enough to keep it. */
const BLOB_REFERENCES = [
  ['revisions', 'content_hash'],
  ['stack_versions', 'bundle_sha256'],
  ['stack_version_files', 'sha256'],
  ['project_base_files', 'sha256'],
  ['run_artifacts', 'sha256'],
] as const

/**
 * The retention of run artifacts: which runs' artifacts a rule removes, and their removal with
 * the account's usage and the blobs nothing references any more, in one transaction. Safe with
 * several workers at once: a run's artifacts are claimed by the one update that marks the run
 * pruned, so a second worker finds nothing left to claim.
 */
export class RetentionRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Runs whose artifacts `rule` removes, those that finished first first, at most `limit`. */
  async prunable(rule: RetentionRule, limit: number): Promise<string[]> {
    if (rule.keepRuns === 0 && rule.finishedBefore === undefined) return []
    const byRank = rule.keepRuns > 0 ? sql`ranked.n > ${rule.keepRuns}` : sql`1 = 0`
    const byAge =
      rule.finishedBefore === undefined
        ? sql`1 = 0`
        : sql`ranked.finished_at < ${rule.finishedBefore}`
    const rows = await sql<{ id: string }>`
      select ranked.id from (
        select id, finished_at,
          row_number() over (partition by deployment_id order by started_at desc, id desc) as n
        from runs
        where artifact_count > 0 and artifacts_pruned_at is null and finished_at is not null
      ) ranked
      where ${byRank} or ${byAge}
      order by ranked.finished_at, ranked.id
      limit ${limit}`.execute(this.db)
    return rows.rows.map((row) => row.id)
  }

  /**
   * Removes the artifacts of `runIds` (those not removed already), marks the runs pruned, gives
   * their bytes back to the owning accounts' usage and deletes the blobs that no record
   * references any more, in one transaction.
   */
  async prune(runIds: readonly string[], at = now()): Promise<Pruned> {
    if (runIds.length === 0) return PRUNED_NOTHING
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('runs')
        .set({ artifacts_pruned_at: at })
        .where('id', 'in', runIds)
        .where('artifacts_pruned_at', 'is', null)
        .where('artifact_count', '>', 0)
        .returning(['id', 'project_id', 'artifact_count', 'artifact_bytes'])
        .execute()
      if (claimed.length === 0) return PRUNED_NOTHING
      const ids = claimed.map((run) => run.id)
      const removed = await trx
        .deleteFrom('run_artifacts')
        .where('run_id', 'in', ids)
        .returning('sha256')
        .execute()
      const owners = await trx
        .selectFrom('projects')
        .select(['id', 'account_id'])
        .where('id', 'in', [...new Set(claimed.map((run) => run.project_id))])
        .execute()
      const ownerOf = new Map(owners.map((p) => [p.id, p.account_id]))
      const given = new Map<string, { items: number; bytes: number }>()
      for (const run of claimed) {
        const account = ownerOf.get(run.project_id)!
        const sum = given.get(account) ?? { items: 0, bytes: 0 }
        sum.items += run.artifact_count
        sum.bytes += Number(run.artifact_bytes)
        given.set(account, sum)
      }
      const usage = new UsageRepo(trx)
      // In one order in every worker: two cleanups never wait on each other's usage rows.
      for (const [account, sum] of [...given].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        await usage.charge(account, 'runArtifacts', { items: -sum.items, bytes: -sum.bytes })
      }
      const blobs = await freeBlobs(trx, [...new Set(removed.map((row) => row.sha256))])
      let bytes = 0
      for (const sum of given.values()) bytes += sum.bytes
      return { runs: claimed.length, files: removed.length, bytes, blobs }
    })
  }
}

/** Deletes those of `candidates` that no record references; answers how many. */
async function freeBlobs(trx: Kysely<Database>, candidates: readonly string[]): Promise<number> {
  let freed = 0
  for (let i = 0; i < candidates.length; i += 500) {
    const result = await trx
      .deleteFrom('blobs')
      .where('sha256', 'in', candidates.slice(i, i + 500))
      .where((eb) =>
        eb.and(
          BLOB_REFERENCES.map(([table, column]) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom(table)
                  .select(sql.lit(1).as('one'))
                  .whereRef(`${table}.${column}` as never, '=', 'blobs.sha256'),
              ),
            ),
          ),
        ),
      )
      .executeTakeFirst()
    freed += Number(result.numDeletedRows)
  }
  return freed
}
