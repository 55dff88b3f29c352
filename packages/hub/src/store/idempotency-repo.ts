import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, IdempotencyKeyRow } from './schema.js'

/** One caller's `Idempotency-Key` for one request. */
export type IdempotencyKeyId = { readonly scope: string; readonly key: string }

/** The outcome of a claim: the key is this request's now, or someone else's row stands. */
export type ClaimResult =
  | { readonly claimed: true; readonly token: string }
  | { readonly claimed: false; readonly row: IdempotencyKeyRow }

/**
 * Idempotency keys. A claim is one INSERT that the primary key (scope, key) lets through once;
 * the claim token it sets is what completing or releasing the row must present, so that a
 * request whose claim was taken over can no longer write.
 */
export class IdempotencyRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims `key` for a request with `requestHash`, or answers the row that holds it. A row that
   * expired by `at` is claimed over in the same statement, so two requests never both win it.
   */
  async claim(
    id: IdempotencyKeyId,
    claim: { requestHash: string; at: string; expiresAt: string },
  ): Promise<ClaimResult> {
    // A row can vanish between the failed claim and the read (its holder failed and released
    // it); then the key is free again and the claim is tried anew.
    for (let attempt = 0; attempt < 5; attempt++) {
      const token = newClaimToken()
      const fresh = {
        request_hash: claim.requestHash,
        state: 'in_flight' as const,
        claim_token: token,
        claimed_at: claim.at,
        response_status: null,
        response_body: null,
        created_at: claim.at,
        expires_at: claim.expiresAt,
      }
      const won = await this.db
        .insertInto('idempotency_keys')
        .values({ scope: id.scope, key: id.key, ...fresh })
        .onConflict((oc) =>
          oc
            .columns(['scope', 'key'])
            .doUpdateSet(fresh)
            .where('idempotency_keys.expires_at', '<=', claim.at),
        )
        .returning('claim_token')
        .executeTakeFirst()
      if (won) return { claimed: true, token }
      const row = await this.find(id)
      if (row) return { claimed: false, row }
    }
    throw new Error(`the idempotency key ${id.key} was claimed and released over and over`)
  }

  find(id: IdempotencyKeyId): Promise<IdempotencyKeyRow | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', id.scope)
      .where('key', '=', id.key)
      .executeTakeFirst()
  }

  /**
   * Takes over the in-flight claim `token` (of a request that died, say), if it still holds the
   * row; answers the new claim token, or undefined when the row moved on.
   */
  async takeOver(id: IdempotencyKeyId, token: string, at: string): Promise<string | undefined> {
    const next = newClaimToken()
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ claim_token: next, claimed_at: at })
      .where((eb) => eb.and(held(id, token)))
      .executeTakeFirst()
    return result.numUpdatedRows > 0n ? next : undefined
  }

  /** Stores the response of the claim `token`; false when the claim is no longer held. */
  async complete(
    id: IdempotencyKeyId,
    token: string,
    response: { status: number; body: string },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ state: 'done', response_status: response.status, response_body: response.body })
      .where((eb) => eb.and(held(id, token)))
      .executeTakeFirst()
    return result.numUpdatedRows > 0n
  }

  /** Frees the key of the claim `token` (its request failed), so that a retry can run. */
  async release(id: IdempotencyKeyId, token: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where((eb) => eb.and(held(id, token)))
      .execute()
  }

  /** Deletes the keys that expired by `at`; answers how many. */
  async sweep(at: string): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', at)
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  }
}

/** The row of `id` while the claim `token` holds it in flight. */
function held(id: IdempotencyKeyId, token: string) {
  return { scope: id.scope, key: id.key, claim_token: token, state: 'in_flight' } as const
}

function newClaimToken(): string {
  return randomBytes(16).toString('hex')
}
