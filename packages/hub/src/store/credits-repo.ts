import { sql, type Kysely } from 'kysely'
import type { DialectCapabilities } from './dialect.js'
import { newId, now } from './ids.js'
import type { CreditEntryKind, CreditEntryRow, Database } from './schema.js'

/** Below this balance an organisation without its own setting gets a low-credit alert. */
export const DEFAULT_LOW_CREDIT_THRESHOLD = 10

/** The largest amount one ledger entry can hold (the column is a 32-bit integer on PostgreSQL). */
export const MAX_CREDIT_AMOUNT = 1_000_000_000

export type EntryContext = {
  readonly requestId?: string | null
  readonly reason?: string | null
}

export type ChargeOutcome =
  | { readonly status: 'charged'; readonly entry: CreditEntryRow; readonly balance: number }
  /** Nothing was written: `balance` is below `needed`. */
  | { readonly status: 'insufficient'; readonly balance: number; readonly needed: number }

export type RefundOutcome = {
  /** `already-refunded`: an earlier refund of the charge stands; `entry` is that refund. */
  readonly status: 'refunded' | 'already-refunded'
  readonly entry: CreditEntryRow
  readonly balance: number
}

/**
 * The credits ledger of organisations. Every change is a new entry; the balance is their sum.
 * A charge reads the balance and writes its entry under the organisation's lock (see `#lockOrg`),
 * so concurrent charges can never spend the same credits twice.
 */
export class CreditsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  /** Adds `amount` credits to the organisation's balance. */
  async grant(orgId: string, amount: number, context: EntryContext = {}): Promise<CreditEntryRow> {
    return this.#append(orgId, 'grant', amount, context, async (_, write) => write())
  }

  /**
   * Takes `amount` credits from the organisation when its balance covers them, else writes
   * nothing. Inside a transaction (`store.transaction`) the entry commits or rolls back with
   * the rest of the work, and the organisation stays locked until then.
   */
  async charge(orgId: string, amount: number, context: EntryContext = {}): Promise<ChargeOutcome> {
    return this.#append(orgId, 'charge', amount, context, async (balance, write) => {
      if (balance < amount) return { status: 'insufficient', balance, needed: amount }
      return { status: 'charged', entry: await write(), balance: balance - amount }
    })
  }

  /** Gives back what the charge `chargeId` took, once; a second refund answers the first. */
  async refund(chargeId: string, context: EntryContext = {}): Promise<RefundOutcome> {
    const charge = await this.entry(chargeId)
    if (charge?.kind !== 'charge') throw new Error(`there is no credit charge '${chargeId}'`)
    const { org_id: orgId, amount } = charge
    return this.#append(orgId, 'refund', amount, context, async (balance, write, db) => {
      const earlier = await db
        .selectFrom('credit_entries')
        .selectAll()
        .where('refund_of', '=', chargeId)
        .executeTakeFirst()
      if (earlier) return { status: 'already-refunded', entry: earlier, balance }
      return { status: 'refunded', entry: await write(chargeId), balance: balance + amount }
    })
  }

  async balance(orgId: string): Promise<number> {
    return (await ledgerIn(this.db, orgId)).balance
  }

  entry(id: string): Promise<CreditEntryRow | undefined> {
    return this.db.selectFrom('credit_entries').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** The organisation's entries, oldest first. */
  entries(orgId: string): Promise<CreditEntryRow[]> {
    return this.db
      .selectFrom('credit_entries')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('seq')
      .execute()
  }

  async lowCreditThreshold(orgId: string): Promise<number> {
    const row = await this.db
      .selectFrom('credit_settings')
      .select('low_credit_threshold')
      .where('org_id', '=', orgId)
      .executeTakeFirst()
    return row?.low_credit_threshold ?? DEFAULT_LOW_CREDIT_THRESHOLD
  }

  async setLowCreditThreshold(orgId: string, threshold: number): Promise<void> {
    if (!Number.isSafeInteger(threshold) || threshold < 0 || threshold > MAX_CREDIT_AMOUNT) {
      throw new RangeError(
        `a low-credit threshold must be a whole number from 0 to ${MAX_CREDIT_AMOUNT}`,
      )
    }
    const at = now()
    await this.db
      .insertInto('credit_settings')
      .values({ org_id: orgId, low_credit_threshold: threshold, updated_at: at })
      .onConflict((oc) =>
        oc.column('org_id').doUpdateSet({ low_credit_threshold: threshold, updated_at: at }),
      )
      .execute()
  }

  /**
   * Under the organisation's lock (in this transaction, or a new one): reads the ledger's
   * balance and last `seq`, and lets `decide` write the next entry (`write`) or not.
   */
  #append<T>(
    orgId: string,
    kind: CreditEntryKind,
    amount: number,
    context: EntryContext,
    decide: (
      balance: number,
      write: (refundOf?: string) => Promise<CreditEntryRow>,
      db: Kysely<Database>,
    ) => Promise<T>,
  ): Promise<T> {
    checkAmount(amount)
    const run = async (db: Kysely<Database>) => {
      await this.#lockOrg(db, orgId)
      const { balance, seq } = await ledgerIn(db, orgId)
      return decide(
        balance,
        async (refundOf) => {
          const entry: CreditEntryRow = {
            id: newId('cre'),
            org_id: orgId,
            seq: seq + 1,
            kind,
            amount,
            reason: context.reason ?? null,
            request_id: context.requestId ?? null,
            refund_of: refundOf ?? null,
            created_at: now(),
          }
          await db.insertInto('credit_entries').values(entry).execute()
          return entry
        },
        db,
      )
    }
    return this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run)
  }

  /**
   * Serialises the organisation's ledger writes until the transaction ends. PostgreSQL: the
   * account row `FOR NO KEY UPDATE` (a plain `FOR UPDATE` would also block every insert that
   * references the organisation, which takes `FOR KEY SHARE`); concurrent charges wait here and
   * then read the balance the first one left. SQLite has no row locks: a write as the first
   * statement takes the database's write lock before the balance is read (in a transaction that
   * already read older data, SQLite refuses the write instead of letting it act on that data).
   */
  async #lockOrg(db: Kysely<Database>, orgId: string): Promise<void> {
    let found: boolean
    if (this.capabilities.skipLocked) {
      const row = await db
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', orgId)
        .forNoKeyUpdate()
        .executeTakeFirst()
      found = row !== undefined
    } else {
      const result = await db
        .updateTable('accounts')
        .set({ kind: sql`kind` })
        .where('id', '=', orgId)
        .executeTakeFirst()
      found = result.numUpdatedRows > 0n
    }
    if (!found) throw new Error(`there is no account '${orgId}'`)
  }
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_CREDIT_AMOUNT) {
    throw new RangeError(`a credit amount must be a whole number from 1 to ${MAX_CREDIT_AMOUNT}`)
  }
}

/** The organisation's balance (the sum of its entries) and its last `seq` (0 for none). */
async function ledgerIn(
  db: Kysely<Database>,
  orgId: string,
): Promise<{ balance: number; seq: number }> {
  const row = await db
    .selectFrom('credit_entries')
    .select([
      sql<
        string | number
      >`coalesce(sum(case when kind = 'charge' then -amount else amount end), 0)`.as('balance'),
      sql<string | number>`coalesce(max(seq), 0)`.as('seq'),
    ])
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow()
  // PostgreSQL's sum of integers is a bigint, which pg hands over as a string.
  return { balance: Number(row.balance), seq: Number(row.seq) }
}
