import { DiffProfileSchema } from './apis.js'
import { ChangeSeveritySchema, ChangeSummarySchema, RevisionAcceptanceSchema } from './revisions.js'
import { z } from './zod.js'

/**
 * The events the hub POSTs to webhooks (SPEC §3, §9.2): the dispatcher builds each event through
 * these schemas, and `/v1/openapi.json` describes them under `webhooks`, so what is sent and what
 * is published cannot drift apart.
 */

/** `type` of the event sent when a new revision becomes an API's latest, with a change. */
export const REVISION_EVENT_TYPE = 'dev.svc.api.revision.v1'
/** `type` of the event sent when a revision's breaking changes and warnings are accepted. */
export const ACCEPTANCE_EVENT_TYPE = 'dev.svc.api.revision.accepted.v1'
/** `type` of the event the API's owner asks for to try a webhook. */
export const TEST_EVENT_TYPE = 'dev.svc.api.test.v1'

export const EventApiSchema = z
  .object({
    id: z.string().openapi({ example: 'api_3c1e0f2a4b6c8d9e7f105d0b' }),
    owner: z.string().openapi({ description: 'Handle of the user or organisation that owns it' }),
    slug: z.string(),
    name: z.string(),
    url: z.url().openapi({ description: "The API's page on the hub" }),
  })
  .openapi('WebhookEventApi', { description: 'The API an event is about (SPEC §2 `Api`)' })

export const EventRevisionSchema = z
  .object({
    id: z.string().openapi({ example: 'rev_8d9e7f105d0b3c1e0f2a4b6c' }),
    contentHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable()
      .openapi({
        description: "SHA-256 (hex) of the revision's document; null when none is stored",
      }),
    version: z
      .string()
      .nullable()
      .openapi({ description: "The publisher's version label; not an ordering" }),
    publishedAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .openapi({ description: "The publisher's timestamp, when one was given" }),
    retrievedAt: z.iso.datetime().openapi({ description: 'When the hub retrieved the revision' }),
    url: z.url().openapi({
      description: "The revision's page; the API's revisions page when no document is stored",
    }),
  })
  .openapi('WebhookEventRevision', { description: 'A revision of the API (SPEC §2 `Revision`)' })

/** The CloudEvents 1.0 envelope (structured mode) around `data`. */
function envelope<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.object({
    specversion: z.literal('1.0'),
    id: z.string().openapi({
      description:
        'The same on every attempt and manual retry of one delivery: de-duplicate with it',
      example: 'evt_9a8b7c6d5e4f3a2b1c0d9e8f',
    }),
    source: z.url().openapi({ description: 'The hub site that sent the event' }),
    subject: z
      .string()
      .openapi({ description: 'The API, as `{owner}/{slug}`', example: 'acme/billing' }),
    time: z.iso.datetime().openapi({
      description: "When the hub captured the event; not the publisher's time",
    }),
    datacontenttype: z.literal('application/json'),
    type: z.literal(type),
    data,
  })
}

export const RevisionEventDataSchema = z
  .object({
    api: EventApiSchema,
    revision: EventRevisionSchema,
    previousRevision: EventRevisionSchema,
    profile: DiffProfileSchema.openapi({
      description: "The profile `summary` and `counts` were computed with: the webhook's",
    }),
    summary: ChangeSummarySchema,
    counts: ChangeSeveritySchema,
    changesUrl: z.url().openapi({
      description:
        'The page listing the changes of `revision` under `profile` (for a private API, sign in to read it)',
    }),
  })
  .openapi('RevisionEventData', {
    description:
      '`revision` became the latest; `previousRevision` was the latest before it (it may belong ' +
      'to another version of the API).',
  })

export const AcceptanceEventDataSchema = z
  .object({
    api: EventApiSchema,
    revision: EventRevisionSchema,
    previousRevision: EventRevisionSchema,
    profile: DiffProfileSchema.openapi({
      description: "The profile `counts` were computed with: the webhook's",
    }),
    counts: ChangeSeveritySchema.openapi({ description: 'The changes accepted, per level' }),
    acceptance: RevisionAcceptanceSchema,
    changesUrl: z.url().openapi({
      description:
        'The page listing the changes of `revision` under `profile` (for a private API, sign in to read it)',
    }),
  })
  .openapi('AcceptanceEventData', {
    description:
      "`revision`'s breaking changes and warnings against `previousRevision` were accepted as " +
      'deliberate, by `acceptance.by`, for `acceptance.reason`.',
  })

export const TestEventDataSchema = z
  .object({
    test: z.literal(true),
    api: EventApiSchema,
    message: z.string().openapi({ description: 'A sentence saying who asked for it' }),
  })
  .openapi('TestEventData')

export const RevisionEventSchema = envelope(REVISION_EVENT_TYPE, RevisionEventDataSchema).openapi(
  'RevisionEvent',
  {
    description:
      'Sent to every active webhook of an API whose minimum level the change reaches, when a new ' +
      'revision becomes its latest and differs from the one before',
  },
)

export const AcceptanceEventSchema = envelope(
  ACCEPTANCE_EVENT_TYPE,
  AcceptanceEventDataSchema,
).openapi('AcceptanceEvent', {
  description:
    "Sent to every active webhook of an API whose minimum level the revision's changes reach, " +
    'when someone who can write the API accepts them',
})

export const TestEventSchema = envelope(TEST_EVENT_TYPE, TestEventDataSchema).openapi('TestEvent', {
  description: "Sent to one webhook when the API's owner asks for a test event",
})

export const WebhookEventSchema = z
  .discriminatedUnion('type', [RevisionEventSchema, AcceptanceEventSchema, TestEventSchema])
  .openapi('WebhookEvent', { description: 'Every event the hub sends, told apart by `type`' })

export type EventApi = z.infer<typeof EventApiSchema>
export type EventRevision = z.infer<typeof EventRevisionSchema>
export type RevisionEventData = z.infer<typeof RevisionEventDataSchema>
export type AcceptanceEventData = z.infer<typeof AcceptanceEventDataSchema>
export type TestEventData = z.infer<typeof TestEventDataSchema>
export type RevisionEvent = z.infer<typeof RevisionEventSchema>
export type AcceptanceEvent = z.infer<typeof AcceptanceEventSchema>
export type TestEvent = z.infer<typeof TestEventSchema>
export type WebhookEvent = z.infer<typeof WebhookEventSchema>
