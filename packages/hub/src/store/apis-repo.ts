import type { Expression, Kysely, SqlBool } from 'kysely'
import { BlobsRepo } from './blobs-repo.js'
import type { DialectCapabilities } from './dialect.js'
import { newId, now } from './ids.js'
import { pastKeyset } from './keyset.js'
import { readableBy } from './readable-by.js'
import type {
  ApiRow,
  Database,
  DiffProfileName,
  NewRevision,
  RevisionAcceptanceRow,
  RevisionChangelogRow,
  RevisionRow,
} from './schema.js'

export type ApiWithOwner = ApiRow & { owner_handle: string }

/**
 * A revision without its changelog entries (which can run to megabytes), with its creator's handle
 * and its acceptance (all three null unless its changes were accepted).
 */
export type RevisionListing = Omit<RevisionRow, 'changes' | 'changelog_issues' | 'parse_issues'> & {
  created_by_handle: string
  accepted_by_handle: string | null
  accepted_at: string | null
  acceptance_reason: string | null
}

/** Where a revision is in its API's series: its id, its sequence number, or the latest. */
export type RevisionAddress =
  { readonly latest: true } | { readonly id: string } | { readonly seq: number }

/** What `appendRevision` needs: the revision without what the store decides, and the document. */
export type AppendRevision = Omit<NewRevision, 'id' | 'seq' | 'content_hash' | 'size'> & {
  readonly document: Uint8Array
  /** The document's SHA-256 when the caller has it already (hashed as it was read). */
  readonly documentSha256?: string
}

/** Where a page of APIs starts: after this one, in the order of `listReadable`. */
export type ApiCursor = { readonly createdAt: string; readonly id: string }

/**
 * The latest revision is no longer the one the new revision was diffed against: another push
 * landed first. The caller reads the new latest, diffs again and retries.
 */
export class StaleRevisionError extends Error {
  override readonly name = 'StaleRevisionError'
}

/** APIs and their revisions, each revision with its changelog. */
export class ApisRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  async create(
    api: Omit<ApiRow, 'id' | 'created_at' | 'diff_profile'> & { diff_profile?: DiffProfileName },
  ): Promise<ApiRow> {
    // The column's default when no profile is given, as for an API made before it existed.
    const row = { id: newId('api'), created_at: now(), ...api }
    await this.db.insertInto('apis').values(row).execute()
    return { diff_profile: 'wire', ...row }
  }

  find(ownerHandle: string, slug: string): Promise<ApiWithOwner | undefined> {
    return this.db
      .selectFrom('apis')
      .innerJoin('accounts', 'accounts.id', 'apis.account_id')
      .selectAll('apis')
      .select('accounts.handle as owner_handle')
      .where('accounts.handle', '=', ownerHandle)
      .where('apis.slug', '=', slug)
      .executeTakeFirst()
  }

  /**
   * A page of the APIs `readerId` can read (every public API, and the private ones of the
   * reader's own account and of the organisations it belongs to; only public ones without a
   * reader), oldest first, optionally of one owner.
   */
  listReadable(query: {
    readerId: string | undefined
    ownerId?: string | undefined
    after?: ApiCursor | undefined
    limit: number
  }): Promise<ApiWithOwner[]> {
    const { readerId, ownerId, after } = query
    let select = this.db
      .selectFrom('apis')
      .innerJoin('accounts', 'accounts.id', 'apis.account_id')
      .selectAll('apis')
      .select('accounts.handle as owner_handle')
      .where((eb) => {
        const visible: Expression<SqlBool>[] = [eb('apis.visibility', '=', 'public')]
        if (readerId) visible.push(readableBy(eb.ref('apis.account_id'), readerId))
        return eb.or(visible)
      })
    if (ownerId) select = select.where('apis.account_id', '=', ownerId)
    if (after) {
      select = select.where((eb) =>
        pastKeyset([eb.ref('apis.created_at'), eb.ref('apis.id')], [after.createdAt, after.id]),
      )
    }
    return select.orderBy('apis.created_at').orderBy('apis.id').limit(query.limit).execute()
  }

  /** The profile the API's revisions are diffed with now. */
  async diffProfile(apiId: string): Promise<DiffProfileName> {
    const row = await this.db
      .selectFrom('apis')
      .select('diff_profile')
      .where('id', '=', apiId)
      .executeTakeFirstOrThrow()
    return row.diff_profile
  }

  /** The counts of a revision's changelogs stored under other profiles than its own. */
  otherCounts(revisionId: string) {
    return this.db
      .selectFrom('revision_changelogs')
      .select(['profile', 'breaking', 'warning', 'info'])
      .where('revision_id', '=', revisionId)
      .execute()
  }

  /** Sets the profile the API's revisions are diffed with from now on. */
  async setDiffProfile(apiId: string, profile: DiffProfileName): Promise<void> {
    await this.db
      .updateTable('apis')
      .set({ diff_profile: profile })
      .where('id', '=', apiId)
      .execute()
  }

  /** A page of the API's revisions, newest first, starting below `beforeSeq` when given. */
  revisions(
    apiId: string,
    page: { beforeSeq?: number | undefined; limit: number },
  ): Promise<RevisionListing[]> {
    let select = this.#listing().where('revisions.api_id', '=', apiId)
    if (page.beforeSeq !== undefined) select = select.where('revisions.seq', '<', page.beforeSeq)
    return select.orderBy('revisions.seq', 'desc').limit(page.limit).execute()
  }

  revision(apiId: string, id: string): Promise<RevisionListing | undefined> {
    return this.#listing()
      .where('revisions.api_id', '=', apiId)
      .where('revisions.id', '=', id)
      .executeTakeFirst()
  }

  /** The revision at `address`: by id, by sequence number, or the latest. */
  revisionAt(apiId: string, address: RevisionAddress): Promise<RevisionListing | undefined> {
    if ('latest' in address) return this.latestRevision(apiId)
    if ('id' in address) return this.revision(apiId, address.id)
    return this.#listing()
      .where('revisions.api_id', '=', apiId)
      .where('revisions.seq', '=', address.seq)
      .executeTakeFirst()
  }

  /** The API's latest revision: the one with the highest `seq`. */
  latestRevision(apiId: string): Promise<RevisionListing | undefined> {
    return this.#listing()
      .where('revisions.api_id', '=', apiId)
      .orderBy('revisions.seq', 'desc')
      .limit(1)
      .executeTakeFirst()
  }

  /**
   * Inside a transaction: holds the API against other pushes until the transaction ends, so that
   * the latest revision read next stays the latest (a row lock on PostgreSQL; on SQLite the
   * transaction, begun IMMEDIATE, holds the whole file's write lock already).
   */
  async holdForPush(apiId: string): Promise<void> {
    if (!this.capabilities.rowLocks) return
    await this.db.selectFrom('apis').select('id').where('id', '=', apiId).forUpdate().execute()
  }

  /** The changelog entries of a revision, as the JSON text they were stored as. */
  async changes(revisionId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('revisions')
      .select('changes')
      .where('id', '=', revisionId)
      .executeTakeFirst()
    return row?.changes
  }

  /** The changelog's `issues` of a revision, as the JSON text they were stored as; null when none. */
  async changelogIssues(revisionId: string): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom('revisions')
      .select('changelog_issues')
      .where('id', '=', revisionId)
      .executeTakeFirst()
    return row?.changelog_issues
  }

  /** The parse issues of a revision, as the JSON text they were stored as; null when not kept. */
  async parseIssues(revisionId: string): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom('revisions')
      .select('parse_issues')
      .where('id', '=', revisionId)
      .executeTakeFirst()
    return row?.parse_issues
  }

  /**
   * A revision's changelog under `profile`: its own when it was computed with that profile, else
   * one stored beside it (`revision_changelogs`); undefined when there is none.
   */
  async changelogUnder(
    revisionId: string,
    profile: DiffProfileName,
  ): Promise<Omit<RevisionChangelogRow, 'revision_id'> | undefined> {
    const columns = [
      'profile',
      'summary',
      'breaking',
      'warning',
      'info',
      'changes',
      'changelog_issues',
    ] as const
    const own = await this.db
      .selectFrom('revisions')
      .select(columns)
      .where('id', '=', revisionId)
      .where('profile', '=', profile)
      .executeTakeFirst()
    return (
      own ??
      this.db
        .selectFrom('revision_changelogs')
        .select(columns)
        .where('revision_id', '=', revisionId)
        .where('profile', '=', profile)
        .executeTakeFirst()
    )
  }

  /**
   * Stores changelogs of a revision under other profiles than its own. One already stored for a
   * revision and profile stays (two readers that computed it at once computed the same).
   */
  async keepChangelogs(rows: readonly RevisionChangelogRow[]): Promise<void> {
    if (rows.length === 0) return
    await this.db
      .insertInto('revision_changelogs')
      .values([...rows])
      .onConflict((oc) => oc.columns(['revision_id', 'profile']).doNothing())
      .execute()
  }

  /** Keeps the parse issues of a revision stored before they were kept (JSON text). */
  async keepParseIssues(revisionId: string, issues: string): Promise<void> {
    await this.db
      .updateTable('revisions')
      .set({ parse_issues: issues })
      .where('id', '=', revisionId)
      .where('parse_issues', 'is', null)
      .execute()
  }

  /**
   * Stores the document and appends the revision with its changelog as the API's new latest,
   * in one transaction (its own, or the one this repository runs in). Throws
   * {@link StaleRevisionError} when `previous_revision_id` is no longer the latest revision,
   * also when a concurrent append takes the same place in the series at the same moment.
   */
  async appendRevision(revision: AppendRevision): Promise<RevisionRow> {
    if (!this.db.isTransaction) {
      return this.db
        .transaction()
        .execute((trx) => new ApisRepo(trx, this.capabilities).appendRevision(revision))
    }
    const { document, documentSha256, ...fields } = revision
    const latest = await this.db
      .selectFrom('revisions')
      .select(['id', 'seq'])
      .where('api_id', '=', revision.api_id)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst()
    if ((latest?.id ?? null) !== (revision.previous_revision_id ?? null)) {
      throw new StaleRevisionError(
        `the latest revision of ${revision.api_id} is ${latest?.id ?? 'none'}, not ${revision.previous_revision_id ?? 'none'}`,
      )
    }
    const contentHash = await new BlobsRepo(this.db, this.capabilities).put(
      document,
      documentSha256,
    )
    const row: RevisionRow = {
      ...fields,
      id: newId('rev'),
      seq: (latest?.seq ?? 0) + 1,
      content_hash: contentHash,
      size: document.byteLength,
      version: fields.version ?? null,
      published_at: fields.published_at ?? null,
      previous_revision_id: fields.previous_revision_id ?? null,
      changelog_issues: fields.changelog_issues ?? null,
      parse_issues: fields.parse_issues ?? null,
      profile: fields.profile ?? 'wire',
    }
    try {
      await this.db.insertInto('revisions').values(row).execute()
    } catch (error) {
      // PostgreSQL: a concurrent transaction took this seq after our read (SQLite serialises).
      if (this.capabilities.isUniqueViolation(error)) {
        throw new StaleRevisionError(`seq ${row.seq} of ${row.api_id} was taken concurrently`, {
          cause: error,
        })
      }
      throw error
    }
    return row
  }

  /**
   * Records that `revision_id`'s changes were accepted, unless they were already: answers the
   * acceptance that stands then, and nothing when this one was recorded. Two acceptances at once
   * on PostgreSQL: the second fails on the key, and its transaction with it.
   */
  async accept(acceptance: RevisionAcceptanceRow): Promise<RevisionAcceptanceRow | undefined> {
    const existing = await this.db
      .selectFrom('revision_acceptances')
      .selectAll()
      .where('revision_id', '=', acceptance.revision_id)
      .executeTakeFirst()
    if (existing) return existing
    await this.db.insertInto('revision_acceptances').values(acceptance).execute()
    return undefined
  }

  /** Withdraws the acceptance of a revision's changes; answers whether there was one. */
  async withdrawAcceptance(revisionId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('revision_acceptances')
      .where('revision_id', '=', revisionId)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  #listing() {
    return this.db
      .selectFrom('revisions')
      .innerJoin('accounts', 'accounts.id', 'revisions.created_by')
      .leftJoin('revision_acceptances', 'revision_acceptances.revision_id', 'revisions.id')
      .leftJoin('accounts as acceptor', 'acceptor.id', 'revision_acceptances.accepted_by')
      .select([
        'revisions.id',
        'revisions.api_id',
        'revisions.seq',
        'revisions.content_hash',
        'revisions.size',
        'revisions.media_type',
        'revisions.protocol',
        'revisions.format',
        'revisions.spec_version',
        'revisions.version',
        'revisions.published_at',
        'revisions.retrieved_at',
        'revisions.created_by',
        'revisions.origin',
        'revisions.previous_revision_id',
        'revisions.issue_errors',
        'revisions.issue_warnings',
        'revisions.issue_debug',
        'revisions.summary',
        'revisions.breaking',
        'revisions.warning',
        'revisions.info',
        'revisions.profile',
        'accounts.handle as created_by_handle',
        'acceptor.handle as accepted_by_handle',
        'revision_acceptances.accepted_at',
        'revision_acceptances.reason as acceptance_reason',
      ])
  }
}
