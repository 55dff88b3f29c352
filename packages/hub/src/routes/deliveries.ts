import { createRoute, z } from '@hono/zod-openapi'
import { DeliveryListSchema, DeliverySchema, RecoverResultSchema } from '@svc/hub-api'
import { ApiError, invalidRequest } from '../errors/index.js'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
import { BEARER, createRouter, errorResponses } from '../http/router.js'
import { now } from '../store/ids.js'
import { deliveryRecord } from '../webhooks/record.js'
import { deliveryBody, managedWebhook, missingDelivery } from '../webhooks/webhook-access.js'
import { CursorShape, DeliveryParams, ERRORS, MANAGE, WebhookParams } from './webhooks.js'

/** A webhook's deliveries: listed, read, retried one at a time or recovered since a time. */
export const deliveries = createRouter()

deliveries.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/webhooks/{id}/deliveries',
    tags: ['webhooks'],
    summary: "List the webhook's deliveries with their attempts, newest first",
    security: BEARER,
    middleware: MANAGE,
    request: {
      params: WebhookParams,
      query: PageQuery.extend({ state: z.enum(['pending', 'succeeded', 'failed']).optional() }),
    },
    responses: {
      200: {
        description: 'A page of deliveries',
        content: { 'application/json': { schema: DeliveryListSchema } },
      },
      ...ERRORS,
    },
  }),
  async (c) => {
    const query = c.req.valid('query')
    const { webhook } = await managedWebhook(c, c.req.valid('param'))
    const { store } = c.get('hub')
    const before = query.cursor ? decodeCursor(query.cursor, CursorShape) : undefined
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const rows = await store.deliveries.list(webhook.id, {
      state: query.state,
      before: before && { createdAt: before[0], id: before[1] },
      limit: limit + 1,
    })
    const { page, nextCursor } = pageOf(rows, limit, (last) => [last.created_at, last.id])
    const attempts = await store.deliveries.attempts(page.map((row) => row.id))
    return c.json(
      {
        deliveries: page.map((row) => deliveryRecord(row, attempts.get(row.id) ?? [])),
        nextCursor,
      },
      200,
    )
  },
)

deliveries.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/webhooks/{id}/deliveries/{deliveryId}',
    tags: ['webhooks'],
    summary: 'Get one delivery with its attempts',
    security: BEARER,
    middleware: MANAGE,
    request: { params: DeliveryParams },
    responses: {
      200: {
        description: 'The delivery',
        content: { 'application/json': { schema: DeliverySchema } },
      },
      ...ERRORS,
    },
  }),
  async (c) => {
    const params = c.req.valid('param')
    const { webhook } = await managedWebhook(c, params)
    return c.json(await deliveryBody(c, webhook.id, params.deliveryId), 200)
  },
)

deliveries.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/webhooks/{id}/deliveries/{deliveryId}/retry',
    tags: ['webhooks'],
    summary: 'Retry a succeeded or failed delivery now, with the same event id',
    description:
      'The retry is attempted at once, signed with the current secret; if it gets a retryable ' +
      'answer, it is retried on the schedule for 24 hours from this attempt.',
    security: BEARER,
    middleware: MANAGE,
    request: { params: DeliveryParams },
    responses: {
      202: {
        description: 'The delivery, pending again',
        content: { 'application/json': { schema: DeliverySchema } },
      },
      ...errorResponses(401, 403, 404, 409, 422),
    },
  }),
  async (c) => {
    const params = c.req.valid('param')
    const { webhook } = await managedWebhook(c, params)
    const hub = c.get('hub')
    const row = await hub.store.deliveries.retry(webhook.id, params.deliveryId, now())
    if (!row) {
      const existing = await hub.store.deliveries.find(webhook.id, params.deliveryId)
      if (!existing) throw missingDelivery(webhook.id, params.deliveryId)
      throw new ApiError(
        'delivery_pending',
        `The delivery ${params.deliveryId} is pending already; it is attempted when due.`,
        { nextAttemptAt: existing.next_attempt_at },
      )
    }
    hub.deliveries.wake()
    return c.json(await deliveryBody(c, webhook.id, row.id), 202)
  },
)

deliveries.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/webhooks/{id}/recover',
    tags: ['webhooks'],
    summary: 'Retry every failed delivery made since a time',
    description:
      'Queues again, as manual retries with the same event ids, the failed deliveries of this ' +
      'webhook created in [`since`, `until`) (`until` defaults to now).',
    security: BEARER,
    middleware: MANAGE,
    request: {
      params: WebhookParams,
      query: z.object({
        since: z.iso.datetime({ offset: true }).openapi({ example: '2026-11-20T00:00:00Z' }),
        until: z.iso.datetime({ offset: true }).optional(),
      }),
    },
    responses: {
      202: {
        description: 'How many deliveries were queued again',
        content: { 'application/json': { schema: RecoverResultSchema } },
      },
      ...ERRORS,
    },
  }),
  async (c) => {
    const query = c.req.valid('query')
    const { webhook } = await managedWebhook(c, c.req.valid('param'))
    const at = now()
    const since = new Date(query.since).toISOString()
    const until = query.until ? new Date(query.until).toISOString() : at
    if (since >= until) {
      throw invalidRequest([{ path: 'query.since', message: 'must be before `until`' }])
    }
    const hub = c.get('hub')
    const recovered = await hub.store.deliveries.recover(webhook.id, since, until, at)
    if (recovered > 0) hub.deliveries.wake()
    return c.json({ recovered, since, until }, 202)
  },
)
