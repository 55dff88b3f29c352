import { Hono } from 'hono'
import type { WebEnv } from '../../../env.js'
import { deleteWebhookPages } from './delete.js'
import { deliveryPages } from './deliveries.js'
import { webhookListPages } from './list.js'
import { hookPages } from './webhook.js'

/**
 * An API's webhooks, for those who may manage them (the /v1 webhook routes decide: write access
 * on the owner); to everyone else these pages are not found. The list (with `/new`) comes before
 * the webhook's `/:id`.
 */
export const webhookPages = new Hono<WebEnv>()
  .route('/', webhookListPages)
  .route('/', hookPages)
  .route('/', deliveryPages)
  .route('/', deleteWebhookPages)
