import type { Kysely } from 'kysely'
import { byCodeUnits, now } from './ids.js'
import type { ApiKeyRow, Database, Role, TokenRow } from './schema.js'

export type MemberRow = {
  user_id: string
  handle: string
  role: Role
  created_at: string
}

/** An API key as its organisation's settings list it: never its hash. */
export type ApiKeyListing = Omit<ApiKeyRow, 'key_hash'> & { creator_handle: string | null }

/**
 * What the web app's settings pages list and remove beside `AccountsRepo`: a user's tokens and
 * sessions, an organisation's members and API keys.
 */
export class AccountSettingsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's personal access tokens, newest first (revoked and expired ones too). */
  tokensOf(userId: string): Promise<TokenRow[]> {
    return this.db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute()
  }

  async sessionCount(userId: string): Promise<number> {
    const rows = await this.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .execute()
    return rows.length
  }

  /** The organisation's members by handle, with their roles. */
  async members(orgId: string): Promise<MemberRow[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.user_id')
      .select([
        'memberships.user_id as user_id',
        'accounts.handle as handle',
        'memberships.role as role',
        'memberships.created_at as created_at',
      ])
      .where('memberships.org_id', '=', orgId)
      .execute()
    return rows.sort((a, b) => byCodeUnits(a.handle, b.handle))
  }

  /** Removes the membership; false when the user was not a member. */
  async removeMember(orgId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('memberships')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  /** The organisation's API keys, newest first, with the handle of the user who made each. */
  apiKeysOf(orgId: string): Promise<ApiKeyListing[]> {
    return this.db
      .selectFrom('api_keys')
      .leftJoin('accounts', 'accounts.id', 'api_keys.created_by')
      .select([
        'api_keys.id as id',
        'api_keys.org_id as org_id',
        'api_keys.created_by as created_by',
        'api_keys.created_at as created_at',
        'api_keys.revoked_at as revoked_at',
        'accounts.handle as creator_handle',
      ])
      .where('api_keys.org_id', '=', orgId)
      .orderBy('api_keys.created_at', 'desc')
      .orderBy('api_keys.id')
      .execute()
  }

  /** Marks the organisation's key revoked (once); undefined when the organisation has no such key. */
  async revokeApiKey(orgId: string, id: string): Promise<ApiKeyListing | undefined> {
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now() })
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .where('revoked_at', 'is', null)
      .execute()
    return (await this.apiKeysOf(orgId)).find((key) => key.id === id)
  }
}
