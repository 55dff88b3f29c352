import type { Kysely } from 'kysely'
import type { AccountWithRoleRow } from './accounts-repo.js'
import { compiledOnce } from './compiled-once.js'
import { byCodeUnits, newId, now } from './ids.js'
import { pastKeyset, type HandleSlugCursor } from './keyset.js'
import { readableBy } from './readable-by.js'
import type { Database, ProjectRow } from './schema.js'
import type { ReadCache } from './read-cache.js'
import type { StoredFile } from './stacks-repo.js'

export type ProjectWithRefs = ProjectRow & {
  account_handle: string
  stack_account_handle: string
  stack_slug: string
  api_account_handle: string
  api_slug: string
}

/** Projects, their flat config and base files. */
export class ProjectsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    /** Keeps the rows of `findWithAccess` (store/read-cache.ts); none in a transaction. */
    private readonly reads?: ReadCache,
  ) {}

  async create(
    project: Omit<ProjectRow, 'id' | 'created_at' | 'config_updated_at'>,
  ): Promise<ProjectRow> {
    const row: ProjectRow = {
      id: newId('prj'),
      created_at: now(),
      config_updated_at: null,
      ...project,
    }
    await this.db.insertInto('projects').values(row).execute()
    return row
  }

  find(accountHandle: string, slug: string): Promise<ProjectWithRefs | undefined> {
    return this.#withRefs()
      .where('owner.handle', '=', accountHandle)
      .where('projects.slug', '=', slug)
      .executeTakeFirst()
  }

  /**
   * The account `accountHandle` with the role `userId` has in it, and its project `slug` if it
   * has one: what a project route checks, in one query (undefined: no such account).
   */
  async findWithAccess(
    accountHandle: string,
    slug: string,
    userId: string,
  ): Promise<(AccountWithRoleRow & { project: ProjectWithRefs | undefined }) | undefined> {
    // The rows are kept, never what is made of them: each caller gets objects of its own.
    const read = () => this.#withAccess(accountHandle, slug, userId)
    const [row] = this.reads
      ? await this.reads.read(JSON.stringify([accountHandle, slug, userId]), read)
      : await read()
    if (!row) return undefined
    const account = {
      id: row.owner_id,
      handle: row.owner_handle,
      kind: row.owner_kind,
      created_at: row.owner_created_at,
    }
    const role = row.role ?? undefined
    if (row.id === null) return { account, role, project: undefined }
    const project: ProjectWithRefs = {
      id: row.id,
      account_id: row.owner_id,
      slug: row.slug!,
      stack_id: row.stack_id!,
      stack_version: row.stack_version!,
      api_id: row.api_id!,
      config: row.config!,
      config_updated_at: row.config_updated_at,
      created_by: row.created_by!,
      created_at: row.created_at!,
      account_handle: row.owner_handle,
      stack_account_handle: row.stack_account_handle!,
      stack_slug: row.stack_slug!,
      api_account_handle: row.api_account_handle!,
      api_slug: row.api_slug!,
    }
    return { account, role, project }
  }

  // Left joins from the account: a row comes back for an account without the project, or with
  // no membership, so that 404 and 403 are told apart as before.
  readonly #withAccess = compiledOnce(
    () => this.db,
    (accountHandle: string, slug: string, userId: string) =>
      this.db
        .selectFrom('accounts as owner')
        .leftJoin('memberships', (join) =>
          join.onRef('memberships.org_id', '=', 'owner.id').on('memberships.user_id', '=', userId),
        )
        .leftJoin('projects', (join) =>
          join.onRef('projects.account_id', '=', 'owner.id').on('projects.slug', '=', slug),
        )
        .leftJoin('stacks', 'stacks.id', 'projects.stack_id')
        .leftJoin('accounts as stack_owner', 'stack_owner.id', 'stacks.account_id')
        .leftJoin('apis', 'apis.id', 'projects.api_id')
        .leftJoin('accounts as api_owner', 'api_owner.id', 'apis.account_id')
        .select([
          'owner.id as owner_id',
          'owner.handle as owner_handle',
          'owner.kind as owner_kind',
          'owner.created_at as owner_created_at',
          'memberships.role as role',
          'projects.id as id',
          'projects.slug as slug',
          'projects.stack_id as stack_id',
          'projects.stack_version as stack_version',
          'projects.api_id as api_id',
          'projects.config as config',
          'projects.config_updated_at as config_updated_at',
          'projects.created_by as created_by',
          'projects.created_at as created_at',
          'stack_owner.handle as stack_account_handle',
          'stacks.slug as stack_slug',
          'api_owner.handle as api_account_handle',
          'apis.slug as api_slug',
        ])
        .where('owner.handle', '=', accountHandle),
  )

  /**
   * A page of the projects `readerId` can read (those of its own account and of the
   * organisations it belongs to), ordered by account handle and slug, optionally of one account.
   */
  listReadable(query: {
    readerId: string
    accountId?: string | undefined
    after?: HandleSlugCursor | undefined
    limit: number
  }): Promise<ProjectWithRefs[]> {
    const { readerId, accountId, after } = query
    let select = this.#withRefs().where((eb) => readableBy(eb.ref('projects.account_id'), readerId))
    if (accountId) select = select.where('projects.account_id', '=', accountId)
    if (after) {
      select = select.where((eb) =>
        pastKeyset([eb.ref('owner.handle'), eb.ref('projects.slug')], [after.account, after.slug]),
      )
    }
    return select.orderBy('owner.handle').orderBy('projects.slug').limit(query.limit).execute()
  }

  #withRefs() {
    return this.db
      .selectFrom('projects')
      .innerJoin('accounts as owner', 'owner.id', 'projects.account_id')
      .innerJoin('stacks', 'stacks.id', 'projects.stack_id')
      .innerJoin('accounts as stack_owner', 'stack_owner.id', 'stacks.account_id')
      .innerJoin('apis', 'apis.id', 'projects.api_id')
      .innerJoin('accounts as api_owner', 'api_owner.id', 'apis.account_id')
      .selectAll('projects')
      .select([
        'owner.handle as account_handle',
        'stack_owner.handle as stack_account_handle',
        'stacks.slug as stack_slug',
        'api_owner.handle as api_account_handle',
        'apis.slug as api_slug',
      ])
  }

  async setConfig(projectId: string, config: string): Promise<string> {
    const at = now()
    await this.db
      .updateTable('projects')
      .set({ config, config_updated_at: at })
      .where('id', '=', projectId)
      .execute()
    return at
  }

  /**
   * Inside a transaction on PostgreSQL: holds the project against other base-file replacements
   * until the transaction ends, so that the set read next is the one replaced (SQLite's
   * transactions, begun IMMEDIATE, hold the whole file already).
   */
  async holdForBaseFiles(projectId: string): Promise<void> {
    await this.db
      .selectFrom('projects')
      .select('id')
      .where('id', '=', projectId)
      .forUpdate()
      .execute()
  }

  async replaceBaseFiles(projectId: string, files: readonly StoredFile[]): Promise<void> {
    await this.db.deleteFrom('project_base_files').where('project_id', '=', projectId).execute()
    for (let i = 0; i < files.length; i += 200) {
      await this.db
        .insertInto('project_base_files')
        .values(files.slice(i, i + 200).map((f) => ({ project_id: projectId, ...f })))
        .execute()
    }
  }

  async baseFiles(projectId: string): Promise<StoredFile[]> {
    const rows = await this.db
      .selectFrom('project_base_files')
      .select(['path', 'size', 'sha256'])
      .where('project_id', '=', projectId)
      .execute()
    return rows.sort((a, b) => byCodeUnits(a.path, b.path))
  }
}
