import type { Kysely, Migration } from 'kysely'

/**
 * What the web app adds: users' passwords and browser sessions; a project's deployments (a pinned
 * stack version), the runs of a deployment with their artifacts, and the project's aliases
 * (`production`).
 */
export function web(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('passwords')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('accounts.id'))
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('flash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id']).execute()

      await db.schema
        .createTable('deployments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
        .addColumn('stack_version_id', 'text', (c) => c.notNull().references('stack_versions.id'))
        .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('deployments_project')
        .on('deployments')
        .columns(['project_id', 'created_at'])
        .execute()

      await db.schema
        .createTable('runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
        .addColumn('deployment_id', 'text', (c) => c.notNull().references('deployments.id'))
        .addColumn('revision_id', 'text', (c) => c.references('revisions.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('manifest', 'text')
        .addColumn('log', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('duration_ms', 'integer')
        .execute()
      await db.schema
        .createIndex('runs_project')
        .on('runs')
        .columns(['project_id', 'started_at'])
        .execute()

      await db.schema
        .createTable('run_artifacts')
        .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull().references('blobs.sha256'))
        .addPrimaryKeyConstraint('run_artifacts_pk', ['run_id', 'path'])
        .execute()

      await db.schema
        .createTable('project_aliases')
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('deployment_id', 'text', (c) => c.notNull().references('deployments.id'))
        .addColumn('updated_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('project_aliases_pk', ['project_id', 'name'])
        .execute()
    },
  }
}
