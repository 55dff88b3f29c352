import { createRoute, z } from '@hono/zod-openapi'
import {
  DeliveryListSchema,
  DeliverySchema,
  RecoverResultSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from '@svc/hub-api'
import type { Context } from 'hono'
import { writableApi } from '../apis/api-access.js'
import { newSecret, WEBHOOK_SECRET_PREFIX } from '../auth/secrets.js'
import { ApiError, invalidRequest } from '../errors/index.js'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
import type { HubEnv } from '../http/env.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import {
  AccountParam,
  BEARER,
  createRouter,
  errorResponses,
  PlainText,
  SlugParam,
} from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import { now } from '../store/ids.js'
import { outboundUrl } from '../outbound/guard.js'
import { enqueueTestEvent } from '../webhooks/outbox.js'
import { deliveryRecord, webhookRecord } from '../webhooks/record.js'

const ApiParams = z.object({ owner: AccountParam, slug: SlugParam })
const WebhookParams = ApiParams.extend({
  id: z
    .string()
    .regex(/^whk_[0-9a-f]{24}$/, { error: 'must be a webhook id (`whk_…`)' })
    .openapi({ example: 'whk_5f0c7e2b9d4a1c3e8f6b2a70' }),
})
const DeliveryParams = WebhookParams.extend({
  deliveryId: z
    .string()
    .regex(/^dlv_[0-9a-f]{24}$/, { error: 'must be a delivery id (`dlv_…`)' })
    .openapi({ example: 'dlv_5f0c7e2b9d4a1c3e8f6b2a70' }),
})

const WebhookUrl = z.string().min(1).max(2048).openapi({
  description: 'An http(s) URL the outbound guard admits',
  example: 'https://example.com/hooks/svc',
})
const Description = PlainText(500).nullable()

const CreateWebhookSchema = z
  .strictObject({
    url: WebhookUrl,
    description: Description.optional(),
    active: z.boolean().default(true),
  })
  .openapi('CreateWebhook')

const UpdateWebhookSchema = z
  .strictObject({
    url: WebhookUrl.optional(),
    description: Description.optional(),
    active: z.boolean().optional(),
  })
  .openapi('UpdateWebhook')

const CursorShape = z.tuple([z.iso.datetime(), z.string()])

const ERRORS = errorResponses(401, 403, 404, 422)
const MANAGE = needs('admin:webhooks')

export const webhooks = createRouter()

/**
 * The API whose webhooks the caller manages: write access on its owner (the route's `needs`
 * has checked the `admin:webhooks` scope already).
 */
async function managedApi(c: Context<HubEnv>, params: { owner: string; slug: string }) {
  return writableApi(c.get('hub').store, requireCaller(c), params.owner, params.slug)
}

async function managedWebhook(
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

webhooks.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/webhooks',
    tags: ['webhooks'],
    summary: 'Create a webhook',
    description:
      'The answer holds the signing `secret`; it is shown now and after a rotation, never again.',
    security: BEARER,
    middleware: [MANAGE, jsonBodyLimit] as const,
    request: {
      params: ApiParams,
      body: { required: true, content: { 'application/json': { schema: CreateWebhookSchema } } },
    },
    responses: {
      201: {
        description: 'The webhook, with its secret',
        content: { 'application/json': { schema: WebhookWithSecretSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 415, 422),
    },
  }),
  async (c) => {
    const params = c.req.valid('param')
    const body = c.req.valid('json')
    const api = await managedApi(c, params)
    const { store, config } = c.get('hub')
    const row = await store.webhooks.create(
      {
        api_id: api.id,
        url: outboundUrl(body.url, config.allowPrivateNetworks, 'json.url'),
        description: body.description ?? null,
        active: body.active,
        secret: newSecret(WEBHOOK_SECRET_PREFIX),
        created_by: requireCaller(c).userId,
      },
      now(),
    )
    const record = { ...webhookRecord(row), secret: row.secret }
    // From the public URL, as every URL the hub answers: the request URL may be an internal
    // one (behind a proxy) and may carry a query string.
    c.header(
      'Location',
      `${config.publicUrl}/v1/apis/${api.owner_handle}/${api.slug}/webhooks/${row.id}`,
    )
    c.header('Cache-Control', 'no-store')
    return c.json(record, 201)
  },
)

webhooks.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/webhooks',
    tags: ['webhooks'],
    summary: "List an API's webhooks, oldest first",
    security: BEARER,
    middleware: MANAGE,
    request: { params: ApiParams, query: PageQuery },
    responses: {
      200: {
        description: 'A page of webhooks (without secrets)',
        content: { 'application/json': { schema: WebhookListSchema } },
      },
      ...ERRORS,
    },
  }),
  async (c) => {
    const params = c.req.valid('param')
    const query = c.req.valid('query')
    const api = await managedApi(c, params)
    const after = query.cursor ? decodeCursor(query.cursor, CursorShape) : undefined
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const rows = await c.get('hub').store.webhooks.list(api.id, {
      after: after && { createdAt: after[0], id: after[1] },
      limit: limit + 1,
    })
    const { page, nextCursor } = pageOf(rows, limit, (last) => [last.created_at, last.id])
    return c.json(
      {
        webhooks: page.map(webhookRecord),
        nextCursor,
      },
      200,
    )
  },
)

webhooks.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/webhooks/{id}',
    tags: ['webhooks'],
    summary: 'Get a webhook',
    security: BEARER,
    middleware: MANAGE,
    request: { params: WebhookParams },
    responses: {
      200: {
        description: 'The webhook (without its secret)',
        content: { 'application/json': { schema: WebhookSchema } },
      },
      ...ERRORS,
    },
  }),
  async (c) => {
    const { webhook } = await managedWebhook(c, c.req.valid('param'))
    return c.json(webhookRecord(webhook), 200)
  },
)

webhooks.openapi(
  createRoute({
    method: 'patch',
    path: '/{owner}/{slug}/webhooks/{id}',
    tags: ['webhooks'],
    summary: "Change a webhook's url, description or active flag",
    description:
      'A new `url` applies to every later attempt, retries of earlier events included. Switching a ' +
      'webhook off fails its pending deliveries when they come due (recover them later).',
    security: BEARER,
    middleware: [MANAGE, jsonBodyLimit] as const,
    request: {
      params: WebhookParams,
      body: { required: true, content: { 'application/json': { schema: UpdateWebhookSchema } } },
    },
    responses: {
      200: {
        description: 'The webhook',
        content: { 'application/json': { schema: WebhookSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 415, 422),
    },
  }),
  async (c) => {
    const params = c.req.valid('param')
    const body = c.req.valid('json')
    const { api, webhook } = await managedWebhook(c, params)
    const { store, config } = c.get('hub')
    const url =
      body.url === undefined
        ? undefined
        : outboundUrl(body.url, config.allowPrivateNetworks, 'json.url')
    const row = await store.webhooks.update(
      api.id,
      webhook.id,
      {
        ...(url === undefined ? {} : { url }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.active === undefined ? {} : { active: body.active }),
      },
      now(),
    )
    if (!row) throw new ApiError('not_found', `The webhook ${webhook.id} was deleted meanwhile.`)
    return c.json(webhookRecord(row), 200)
  },
)

webhooks.openapi(
  createRoute({
    method: 'delete',
    path: '/{owner}/{slug}/webhooks/{id}',
    tags: ['webhooks'],
    summary: 'Delete a webhook, with its deliveries and their attempts',
    security: BEARER,
    middleware: MANAGE,
    request: { params: WebhookParams },
    responses: { 204: { description: 'Deleted' }, ...ERRORS },
  }),
  async (c) => {
    const { api, webhook } = await managedWebhook(c, c.req.valid('param'))
    await c.get('hub').store.webhooks.delete(api.id, webhook.id)
    return c.body(null, 204)
  },
)

webhooks.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/webhooks/{id}/test',
    tags: ['webhooks'],
    summary: 'Send a test event to the webhook',
    description:
      'Queues a `dev.svc.api.test.v1` event for this webhook only; it is delivered like any other ' +
      '(signed, retried). Follow it under the webhook’s deliveries.',
    security: BEARER,
    middleware: MANAGE,
    request: { params: WebhookParams },
    responses: {
      202: {
        description: 'The queued delivery',
        content: { 'application/json': { schema: DeliverySchema } },
      },
      ...errorResponses(401, 403, 404, 409, 422),
    },
  }),
  async (c) => {
    const params = c.req.valid('param')
    const { api, webhook } = await managedWebhook(c, params)
    if (webhook.active !== 1) {
      throw new ApiError(
        'webhook_inactive',
        `The webhook ${webhook.id} is switched off; switch it on to test it.`,
      )
    }
    const hub = c.get('hub')
    const deliveryId = await hub.store.transaction((tx) =>
      enqueueTestEvent(tx, {
        publicUrl: hub.config.publicUrl,
        api,
        webhookId: webhook.id,
        message: `A test event for ${api.owner_handle}/${api.slug}, asked for by ${requireCaller(c).handle}.`,
        at: now(),
      }),
    )
    hub.deliveries.wake()
    return c.json(await deliveryBody(c, webhook.id, deliveryId), 202)
  },
)

webhooks.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/webhooks/{id}/rotate-secret',
    tags: ['webhooks'],
    summary: "Replace the webhook's signing secret",
    description:
      'The new secret signs every attempt from now on, retries of earlier events included; the ' +
      'old one stops at once (there is no overlap).',
    security: BEARER,
    middleware: MANAGE,
    request: { params: WebhookParams },
    responses: {
      200: {
        description: 'The webhook, with its new secret',
        content: { 'application/json': { schema: WebhookWithSecretSchema } },
      },
      ...ERRORS,
    },
  }),
  async (c) => {
    const { api, webhook } = await managedWebhook(c, c.req.valid('param'))
    const secret = newSecret(WEBHOOK_SECRET_PREFIX)
    const row = await c.get('hub').store.webhooks.rotateSecret(api.id, webhook.id, secret, now())
    if (!row) throw new ApiError('not_found', `The webhook ${webhook.id} was deleted meanwhile.`)
    c.header('Cache-Control', 'no-store')
    return c.json({ ...webhookRecord(row), secret: row.secret }, 200)
  },
)

webhooks.openapi(
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

webhooks.openapi(
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

webhooks.openapi(
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

webhooks.openapi(
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

async function deliveryBody(c: Context<HubEnv>, webhookId: string, deliveryId: string) {
  const { store } = c.get('hub')
  const row = await store.deliveries.find(webhookId, deliveryId)
  if (!row) throw missingDelivery(webhookId, deliveryId)
  const attempts = await store.deliveries.attempts([row.id])
  return deliveryRecord(row, attempts.get(row.id) ?? [])
}

function missingDelivery(webhookId: string, deliveryId: string): ApiError {
  return new ApiError('not_found', `The webhook ${webhookId} has no delivery ${deliveryId}.`)
}
