import type { Kysely } from 'kysely'
import { pastKeyset } from './keyset.js'
import { orgIdsOf } from './readable-by.js'
import type { Database, LibraryRow } from './schema.js'

/** Where a page of libraries starts: after this one, oldest first. */
export type LibraryCursor = { readonly createdAt: string; readonly id: string }

/** Whose libraries a list holds: one organisation's, or those of every organisation of a user. */
export type LibraryOwners = { readonly orgId: string } | { readonly memberId: string }

/** The libraries of organisations. */
export class LibrariesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(row: LibraryRow): Promise<LibraryRow> {
    await this.db.insertInto('libraries').values(row).execute()
    return row
  }

  find(id: string): Promise<LibraryRow | undefined> {
    return this.db.selectFrom('libraries').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** A page of the libraries of `owners`, oldest first. */
  list(
    owners: LibraryOwners,
    page: { after?: LibraryCursor | undefined; limit: number },
  ): Promise<LibraryRow[]> {
    let select = this.db.selectFrom('libraries').selectAll()
    select =
      'orgId' in owners
        ? select.where('org_id', '=', owners.orgId)
        : select.where('org_id', 'in', orgIdsOf(owners.memberId))
    const { after } = page
    if (after) {
      select = select.where((eb) =>
        pastKeyset([eb.ref('created_at'), eb.ref('id')], [after.createdAt, after.id]),
      )
    }
    return select.orderBy('created_at').orderBy('id').limit(page.limit).execute()
  }
}
