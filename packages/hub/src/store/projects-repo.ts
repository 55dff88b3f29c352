import type { Kysely } from 'kysely'
import { byCodeUnits, newId, now } from './ids.js'
import { pastKeyset, type HandleSlugCursor } from './keyset.js'
import { readableBy } from './readable-by.js'
import type { Database, ProjectRow } from './schema.js'
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
  constructor(private readonly db: Kysely<Database>) {}

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
