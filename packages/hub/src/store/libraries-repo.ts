import type { Kysely } from 'kysely'
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
        : select.where((eb) =>
            eb(
              'org_id',
              'in',
              eb.selectFrom('memberships').select('org_id').where('user_id', '=', owners.memberId),
            ),
          )
    const { after } = page
    if (after) {
      select = select.where((eb) =>
        eb.or([
          eb('created_at', '>', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
        ]),
      )
    }
    return select.orderBy('created_at').orderBy('id').limit(page.limit).execute()
  }
}
