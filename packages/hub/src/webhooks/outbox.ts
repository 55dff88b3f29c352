import type { Changelog, DiffProfile } from '@svc/engine'
import type { ApiWithOwner, RevisionListing } from '../store/apis-repo.js'
import { newId } from '../store/ids.js'
import type { WebhookEventRow } from '../store/schema.js'
import type { Repos } from '../store/store.js'
import { acceptanceEvent, revisionEvent, testEvent } from './events.js'
import { minLevelsReached } from './min-level.js'

/**
 * Writes the revision event and one delivery per active webhook of the API whose minimum level
 * the changelog reaches: one event per profile the webhooks judge with (`changelogs` holds each
 * one's), each going to the webhooks of its profile. Runs inside the transaction that makes
 * `revision` the latest, so the events exist exactly when the revision does (SPEC §3 "Revision
 * events"), and a webhook the level filters out has no delivery at all. Answers how many
 * deliveries it queued.
 */
export async function enqueueRevisionEvent(
  tx: Repos,
  input: {
    readonly publicUrl: string
    readonly api: ApiWithOwner
    /** The API's profile: the one of the webhooks that follow it. */
    readonly apiProfile: DiffProfile
    readonly revision: RevisionListing
    readonly previous: RevisionListing
    readonly changelogs: { readonly [P in DiffProfile]?: Pick<Changelog, 'summary' | 'counts'> }
    readonly at: string
  },
): Promise<number> {
  let deliveries = 0
  for (const [profile, changelog] of profileEntries(input.changelogs)) {
    const levels = minLevelsReached(changelog)
    if (levels.length === 0) continue
    const event = revisionEvent({ ...input, profile, changelog, id: newId('evt'), time: input.at })
    deliveries += await tx.webhooks.enqueueForActive(
      row(event, input.api.id, input.revision.id),
      levels,
      { profile, apiProfile: input.apiProfile },
    )
  }
  return deliveries
}

/**
 * Writes the acceptance event of `revision` (its listing carries the acceptance) and one delivery
 * per active webhook that got, or would have got, the revision's own event: its changes under the
 * webhook's profile reach the webhook's minimum level. Runs inside the transaction that records
 * the acceptance; the revision's changelog under each of its webhooks' profiles is stored already
 * (`acceptRevision` makes sure of it before).
 */
export async function enqueueAcceptanceEvent(
  tx: Repos,
  input: {
    readonly publicUrl: string
    readonly api: ApiWithOwner
    readonly revision: RevisionListing
    readonly previous: RevisionListing
    readonly at: string
  },
): Promise<number> {
  const { revision } = input
  const apiProfile = await tx.apis.diffProfile(input.api.id)
  let deliveries = 0
  for (const profile of await tx.webhooks.activeProfiles(input.api.id, apiProfile)) {
    // A webhook set to a profile after the changelogs were made ready (a race of moments) is
    // judged with the revision's own.
    const kept = await tx.apis.changelogUnder(revision.id, profile)
    const judged = kept ?? revision
    const counts = { breaking: judged.breaking, warning: judged.warning, info: judged.info }
    const levels = minLevelsReached({ summary: JSON.parse(judged.summary), counts })
    if (levels.length === 0) continue
    const event = acceptanceEvent({
      ...input,
      profile: judged.profile,
      counts,
      id: newId('evt'),
      time: input.at,
    })
    deliveries += await tx.webhooks.enqueueForActive(
      row(event, input.api.id, revision.id),
      levels,
      { profile, apiProfile },
    )
  }
  return deliveries
}

/** Writes a test event for one webhook and its delivery; answers the delivery id. */
export async function enqueueTestEvent(
  tx: Repos,
  input: {
    readonly publicUrl: string
    readonly api: ApiWithOwner
    readonly webhookId: string
    readonly message: string
    readonly at: string
  },
): Promise<string> {
  const event = testEvent({ ...input, id: newId('evt'), time: input.at })
  const [deliveryId] = await tx.webhooks.enqueue(row(event, input.api.id, null), [input.webhookId])
  return deliveryId!
}

function row(
  event: { id: string; type: WebhookEventRow['type']; time: string },
  apiId: string,
  revisionId: string | null,
): WebhookEventRow {
  return {
    id: event.id,
    api_id: apiId,
    type: event.type,
    revision_id: revisionId,
    // Serialised once: every attempt of every delivery sends these exact bytes.
    body: JSON.stringify(event),
    created_at: event.time,
  }
}

function profileEntries<T>(byProfile: { readonly [P in DiffProfile]?: T }): [DiffProfile, T][] {
  return Object.entries(byProfile) as [DiffProfile, T][]
}
