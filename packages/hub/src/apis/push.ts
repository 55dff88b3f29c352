import type { Changelog, DiffProfile, IssueSummary, ParseIssue, SourceInfo } from '@svc/engine'
import type { Logger } from 'pino'
import type { Caller } from '../auth/caller.js'
import { ApiError } from '../errors/index.js'
import { chargeStorage } from '../quotas/charge.js'
import type { QuotaLimits } from '../quotas/settings.js'
import { StaleRevisionError, type ApiWithOwner, type RevisionListing } from '../store/apis-repo.js'
import { now } from '../store/ids.js'
import type { RevisionOrigin } from '../store/schema.js'
import type { Repos, Store } from '../store/store.js'
import type { DeliveryNotifier } from '../webhooks/dispatcher.js'
import { enqueueRevisionEvent } from '../webhooks/outbox.js'
import type { DocumentAnalysis } from './document-analysis.js'
import { servedRevisionIssues } from './record.js'
import { oneAtATime } from './one-at-a-time.js'
import {
  changelogColumns,
  FIRST_CHANGELOG,
  revisionChangelog,
  storedDocument,
  storedHead,
} from './profile-changelog.js'
import type { ProfileChangelogs } from './document-worker.js'
import type { PushedDocument } from './pushed-document.js'

/** Pushes that lose the race to another process this many times in a row get 503 (SQLite). */
const MAX_ATTEMPTS = 10

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
  /** The default storage quotas: the revision counts against its API owner's. */
  readonly quotas: QuotaLimits
  /** The request's: aborts when its client goes away, which ends the analysis. */
  readonly signal?: AbortSignal | undefined
  readonly log?: Logger | undefined
  /** The profile the answer's changelog (the gate's) is judged with; the API's when not given. */
  readonly profile?: DiffProfile | undefined
}

export type PushResult = {
  /** False when the document is byte-identical to the latest revision's, which is answered. */
  readonly created: boolean
  readonly revision: RevisionListing
  readonly previousRevision: RevisionListing | undefined
  /** The profile of `changelog`: the request's, else the API's. */
  readonly profile: DiffProfile
  /** The revision's summary and counts under `profile` (`changes` stay in the store). */
  readonly changelog: Pick<Changelog, 'summary' | 'counts'>
  /** Webhook deliveries the new revision queued. */
  readonly deliveries: number
}

/**
 * Makes the pushed document the API's latest revision, with its diff against the latest one
 * before it, unless it is byte-identical to that one. The analysis (read and diff) waits in the
 * caller's queue for an analysis thread and runs within the hub's budget (document-analysis.ts).
 *
 * Pushes to one API take turns: in this process they queue (`oneAtATime`), and the write holds
 * the API (a row lock on PostgreSQL, the write lock on SQLite) while it checks that the revision
 * diffed against is still the latest. Only a push from another process can land in between:
 * PostgreSQL then diffs again under the lock, so that the second diff is the last; SQLite cannot
 * wait on its one connection while a diff runs, so it starts over, a few times at most.
 */
export function pushRevision(request: PushRequest): Promise<PushResult> {
  return oneAtATime(`push:${request.api.id}`, () => pushInTurn(request))
}

async function pushInTurn(request: PushRequest): Promise<PushResult> {
  const { store, api, document } = request
  const contentHash = document.sha256
  for (let attempt = 1; ; attempt++) {
    const latest = await store.apis.latestRevision(api.id)
    if (latest?.content_hash === contentHash) return unchanged(request, latest)
    const analysed = await analyse(request, latest, await profilesOf(store, request))
    try {
      const result = await store.transaction(async (tx) => {
        await tx.apis.holdForPush(api.id)
        const current = await tx.apis.latestRevision(api.id)
        // The API's profile or its webhooks' may have changed since: they are read again here.
        const profiles = await profilesOf(tx, request)
        const covered = profiles.all.every((p) => analysed.changelogs[p] || !latest)
        if (current?.id === latest?.id && covered) return append(request, tx, analysed, profiles)
        if (!store.capabilities.rowLocks) throw new StaleRevisionError('another push landed')
        // Another process pushed meanwhile; the lock keeps a third one out while this diff runs.
        if (current?.content_hash === contentHash) return { unchanged: current }
        return append(request, tx, await analyse(request, current, profiles), profiles)
      })
      if ('unchanged' in result) return unchanged(request, result.unchanged)
      if (result.deliveries > 0) request.deliveries.wake()
      return result
    } catch (error) {
      if (!(error instanceof StaleRevisionError)) throw error
      if (attempt >= MAX_ATTEMPTS) {
        throw new ApiError(
          'unavailable',
          `Other pushes to ${api.owner_handle}/${api.slug} kept landing first; push again.`,
        ).retryAfter(1)
      }
    }
  }
}

/** The profiles a push diffs with: the API's, the gate's, and those of the API's webhooks. */
type PushProfiles = {
  /** The API's: the one the revision's own changelog is computed with. */
  readonly api: DiffProfile
  /** The request's, else the API's: the one the answer is judged with. */
  readonly gate: DiffProfile
  /** Those of its active webhooks, each getting an event judged with its own. */
  readonly webhooks: readonly DiffProfile[]
  readonly all: readonly DiffProfile[]
}

async function profilesOf(store: Repos, request: PushRequest): Promise<PushProfiles> {
  const api = await store.apis.diffProfile(request.api.id)
  const gate = request.profile ?? api
  const webhooks = await store.webhooks.activeProfiles(request.api.id, api)
  return { api, gate, webhooks, all: [...new Set([api, gate, ...webhooks])] }
}

/** A document analysed against the revision that was the latest when it was read. */
type Analysed = {
  readonly latest: RevisionListing | undefined
  readonly source: SourceInfo
  readonly issues: IssueSummary
  readonly parseIssues: readonly ParseIssue[]
  /** Each profile's changelog; none for a first revision. */
  readonly changelogs: ProfileChangelogs
}

async function analyse(
  request: PushRequest,
  latest: RevisionListing | undefined,
  profiles: PushProfiles,
): Promise<Analysed> {
  const { store, document } = request
  const analysis = await request.documents.analyse(
    {
      document: document.bytes,
      protocol: document.protocol,
      maxBytes: request.maxBytes,
      ...(latest ? { previous: await storedDocument(store, latest) } : {}),
      profiles: profiles.all,
    },
    { caller: request.caller, signal: request.signal, log: request.log },
  )
  if (!analysis.ok) throw notAnApiDescription(analysis.error)
  const { source, issues, parseIssues } = analysis
  return { latest, source, issues, parseIssues, changelogs: analysis.changelogs ?? {} }
}

/**
 * Appends the revision, its changelog and the webhook outbox rows of the change: they land
 * together or not at all (`tx` is one transaction), and only within the quotas of the API's
 * owner (413 `quota_exceeded` past one, checked in the same transaction).
 */
async function append(
  request: PushRequest,
  tx: Repos,
  analysed: Analysed,
  profiles: PushProfiles,
): Promise<PushResult> {
  const { caller, api, document } = request
  const { latest, source, issues, parseIssues, changelogs } = analysed
  const under = (profile: DiffProfile): Changelog => {
    if (!latest) return FIRST_CHANGELOG
    const changelog = changelogs[profile]
    if (!changelog) throw new Error(`the push was not diffed under the ${profile} profile`)
    return changelog
  }
  const own = changelogColumns(under(profiles.api), profiles.api)
  const owner = { id: api.account_id, handle: api.owner_handle }
  await chargeStorage(tx, request.quotas, owner, 'revisions', {
    items: 1,
    bytes: document.bytes.byteLength,
  })
  const at = now()
  const row = await tx.apis.appendRevision({
    api_id: api.id,
    document: document.bytes,
    documentSha256: document.sha256,
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
    ...own,
    parse_issues: JSON.stringify(servedRevisionIssues(parseIssues)),
  })
  // The other profiles' changelogs, for the gate and the webhooks to read without a diff.
  await tx.apis.keepChangelogs(
    profiles.all
      .filter((profile) => profile !== profiles.api && latest)
      .map((profile) => ({ revision_id: row.id, ...changelogColumns(under(profile), profile) })),
  )
  const {
    changes: _changes,
    changelog_issues: _issues,
    parse_issues: _parseIssues,
    ...listing
  } = row
  const revision = {
    ...listing,
    created_by_handle: caller.handle,
    accepted_by_handle: null,
    accepted_at: null,
    acceptance_reason: null,
  }
  const deliveries = latest
    ? await enqueueRevisionEvent(tx, {
        publicUrl: request.publicUrl,
        api,
        apiProfile: profiles.api,
        revision,
        previous: latest,
        changelogs: Object.fromEntries(profiles.webhooks.map((p) => [p, under(p)])),
        at,
      })
    : 0
  return {
    created: true,
    revision,
    previousRevision: latest,
    profile: profiles.gate,
    changelog: under(profiles.gate),
    deliveries,
  }
}

/**
 * The answer to a push of the latest revision's own bytes: nothing new is stored, but the
 * revision's changelog under the gate's profile is, when it was diffed under another only.
 */
async function unchanged(request: PushRequest, latest: RevisionListing): Promise<PushResult> {
  const { store } = request
  const previous = latest.previous_revision_id
    ? await store.apis.revision(latest.api_id, latest.previous_revision_id)
    : undefined
  const profile = request.profile ?? (await store.apis.diffProfile(request.api.id))
  const changelog =
    profile === latest.profile
      ? stored(latest)
      : storedHead(
          await revisionChangelog(
            { store, documents: request.documents, maxBytes: request.maxBytes },
            latest,
            profile,
            { caller: request.caller, signal: request.signal, log: request.log },
          ),
        )
  return {
    created: false,
    revision: latest,
    previousRevision: previous,
    profile,
    changelog,
    deliveries: 0,
  }
}

/** The summary and counts a revision was stored with. */
function stored(row: RevisionListing): Pick<Changelog, 'summary' | 'counts'> {
  return {
    summary: JSON.parse(row.summary) as Changelog['summary'],
    counts: { breaking: row.breaking, warning: row.warning, info: row.info },
  }
}

/** A pushed document that is not an API description at all is 422 `invalid_document`. */
export function notAnApiDescription(error: {
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
