import { OutboundFailed, OutboundRefused } from '@svc/safe-fetch'
import type { Caller } from '../auth/caller.js'
import { ApiError } from '../errors/index.js'
import type { HubServices } from '../http/env.js'
import { outboundUrl, refused } from '../outbound/guard.js'
import type { ApiWithOwner } from '../store/apis-repo.js'
import { pushRevision, type PushRequest, type PushResult } from './push.js'
import { fetchedDocument } from './pushed-document.js'

/** A refetch gives up after this long, redirects and the body included. */
export const REFETCH_TIMEOUT_MS = 30_000
const MAX_REDIRECTS = 5

/**
 * Fetches the API's `sourceUrl` through the outbound guard and pushes what it got, exactly as a
 * push would: a new revision when the bytes differ from the latest, with its diff and webhook
 * events; nothing when they are the same.
 */
export async function refetchRevision(
  hub: HubServices,
  caller: Caller,
  api: ApiWithOwner,
  request: Pick<PushRequest, 'signal' | 'log'> = {},
): Promise<PushResult> {
  const { config } = hub
  if (!api.source_url) {
    throw new ApiError(
      'no_source_url',
      `${api.owner_handle}/${api.slug} has no sourceUrl to fetch; push revisions instead.`,
    )
  }
  const url = outboundUrl(api.source_url, config.allowPrivateNetworks, 'sourceUrl')
  let bytes: Uint8Array
  let contentType: string | undefined
  try {
    const response = await hub.outbound(url, {
      headers: {
        accept:
          'application/json, application/yaml, application/graphql, text/plain;q=0.5, */*;q=0.1',
        'user-agent': 'Svc-Hub/1 (refetch)',
      },
      timeoutMs: REFETCH_TIMEOUT_MS,
      redirects: { follow: 'fetch', max: MAX_REDIRECTS },
    })
    if (response.status < 200 || response.status >= 300) {
      response.discard()
      throw new ApiError(
        'source_unreachable',
        `The sourceUrl answered ${response.status}; no revision was made.`,
        { reason: 'status', status: response.status, url: response.url },
      )
    }
    contentType = response.header('content-type')
    bytes = await response.bytes(config.documentBytes)
  } catch (error) {
    if (error instanceof OutboundRefused) throw refused(error, 'sourceUrl')
    if (error instanceof OutboundFailed) {
      throw new ApiError(
        'source_unreachable',
        `Fetching the sourceUrl failed: ${error.message.replace(/\.$/, '')}; no revision was made.`,
        {
          reason: error.code,
          ...(error.code === 'too_large' ? { maxBytes: config.documentBytes } : {}),
        },
      )
    }
    throw error
  }
  if (bytes.byteLength === 0) {
    // The engine's reason for a document of only whitespace, so that both empty answers read alike.
    throw new ApiError('invalid_document', 'The sourceUrl answered an empty body.', {
      reason: 'empty_document',
    })
  }
  return pushRevision({
    store: hub.store,
    caller,
    api,
    document: await fetchedDocument(Buffer.from(bytes), contentType),
    maxBytes: config.documentBytes,
    documents: hub.documents,
    origin: 'refetch',
    publicUrl: config.publicUrl,
    deliveries: hub.deliveries,
    quotas: config.quotas.storage,
    signal: request.signal,
    log: request.log,
  })
}
