import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { DialectCapabilities, RecordColumn } from './dialect.js'
import { pastKeyset } from './keyset.js'
import { Lru } from './lru.js'
import type {
  AttemptRow,
  Database,
  DeliveryRow,
  DeliveryState,
  WebhookEventType,
} from './schema.js'

/** A delivery a worker holds until `leaseUntil`, with what its attempt needs. */
export type ClaimedDelivery = Pick<
  DeliveryRow,
  | 'id'
  | 'event_id'
  | 'webhook_id'
  | 'next_trigger'
  | 'window_started_at'
  | 'window_attempts'
  | 'attempt_count'
> & {
  readonly claim_token: string
  readonly url: string
  readonly secret: string
  readonly active: number
  readonly body: string
}

/** A claimed row whose lease is to be extended, with the token its claim stamped on it. */
export type HeldDelivery = { readonly id: string; readonly claimToken: string }

/** The row's state after its claim ends, and the attempt made, if one was. */
export type Completion = {
  readonly id: string
  readonly claimToken: string
  readonly state: DeliveryState
  readonly nextAttemptAt: string | null
  readonly windowStartedAt: string | null
  readonly windowAttempts: number
  readonly attemptCount: number
  readonly lastAttemptAt: string | null
  readonly lastStatus: number | null
  readonly lastError: string | null
  readonly completedAt: string | null
  readonly attempt: AttemptRow | undefined
}

export type DeliveryListing = DeliveryRow & { event_type: WebhookEventType; event_body: string }

/** Where a page of deliveries starts: below this one, newest first. */
export type DeliveryCursor = { readonly createdAt: string; readonly id: string }

const COMPLETION_COLUMNS: readonly RecordColumn[] = [
  // Not `id`: SQLite's RETURNING takes no table prefix, so `id` must name one column only.
  ['delivery_id', 'text'],
  ['claim_token', 'text'],
  ['state', 'text'],
  ['next_attempt_at', 'text'],
  ['window_started_at', 'text'],
  ['window_attempts', 'integer'],
  ['attempt_count', 'integer'],
  ['last_attempt_at', 'text'],
  ['last_status', 'integer'],
  ['last_error', 'text'],
  ['completed_at', 'text'],
]

const ATTEMPT_COLUMNS: readonly RecordColumn[] = [
  ['delivery_id', 'text'],
  ['number', 'integer'],
  ['trigger', 'text'],
  ['url', 'text'],
  ['redirects', 'text'],
  ['started_at', 'text'],
  ['duration_ms', 'integer'],
  ['outcome', 'text'],
  ['status', 'integer'],
  ['error', 'text'],
  ['response_excerpt', 'text'],
  ['next_attempt_at', 'text'],
]

const HELD_COLUMNS: readonly RecordColumn[] = [
  ['delivery_id', 'text'],
  ['claim_token', 'text'],
]

const CLAIMED_COLUMNS = [
  'id',
  'event_id',
  'webhook_id',
  'next_trigger',
  'window_started_at',
  'window_attempts',
  'attempt_count',
  // The token just written, so each row comes out whole (no copy of every row to add it).
  'claim_token',
] as const

/** Event bodies a repository keeps in memory: an event is delivered to each of its API's webhooks. */
const EVENT_BODIES = 256

/** A claimed row as the claim reads it, before its event's body is added. */
type Claimed = Omit<ClaimedDelivery, 'body'>

/** Rows per statement: well inside both engines' limits on bound parameters. */
const BATCH = 500

/**
 * Webhook deliveries as a queue. A claim moves due rows' `next_attempt_at` to the end of a lease
 * and stamps them with a claim token; a completion presents the token, so a worker whose lease
 * ran out (and whose rows another worker took) cannot overwrite what the other one wrote.
 */
export class DeliveriesRepo {
  readonly #bodies = new Lru<string, string>(EVENT_BODIES)

  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  /**
   * Claims at most `limit` rows due at `now`, oldest due first, until `leaseUntil`: one statement
   * with one SQL text (so SQLite reuses its prepared statement), the webhook looked up by primary
   * key; then each event's body (`#eventBodies`).
   */
  async claim(limit: number, now: string, leaseUntil: string): Promise<ClaimedDelivery[]> {
    const claimToken = randomBytes(12).toString('hex')
    // PostgreSQL: concurrent workers skip each other's rows instead of waiting on them. SQLite
    // runs the whole UPDATE under its one write lock, which is the same guarantee.
    const lock = this.capabilities.skipLocked ? sql`for update skip locked` : sql.raw('')
    const cte = this.capabilities.dataModifyingCte
    // Where RETURNING cannot join (SQLite), scalar subqueries look the webhook up.
    const targets = cte
      ? sql.raw('')
      : sql`, ${sql.join([webhookColumn('url'), webhookColumn('secret'), webhookColumn('active')])}`
    const update = sql<Claimed>`
      update webhook_deliveries set claim_token = ${claimToken}, next_attempt_at = ${leaseUntil}
      where id in (
        select id from webhook_deliveries where state = 'pending' and next_attempt_at <= ${now}
        order by next_attempt_at limit ${limit} ${lock})
      returning ${sql.join(CLAIMED_COLUMNS.map((name) => sql.ref(name)))}${targets}`
    const { rows } = cte
      ? await sql<Claimed>`
          with d as (${update})
          select d.*, w.url, w.secret, w.active from d
          join webhooks as w on w.id = d.webhook_id`.execute(this.db)
      : await update.execute(this.db)
    // As the join does: a row whose webhook is gone is not attempted, nor one whose event is.
    const claimed = rows.filter((row) => row.url !== null)
    const bodies = await this.#eventBodies(claimed)
    return claimed.flatMap((row) => {
      const body = bodies.get(row.event_id)
      return body === undefined ? [] : [{ ...row, body }]
    })
  }

  /**
   * The bodies of the rows' events: from this process's memory when it has read them already (an
   * event is written once and never changed, and each of its webhooks' deliveries needs it), the
   * rest in one query.
   */
  async #eventBodies(rows: readonly Claimed[]): Promise<Map<string, string>> {
    const bodies = new Map<string, string>()
    const missing = new Set<string>()
    for (const { event_id: id } of rows) {
      if (bodies.has(id) || missing.has(id)) continue
      const body = this.#bodies.get(id)
      if (body === undefined) missing.add(id)
      else bodies.set(id, body)
    }
    if (missing.size === 0) return bodies
    const found = await this.db
      .selectFrom('webhook_events')
      .select(['id', 'body'])
      .where('id', 'in', [...missing])
      .execute()
    for (const { id, body } of found) {
      bodies.set(id, body)
      this.#bodies.set(id, body)
    }
    return bodies
  }

  /**
   * Extends the leases of `held` rows to `leaseUntil`, in one statement, each row only while it
   * still carries its claim token (a row completed or taken by another worker meanwhile is left
   * alone). Answers how many were extended.
   */
  async renew(held: readonly HeldDelivery[], leaseUntil: string): Promise<number> {
    if (held.length === 0) return 0
    const values = held.map((h) => ({ delivery_id: h.id, claim_token: h.claimToken }))
    // No `d.state = 'pending'`: only a pending row carries a claim token (a completion and every
    // requeue clear it), and with that term SQLite walked every pending row through the state
    // index, once per held row, instead of looking the held rows up by id.
    const result = await sql`
      update webhook_deliveries as d set next_attempt_at = ${leaseUntil}
      from ${this.capabilities.recordSet(values, HELD_COLUMNS, 'v')}
      where d.id = v.delivery_id and d.claim_token = v.claim_token`.execute(this.db)
    return Number(result.numAffectedRows ?? 0)
  }

  /**
   * Writes the outcome of claims atomically (one statement, or one transaction): each row only
   * while it still carries its claim token, and an attempt only with its row. Answers the ids
   * that were written; the others had been reclaimed or deleted meanwhile.
   */
  async complete(completions: readonly Completion[]): Promise<Set<string>> {
    const written = new Set<string>()
    for (let start = 0; start < completions.length; start += BATCH) {
      const batch = completions.slice(start, start + BATCH)
      const ids = this.capabilities.dataModifyingCte
        ? await this.#completeInOneStatement(batch)
        : (await this.db.isTransaction)
          ? await this.#completeInTransaction(batch)
          : await this.db
              .transaction()
              .execute((trx) =>
                new DeliveriesRepo(trx, this.capabilities).#completeInTransaction(batch),
              )
      for (const id of ids) written.add(id)
    }
    return written
  }

  async #completeInOneStatement(batch: readonly Completion[]): Promise<Set<string>> {
    const attempts = batch.flatMap((c) => (c.attempt ? [c.attempt] : []))
    const { rows } = await sql<{ id: string }>`
      with updated as (${this.#updateOutcomes(batch)} returning d.id),
      inserted as (${this.#insertAttempts(attempts)} join updated on updated.id = a.delivery_id)
      select id from updated`.execute(this.db)
    return new Set(rows.map((row) => row.id))
  }

  async #completeInTransaction(batch: readonly Completion[]): Promise<Set<string>> {
    const { rows } = await sql<{ id: string }>`${this.#updateOutcomes(batch)} returning id`.execute(
      this.db,
    )
    const ids = new Set(rows.map((row) => row.id))
    const attempts = batch.flatMap((c) => (c.attempt && ids.has(c.id) ? [c.attempt] : []))
    if (attempts.length > 0) await sql`${this.#insertAttempts(attempts)}`.execute(this.db)
    return ids
  }

  /**
   * `INSERT … SELECT` of `attempts` from one JSON parameter (`a`): one SQL text whatever their
   * number, so SQLite's prepared statement is reused and nothing is built per row.
   */
  #insertAttempts(attempts: readonly AttemptRow[]) {
    return sql`
      insert into webhook_attempts (${sql.join(ATTEMPT_COLUMNS.map(([name]) => sql.ref(name)))})
      select ${sql.join(ATTEMPT_COLUMNS.map(([name]) => sql.ref(`a.${name}`)))}
      from ${this.capabilities.recordSet(attempts, ATTEMPT_COLUMNS, 'a')}`
  }

  /** `UPDATE … FROM` the outcomes of `batch`, each row only with its claim token. */
  #updateOutcomes(batch: readonly Completion[]) {
    const values = batch.map((c) => ({
      delivery_id: c.id,
      claim_token: c.claimToken,
      state: c.state,
      next_attempt_at: c.nextAttemptAt,
      window_started_at: c.windowStartedAt,
      window_attempts: c.windowAttempts,
      attempt_count: c.attemptCount,
      last_attempt_at: c.lastAttemptAt,
      last_status: c.lastStatus,
      last_error: c.lastError,
      completed_at: c.completedAt,
    }))
    const v = (column: string) => sql.ref(`v.${column}`)
    return sql`
      update webhook_deliveries as d set
        state = ${v('state')},
        next_attempt_at = ${v('next_attempt_at')},
        next_trigger = 'scheduled',
        claim_token = null,
        window_started_at = ${v('window_started_at')},
        window_attempts = ${v('window_attempts')},
        attempt_count = ${v('attempt_count')},
        last_attempt_at = ${v('last_attempt_at')},
        last_status = ${v('last_status')},
        last_error = ${v('last_error')},
        completed_at = ${v('completed_at')}
      from ${this.capabilities.recordSet(values, COMPLETION_COLUMNS, 'v')}
      where d.id = v.delivery_id and d.claim_token = v.claim_token`
  }

  find(webhookId: string, id: string): Promise<DeliveryListing | undefined> {
    return this.#listing()
      .where('d.webhook_id', '=', webhookId)
      .where('d.id', '=', id)
      .executeTakeFirst()
  }

  /** A page of the webhook's deliveries, newest first, optionally in one state. */
  list(
    webhookId: string,
    page: {
      state?: DeliveryState | undefined
      before?: DeliveryCursor | undefined
      limit: number
    },
  ): Promise<DeliveryListing[]> {
    let select = this.#listing().where('d.webhook_id', '=', webhookId)
    if (page.state) select = select.where('d.state', '=', page.state)
    const { before } = page
    if (before) {
      select = select.where((eb) =>
        pastKeyset([eb.ref('d.created_at'), eb.ref('d.id')], [before.createdAt, before.id], '<'),
      )
    }
    return select
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(page.limit)
      .execute()
  }

  /** The attempts of the given deliveries, oldest first per delivery. */
  async attempts(deliveryIds: readonly string[]): Promise<Map<string, AttemptRow[]>> {
    const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]))
    if (deliveryIds.length === 0) return byDelivery
    const rows = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('delivery_id')
      .orderBy('number')
      .execute()
    for (const row of rows) byDelivery.get(row.delivery_id)?.push(row)
    return byDelivery
  }

  /**
   * Makes a finished delivery (succeeded or failed) due at `now` again, as a manual retry with a
   * new 24 h window. Answers the row, or undefined when it is pending (or does not exist).
   */
  async retry(webhookId: string, id: string, now: string): Promise<DeliveryRow | undefined> {
    return this.#requeue(now)
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .where('state', '!=', 'pending')
      .returningAll()
      .executeTakeFirst()
  }

  /** Requeues, as manual retries, the webhook's failed deliveries created in [since, until). */
  async recover(webhookId: string, since: string, until: string, now: string): Promise<number> {
    const result = await this.#requeue(now)
      .where('webhook_id', '=', webhookId)
      .where('state', '=', 'failed')
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .executeTakeFirst()
    return Number(result.numUpdatedRows)
  }

  /** How many deliveries are in each state (for metrics and tests). */
  async countByState(): Promise<Record<DeliveryState, number>> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select(['state', (eb) => eb.fn.countAll<string | number>().as('count')])
      .groupBy('state')
      .execute()
    const counts: Record<DeliveryState, number> = { pending: 0, succeeded: 0, failed: 0 }
    for (const row of rows) counts[row.state] = Number(row.count)
    return counts
  }

  #requeue(now: string) {
    return this.db.updateTable('webhook_deliveries').set({
      state: 'pending',
      next_attempt_at: now,
      next_trigger: 'manual',
      claim_token: null,
      window_started_at: null,
      window_attempts: 0,
      completed_at: null,
    })
  }

  #listing() {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .selectAll('d')
      .select(['e.type as event_type', 'e.body as event_body'])
  }
}

/** `(select column from webhooks where id = webhook_deliveries.webhook_id) as column`, for a RETURNING. */
function webhookColumn(column: string) {
  return sql`(select ${sql.ref(column)} from webhooks as w where w.id = webhook_deliveries.webhook_id) as ${sql.ref(column)}`
}
