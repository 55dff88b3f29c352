import { z, type OpenAPIHono } from '@hono/zod-openapi'
import {
  ACCEPTANCE_EVENT_TYPE,
  AcceptanceEventSchema,
  REVISION_EVENT_TYPE,
  RevisionEventSchema,
  TEST_EVENT_TYPE,
  TestEventSchema,
} from '@svc/hub-api'
import { CONTENT_TYPE, SIGNATURE_HEADER, USER_AGENT } from '@svc/webhooks'
import { ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS_PER_WINDOW, MAX_REDIRECTS } from './schedule.js'

/**
 * The headers of every delivery besides `content-type`, which the request body's media type
 * states (OpenAPI ignores a `content-type` header parameter); `attempt.ts` sends these.
 */
const DeliveryHeaders = z.object({
  'user-agent': z.literal(USER_AGENT).openapi({
    description: 'Its `1` follows the `v1` of the event types',
  }),
  [SIGNATURE_HEADER]: z
    .string()
    .regex(/^t=\d+,v1=[0-9a-f]{64}$/)
    .openapi({
      description:
        '`t=<unix seconds>,v1=<hex HMAC-SHA256>` of `<t>.<raw body>` keyed with the whole ' +
        'webhook secret (`whsec_…`), signed anew on every attempt. Verify it on the raw bytes ' +
        'and refuse a `t` more than 5 minutes away (`verifyWebhook` of `@svc/webhooks` does both).',
      example: 't=1767225600,v1=44886feb9c0ad3b8f6a8e2d0b1c4f5e6a7b8c9d0e1f2a3b4c5d6e7f8a9b0b3b7',
    }),
})

const seconds = ATTEMPT_TIMEOUT_MS / 1000

/** What the receiver's answer makes the hub do (SPEC §3, `judgeStatus` in schedule.ts). */
const RECEIVER_RESPONSES = {
  '2XX': {
    description:
      `Delivered: the hub sends this event to this webhook no more. Answer within ${seconds} ` +
      'seconds, once the event is stored; the body is not read.',
  },
  '307': {
    description: `The same request is sent to \`location\` (at most ${MAX_REDIRECTS} redirects)`,
  },
  '308': {
    description: `The same request is sent to \`location\` (at most ${MAX_REDIRECTS} redirects)`,
  },
  '408': { description: 'Retried, like 429 and 5xx' },
  '429': {
    description: 'Retried; a `Retry-After` is honoured as the earliest time of the next attempt',
  },
  '5XX': {
    description:
      'Retried with the same event `id`, seconds to hours apart, at most ' +
      `${MAX_ATTEMPTS_PER_WINDOW} attempts until 24 hours after the first; then the delivery ` +
      `fails. No answer within ${seconds} seconds, or a network error, is retried the same way.`,
  },
  default: {
    description:
      'Any other status (other 3xx, other 4xx such as 400 for a signature that does not ' +
      'verify): the delivery fails at once, without automatic retry',
  },
} as const

/** Adds the events the hub sends to `/v1/openapi.json` under `webhooks` (OpenAPI 3.1). */
export function registerWebhookEvents(registry: OpenAPIHono['openAPIRegistry']): void {
  const events = [
    {
      type: REVISION_EVENT_TYPE,
      schema: RevisionEventSchema,
      summary: 'A new revision became the API’s latest, with a change',
      description:
        'Sent to every active webhook of the API whose minimum level the change reaches. ' +
        'Delivery is at least once, in no fixed order.',
    },
    {
      type: ACCEPTANCE_EVENT_TYPE,
      schema: AcceptanceEventSchema,
      summary: 'A revision’s breaking changes and warnings were accepted as deliberate',
      description:
        'Sent to every active webhook of the API whose minimum level the revision’s changes ' +
        'reach (those that got its revision event), when someone who can write the API accepts ' +
        'them. Delivery is at least once, in no fixed order.',
    },
    {
      type: TEST_EVENT_TYPE,
      schema: TestEventSchema,
      summary: 'A test event',
      description:
        "Sent to one webhook when the API's owner asks for it; it describes no revision.",
    },
  ]
  for (const event of events) {
    registry.registerWebhook({
      method: 'post',
      path: event.type,
      operationId: event.type,
      summary: event.summary,
      description: event.description,
      tags: ['Webhooks'],
      request: {
        headers: DeliveryHeaders,
        body: {
          required: true,
          content: { [CONTENT_TYPE.split(';')[0]!]: { schema: event.schema } },
        },
      },
      responses: RECEIVER_RESPONSES,
    })
  }
}
