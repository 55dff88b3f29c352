import express, { type Express } from 'express'
import {
  SIGNATURE_HEADER,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '@svc/webhooks'

/**
 * A receiver for svc webhooks on Express 5. `onEvent` should only store or enqueue the event (the
 * hub waits at most 10 s); do the real work later.
 */
export function createReceiver(
  secret: string,
  onEvent: (event: WebhookEvent) => void | Promise<void>,
): Express {
  const app = express()
  // express.raw, not express.json, on this route: the signature covers the raw bytes exactly.
  app.post(
    '/webhooks/svc',
    express.raw({ type: 'application/cloudevents+json' }),
    async (req, res) => {
      if (!Buffer.isBuffer(req.body)) {
        res.status(415).send('expected application/cloudevents+json')
        return
      }
      let event: WebhookEvent
      try {
        event = verifyWebhook(req.body, req.get(SIGNATURE_HEADER), secret)
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error
        // 400: the hub fails this delivery at once and its owner sees why.
        res.status(400).send(error.code)
        return
      }
      // If this throws, Express answers 500 and the hub retries (same event id) for up to 24 hours.
      await onEvent(event)
      res.sendStatus(204)
    },
  )
  return app
}
