import type { Context } from 'hono'
import { writableApi } from '../apis/api-access.js'
import { ApiError } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { requireCaller } from '../middleware/authenticate.js'
import { deliveryRecord, type DeliveryRecord } from './record.js'

/**
 * The API whose webhooks the caller manages: write access on its owner (the route's `needs`
 * has checked the `admin:webhooks` scope already).
 */
export async function managedApi(c: Context<HubEnv>, params: { owner: string; slug: string }) {
  return writableApi(c.get('hub').store, requireCaller(c), params.owner, params.slug)
}

/** The webhook `id` of an API the caller manages, or 404. */
export async function managedWebhook(
  c: Context<HubEnv>,
  params: { owner: string; slug: string; id: string },
) {
  const api = await managedApi(c, params)
  const webhook = await c.get('hub').store.webhooks.find(api.id, params.id)
  if (!webhook) {
    throw new ApiError('not_found', `${params.owner}/${params.slug} has no webhook ${params.id}.`)
  }
  return { api, webhook }
}

/** The webhook's delivery with its attempts, as the API answers it; 404 when there is none. */
export async function deliveryBody(
  c: Context<HubEnv>,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryRecord> {
  const { store } = c.get('hub')
  const row = await store.deliveries.find(webhookId, deliveryId)
  if (!row) throw missingDelivery(webhookId, deliveryId)
  const attempts = await store.deliveries.attempts([row.id])
  return deliveryRecord(row, attempts.get(row.id) ?? [])
}

export function missingDelivery(webhookId: string, deliveryId: string): ApiError {
  return new ApiError('not_found', `The webhook ${webhookId} has no delivery ${deliveryId}.`)
}
