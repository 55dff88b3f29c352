import type { Kysely, Migration } from 'kysely'
import type { DialectCapabilities } from '../dialect.js'

/** Accounts, credentials, blobs, stacks and their versions, minimal APIs, projects. */
export function initial(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('handle', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('memberships')
        .addColumn('org_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
        .execute()

      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute()

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'text', (c) => c.references('accounts.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute()

      await db.schema
        .createTable('blobs')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('data', caps.blobType, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('stacks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('stacks_account_slug', ['account_id', 'slug'])
        .execute()

      await db.schema
        .createTable('stack_versions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('stack_id', 'text', (c) => c.notNull().references('stacks.id'))
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('bundle_sha256', 'text', (c) => c.notNull().references('blobs.sha256'))
        .addColumn('bundle_bytes', 'integer', (c) => c.notNull())
        .addColumn('source_file_count', 'integer', (c) => c.notNull())
        .addColumn('source_total_bytes', 'integer', (c) => c.notNull())
        .addColumn('composition', 'text', (c) => c.notNull())
        .addColumn('manifest_path', 'text', (c) => c.notNull())
        .addColumn('published_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('stack_versions_stack_version', ['stack_id', 'version'])
        .execute()

      await db.schema
        .createTable('stack_version_files')
        .addColumn('stack_version_id', 'text', (c) => c.notNull().references('stack_versions.id'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull().references('blobs.sha256'))
        .addPrimaryKeyConstraint('stack_version_files_pk', ['stack_version_id', 'path'])
        .execute()

      await db.schema
        .createTable('apis')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('visibility', 'text', (c) => c.notNull())
        .addColumn('source_url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('apis_account_slug', ['account_id', 'slug'])
        .execute()

      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('stack_id', 'text', (c) => c.notNull().references('stacks.id'))
        .addColumn('stack_version', 'text', (c) => c.notNull())
        .addColumn('api_id', 'text', (c) => c.notNull().references('apis.id'))
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('config_updated_at', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('projects_account_slug', ['account_id', 'slug'])
        .execute()

      await db.schema
        .createTable('project_base_files')
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull().references('blobs.sha256'))
        .addPrimaryKeyConstraint('project_base_files_pk', ['project_id', 'path'])
        .execute()

      await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute()
      await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute()
    },
  }
}
