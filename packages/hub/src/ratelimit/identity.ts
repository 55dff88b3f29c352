import { getConnInfo } from '@hono/node-server/conninfo'
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
 * keys), else the client's IP address (the socket's peer: a proxy in front of the hub is one
 * client for all its users).
 */
export function identify(c: Context<HubEnv>): Identity {
  const caller = c.get('caller')
  if (caller) return { kind: 'user', key: `user:${caller.userId}`, userId: caller.userId }
  const key = c.get('keyCaller')
  if (key) return { kind: 'org', key: `org:${key.orgId}`, orgId: key.orgId }
  return { kind: 'ip', key: `ip:${clientAddress(c)}` }
}

/** The address of the connection the request came on (`unknown` for in-process requests). */
export function clientAddress(c: Pick<Context, 'env'>): string {
  try {
    const address = getConnInfo(c as Context).remote.address ?? 'unknown'
    // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d: one client, one count.
    return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address
  } catch {
    // No socket (the app called in-process, as tests do).
    return 'unknown'
  }
}
