import type { Kysely } from 'kysely'
import { compiledOnce } from './compiled-once.js'
import { byCodeUnits, newId, now } from './ids.js'
import type { AccountKind, AccountRow, ApiKeyRow, Database, Role, TokenRow } from './schema.js'
import { TokenCache } from './token-cache.js'

export type TokenWithUser = TokenRow & { user_handle: string }

/** An account with a user's role in it (none: a user account, or not a member). */
export type AccountWithRoleRow = { readonly account: AccountRow; readonly role: Role | undefined }

/** Users, organisations, memberships, PATs and organisation API keys. */
export class AccountsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    /** Shared by the store and its transactions; off unless the store turned it on. */
    private readonly tokens: TokenCache = new TokenCache(),
  ) {}

  async create(handle: string, kind: AccountKind): Promise<AccountRow> {
    const row: AccountRow = {
      id: newId(kind === 'user' ? 'usr' : 'org'),
      handle,
      kind,
      created_at: now(),
    }
    await this.db.insertInto('accounts').values(row).execute()
    return row
  }

  find(handle: string): Promise<AccountRow | undefined> {
    return this.db
      .selectFrom('accounts')
      .selectAll()
      .where('handle', '=', handle)
      .executeTakeFirst()
  }

  /** The account `handle` with the role `userId` has in it, in one query. */
  async findWithRole(handle: string, userId: string): Promise<AccountWithRoleRow | undefined> {
    const [row] = await this.#withRole(handle, userId)
    if (!row) return undefined
    const { role, ...account } = row
    return { account, role: role ?? undefined }
  }

  readonly #withRole = compiledOnce(
    () => this.db,
    (handle: string, userId: string) =>
      this.db
        .selectFrom('accounts')
        .leftJoin('memberships', (join) =>
          join
            .onRef('memberships.org_id', '=', 'accounts.id')
            .on('memberships.user_id', '=', userId),
        )
        .selectAll('accounts')
        .select('memberships.role as role')
        .where('accounts.handle', '=', handle),
  )

  findById(id: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()
    return row === undefined
  }

  async setRole(orgId: string, userId: string, role: Role): Promise<void> {
    await this.db
      .insertInto('memberships')
      .values({ org_id: orgId, user_id: userId, role, created_at: now() })
      .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role }))
      .execute()
  }

  async ownerCount(orgId: string): Promise<number> {
    const rows = await this.db
      .selectFrom('memberships')
      .select('user_id')
      .where('org_id', '=', orgId)
      .where('role', '=', 'owner')
      .execute()
    return rows.length
  }

  async roleOf(orgId: string, userId: string): Promise<Role | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row?.role
  }

  /** The organisations `userId` belongs to, with its role in each. */
  async memberships(userId: string): Promise<{ handle: string; role: Role }[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.org_id')
      .select(['accounts.handle as handle', 'memberships.role as role'])
      .where('memberships.user_id', '=', userId)
      .execute()
    return rows.sort((a, b) => byCodeUnits(a.handle, b.handle))
  }

  async insertToken(token: {
    userId: string
    hash: string
    scopes: readonly string[]
    note: string | null
    expiresAt: string | null
  }): Promise<TokenRow> {
    const row: TokenRow = {
      id: newId('tok'),
      user_id: token.userId,
      token_hash: token.hash,
      scopes: token.scopes.join(' '),
      note: token.note,
      created_at: now(),
      expires_at: token.expiresAt,
      revoked_at: null,
      last_used_at: null,
    }
    await this.db.insertInto('tokens').values(row).execute()
    return row
  }

  /** The token with this hash and its user's handle: from the token cache when it may be. */
  async findTokenByHash(hash: string): Promise<TokenWithUser | undefined> {
    const stamp = this.tokens.stamp()
    const cached = stamp && this.tokens.get(hash, stamp)
    if (cached) return cached
    const [row] = await this.#tokenByHash(hash)
    if (row && stamp) this.tokens.put(hash, row, stamp)
    return row
  }

  readonly #tokenByHash = compiledOnce(
    () => this.db,
    (hash: string) =>
      this.db
        .selectFrom('tokens')
        .innerJoin('accounts', 'accounts.id', 'tokens.user_id')
        .selectAll('tokens')
        .select('accounts.handle as user_handle')
        .where('tokens.token_hash', '=', hash),
  )

  findToken(id: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** Marks the token revoked (once) and answers it; undefined when there is no such token. */
  async revokeToken(id: string): Promise<TokenRow | undefined> {
    await this.db
      .updateTable('tokens')
      .set({ revoked_at: now() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute()
    this.tokens.changed()
    return this.findToken(id)
  }

  async touchToken(id: string, at: string): Promise<void> {
    await this.db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute()
    this.tokens.touched(id, at)
  }

  async insertApiKey(key: {
    orgId: string
    hash: string
    createdBy: string | null
  }): Promise<string> {
    const id = newId('key')
    await this.db
      .insertInto('api_keys')
      .values({
        id,
        org_id: key.orgId,
        key_hash: key.hash,
        created_by: key.createdBy,
        created_at: now(),
        revoked_at: null,
      })
      .execute()
    return id
  }

  /** The organisation API key with this hash, with its organisation's handle. */
  findApiKeyByHash(hash: string): Promise<(ApiKeyRow & { org_handle: string }) | undefined> {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.org_id')
      .selectAll('api_keys')
      .select('accounts.handle as org_handle')
      .where('api_keys.key_hash', '=', hash)
      .executeTakeFirst()
  }
}
