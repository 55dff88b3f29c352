import type { Changelog, DiffProfile } from '@svc/engine'
import { AcceptanceEventSchema, RevisionEventSchema, TestEventSchema } from '@svc/hub-api'
import {
  ACCEPTANCE_EVENT,
  REVISION_EVENT,
  TEST_EVENT,
  type AcceptanceEvent,
  type Api,
  type Revision,
  type RevisionEvent,
  type TestEvent,
} from '@svc/webhooks'
import { acceptanceRecord, apiRecord, revisionRecord } from '../apis/record.js'
import type { ApiWithOwner, RevisionListing } from '../store/apis-repo.js'

/** What every event of an API carries besides its data. */
type Capture = {
  /** The CloudEvent `id`: the same on every attempt and manual retry. */
  readonly id: string
  /** When the hub captured the event (not the publisher's time). */
  readonly time: string
  /** `{base_url}`: the CloudEvent `source`, and the origin of every URL in `data`. */
  readonly publicUrl: string
  readonly api: ApiWithOwner
}

/**
 * The event sent when `revision` became the API's latest and differs from `previous`. Built
 * through the schema `/v1/openapi.json` publishes (a field it lacks is dropped, a value it
 * refuses throws), and typed as `@svc/webhooks` gives it to receivers, so the compiler holds the
 * two together.
 */
export function revisionEvent(
  capture: Capture & {
    readonly revision: RevisionListing
    readonly previous: RevisionListing
    readonly profile: DiffProfile
    readonly changelog: Pick<Changelog, 'summary' | 'counts'>
  },
): RevisionEvent {
  const revision = eventRevision(capture.revision, capture)
  return RevisionEventSchema.parse({
    ...envelope(capture),
    type: REVISION_EVENT,
    data: {
      api: eventApi(capture),
      revision,
      previousRevision: eventRevision(capture.previous, capture),
      profile: capture.profile,
      summary: capture.changelog.summary,
      counts: capture.changelog.counts,
      changesUrl: changesUrl(revision, capture.profile, capture.revision),
    },
  })
}

/**
 * The event sent when `revision`'s changes against `previous` were accepted (its listing carries
 * the acceptance), with the counts of its changelog under `profile`; built and typed as
 * {@link revisionEvent} is.
 */
export function acceptanceEvent(
  capture: Capture & {
    readonly revision: RevisionListing
    readonly previous: RevisionListing
    readonly profile: DiffProfile
    readonly counts: Changelog['counts']
  },
): AcceptanceEvent {
  const revision = eventRevision(capture.revision, capture)
  return AcceptanceEventSchema.parse({
    ...envelope(capture),
    type: ACCEPTANCE_EVENT,
    data: {
      api: eventApi(capture),
      revision,
      previousRevision: eventRevision(capture.previous, capture),
      profile: capture.profile,
      counts: capture.counts,
      acceptance: acceptanceRecord(capture.revision),
      changesUrl: changesUrl(revision, capture.profile, capture.revision),
    },
  })
}

/** The revision's changes page, under `profile` when its own changelog is another profile's. */
function changesUrl(revision: Revision, profile: DiffProfile, row: RevisionListing): string {
  return `${revision.url}/changes${profile === row.profile ? '' : `?profile=${profile}`}`
}

/** The event the owner asks for to try a webhook; it describes no revision. */
export function testEvent(capture: Capture & { readonly message: string }): TestEvent {
  return TestEventSchema.parse({
    ...envelope(capture),
    type: TEST_EVENT,
    data: { test: true, api: eventApi(capture), message: capture.message },
  })
}

function envelope({ id, time, publicUrl, api }: Capture) {
  return {
    specversion: '1.0' as const,
    id,
    source: publicUrl,
    subject: `${api.owner_handle}/${api.slug}`,
    time,
    datacontenttype: 'application/json' as const,
  }
}

/** SPEC §2 `Api`: exactly its fields, so the payload is the contract and nothing more. */
function eventApi({ api, publicUrl }: Capture): Api {
  const { id, owner, slug, name, url } = apiRecord(api, publicUrl)
  return { id, owner, slug, name, url }
}

/** SPEC §2 `Revision`. */
function eventRevision(row: RevisionListing, { api, publicUrl }: Capture): Revision {
  const { id, contentHash, version, publishedAt, retrievedAt, url } = revisionRecord(
    row,
    api,
    publicUrl,
  )
  return { id, contentHash, version, publishedAt, retrievedAt, url }
}
