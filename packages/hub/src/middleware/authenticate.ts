import { createMiddleware } from 'hono/factory'
import type { Logger } from 'pino'
import { resolveApiKey } from '../auth/api-key.js'
import { inProcessCaller, type Caller } from '../auth/caller.js'
import type { Scope } from '../auth/scopes.js'
import { API_KEY_PREFIX, hashSecret, isWellFormed, PAT_PREFIX } from '../auth/secrets.js'
import { ApiError } from '../errors/index.js'
import { writeLater } from '../http/bookkeeping.js'
import type { HubEnv } from '../http/env.js'
import { spendingCredentialAttempt } from '../ratelimit/failed-credentials.js'

type Reason = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired'
type Message = Reason | 'not-a-pat' | 'missing-pat-or-key'

const MESSAGES: Record<Message, string> = {
  missing: 'This request needs a personal access token: send `Authorization: Bearer svc_pat_…`.',
  malformed: 'The Authorization header is not `Bearer <personal access token>`.',
  'not-a-pat': 'The bearer token is not a personal access token (`svc_pat_…`).',
  unknown: 'The personal access token is not valid.',
  revoked: 'The personal access token has been revoked.',
  expired: 'The personal access token has expired.',
  'missing-pat-or-key':
    'This request needs a personal access token or an organisation API key: send `Authorization: Bearer svc_pat_…` or `Bearer svc_key_…`.',
}

/**
 * The paths that also take an organisation API key as the Bearer credential (ARCHITECTURE,
 * "Organisation API keys"); everywhere else a key is not a credential and is refused.
 */
const KEY_PATHS = /^\/v1\/libraries(?:\/|$)/

/** Don't write `last_used_at` more than once a minute per token. */
const TOUCH_INTERVAL_MS = 60_000

export function unauthorized(reason: Reason, message: Message = reason): ApiError {
  return new ApiError('unauthorized', MESSAGES[message], { reason })
}

/**
 * Resolves the Bearer PAT into `caller`, or on the `KEY_PATHS` an organisation API key into
 * `keyCaller`. A request without credentials passes through (routes that need one ask with
 * `requireCaller`, and the limiter counts it against its address); a credential that is present
 * but bad is refused here, and spends one of its address's failed-credential attempts.
 */
export const authenticate = createMiddleware<HubEnv>(async function authenticate(c, next) {
  const header = c.req.header('authorization')
  c.set('caller', undefined)
  c.set('keyCaller', undefined)
  const fromWeb = inProcessCaller(c)
  if (fromWeb !== undefined) {
    // The web app's session stands in for a PAT with every scope (web/api-client.ts).
    c.set('caller', fromWeb ?? undefined)
  } else if (header !== undefined) {
    const { store } = c.get('hub')
    const credential = bearer(header)
    await spendingCredentialAttempt(c, async () => {
      if (credential.startsWith(API_KEY_PREFIX) && KEY_PATHS.test(c.req.path)) {
        const key = await resolveApiKey(store, credential)
        c.set('keyCaller', { keyId: key.id, orgId: key.org_id, orgHandle: key.org_handle })
      } else {
        c.set('caller', await resolve(store, credential, c.get('log')))
      }
    })
  }
  await next()
})

/** The credential of a `Bearer` header ('' when the header is not one). */
function bearer(header: string): string {
  return /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? ''
}

type HubStore = HubEnv['Variables']['hub']['store']

async function resolve(store: HubStore, pat: string, log: Logger): Promise<Caller> {
  if (!pat) throw unauthorized('malformed')
  if (!isWellFormed(pat, PAT_PREFIX)) throw unauthorized('malformed', 'not-a-pat')
  const token = await store.accounts.findTokenByHash(hashSecret(pat))
  if (!token) throw unauthorized('unknown')
  if (token.revoked_at) throw unauthorized('revoked')
  const at = new Date()
  if (token.expires_at && token.expires_at <= at.toISOString()) throw unauthorized('expired')
  if (!token.last_used_at || Date.parse(token.last_used_at) + TOUCH_INTERVAL_MS < at.getTime()) {
    const when = at.toISOString()
    writeLater(
      `token:${token.id}`,
      () => store.accounts.touchToken(token.id, when),
      log,
      'token use',
    )
  }
  return {
    userId: token.user_id,
    handle: token.user_handle,
    tokenId: token.id,
    scopes: token.scopes.split(' ').filter(Boolean) as Scope[],
    expiresAt: token.expires_at,
  }
}

/**
 * Route middleware: 401 without a valid PAT, 403 `insufficient_scope` unless it has one of
 * `scopes`. It runs before the route's validators, so an anonymous caller learns nothing about
 * what a valid request would look like.
 */
export function needs(...scopes: Scope[]) {
  return createMiddleware<HubEnv>(async function needs(c, next) {
    requireCaller(c, ...scopes)
    await next()
  })
}

/**
 * Route middleware of the routes that take organisation API keys: 401 without a valid PAT or
 * key; a PAT must have one of `scopes` (403 `insufficient_scope`), a key needs none.
 */
export function needsUserOrKey(...scopes: Scope[]) {
  return createMiddleware<HubEnv>(async function needsUserOrKey(c, next) {
    if (!c.get('keyCaller')) {
      const caller = c.get('caller')
      if (!caller) throw unauthorized('missing', 'missing-pat-or-key')
      requireScope(caller, ...scopes)
    }
    await next()
  })
}

/** The authenticated caller, or 401; with `scopes`, 403 `insufficient_scope` unless the PAT has one. */
export function requireCaller(
  c: { get(key: 'caller'): Caller | undefined },
  ...scopes: Scope[]
): Caller {
  const caller = c.get('caller')
  if (!caller) throw unauthorized('missing')
  requireScope(caller, ...scopes)
  return caller
}

/** 403 `insufficient_scope` unless the caller's PAT has one of `scopes` (none: any PAT passes). */
export function requireScope(caller: Caller, ...scopes: Scope[]): void {
  if (scopes.length > 0 && !scopes.some((s) => caller.scopes.includes(s))) {
    throw new ApiError(
      'insufficient_scope',
      `This request needs a token with the scope ${scopes.map((s) => `'${s}'`).join(' or ')}.`,
      { required: scopes, granted: caller.scopes },
    )
  }
}
