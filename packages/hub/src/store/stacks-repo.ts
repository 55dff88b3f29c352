import type { Kysely } from 'kysely'
import { byCodeUnits, newId, now } from './ids.js'
import type { Database, NewStackVersion, StackRow, StackVersionRow } from './schema.js'

export type StoredFile = { path: string; size: number; sha256: string }
export type StackWithAccount = StackRow & { account_handle: string }

/** Stacks, their immutable versions and the source file list of each version. */
export class StacksRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stack `account/slug`, created when it does not exist yet (safe under concurrency). */
  async ensure(accountId: string, slug: string): Promise<StackRow> {
    await this.db
      .insertInto('stacks')
      .values({ id: newId('stk'), account_id: accountId, slug, created_at: now() })
      .onConflict((oc) => oc.columns(['account_id', 'slug']).doNothing())
      .execute()
    return this.db
      .selectFrom('stacks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow()
  }

  find(accountHandle: string, slug: string): Promise<StackWithAccount | undefined> {
    return this.db
      .selectFrom('stacks')
      .innerJoin('accounts', 'accounts.id', 'stacks.account_id')
      .selectAll('stacks')
      .select('accounts.handle as account_handle')
      .where('accounts.handle', '=', accountHandle)
      .where('stacks.slug', '=', slug)
      .executeTakeFirst()
  }

  /** Inserts the version and its file list; a duplicate version throws a unique violation. */
  async insertVersion(
    version: Omit<NewStackVersion, 'id'>,
    files: readonly StoredFile[],
  ): Promise<StackVersionRow> {
    const row: StackVersionRow = { id: newId('ver'), ...version }
    await this.db.insertInto('stack_versions').values(row).execute()
    // Chunked: SQLite caps the number of bound parameters in one statement.
    for (let i = 0; i < files.length; i += 200) {
      await this.db
        .insertInto('stack_version_files')
        .values(files.slice(i, i + 200).map((f) => ({ stack_version_id: row.id, ...f })))
        .execute()
    }
    return row
  }

  /** Every version of the stack with its publisher's handle, newest first. */
  versions(stackId: string): Promise<(StackVersionRow & { publisher: string })[]> {
    return this.db
      .selectFrom('stack_versions')
      .innerJoin('accounts', 'accounts.id', 'stack_versions.published_by')
      .selectAll('stack_versions')
      .select('accounts.handle as publisher')
      .where('stack_id', '=', stackId)
      .orderBy('published_at', 'desc')
      .execute()
  }

  version(stackId: string, version: string): Promise<StackVersionRow | undefined> {
    return this.db
      .selectFrom('stack_versions')
      .selectAll()
      .where('stack_id', '=', stackId)
      .where('version', '=', version)
      .executeTakeFirst()
  }

  async files(versionId: string): Promise<StoredFile[]> {
    const rows = await this.db
      .selectFrom('stack_version_files')
      .select(['path', 'size', 'sha256'])
      .where('stack_version_id', '=', versionId)
      .execute()
    return rows.sort((a, b) => byCodeUnits(a.path, b.path))
  }

  file(versionId: string, path: string): Promise<StoredFile | undefined> {
    return this.db
      .selectFrom('stack_version_files')
      .select(['path', 'size', 'sha256'])
      .where('stack_version_id', '=', versionId)
      .where('path', '=', path)
      .executeTakeFirst()
  }
}
