import { ApiError } from '../errors/index.js'
import type { ApiWithOwner, RevisionAddress, RevisionListing } from '../store/apis-repo.js'
import type { Repos } from '../store/store.js'

/** Where `id` points in an API's series: `latest`, a sequence number (`5`), or a revision id. */
export function revisionAddress(id: string): RevisionAddress {
  if (id === 'latest') return { latest: true }
  if (/^[0-9]+$/.test(id)) return { seq: Number(id) }
  return { id }
}

/** The revision `id` (as {@link revisionAddress} reads it) of `api`, or 404 `not_found`. */
export async function findRevision(
  repos: Repos,
  api: ApiWithOwner,
  id: string,
): Promise<RevisionListing> {
  const revision = await repos.apis.revisionAt(api.id, revisionAddress(id))
  if (revision) return revision
  const name = `${api.owner_handle}/${api.slug}`
  throw new ApiError(
    'not_found',
    id === 'latest'
      ? `${name} has no revisions yet.`
      : /^[0-9]+$/.test(id)
        ? `${name} has no revision #${id}.`
        : `${name} has no revision '${id}'.`,
  )
}
