import type { Context } from 'hono'
import type { HubEnv } from '../http/env.js'

/** Whom a request counts against. */
export type Identity =
  | { readonly kind: 'user'; readonly key: string; readonly userId: string }
  | { readonly kind: 'org'; readonly key: string; readonly orgId: string }
  | { readonly kind: 'ip'; readonly key: string }

/**
 * The caller that a request counts against: the user of a valid PAT (`caller`), else the
 * organisation of a valid API key (`keyCaller`, set by `authenticate` on the routes that take
 * keys), else the client's address: the one trusted proxies forwarded, else the socket's peer
 * (proxy/request-client.ts; an untrusted proxy in front of the hub is one client for all its
 * users).
 */
export function identify(c: Context<HubEnv>): Identity {
  const caller = c.get('caller')
  if (caller) return { kind: 'user', key: `user:${caller.userId}`, userId: caller.userId }
  const key = c.get('keyCaller')
  if (key) return { kind: 'org', key: `org:${key.orgId}`, orgId: key.orgId }
  return { kind: 'ip', key: `ip:${c.get('client').address}` }
}
