import { Hono } from 'hono'
import {
  SIGNATURE_HEADER,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '@svc/webhooks'

/**
 * A receiver for svc webhooks on Hono (serve `app.fetch` with any adapter). `onEvent` should only
 * store or enqueue the event (the hub waits at most 10 s); do the real work later.
 */
export function createReceiver(
  secret: string,
  onEvent: (event: WebhookEvent) => void | Promise<void>,
): Hono {
  const app = new Hono()
  app.post('/webhooks/svc', async (c) => {
    // Read the raw bytes: the signature covers them exactly, so never verify c.req.json().
    const body = new Uint8Array(await c.req.arrayBuffer())
    let event: WebhookEvent
    try {
      event = verifyWebhook(body, c.req.header(SIGNATURE_HEADER), secret)
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error
      // 400: the hub fails this delivery at once and its owner sees why.
      return c.text(error.code, 400)
    }
    // If this throws, Hono answers 500 and the hub retries (same event id) for up to 24 hours.
    await onEvent(event)
    return c.body(null, 204)
  })
  return app
}
