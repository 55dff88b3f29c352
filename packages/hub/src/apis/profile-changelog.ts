import { DIFF_PROFILES as ENGINE_PROFILES, type Changelog, type DiffProfile } from '@svc/engine'
import { DIFF_PROFILES as ANSWERED_PROFILES } from '@svc/hub-api'
import type { RevisionListing } from '../store/apis-repo.js'
import type { RevisionChangelogRow } from '../store/schema.js'
import type { Repos } from '../store/store.js'
import type { AnalysisRequest, DocumentAnalysis } from './document-analysis.js'
import { servedIssues } from './record.js'

// The answers name the engine's profiles, in its order.
ENGINE_PROFILES satisfies typeof ANSWERED_PROFILES
ANSWERED_PROFILES satisfies typeof ENGINE_PROFILES

/** The changelog of an API's first revision: there is nothing to compare it with. */
export const FIRST_CHANGELOG: Changelog = Object.freeze({
  summary: { diff: false, details: {} },
  counts: { breaking: 0, warning: 0, info: 0 },
  changes: [],
})

/** A stored revision's document, to diff another one against. */
export async function storedDocument(store: Repos, revision: RevisionListing) {
  const bytes = await store.blobs.get(revision.content_hash)
  if (!bytes) throw new Error(`the document ${revision.content_hash} of ${revision.id} is missing`)
  return { document: bytes, protocol: revision.protocol }
}

/** A changelog as the store keeps it: its summary, changes and issues as JSON text. */
export type StoredChangelog = Omit<RevisionChangelogRow, 'revision_id'>

/** The store's columns of `changelog`, computed under `profile`. */
export function changelogColumns(changelog: Changelog, profile: DiffProfile): StoredChangelog {
  return {
    profile,
    summary: JSON.stringify(changelog.summary),
    breaking: changelog.counts.breaking,
    warning: changelog.counts.warning,
    info: changelog.counts.info,
    changes: JSON.stringify(changelog.changes),
    changelog_issues: changelog.issues ? JSON.stringify(servedIssues(changelog.issues)) : null,
  }
}

/** The summary and counts of a stored changelog. */
export function storedHead(row: StoredChangelog): Pick<Changelog, 'summary' | 'counts'> {
  return {
    summary: JSON.parse(row.summary) as Changelog['summary'],
    counts: { breaking: row.breaking, warning: row.warning, info: row.info },
  }
}

export type ProfileChangelogServices = {
  readonly store: Repos
  readonly documents: DocumentAnalysis
  /** The hub's document limit; a stored document past a lowered one is still read. */
  readonly maxBytes: number
}

/**
 * `revision`'s changelog under `profile`: the one stored with it, or, when the revision was
 * diffed under another profile only, its two documents diffed again under this one, in the
 * caller's analysis queue, and kept beside the revision for the next reader.
 */
export async function revisionChangelog(
  services: ProfileChangelogServices,
  revision: RevisionListing,
  profile: DiffProfile,
  request: AnalysisRequest,
): Promise<StoredChangelog> {
  const { store } = services
  const kept = await store.apis.changelogUnder(revision.id, profile)
  if (kept) return kept
  if (!revision.previous_revision_id) return changelogColumns(FIRST_CHANGELOG, profile)
  const previous = await store.apis.revision(revision.api_id, revision.previous_revision_id)
  if (!previous) throw new Error(`the revision before ${revision.id} is missing`)
  const [before, after] = [
    await storedDocument(store, previous),
    await storedDocument(store, revision),
  ]
  const analysis = await services.documents.analyse(
    {
      document: after.document,
      protocol: after.protocol,
      maxBytes: Math.max(services.maxBytes, after.document.byteLength),
      previous: before,
      profiles: [profile],
    },
    request,
  )
  const changelog = analysis.ok ? analysis.changelogs?.[profile] : undefined
  if (!changelog) throw new Error(`the document of ${revision.id} no longer reads`)
  const row = changelogColumns(changelog, profile)
  await store.apis.keepChangelogs([{ revision_id: revision.id, ...row }])
  return row
}
