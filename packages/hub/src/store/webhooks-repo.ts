import { sql, type ExpressionBuilder, type Kysely } from 'kysely'
import type { DialectCapabilities } from './dialect.js'
import { newId } from './ids.js'
import { pastKeyset } from './keyset.js'
import type {
  Database,
  DiffProfileName,
  WebhookEventRow,
  WebhookMinLevel,
  WebhookRow,
} from './schema.js'

export type NewWebhook = Pick<
  WebhookRow,
  'api_id' | 'url' | 'description' | 'secret' | 'created_by'
> & {
  readonly active: boolean
  /** `info` when not given: every revision event. */
  readonly min_level?: WebhookMinLevel
  /** Null or not given: the API's profile. */
  readonly profile?: DiffProfileName | null
}

export type WebhookChanges = {
  readonly url?: string
  readonly description?: string | null
  readonly active?: boolean
  readonly min_level?: WebhookMinLevel
  /** Null: the API's profile from now on. */
  readonly profile?: DiffProfileName | null
}

/**
 * The webhooks a revision event judged under `profile` goes to: those set to that profile, and,
 * when it is the API's own (`apiProfile`), those that follow the API's.
 */
export type ProfileAudience = {
  readonly profile: DiffProfileName
  readonly apiProfile: DiffProfileName
}

/** Where a page of webhooks starts: after this one, oldest first. */
export type WebhookCursor = { readonly createdAt: string; readonly id: string }

const DELIVERY_COLUMNS = [
  'id',
  'event_id',
  'webhook_id',
  'state',
  'created_at',
  'next_attempt_at',
  'next_trigger',
  'claim_token',
  'window_started_at',
  'window_attempts',
  'attempt_count',
  'last_attempt_at',
  'last_status',
  'last_error',
  'completed_at',
] as const

/** The columns of a new pending delivery due at `at`, after its ids, as SQL (typed nulls). */
function newDelivery(at: string) {
  const text = sql<string | null>`cast(null as text)`
  return [
    sql<'pending'>`'pending'`.as('state'),
    sql<string>`${at}`.as('created_at'),
    sql<string>`${at}`.as('next_attempt_at'),
    sql<'scheduled'>`'scheduled'`.as('next_trigger'),
    text.as('claim_token'),
    text.as('window_started_at'),
    sql<number>`0`.as('window_attempts'),
    sql<number>`0`.as('attempt_count'),
    text.as('last_attempt_at'),
    sql<number | null>`cast(null as integer)`.as('last_status'),
    text.as('last_error'),
    text.as('completed_at'),
  ]
}

/** The webhooks of APIs, and the events the hub sends them (the outbox side of the queue). */
export class WebhooksRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  async create(webhook: NewWebhook, at: string): Promise<WebhookRow> {
    const row: WebhookRow = {
      id: newId('whk'),
      api_id: webhook.api_id,
      url: webhook.url,
      description: webhook.description,
      active: webhook.active ? 1 : 0,
      min_level: webhook.min_level ?? 'info',
      profile: webhook.profile ?? null,
      secret: webhook.secret,
      secret_rotated_at: null,
      created_by: webhook.created_by,
      created_at: at,
      updated_at: at,
    }
    await this.db.insertInto('webhooks').values(row).execute()
    return row
  }

  find(apiId: string, id: string): Promise<WebhookRow | undefined> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('api_id', '=', apiId)
      .where('id', '=', id)
      .executeTakeFirst()
  }

  list(apiId: string, page: { after?: WebhookCursor | undefined; limit: number }) {
    let select = this.db.selectFrom('webhooks').selectAll().where('api_id', '=', apiId)
    const { after } = page
    if (after) {
      select = select.where((eb) =>
        pastKeyset([eb.ref('created_at'), eb.ref('id')], [after.createdAt, after.id]),
      )
    }
    return select.orderBy('created_at').orderBy('id').limit(page.limit).execute()
  }

  async update(
    apiId: string,
    id: string,
    changes: WebhookChanges,
    at: string,
  ): Promise<WebhookRow | undefined> {
    return this.db
      .updateTable('webhooks')
      .set({
        ...(changes.url === undefined ? {} : { url: changes.url }),
        ...(changes.description === undefined ? {} : { description: changes.description }),
        ...(changes.active === undefined ? {} : { active: changes.active ? 1 : 0 }),
        ...(changes.min_level === undefined ? {} : { min_level: changes.min_level }),
        ...(changes.profile === undefined ? {} : { profile: changes.profile }),
        updated_at: at,
      })
      .where('api_id', '=', apiId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst()
  }

  async rotateSecret(
    apiId: string,
    id: string,
    secret: string,
    at: string,
  ): Promise<WebhookRow | undefined> {
    return this.db
      .updateTable('webhooks')
      .set({ secret, secret_rotated_at: at, updated_at: at })
      .where('api_id', '=', apiId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst()
  }

  /** Deletes the webhook with its deliveries and their attempts; false when there was none. */
  async delete(apiId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webhooks')
      .where('api_id', '=', apiId)
      .where('id', '=', id)
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }

  /**
   * Stores the event and one pending delivery of it per active webhook of its API whose minimum
   * level is one of `levels` and whose profile is `audience`'s, due at once, unless no webhook
   * qualifies (then nothing is stored). One statement for all the deliveries, however many
   * webhooks there are. Call it in the transaction of what caused the event, so a webhook changed
   * meanwhile is seen before or after the change, never half. Answers how many deliveries it
   * queued.
   */
  async enqueueForActive(
    event: WebhookEventRow,
    levels: readonly WebhookMinLevel[],
    audience: ProfileAudience,
  ): Promise<number> {
    if (levels.length === 0) return 0
    const active = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('api_id', '=', event.api_id)
      .where('active', '=', 1)
      .where('min_level', 'in', levels)
      .where((eb) => judgedUnder(eb, audience))
      .executeTakeFirstOrThrow()
    if (Number(active.n) === 0) return 0
    await this.db.insertInto('webhook_events').values(event).execute()
    const result = await this.db
      .insertInto('webhook_deliveries')
      .columns([...DELIVERY_COLUMNS])
      .expression((eb) =>
        eb
          .selectFrom('webhooks')
          .select([
            this.capabilities.randomId('dlv').as('id'),
            eb.val(event.id).as('event_id'),
            'id as webhook_id',
            ...newDelivery(event.created_at),
          ])
          .where('api_id', '=', event.api_id)
          .where('active', '=', 1)
          .where('min_level', 'in', levels)
          .where((eb) => judgedUnder(eb, audience)),
      )
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0)
  }

  /**
   * The profiles the API's active webhooks judge revisions with, a webhook that follows the API
   * counted under `apiProfile`.
   */
  async activeProfiles(apiId: string, apiProfile: DiffProfileName): Promise<DiffProfileName[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .select('profile')
      .distinct()
      .where('api_id', '=', apiId)
      .where('active', '=', 1)
      .execute()
    return [...new Set(rows.map((row) => row.profile ?? apiProfile))]
  }

  /**
   * Stores the event and one pending delivery of it per webhook, due at once: the outbox rows.
   * Call it in the transaction of what caused the event, so that both land or neither does.
   * Answers the delivery ids, in the order of `webhookIds`.
   */
  async enqueue(event: WebhookEventRow, webhookIds: readonly string[]): Promise<string[]> {
    await this.db.insertInto('webhook_events').values(event).execute()
    const ids = webhookIds.map(() => newId('dlv'))
    // Batches keep each statement under the engines' bound-parameter limits.
    for (let start = 0; start < webhookIds.length; start += 500) {
      await this.db
        .insertInto('webhook_deliveries')
        .values(
          webhookIds.slice(start, start + 500).map((webhookId, i) => ({
            id: ids[start + i]!,
            event_id: event.id,
            webhook_id: webhookId,
            state: 'pending' as const,
            created_at: event.created_at,
            next_attempt_at: event.created_at,
            next_trigger: 'scheduled' as const,
            claim_token: null,
            window_started_at: null,
            window_attempts: 0,
            attempt_count: 0,
            last_attempt_at: null,
            last_status: null,
            last_error: null,
            completed_at: null,
          })),
        )
        .execute()
    }
    return ids
  }
}

/** The webhooks set to `audience.profile`, and those that follow the API when it is the API's. */
function judgedUnder(eb: ExpressionBuilder<Database, 'webhooks'>, audience: ProfileAudience) {
  const set = eb('webhooks.profile', '=', audience.profile)
  return audience.profile === audience.apiProfile
    ? eb.or([set, eb('webhooks.profile', 'is', null)])
    : set
}
