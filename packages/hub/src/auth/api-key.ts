import { createMiddleware } from 'hono/factory'
import { ApiError, invalidRequest } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { whileStoreAnswers } from '../http/store-unavailable.js'
import { spendingCredentialAttempt } from '../ratelimit/failed-credentials.js'
import type { ApiKeyRow } from '../store/schema.js'
import type { Repos } from '../store/store.js'
import { API_KEY_PREFIX, hashSecret, isWellFormed } from './secrets.js'

/** A valid organisation API key, with the organisation it belongs to. */
export type ApiKeyOwner = ApiKeyRow & { readonly org_handle: string }

/**
 * The organisation API key `key` (`svc_key_…`): 401 `unauthorized` when it is not one the hub
 * made (`details.reason` `malformed` or `unknown`), 403 `api_key_revoked` when it was revoked.
 * The key itself never appears in an error.
 */
export async function resolveApiKey(repos: Repos, key: string): Promise<ApiKeyOwner> {
  if (!isWellFormed(key, API_KEY_PREFIX)) {
    throw new ApiError(
      'unauthorized',
      'The API key is not an organisation API key (`svc_key_…`).',
      {
        reason: 'malformed',
      },
    )
  }
  const found = await repos.accounts.findApiKeyByHash(hashSecret(key))
  if (!found) {
    throw new ApiError('unauthorized', 'The API key is not valid.', { reason: 'unknown' })
  }
  if (found.revoked_at) {
    throw new ApiError('api_key_revoked', 'The API key has been revoked.', {
      revokedAt: found.revoked_at,
    })
  }
  return found
}

/**
 * Middleware of `GET /v1/rate-limits`, which takes the organisation API key as the query
 * parameter `apiKey` (SPEC §5): resolves it into `keyCaller`, so that the rate limiter after it
 * counts the organisation and applies its overrides. 400 `missing_api_key` without one, 422
 * when it is given twice, 401/403 as `resolveApiKey`, 503 when the store does not answer.
 */
export const apiKeyFromQuery = createMiddleware<HubEnv>(async function apiKeyFromQuery(c, next) {
  // Mounted on the path for every method: other methods are not this endpoint (404).
  const method = c.req.method
  if (!c.get('keyCaller') && (method === 'GET' || method === 'HEAD')) {
    const given = c.req.queries('apiKey') ?? []
    if (given.every((value) => value === '')) {
      throw new ApiError(
        'missing_api_key',
        'This request needs an organisation API key: add `?apiKey=svc_key_…` to the URL.',
      )
    }
    if (given.length > 1) {
      throw invalidRequest([{ path: 'query.apiKey', message: 'give one API key, once' }])
    }
    const { store } = c.get('hub')
    const key = await spendingCredentialAttempt(c, () =>
      whileStoreAnswers(store, () => resolveApiKey(store, given[0]!)),
    )
    c.set('keyCaller', { keyId: key.id, orgId: key.org_id, orgHandle: key.org_handle })
  }
  await next()
})
