import type { Kysely } from 'kysely'
import { newId, now } from './ids.js'
import type { Database, SessionRow } from './schema.js'

export type SessionWithUser = SessionRow & { user_handle: string }

/** Users' passwords and their browser sessions (the web app's sign-in). */
export class SessionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async setPassword(userId: string, hash: string): Promise<void> {
    const updated_at = now()
    await this.db
      .insertInto('passwords')
      .values({ user_id: userId, hash, updated_at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash, updated_at }))
      .execute()
  }

  async passwordOf(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('passwords')
      .select('hash')
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return row?.hash
  }

  async create(session: {
    userId: string
    tokenHash: string
    csrfToken: string
    expiresAt: string
  }): Promise<SessionRow> {
    const at = now()
    const row: SessionRow = {
      id: newId('ses'),
      token_hash: session.tokenHash,
      user_id: session.userId,
      csrf_token: session.csrfToken,
      flash: null,
      created_at: at,
      last_seen_at: at,
      expires_at: session.expiresAt,
    }
    await this.db.insertInto('sessions').values(row).execute()
    return row
  }

  findByTokenHash(hash: string): Promise<SessionWithUser | undefined> {
    return this.db
      .selectFrom('sessions')
      .innerJoin('accounts', 'accounts.id', 'sessions.user_id')
      .selectAll('sessions')
      .select('accounts.handle as user_handle')
      .where('sessions.token_hash', '=', hash)
      .executeTakeFirst()
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute()
  }

  async setFlash(id: string, flash: string | null): Promise<void> {
    await this.db.updateTable('sessions').set({ flash }).where('id', '=', id).execute()
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute()
  }

  /** Signs the user out everywhere, but for `keep` (the session that asked). */
  async deleteForUser(userId: string, keep?: string): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId)
    if (keep) query = query.where('id', '!=', keep)
    const result = await query.executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  async deleteExpired(at: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('expires_at', '<=', at)
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }
}
