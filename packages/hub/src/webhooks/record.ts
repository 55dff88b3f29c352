import { z } from '@hono/zod-openapi'
import type { DeliveryListing } from '../store/deliveries-repo.js'
import type { AttemptRow, WebhookRow } from '../store/schema.js'

export const WebhookSchema = z
  .object({
    id: z.string().openapi({ example: 'whk_5f0c7e2b9d4a1c3e8f6b2a70' }),
    url: z.string().openapi({ description: 'Where events are POSTed' }),
    description: z.string().nullable(),
    active: z.boolean().openapi({ description: 'Only active webhooks get revision events' }),
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
    number: z.int().openapi({ description: '1, 2, 3 … over the delivery’s life' }),
    trigger: z.enum(['scheduled', 'manual']),
    url: z.string().openapi({ description: 'The webhook URL the attempt was sent to' }),
    redirects: z.array(z.string()).openapi({ description: '307/308 locations followed' }),
    startedAt: z.iso.datetime(),
    durationMs: z.int(),
    outcome: z.enum(['succeeded', 'retry', 'failed']).openapi({
      description: '`retry`: answered 408, 429 or 5xx, timed out or unreachable; tried again',
    }),
    status: z.int().nullable().openapi({ description: 'The final HTTP status, if one came' }),
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
    eventType: z.enum(['dev.svc.api.revision.v1', 'dev.svc.api.test.v1']),
    state: z.enum(['pending', 'succeeded', 'failed']),
    createdAt: z.iso.datetime(),
    attemptCount: z.int(),
    nextAttemptAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'When a pending delivery is tried next; null otherwise' }),
    lastAttemptAt: z.iso.datetime().nullable(),
    lastStatus: z.int().nullable(),
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

export type WebhookRecord = z.infer<typeof WebhookSchema>
export type DeliveryRecord = z.infer<typeof DeliverySchema>

export function webhookRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    active: row.active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    secretRotatedAt: row.secret_rotated_at,
  }
}

export function deliveryRecord(
  row: DeliveryListing,
  attempts: readonly AttemptRow[],
): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    state: row.state,
    createdAt: row.created_at,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.state === 'pending' ? row.next_attempt_at : null,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    completedAt: row.completed_at,
    event: JSON.parse(row.event_body) as Record<string, unknown>,
    attempts: attempts.map((a) => ({
      number: a.number,
      trigger: a.trigger,
      url: a.url,
      redirects: JSON.parse(a.redirects) as string[],
      startedAt: a.started_at,
      durationMs: a.duration_ms,
      outcome: a.outcome,
      status: a.status,
      error: a.error,
      responseExcerpt: a.response_excerpt,
      nextAttemptAt: a.next_attempt_at,
    })),
  }
}
