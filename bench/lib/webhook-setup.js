// What the webhook benches (webhooks.js, scale.js) set up on a hub: webhooks that all point at the
// loopback receiver, and revisions that each queue one delivery per webhook.
import { expectStatus } from './hub-runs.js'

/** Webhooks created at once during the setup. */
export const SETUP_CONCURRENCY = 8

/** A document with paths /p0 … /p<n>: every n differs from every other. */
export function openapiDocument(n) {
  const paths = {}
  for (let i = 0; i <= n; i++)
    paths[`/p${i}`] = { get: { operationId: `p${i}`, responses: { 200: { description: 'ok' } } } }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Bench', version: '1' }, paths })
}

/**
 * `count` webhooks, each at the receiver's `/w/<i>`, made by `create(i, url)` (the request of
 * `POST …/webhooks`), a few at a time; answers their secrets by index.
 */
export async function createWebhooks(count, receiverUrl, create) {
  const secrets = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: SETUP_CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++
        const reply = await expectStatus(
          201,
          create(i, `${receiverUrl}/w/${i}`),
          `POST webhooks (${i})`,
        )
        secrets[i] = reply.body.secret
      }
    }),
  )
  return secrets
}

/**
 * Revision `n` (`openapiDocument(n)`) sent by `send(init)` (the request of `POST …/revisions`),
 * checked to have queued a delivery for each of `webhooks` (none for the first, which has nothing
 * to compare with); answers the reply.
 */
export async function pushRevision(n, webhooks, send) {
  const reply = await expectStatus(
    201,
    send({ body: openapiDocument(n), headers: { 'content-type': 'application/json' } }),
    `push ${n}`,
  )
  const expected = n === 0 ? 0 : webhooks
  if (reply.body.webhookDeliveries !== expected)
    throw new Error(`push ${n} queued ${reply.body.webhookDeliveries} deliveries, not ${expected}`)
  return reply
}
