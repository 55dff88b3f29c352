import type { Changelog } from '@svc/engine'
import type { Caller } from '../auth/caller.js'
import { ApiError } from '../errors/index.js'
import { StaleRevisionError, type ApiWithOwner, type RevisionListing } from '../store/apis-repo.js'
import { sha256Hex } from '../store/blobs-repo.js'
import { now } from '../store/ids.js'
import type { RevisionOrigin } from '../store/schema.js'
import type { Store } from '../store/store.js'
import type { DeliveryNotifier } from '../webhooks/dispatcher.js'
import { enqueueRevisionEvent } from '../webhooks/outbox.js'
import type { DocumentAnalysis } from './document-analysis.js'
import type { PushedDocument } from './pushed-document.js'

/** Pushes that lose the race for the latest revision this many times in a row get 503. */
const MAX_ATTEMPTS = 10

/** The changelog of an API's first revision: there is nothing to compare it with. */
export const FIRST_CHANGELOG: Changelog = Object.freeze({
  summary: { diff: false, details: {} },
  counts: { breaking: 0, warning: 0, info: 0 },
  changes: [],
})

const SERVED_AS = {
  json: 'application/json',
  yaml: 'application/yaml',
  graphql: 'application/graphql',
}

export type PushRequest = {
  readonly store: Store
  readonly caller: Caller
  /** Checked already for write access. */
  readonly api: ApiWithOwner
  readonly document: PushedDocument
  /** The largest document accepted (the engine's own limit is raised to it when lower). */
  readonly maxBytes: number
  readonly documents: DocumentAnalysis
  /** A push by a user, or a refetch of the API's source URL. */
  readonly origin: RevisionOrigin
  /** `{base_url}`, for the URLs in webhook events. */
  readonly publicUrl: string
  /** Told when the new revision queued webhook deliveries. */
  readonly deliveries: DeliveryNotifier
}

export type PushResult = {
  /** False when the document is byte-identical to the latest revision's, which is answered. */
  readonly created: boolean
  readonly revision: RevisionListing
  readonly previousRevision: RevisionListing | undefined
  /** The revision's summary and counts (`changes` stay in the store). */
  readonly changelog: Pick<Changelog, 'summary' | 'counts'>
  /** Webhook deliveries the new revision queued. */
  readonly deliveries: number
}

/**
 * Makes the pushed document the API's latest revision, with its diff against the latest one
 * before it, unless it is byte-identical to that one. Another push landing in between (the
 * store notices it inside the transaction) makes this one start over: read the new latest,
 * diff against it, try again.
 */
export async function pushRevision(request: PushRequest): Promise<PushResult> {
  const { store, caller, api, document } = request
  const contentHash = sha256Hex(document.bytes)
  for (let attempt = 1; ; attempt++) {
    const latest = await store.apis.latestRevision(api.id)
    if (latest?.content_hash === contentHash) {
      const previous = latest.previous_revision_id
        ? await store.apis.revision(api.id, latest.previous_revision_id)
        : undefined
      return {
        created: false,
        revision: latest,
        previousRevision: previous,
        changelog: stored(latest),
        deliveries: 0,
      }
    }
    const analysis = await request.documents.analyse({
      text: document.text,
      protocol: document.protocol,
      maxBytes: request.maxBytes,
      ...(latest ? { previous: await storedDocument(store, latest) } : {}),
    })
    if (!analysis.ok) throw notAnApiDescription(analysis.error)
    const { source, issues } = analysis
    const changelog = analysis.changelog ?? FIRST_CHANGELOG
    try {
      // The revision, its changelog and the webhook outbox rows of the change land together or
      // not at all.
      const at = now()
      const { row, deliveries } = await store.transaction(async (tx) => {
        const row = await tx.apis.appendRevision({
          api_id: api.id,
          document: document.bytes,
          media_type: document.mediaType ?? SERVED_AS[source.format],
          protocol: source.protocol,
          format: source.format,
          spec_version: source.version,
          version: document.version,
          published_at: document.publishedAt,
          retrieved_at: at,
          created_by: caller.userId,
          origin: request.origin,
          previous_revision_id: latest?.id ?? null,
          issue_errors: issues.error,
          issue_warnings: issues.warning,
          issue_debug: issues.debug,
          summary: JSON.stringify(changelog.summary),
          breaking: changelog.counts.breaking,
          warning: changelog.counts.warning,
          info: changelog.counts.info,
          changes: JSON.stringify(changelog.changes),
        })
        const { changes: _changes, ...listing } = row
        const revision = { ...listing, created_by_handle: caller.handle }
        const deliveries = latest
          ? await enqueueRevisionEvent(tx, {
              publicUrl: request.publicUrl,
              api,
              revision,
              previous: latest,
              changelog,
              at,
            })
          : 0
        return { row: revision, deliveries }
      })
      if (deliveries > 0) request.deliveries.wake()
      return {
        created: true,
        revision: row,
        previousRevision: latest,
        changelog,
        deliveries,
      }
    } catch (error) {
      if (!(error instanceof StaleRevisionError)) throw error
      if (attempt >= MAX_ATTEMPTS) {
        throw new ApiError(
          'unavailable',
          `Other pushes to ${api.owner_handle}/${api.slug} kept landing first; push again.`,
        )
      }
    }
  }
}

/** The summary and counts a revision was stored with. */
export function stored(row: RevisionListing): Pick<Changelog, 'summary' | 'counts'> {
  return {
    summary: JSON.parse(row.summary) as Changelog['summary'],
    counts: { breaking: row.breaking, warning: row.warning, info: row.info },
  }
}

/** A pushed document that is not an API description at all is 422 `invalid_document`. */
function notAnApiDescription(error: {
  code: string
  message: string
  line?: number
  column?: number
}): ApiError {
  return new ApiError(
    'invalid_document',
    `The document is not an API description: ${error.message.replace(/\.$/, '')}.`,
    {
      reason: error.code,
      ...(error.line === undefined ? {} : { line: error.line }),
      ...(error.column === undefined ? {} : { column: error.column }),
    },
  )
}

/** A stored revision's document, to diff the pushed one against. */
async function storedDocument(store: Store, revision: RevisionListing) {
  const bytes = await store.blobs.get(revision.content_hash)
  if (!bytes) throw new Error(`the document ${revision.content_hash} of ${revision.id} is missing`)
  return { text: new TextDecoder().decode(bytes), protocol: revision.protocol }
}
