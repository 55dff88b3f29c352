import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectCapabilities } from '../dialect.js'

/**
 * Storage quotas and the retention of run artifacts (docs/hub/running.md#quotas):
 *
 * - `account_usage`: per owning account and kind (`revisions`, `stackVersions`, `runArtifacts`,
 *   `baseFiles`), how many items and bytes it stores, kept by every write in the write's own
 *   transaction, and filled here from what is stored already;
 * - `quota_overrides`: an account's own limit for one quota (`svc-hub admin set-quota`);
 * - on `runs`: how many artifacts of how many bytes the run stored, and when the cleanup removed
 *   them;
 * - indexes on every column that references a blob, so that freeing a blob (which looks for its
 *   references, and on PostgreSQL checks the foreign keys) reads a few rows, not whole tables.
 *
 * Idempotent (tables, columns and indexes made only when missing), as a test replays the
 * migrations after 0008 on a schema that has them.
 */
export function quotas(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('account_usage')
        .ifNotExists()
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('items', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('account_usage_pk', ['account_id', 'kind'])
        .execute()
      await db.schema
        .createTable('quota_overrides')
        .ifNotExists()
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('quota', 'text', (c) => c.notNull())
        .addColumn('quota_limit', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('quota_overrides_pk', ['account_id', 'quota'])
        .execute()

      const has = new Set(await columnsOf(db, caps, 'runs'))
      if (!has.has('artifact_count')) {
        await db.schema
          .alterTable('runs')
          .addColumn('artifact_count', 'integer', (c) => c.notNull().defaultTo(0))
          .execute()
      }
      if (!has.has('artifact_bytes')) {
        await db.schema
          .alterTable('runs')
          .addColumn('artifact_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute()
      }
      if (!has.has('artifacts_pruned_at')) {
        await db.schema.alterTable('runs').addColumn('artifacts_pruned_at', 'text').execute()
      }

      for (const [name, table, columns] of [
        ['run_artifacts_blob', 'run_artifacts', ['sha256']],
        ['stack_version_files_blob', 'stack_version_files', ['sha256']],
        ['stack_versions_bundle', 'stack_versions', ['bundle_sha256']],
        ['project_base_files_blob', 'project_base_files', ['sha256']],
        ['revisions_content', 'revisions', ['content_hash']],
        ['runs_deployment', 'runs', ['deployment_id', 'started_at']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .ifNotExists()
          .on(table)
          .columns([...columns])
          .execute()
      }

      await sql`
        update runs set
          artifact_count = (select count(*) from run_artifacts a where a.run_id = runs.id),
          artifact_bytes = (select coalesce(sum(a.size), 0) from run_artifacts a where a.run_id = runs.id)
        where artifact_count = 0 and exists (select 1 from run_artifacts a where a.run_id = runs.id)
      `.execute(db)

      // What each account stores already: the usage the writes go on from.
      const kinds = [
        sql`select apis.account_id, 'revisions', count(*), coalesce(sum(revisions.size), 0)
          from revisions join apis on apis.id = revisions.api_id
          where true group by apis.account_id`,
        sql`select stacks.account_id, 'stackVersions', count(*),
            coalesce(sum(stack_versions.bundle_bytes + stack_versions.source_total_bytes), 0)
          from stack_versions join stacks on stacks.id = stack_versions.stack_id
          where true group by stacks.account_id`,
        sql`select projects.account_id, 'runArtifacts', count(*), coalesce(sum(run_artifacts.size), 0)
          from run_artifacts join runs on runs.id = run_artifacts.run_id
          join projects on projects.id = runs.project_id
          where true group by projects.account_id`,
        sql`select projects.account_id, 'baseFiles', count(*),
            coalesce(sum(project_base_files.size), 0)
          from project_base_files join projects on projects.id = project_base_files.project_id
          where true group by projects.account_id`,
      ]
      for (const select of kinds) {
        await sql`insert into account_usage (account_id, kind, items, bytes) ${select}
          on conflict (account_id, kind) do nothing`.execute(db)
      }
    },
  }
}

/** The columns `table` has now, in the schema the store uses. */
async function columnsOf(
  db: Kysely<any>,
  caps: DialectCapabilities,
  table: string,
): Promise<string[]> {
  const query =
    caps.name === 'postgres'
      ? sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`
      : sql<{ name: string }>`select name from pragma_table_info(${table})`
  return (await query.execute(db)).rows.map((row) => row.name)
}
