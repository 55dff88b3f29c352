import type { Kysely } from 'kysely'
import { byCodeUnits, newId, now } from './ids.js'
import { pastKeyset, type HandleSlugCursor } from './keyset.js'
import { readableBy } from './readable-by.js'
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

  /**
   * A page of the stacks `readerId` can read (those of its own account and of the organisations
   * it belongs to), ordered by account handle and slug, optionally of one account, with how many
   * versions each has and when the last was published.
   */
  listReadable(query: {
    readerId: string
    accountId?: string | undefined
    after?: HandleSlugCursor | undefined
    limit: number
  }): Promise<(StackWithAccount & { version_count: number; last_published_at: string | null })[]> {
    const { readerId, accountId, after } = query
    let select = this.db
      .selectFrom('stacks')
      .innerJoin('accounts', 'accounts.id', 'stacks.account_id')
      .selectAll('stacks')
      .select((eb) => [
        'accounts.handle as account_handle',
        eb
          .selectFrom('stack_versions')
          .select((v) => v.fn.countAll<number>().as('n'))
          .whereRef('stack_versions.stack_id', '=', 'stacks.id')
          .as('version_count'),
        eb
          .selectFrom('stack_versions')
          .select((v) => v.fn.max('published_at').as('at'))
          .whereRef('stack_versions.stack_id', '=', 'stacks.id')
          .as('last_published_at'),
      ])
      .where((eb) => readableBy(eb.ref('stacks.account_id'), readerId))
    if (accountId) select = select.where('stacks.account_id', '=', accountId)
    if (after) {
      select = select.where((eb) =>
        pastKeyset([eb.ref('accounts.handle'), eb.ref('stacks.slug')], [after.account, after.slug]),
      )
    }
    return select
      .orderBy('accounts.handle')
      .orderBy('stacks.slug')
      .limit(query.limit)
      .execute()
      .then((rows) =>
        rows.map((row) => ({
          ...row,
          version_count: Number(row.version_count ?? 0),
          last_published_at: row.last_published_at ?? null,
        })),
      )
  }

  /** The version strings of several stacks at once: `[{stack_id, version}]`. */
  versionNames(stackIds: readonly string[]): Promise<{ stack_id: string; version: string }[]> {
    if (stackIds.length === 0) return Promise.resolve([])
    return this.db
      .selectFrom('stack_versions')
      .select(['stack_id', 'version'])
      .where('stack_id', 'in', stackIds)
      .execute()
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
