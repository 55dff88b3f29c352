import type { Caller } from '../auth/caller.js'
import { ApiError } from '../errors/index.js'
import type { ApiWithOwner, RevisionListing } from '../store/apis-repo.js'
import { now } from '../store/ids.js'
import type { Store } from '../store/store.js'
import { enqueueAcceptanceEvent } from '../webhooks/outbox.js'
import type { AnalysisRequest, DocumentAnalysis } from './document-analysis.js'
import { revisionChangelog } from './profile-changelog.js'
import { acceptanceRecord } from './record.js'
import { findRevision } from './revision-address.js'

export type AcceptRequest = {
  readonly store: Store
  readonly caller: Caller
  /** Checked already for write access. */
  readonly api: ApiWithOwner
  /** The revision: `latest`, a sequence number or an id. */
  readonly id: string
  readonly reason: string
  /** `{base_url}`, for the URLs in webhook events. */
  readonly publicUrl: string
  /** Diffs the revision under a webhook's profile when it was not diffed under it yet. */
  readonly documents: DocumentAnalysis
  readonly maxBytes: number
  readonly analysis: AnalysisRequest
}

export type AcceptResult = {
  /** The revision, with its acceptance. */
  readonly revision: RevisionListing
  /** Webhook deliveries the acceptance event queued. */
  readonly deliveries: number
}

/**
 * Records that the breaking changes and warnings of a revision are deliberate, who said so, when
 * and why, with the acceptance event for the API's webhooks, in one transaction. Refused (409,
 * nothing stored) when the revision is accepted already (`already_accepted`, with the acceptance
 * that stands) or has no breaking change or warning (`nothing_to_accept`).
 */
export async function acceptRevision(request: AcceptRequest): Promise<AcceptResult> {
  const { store, caller, api, id, reason } = request
  await changelogsForWebhooks(request)
  try {
    return await store.transaction(async (tx) => {
      const revision = await findRevision(tx, api, id)
      const others = await tx.apis.otherCounts(revision.id)
      if ([revision, ...others].every((counts) => counts.breaking + counts.warning === 0))
        throw nothingToAccept(api, revision)
      const at = now()
      const standing = await tx.apis.accept({
        revision_id: revision.id,
        accepted_by: caller.userId,
        accepted_at: at,
        reason,
      })
      if (standing) throw alreadyAccepted(api, revision)
      const accepted: RevisionListing = {
        ...revision,
        accepted_by_handle: caller.handle,
        accepted_at: at,
        acceptance_reason: reason,
      }
      // A revision with changes has one before it.
      const previous = await findRevision(tx, api, revision.previous_revision_id ?? '')
      const deliveries = await enqueueAcceptanceEvent(tx, {
        publicUrl: request.publicUrl,
        api,
        revision: accepted,
        previous,
        at,
      })
      return { revision: accepted, deliveries }
    })
  } catch (error) {
    // PostgreSQL: another acceptance of the revision committed first.
    if (!store.capabilities.isUniqueViolation(error)) throw error
    throw alreadyAccepted(api, await findRevision(store, api, id))
  }
}

/**
 * Makes sure the revision's changelog under each profile its API's webhooks judge with is
 * stored, so that the acceptance event of each is built in the transaction without a diff.
 */
async function changelogsForWebhooks(request: AcceptRequest): Promise<void> {
  const { store, api } = request
  const revision = await findRevision(store, api, request.id)
  const apiProfile = await store.apis.diffProfile(api.id)
  for (const profile of await store.webhooks.activeProfiles(api.id, apiProfile)) {
    await revisionChangelog(request, revision, profile, request.analysis)
  }
}

/** Withdraws the acceptance of a revision's changes: 404 when they are not accepted. */
export async function withdrawAcceptance(
  store: Store,
  api: ApiWithOwner,
  id: string,
): Promise<void> {
  const revision = await findRevision(store, api, id)
  if (!(await store.apis.withdrawAcceptance(revision.id))) {
    throw new ApiError(
      'not_found',
      `The changes of ${describe(api, revision)} are not accepted; there is nothing to withdraw.`,
    )
  }
}

function alreadyAccepted(api: ApiWithOwner, revision: RevisionListing): ApiError {
  const acceptance = acceptanceRecord(revision)
  return new ApiError(
    'already_accepted',
    `The changes of ${describe(api, revision)} were accepted already` +
      (acceptance ? `, by ${acceptance.by} at ${acceptance.at}: ${acceptance.reason}` : '.'),
    { revision: revision.id, acceptance },
  )
}

function nothingToAccept(api: ApiWithOwner, revision: RevisionListing): ApiError {
  return new ApiError(
    'nothing_to_accept',
    `Revision #${revision.seq} of ${api.owner_handle}/${api.slug} has no breaking change or warning to accept` +
      (revision.previous_revision_id ? '.' : ': it is the first revision.'),
    { revision: revision.id, counts: { breaking: 0, warning: 0, info: revision.info } },
  )
}

/** `revision #4 of acme/payments` */
function describe(api: ApiWithOwner, revision: RevisionListing): string {
  return `revision #${revision.seq} of ${api.owner_handle}/${api.slug}`
}
