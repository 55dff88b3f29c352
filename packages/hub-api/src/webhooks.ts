import { DiffProfileSchema } from './apis.js'
import { CHANGE_LEVELS } from './revisions.js'
import { ACCEPTANCE_EVENT_TYPE, REVISION_EVENT_TYPE, TEST_EVENT_TYPE } from './webhook-events.js'
import { z } from './zod.js'

/** A webhook's minimum level: the least change level a revision needs for its event to be sent. */
export const WebhookMinLevelSchema = z
  .enum(CHANGE_LEVELS, { error: 'must be one of `breaking`, `warning`, `info`' })
  .openapi('WebhookMinLevel', {
    description:
      'Revision events are sent only for revisions with a change at this level or above ' +
      '(breaking > warning > info); `info` sends every revision that differs. Test events ignore it.',
    example: 'breaking',
  })

export const WebhookSchema = z
  .object({
    id: z.string().openapi({ example: 'whk_5f0c7e2b9d4a1c3e8f6b2a70' }),
    url: z.string().openapi({ description: 'Where events are POSTed' }),
    description: z.string().nullable(),
    active: z.boolean().openapi({ description: 'Only active webhooks get revision events' }),
    minLevel: WebhookMinLevelSchema,
    profile: DiffProfileSchema.nullable().openapi({
      description:
        "The profile its revision events are judged with (their `summary`, `counts`, and the levels `minLevel` compares); null: the API's `diffProfile`",
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    secretRotatedAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'When the secret was last replaced; null if never' }),
  })
  .openapi('Webhook')

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().openapi({
    description:
      'The signing secret (`whsec_…`): shown on create and rotate only. The HMAC key is the whole string.',
  }),
}).openapi('WebhookWithSecret')

export const AttemptSchema = z
  .object({
    number: z.int32().positive().openapi({ description: '1, 2, 3 … over the delivery’s life' }),
    trigger: z.enum(['scheduled', 'manual']),
    url: z.string().openapi({ description: 'The webhook URL the attempt was sent to' }),
    redirects: z.array(z.string()).openapi({ description: '307/308 locations followed' }),
    startedAt: z.iso.datetime(),
    durationMs: z.int32().nonnegative(),
    outcome: z.enum(['succeeded', 'retry', 'failed']).openapi({
      description: '`retry`: answered 408, 429 or 5xx, timed out or unreachable; tried again',
    }),
    status: z
      .int32()
      .nonnegative()
      .nullable()
      .openapi({ description: 'The final HTTP status, if one came' }),
    error: z
      .string()
      .nullable()
      .openapi({ description: '`<code>: <message>` when no answer came or the guard refused' }),
    responseExcerpt: z
      .string()
      .nullable()
      .openapi({ description: 'At most 4 KiB of a non-2xx answer (a 2xx body is never read)' }),
    nextAttemptAt: z.iso.datetime().nullable(),
  })
  .openapi('DeliveryAttempt')

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: 'dlv_5f0c7e2b9d4a1c3e8f6b2a70' }),
    webhookId: z.string(),
    eventId: z.string().openapi({ description: 'The CloudEvent `id`, the same on every attempt' }),
    eventType: z.enum([REVISION_EVENT_TYPE, ACCEPTANCE_EVENT_TYPE, TEST_EVENT_TYPE]),
    state: z.enum(['pending', 'succeeded', 'failed']),
    createdAt: z.iso.datetime(),
    attemptCount: z.int32().nonnegative(),
    nextAttemptAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'When a pending delivery is tried next; null otherwise' }),
    lastAttemptAt: z.iso.datetime().nullable(),
    lastStatus: z.int32().nonnegative().nullable(),
    lastError: z.string().nullable(),
    completedAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'When it succeeded or failed; null while pending' }),
    event: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The CloudEvent sent (without the signature header)' }),
    attempts: z.array(AttemptSchema).openapi({ description: 'Oldest first' }),
  })
  .openapi('WebhookDelivery')

export const WebhookListSchema = z
  .object({ webhooks: z.array(WebhookSchema), nextCursor: z.string().nullable() })
  .openapi('WebhookList')

export const DeliveryListSchema = z
  .object({ deliveries: z.array(DeliverySchema), nextCursor: z.string().nullable() })
  .openapi('WebhookDeliveryList')

export const RecoverResultSchema = z
  .object({
    recovered: z.int32().nonnegative().openapi({ description: 'Failed deliveries queued again' }),
    since: z.iso.datetime(),
    until: z.iso.datetime(),
  })
  .openapi('WebhookRecovery')

export type WebhookMinLevel = z.infer<typeof WebhookMinLevelSchema>
export type Webhook = z.infer<typeof WebhookSchema>
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>
export type DeliveryAttempt = z.infer<typeof AttemptSchema>
export type Delivery = z.infer<typeof DeliverySchema>
export type WebhookList = z.infer<typeof WebhookListSchema>
export type DeliveryList = z.infer<typeof DeliveryListSchema>
export type RecoverResult = z.infer<typeof RecoverResultSchema>
