import type { Changelog } from '@svc/engine'
import type { ApiWithOwner, RevisionListing } from '../store/apis-repo.js'
import { newId } from '../store/ids.js'
import type { WebhookEventRow } from '../store/schema.js'
import type { Repos } from '../store/store.js'
import { acceptanceEvent, revisionEvent, testEvent } from './events.js'
import { minLevelsReached } from './min-level.js'

/**
 * Writes the revision event and one delivery per active webhook of the API whose minimum level
 * the changelog reaches. Runs inside the transaction that makes `revision` the latest, so the
 * event exists exactly when the revision does (SPEC §3 "Revision events"), and a webhook the
 * level filters out has no delivery at all. Answers how many deliveries it queued.
 */
export async function enqueueRevisionEvent(
  tx: Repos,
  input: {
    readonly publicUrl: string
    readonly api: ApiWithOwner
    readonly revision: RevisionListing
    readonly previous: RevisionListing
    readonly changelog: Pick<Changelog, 'summary' | 'counts'>
    readonly at: string
  },
): Promise<number> {
  const levels = minLevelsReached(input.changelog)
  if (levels.length === 0) return 0
  const event = revisionEvent({ ...input, id: newId('evt'), time: input.at })
  return tx.webhooks.enqueueForActive(row(event, input.api.id, input.revision.id), levels)
}

/**
 * Writes the acceptance event of `revision` (its listing carries the acceptance) and one delivery
 * per active webhook that got, or would have got, the revision's own event: its changes reach the
 * webhook's minimum level. Runs inside the transaction that records the acceptance.
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
  const levels = minLevelsReached({
    summary: JSON.parse(revision.summary) as Changelog['summary'],
    counts: { breaking: revision.breaking, warning: revision.warning, info: revision.info },
  })
  if (levels.length === 0) return 0
  const event = acceptanceEvent({ ...input, id: newId('evt'), time: input.at })
  return tx.webhooks.enqueueForActive(row(event, input.api.id, input.revision.id), levels)
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
