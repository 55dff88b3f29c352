import type { AllowList } from '@svc/safe-fetch'
import type { Context } from 'hono'
import type { HubEnv, HubServices } from '../http/env.js'

/**
 * The targets the outbound guard admits for the request `c` (a webhook URL or `sourceUrl` it
 * gives, a refetch it asks for): on a local trial, loopback only for a request straight from this
 * machine (`client.local`: a loopback peer, no forwarding header, a loopback `Host`); for one
 * that came through a proxy or from elsewhere, the strict list, as on an exposed hub.
 *
 * @example
 * outboundUrl(body.url, requestAllowList(c), 'json.url')
 */
export function requestAllowList(c: Context<HubEnv>): AllowList {
  const { config } = c.get('hub')
  const allow = config.allowPrivateNetworks
  return c.get('client').local ? allow : allow.withoutLoopback()
}

/**
 * The hub's services as the request `c` may use them: the same, but where it is no local
 * request of a local trial, a configuration and an outbound client whose guard is
 * {@link requestAllowList}: what a refetch checks and fetches (every redirect included).
 */
export function requestServices(c: Context<HubEnv>): HubServices {
  const hub = c.get('hub')
  const allow = requestAllowList(c)
  if (allow === hub.config.allowPrivateNetworks) return hub
  return {
    ...hub,
    config: { ...hub.config, allowPrivateNetworks: allow },
    outbound: (url, request) => hub.outbound(url, { ...request, allow }),
  }
}
