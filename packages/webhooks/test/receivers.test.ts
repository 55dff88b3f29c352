import { once } from 'node:events'
import type { AddressInfo, Server } from 'node:net'
import { serve } from '@hono/node-server'
import {
  computeSignature,
  CONTENT_TYPE,
  SIGNATURE_HEADER,
  signWebhook,
  USER_AGENT,
  type WebhookEvent,
} from '@svc/webhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createReceiver as createExpressReceiver } from './examples/express.js'
import { createReceiver as createHonoReceiver } from './examples/hono.js'
import { createReceiver as createNodeReceiver } from './examples/node-http.js'
import { revisionEvent, SECRET, testEvent } from './fixtures.js'

type OnEvent = (event: WebhookEvent) => void | Promise<void>
type Running = { url: string; close: () => Promise<void> }

/** Each documented receiver, started on a free loopback port. */
const receivers: Record<string, (secret: string, onEvent: OnEvent) => Promise<Running>> = {
  'node:http': (secret, onEvent) => listening(createNodeReceiver(secret, onEvent).listen(0, HOST)),
  Hono: (secret, onEvent) =>
    listening(serve({ fetch: createHonoReceiver(secret, onEvent).fetch, port: 0, hostname: HOST })),
  Express: (secret, onEvent) => listening(createExpressReceiver(secret, onEvent).listen(0, HOST)),
}

const HOST = '127.0.0.1'

async function listening(server: Server): Promise<Running> {
  if (server.address() === null) await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${HOST}:${port}/webhooks/svc`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** A delivery as the hub sends it (SPEC §4.8). */
function deliver(url: string, body: string, signature: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': CONTENT_TYPE, 'user-agent': USER_AGENT }
  if (signature !== undefined) headers[SIGNATURE_HEADER] = signature
  return fetch(url, { method: 'POST', headers, body })
}

for (const [name, start] of Object.entries(receivers)) {
  describe(`the ${name} receiver of docs/webhooks.md`, () => {
    let receiver: Running
    const received: WebhookEvent[] = []
    let failing = false

    beforeAll(async () => {
      receiver = await start(SECRET, (event) => {
        if (failing) throw new Error('the queue is down')
        received.push(event)
      })
    })
    afterAll(() => receiver.close())
    beforeEach(() => {
      received.length = 0
      failing = false
    })

    it('answers 2xx to a signed event and hands it over parsed', async () => {
      for (const event of [revisionEvent, testEvent]) {
        const body = JSON.stringify(event)
        const response = await deliver(receiver.url, body, signWebhook(SECRET, body))
        expect(response.status).toBeGreaterThanOrEqual(200)
        expect(response.status).toBeLessThan(300)
      }
      expect(received).toEqual([revisionEvent, testEvent])
    })

    it('answers 400 to a badly signed event and hands nothing over', async () => {
      const body = JSON.stringify(revisionEvent)
      const now = Math.floor(Date.now() / 1000)
      const stale = now - 3600
      const tampered = body.replace('"breaking":1', '"breaking":0')
      expect(tampered).not.toBe(body)
      const attempts: Array<[string, string | undefined]> = [
        [body, signWebhook(`${SECRET}x`, body)],
        [tampered, signWebhook(SECRET, body)],
        [body, undefined],
        [body, `t=${now},v1=nothex`],
        [body, `t=${stale},v1=${computeSignature(SECRET, stale, body)}`],
      ]
      for (const [sent, signature] of attempts) {
        const response = await deliver(receiver.url, sent, signature)
        expect(response.status, signature).toBe(400)
      }
      expect(received).toEqual([])
    })

    it('answers 5xx when the event cannot be stored, so the hub retries', async () => {
      failing = true
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
      const body = JSON.stringify(testEvent)
      const response = await deliver(receiver.url, body, signWebhook(SECRET, body))
      quiet.mockRestore()
      expect(response.status).toBeGreaterThanOrEqual(500)
      expect(response.status).toBeLessThan(600)
    })
  })
}
