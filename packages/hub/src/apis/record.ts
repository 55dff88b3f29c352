import {
  CHANGE_LEVELS as ANSWERED_LEVELS,
  type Api,
  type ParseIssue as AnsweredIssue,
  type Revision,
  type RevisionAcceptance,
  type RevisionDiff,
  type RevisionIssue,
} from '@svc/hub-api'
import { CHANGE_LEVELS, type Changelog, type ChangelogIssues, type ParseIssue } from '@svc/engine'
import type { ApiWithOwner, RevisionListing } from '../store/apis-repo.js'

export type ApiRecord = Api
export type RevisionRecord = Revision

// The answers name the engine's change levels, in its order.
CHANGE_LEVELS satisfies typeof ANSWERED_LEVELS
ANSWERED_LEVELS satisfies typeof CHANGE_LEVELS

/** A changelog's `issues` as the changes endpoint serves them: the engine's, as they are. */
export function servedIssues(issues: ChangelogIssues): {
  readonly before: readonly AnsweredIssue[]
  readonly after: readonly AnsweredIssue[]
} {
  return issues
}

/** A changelog as the diff endpoint serves it: the engine's, as a push stores it. */
export function servedChangelog(
  changelog: Changelog,
): Pick<RevisionDiff, 'summary' | 'counts' | 'changes' | 'issues'> {
  return changelog as Pick<RevisionDiff, 'summary' | 'counts' | 'changes' | 'issues'>
}

/** A document's parse issues as the issues endpoint serves them: the engine's, as they are. */
export function servedRevisionIssues(issues: readonly ParseIssue[]): readonly RevisionIssue[] {
  return issues
}

export function apiRecord(row: ApiWithOwner, publicUrl: string): ApiRecord {
  return {
    id: row.id,
    owner: row.owner_handle,
    slug: row.slug,
    name: row.name,
    visibility: row.visibility,
    sourceUrl: row.source_url,
    url: `${publicUrl}/${encodeURIComponent(row.owner_handle)}/apis/${encodeURIComponent(row.slug)}`,
    createdAt: row.created_at,
    diffProfile: row.diff_profile,
  }
}

/** The API record of a stored revision of `api`. */
export function revisionRecord(
  row: RevisionListing,
  api: { owner_handle: string; slug: string },
  publicUrl: string,
): RevisionRecord {
  const [owner, slug] = [api.owner_handle, api.slug].map(encodeURIComponent)
  return {
    id: row.id,
    sequence: row.seq,
    contentHash: row.content_hash,
    version: row.version,
    publishedAt: row.published_at,
    retrievedAt: row.retrieved_at,
    url: `${publicUrl}/${owner}/apis/${slug}/revisions/${row.id}`,
    documentUrl: `${publicUrl}/v1/apis/${owner}/${slug}/revisions/${row.id}/document`,
    protocol: row.protocol,
    format: row.format,
    mediaType: row.media_type,
    specVersion: row.spec_version,
    size: row.size,
    origin: row.origin,
    previousRevisionId: row.previous_revision_id,
    createdBy: row.created_by_handle,
    parseIssues: {
      error: row.issue_errors,
      warning: row.issue_warnings,
      debug: row.issue_debug,
    },
    changeCounts: { breaking: row.breaking, warning: row.warning, info: row.info },
    profile: row.profile,
    acceptance: acceptanceRecord(row),
  }
}

/** Who accepted the revision's changes, when and why; null unless they were accepted. */
export function acceptanceRecord(row: RevisionListing): RevisionAcceptance | null {
  if (row.accepted_at === null) return null
  return {
    by: row.accepted_by_handle ?? '',
    at: row.accepted_at,
    reason: row.acceptance_reason ?? '',
  }
}
