import { chargeCredits, insufficientCredits } from '../credits/ledger.js'
import { newId, now } from '../store/ids.js'
import type { Store } from '../store/store.js'
import { idempotencyScope, type LibraryCaller, type LibraryOrg } from './access.js'
import { requestHash, runOnce, type Outcome } from './idempotency.js'
import { libraryRecord, type CreateLibrary, type LibraryResponse } from './record.js'

/** Where a library is made and by what: the hub itself, this operation, API version 1. */
export const LIBRARY_EXECUTION: LibraryResponse['execution'] = {
  location: 'cloud',
  capability_id: 'libraries.create',
  capability_version: '1',
}

/** What creating one library costs the organisation. */
export const LIBRARY_CREDITS = 1

export type CreateLibraryOptions = {
  readonly store: Store
  readonly who: LibraryCaller
  readonly org: LibraryOrg
  readonly body: CreateLibrary
  readonly idempotencyKey: string
  /** The hub's id of this request: the `request_id` of the answer. */
  readonly requestId: string
  /** The hub's public URL: where a 402 tells the caller to get more credits. */
  readonly publicUrl: string
}

/**
 * Makes the library of `body` in `org` at most once per idempotency key (see `runOnce`), and
 * answers the 201 LibraryResponse as the exact text a replay sends again. The library is
 * charged to the organisation in the same transaction: without the credits it is a 402 and
 * nothing is stored (the key is freed, so the same request works after a top-up); a replay
 * never charges again.
 */
export function createLibrary(options: CreateLibraryOptions): Promise<Outcome> {
  const { store, who, org, body } = options
  const hash = requestHash({ operation: 'POST /v1/libraries', org: org.id, body })
  const id = { scope: idempotencyScope(who), key: options.idempotencyKey }
  return runOnce(store, id, hash, async (tx) => {
    const charge = await chargeCredits(tx, org.id, LIBRARY_CREDITS, options.requestId, 'library')
    if (charge.status === 'insufficient')
      throw insufficientCredits(charge, org.handle, options.publicUrl)
    const at = now()
    const row = await tx.libraries.create({
      id: newId('lib'),
      org_id: org.id,
      name: body.name,
      ingestion_profile: JSON.stringify(body.ingestion_profile),
      created_by: who.kind === 'user' ? who.user.userId : null,
      api_key_id: who.kind === 'key' ? who.key.keyId : null,
      created_at: at,
      updated_at: at,
    })
    const response: LibraryResponse = {
      request_id: options.requestId,
      execution: LIBRARY_EXECUTION,
      usage: { billable: true, quantity: 1, unit: 'library', credits: LIBRARY_CREDITS },
      warnings: [],
      data: libraryRecord(row),
    }
    return { status: 201, body: JSON.stringify(response) }
  })
}
