import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import {
  SIGNATURE_HEADER,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '@svc/webhooks'

const MAX_BODY_BYTES = 1024 * 1024

/**
 * A receiver for svc webhooks on plain node:http. `onEvent` should only store or enqueue the
 * event (the hub waits at most 10 s); do the real work later.
 */
export function createReceiver(
  secret: string,
  onEvent: (event: WebhookEvent) => void | Promise<void>,
): Server {
  async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end()
      return
    }
    // Read the raw bytes: the signature covers them exactly, so never verify re-serialised JSON.
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { connection: 'close' }).end()
        return
      }
      chunks.push(chunk)
    }

    let event: WebhookEvent
    try {
      event = verifyWebhook(Buffer.concat(chunks), req.headers[SIGNATURE_HEADER], secret)
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error
      // 400: the hub fails this delivery at once and its owner sees why.
      res.writeHead(400, { 'content-type': 'text/plain' }).end(error.code)
      return
    }
    await onEvent(event)
    res.writeHead(204).end()
  }

  return createServer((req, res) => {
    receive(req, res).catch((error: unknown) => {
      console.error(error)
      // 500: the hub retries (same event id) for up to 24 hours.
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
}
