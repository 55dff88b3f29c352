import type { Kysely } from 'kysely'
import { BlobsRepo } from './blobs-repo.js'
import type { DialectCapabilities } from './dialect.js'
import { byCodeUnits, newId, now } from './ids.js'
import type { Database, DeploymentRow, ProjectAliasRow, RunRow, RunStatus } from './schema.js'
import type { StoredFile } from './stacks-repo.js'
import { OverQuota, UsageRepo, type ChargeLimits } from './usage-repo.js'

/** A deployment with the version it pins and who made it. */
export type DeploymentListing = DeploymentRow & {
  version: string
  bundle_sha256: string
  created_by_handle: string
}

/**
 * A run with its deployment's version, who started it, and the number (`seq`) of the revision it
 * used: a revision is never removed nor renumbered, so its id is all the run needs to keep.
 */
export type RunListing = RunRow & {
  version: string
  created_by_handle: string
  revision_seq: number | null
}

/** How a run ended, written once. */
export type RunOutcome = {
  readonly status: Exclude<RunStatus, 'running'>
  readonly error: string | null
  /** JSON text of the manifest the bundle answered. */
  readonly manifest: string | null
  readonly log: string | null
  readonly finishedAt: string
  readonly durationMs: number
}

/** An artifact a run made, with its bytes (stored as a blob). */
export type RunArtifactData = StoredFile & { readonly data: Uint8Array }

/** A project's deployments (pinned stack versions), their runs with artifacts, and its aliases. */
export class DeploymentsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  async createDeployment(
    deployment: Pick<DeploymentRow, 'project_id' | 'stack_version_id' | 'created_by'>,
  ): Promise<DeploymentRow> {
    const row: DeploymentRow = { id: newId('dep'), created_at: now(), ...deployment }
    await this.db.insertInto('deployments').values(row).execute()
    return row
  }

  #deployments() {
    return this.db
      .selectFrom('deployments')
      .innerJoin('stack_versions', 'stack_versions.id', 'deployments.stack_version_id')
      .innerJoin('accounts', 'accounts.id', 'deployments.created_by')
      .selectAll('deployments')
      .select([
        'stack_versions.version as version',
        'stack_versions.bundle_sha256 as bundle_sha256',
        'accounts.handle as created_by_handle',
      ])
  }

  /** The project's deployments, newest first (ties in the order of their ids). */
  deployments(projectId: string, limit = 100): Promise<DeploymentListing[]> {
    return this.#deployments()
      .where('deployments.project_id', '=', projectId)
      .orderBy('deployments.created_at', 'desc')
      .orderBy('deployments.id', 'desc')
      .limit(limit)
      .execute()
  }

  deployment(projectId: string, id: string): Promise<DeploymentListing | undefined> {
    return this.#deployments()
      .where('deployments.project_id', '=', projectId)
      .where('deployments.id', '=', id)
      .executeTakeFirst()
  }

  latestDeployment(projectId: string): Promise<DeploymentListing | undefined> {
    return this.#deployments()
      .where('deployments.project_id', '=', projectId)
      .orderBy('deployments.created_at', 'desc')
      .orderBy('deployments.id', 'desc')
      .limit(1)
      .executeTakeFirst()
  }

  /** Points the alias `name` of the project at a deployment (made or moved). */
  async setAlias(projectId: string, name: string, deploymentId: string, by: string) {
    const updated_at = now()
    await this.db
      .insertInto('project_aliases')
      .values({
        project_id: projectId,
        name,
        deployment_id: deploymentId,
        updated_by: by,
        updated_at,
      })
      .onConflict((oc) =>
        oc
          .columns(['project_id', 'name'])
          .doUpdateSet({ deployment_id: deploymentId, updated_by: by, updated_at }),
      )
      .execute()
  }

  alias(
    projectId: string,
    name: string,
  ): Promise<(ProjectAliasRow & { updated_by_handle: string }) | undefined> {
    return this.db
      .selectFrom('project_aliases')
      .innerJoin('accounts', 'accounts.id', 'project_aliases.updated_by')
      .selectAll('project_aliases')
      .select('accounts.handle as updated_by_handle')
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst()
  }

  /** A new run, `running` from now. */
  async createRun(
    run: Pick<RunRow, 'project_id' | 'deployment_id' | 'revision_id' | 'created_by'>,
  ): Promise<RunRow> {
    const row = {
      id: newId('run'),
      status: 'running' as const,
      error: null,
      manifest: null,
      log: null,
      started_at: now(),
      finished_at: null,
      duration_ms: null,
      ...run,
    }
    await this.db.insertInto('runs').values(row).execute()
    return { ...row, artifact_count: 0, artifact_bytes: 0, artifacts_pruned_at: null }
  }

  /** Moves a queued run's start to when its process really starts; false when it ended already. */
  async startRun(id: string, at = now()): Promise<boolean> {
    const result = await this.db
      .updateTable('runs')
      .set({ started_at: at })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /**
   * Ends a running run with its outcome and artifacts, in one transaction; false (and nothing
   * written) when the run is no longer running (a hub that started since marked it failed).
   * The artifacts count against the quotas of the account that owns the project, checked against
   * `limits` in the same transaction: past one, {@link OverQuota} is thrown and nothing is written.
   */
  async finishRun(
    id: string,
    outcome: RunOutcome,
    artifacts: readonly RunArtifactData[] = [],
    limits?: ChargeLimits,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const bytes = artifacts.reduce((sum, a) => sum + a.size, 0)
      const result = await trx
        .updateTable('runs')
        .set({
          status: outcome.status,
          error: outcome.error,
          manifest: outcome.manifest,
          log: outcome.log,
          finished_at: outcome.finishedAt,
          duration_ms: outcome.durationMs,
          artifact_count: artifacts.length,
          artifact_bytes: bytes,
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) !== 1) return false
      if (artifacts.length === 0) return true
      const { account_id: owner } = await trx
        .selectFrom('runs')
        .innerJoin('projects', 'projects.id', 'runs.project_id')
        .select('projects.account_id')
        .where('runs.id', '=', id)
        .executeTakeFirstOrThrow()
      const adding = { items: artifacts.length, bytes }
      const refusal = await new UsageRepo(trx).charge(owner, 'runArtifacts', adding, limits)
      if (refusal) throw new OverQuota(owner, refusal)
      await new BlobsRepo(trx, this.capabilities).putMany(artifacts)
      for (let i = 0; i < artifacts.length; i += 200) {
        await trx
          .insertInto('run_artifacts')
          .values(
            artifacts
              .slice(i, i + 200)
              .map((a) => ({ run_id: id, path: a.path, size: a.size, sha256: a.sha256 })),
          )
          .execute()
      }
      return true
    })
  }

  /**
   * Marks runs still `running` that started before `before` as failed with `error` (what a hub
   * does on start: their process died with the hub that ran them). Answers how many.
   */
  async failRunsStartedBefore(before: string, error: string): Promise<number> {
    const finishedAt = now()
    const result = await this.db
      .updateTable('runs')
      .set({ status: 'failed', error, finished_at: finishedAt })
      .where('status', '=', 'running')
      .where('started_at', '<', before)
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  #runs() {
    return this.db
      .selectFrom('runs')
      .innerJoin('deployments', 'deployments.id', 'runs.deployment_id')
      .innerJoin('stack_versions', 'stack_versions.id', 'deployments.stack_version_id')
      .innerJoin('accounts', 'accounts.id', 'runs.created_by')
      .leftJoin('revisions', 'revisions.id', 'runs.revision_id')
      .selectAll('runs')
      .select([
        'stack_versions.version as version',
        'accounts.handle as created_by_handle',
        'revisions.seq as revision_seq',
      ])
  }

  /** The project's runs, newest first. */
  runs(projectId: string, limit = 100): Promise<RunListing[]> {
    return this.#runs()
      .where('runs.project_id', '=', projectId)
      .orderBy('runs.started_at', 'desc')
      .orderBy('runs.id', 'desc')
      .limit(limit)
      .execute()
  }

  run(projectId: string, id: string): Promise<RunListing | undefined> {
    return this.#runs()
      .where('runs.project_id', '=', projectId)
      .where('runs.id', '=', id)
      .executeTakeFirst()
  }

  /** The files a run made, in path order. */
  async artifacts(runId: string): Promise<StoredFile[]> {
    const rows = await this.db
      .selectFrom('run_artifacts')
      .select(['path', 'size', 'sha256'])
      .where('run_id', '=', runId)
      .execute()
    return rows.sort((a, b) => byCodeUnits(a.path, b.path))
  }

  artifact(runId: string, path: string): Promise<StoredFile | undefined> {
    return this.db
      .selectFrom('run_artifacts')
      .select(['path', 'size', 'sha256'])
      .where('run_id', '=', runId)
      .where('path', '=', path)
      .executeTakeFirst()
  }
}
