import type { Delivery, Webhook } from '@svc/hub-api'
import type { DeliveryListing } from '../store/deliveries-repo.js'
import type { AttemptRow, WebhookRow } from '../store/schema.js'

export type WebhookRecord = Webhook
export type DeliveryRecord = Delivery

export function webhookRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    active: row.active === 1,
    minLevel: row.min_level,
    profile: row.profile,
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
