import type { Changelog, DiffPolicy, DiffProfile } from '@svc/engine'
import type { RevisionListing } from '../store/apis-repo.js'
import type { Repos } from '../store/store.js'
import type { AnalysisRequest, DocumentAnalysis } from './document-analysis.js'
import { FIRST_CHANGELOG, storedDocument } from './profile-changelog.js'
import { notAnApiDescription } from './push.js'
import type { PushedDocument } from './pushed-document.js'

export type RevisionDiffRequest = AnalysisRequest & {
  readonly store: Repos
  readonly documents: DocumentAnalysis
  /** A pushed document, or a stored revision's. */
  readonly document: Pick<PushedDocument, 'bytes' | 'protocol'>
  /** The revision to compare with; none when the API has no revisions yet. */
  readonly against: RevisionListing | undefined
  /** The largest document accepted, as for a push. */
  readonly maxBytes: number
  readonly policies: readonly DiffPolicy[]
  readonly profile: DiffProfile
}

/**
 * The changelog of `document` against the revision `against`: what a push of the document would
 * store when `against` is the latest (the same analysis, in the caller's queue and within the
 * same budget), but nothing is stored. Without a revision to compare with, the document is still
 * read (a document that is not an API description is 422, as a push is) and the changelog is
 * empty, as a first revision's is.
 */
export async function diffWithRevision(request: RevisionDiffRequest): Promise<Changelog> {
  const { document, against } = request
  const analysis = await request.documents.analyse(
    {
      document: document.bytes,
      protocol: document.protocol,
      maxBytes: request.maxBytes,
      ...(against ? { previous: await storedDocument(request.store, against) } : {}),
      ...(request.policies.length > 0 ? { policies: request.policies } : {}),
      profiles: [request.profile],
    },
    request,
  )
  if (!analysis.ok) throw notAnApiDescription(analysis.error)
  return analysis.changelogs?.[request.profile] ?? FIRST_CHANGELOG
}
