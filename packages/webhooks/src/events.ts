/** `type` of the event sent when a new revision becomes an API's latest, with a change. */
export const REVISION_EVENT = 'dev.svc.api.revision.v1'

/** `type` of the event sent when a revision's breaking changes and warnings are accepted. */
export const ACCEPTANCE_EVENT = 'dev.svc.api.revision.accepted.v1'

/** `type` of the event the API's owner asks for to try a webhook. */
export const TEST_EVENT = 'dev.svc.api.test.v1'

/** The API an event is about (SPEC §2 `Api`). */
export type Api = {
  id: string
  owner: string
  slug: string
  name: string
  /** The API's page on the hub. */
  url: string
}

/** SPEC §2 `Revision`. */
export type Revision = {
  id: string
  /** SHA-256 of the revision's document; null when no document is stored. */
  contentHash: string | null
  /** The publisher's version label; not an ordering. */
  version: string | null
  /** The publisher's timestamp (date-time) when given. */
  publishedAt: string | null
  /** When the hub retrieved the revision (date-time). */
  retrievedAt: string
  /** The revision's page; the API's revisions page when no document is stored. */
  url: string
}

export type ChangeDelta = { added: number; deleted: number; modified: number }

export type ChangeSummary = {
  /** Whether the two documents differ. */
  diff: boolean
  /** A section of the document (`operations`, `schemas`, `types` …) to its counts. */
  details: Record<string, ChangeDelta>
}

/**
 * Whose breakage the changes are judged for: `wire`, what requests and responses carry; `sdk`,
 * also the code generated from the description.
 */
export type DiffProfile = 'wire' | 'sdk'

/** How many changes there are of each level. */
export type ChangeSeverity = { breaking: number; warning: number; info: number }

export type RevisionEventData = {
  api: Api
  /** The revision that became the latest. */
  revision: Revision
  /** The latest revision before `revision`; it may belong to another version of the API. */
  previousRevision: Revision
  /** The profile `summary` and `counts` were computed with: the webhook's (`wire` or `sdk`). */
  profile: DiffProfile
  summary: ChangeSummary
  counts: ChangeSeverity
  /** The page listing the changes of `revision` under `profile` (for a private API, sign in). */
  changesUrl: string
}

/** Who accepted a revision's changes as deliberate, when and why. */
export type Acceptance = {
  /** Handle of the user who accepted them. */
  by: string
  /** When (date-time). */
  at: string
  /** Why, in their words. */
  reason: string
}

export type AcceptanceEventData = {
  api: Api
  /** The revision whose changes were accepted. */
  revision: Revision
  /** The revision its changes are against. */
  previousRevision: Revision
  /** The profile `counts` were computed with: the webhook's (`wire` or `sdk`). */
  profile: DiffProfile
  /** The changes accepted, per level. */
  counts: ChangeSeverity
  acceptance: Acceptance
  /** The page listing the changes of `revision` under `profile` (for a private API, sign in). */
  changesUrl: string
}

export type TestEventData = { test: true; api: Api; message: string }

/** A CloudEvents 1.0 envelope in structured mode. */
type Envelope<T, D> = {
  specversion: '1.0'
  /** The same on every attempt and manual retry of one delivery: de-duplicate with it. */
  id: string
  /** The hub site that sent the event. */
  source: string
  /** The API as `{owner}/{slug}`. */
  subject: string
  /** When the hub captured the event (date-time); not the publisher's time. */
  time: string
  datacontenttype: 'application/json'
  type: T
  data: D
}

export type RevisionEvent = Envelope<typeof REVISION_EVENT, RevisionEventData>
export type AcceptanceEvent = Envelope<typeof ACCEPTANCE_EVENT, AcceptanceEventData>
export type TestEvent = Envelope<typeof TEST_EVENT, TestEventData>

/** Every event the hub sends, discriminated by `type`. */
export type WebhookEvent = RevisionEvent | AcceptanceEvent | TestEvent
