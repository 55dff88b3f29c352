import { createRoute, z } from '@hono/zod-openapi'
import {
  DeliverySchema,
  DiffProfileSchema,
  WebhookListSchema,
  WebhookMinLevelSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from '@svc/hub-api'
import { newSecret, WEBHOOK_SECRET_PREFIX } from '../auth/secrets.js'
import { ApiError } from '../errors/index.js'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
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
import { requestAllowList } from '../outbound/request-guard.js'
import { enqueueTestEvent } from '../webhooks/outbox.js'
import { webhookRecord } from '../webhooks/record.js'
import { deliveryBody, managedApi, managedWebhook } from '../webhooks/webhook-access.js'

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
const WebhookProfile = DiffProfileSchema.nullable().openapi({
  description:
    "The profile its revision events are judged with, `wire` or `sdk`; null or not given: the API's `diffProfile`, whatever it is then",
})

const CreateWebhookSchema = z
  .strictObject({
    url: WebhookUrl,
    description: Description.optional(),
    active: z.boolean().default(true),
    minLevel: WebhookMinLevelSchema.default('info').openapi({ default: 'info' }),
    profile: WebhookProfile.optional(),
  })
  .openapi('CreateWebhook')

const UpdateWebhookSchema = z
  .strictObject({
    url: WebhookUrl.optional(),
    description: Description.optional(),
    active: z.boolean().optional(),
    minLevel: WebhookMinLevelSchema.optional(),
    profile: WebhookProfile.optional(),
  })
  .openapi('UpdateWebhook')

const CursorShape = z.tuple([z.iso.datetime(), z.string()])

const ERRORS = errorResponses(401, 403, 404, 422)
const MANAGE = needs('admin:webhooks')

// The deliveries routes (routes/deliveries.ts) share these; the app mounts them beside this one.
export { CursorShape, DeliveryParams, ERRORS, MANAGE, WebhookParams }

export const webhooks = createRouter()

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
        url: outboundUrl(body.url, requestAllowList(c), 'json.url'),
        description: body.description ?? null,
        active: body.active,
        min_level: body.minLevel,
        profile: body.profile ?? null,
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
    summary: "Change a webhook's url, description, active flag, minimum level or profile",
    description:
      'A new `url` applies to every later attempt, retries of earlier events included. Switching a ' +
      'webhook off fails its pending deliveries when they come due (recover them later). A new ' +
      '`minLevel` or `profile` applies to later revisions; deliveries already queued are kept.',
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
    const { store } = c.get('hub')
    const url =
      body.url === undefined ? undefined : outboundUrl(body.url, requestAllowList(c), 'json.url')
    const row = await store.webhooks.update(
      api.id,
      webhook.id,
      {
        ...(url === undefined ? {} : { url }),
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.active === undefined ? {} : { active: body.active }),
        ...(body.minLevel === undefined ? {} : { min_level: body.minLevel }),
        ...(body.profile === undefined ? {} : { profile: body.profile }),
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
