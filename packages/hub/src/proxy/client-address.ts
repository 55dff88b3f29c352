import type { IpAddress } from './address.js'
import { nodeAddress } from './address.js'
import { forwardedHops, type ClientAddressHeader, type Hop } from './forwarded-hops.js'
import type { TrustedProxies } from './trusted-proxies.js'

/** Who may say who the client is, and where they say it (`SVC_HUB_TRUSTED_PROXIES`, docs/hub/running.md). */
export type ProxySettings = {
  readonly trusted: TrustedProxies
  readonly header: ClientAddressHeader
}

/**
 * The client a request counts for, walking the forwarding chain from the socket's peer: while the
 * address reached is a trusted proxy, its hop to the left (the client it says it had) is taken;
 * the first address that is not a trusted proxy is the client (nginx `real_ip_recursive on`,
 * Express `trust proxy` with a list). A hop that names no address (`unknown`, `_hidden`, a
 * malformed value) ends the walk at the proxy that wrote it, so a made-up value never counts
 * as a client of its own; so does a chain that runs out (every hop a trusted proxy).
 *
 * @example
 * // peer 10.0.0.2 (trusted), X-Forwarded-For: 6.6.6.6, 198.51.100.7
 * clientAddress(peer, hops, trusted) // 198.51.100.7: 6.6.6.6 is what the client claimed
 */
export function clientAddress(peer: IpAddress, hops: readonly Hop[], trusted: TrustedProxies) {
  let current = peer
  for (let i = hops.length - 1; i >= 0 && trusted.trusts(current); i--) {
    const hop = hops[i]
    if (hop === undefined) break
    current = hop
  }
  return current
}

/**
 * The client address of a request that came from `peer` with the header `headerValue` (the one
 * `settings.header` names; undefined when absent), as text: `unknown` when the peer is not known.
 * Forwarding headers are read only when the peer is a trusted proxy.
 */
export function resolveClientAddress(
  peer: string | undefined,
  headerValue: string | undefined,
  settings: ProxySettings,
): string {
  const from = peer === undefined ? undefined : nodeAddress(peer)
  if (from === undefined) return peer || 'unknown'
  if (headerValue === undefined || !settings.trusted.trusts(from)) return from.toString()
  return clientAddress(
    from,
    forwardedHops(settings.header, headerValue),
    settings.trusted,
  ).toString()
}
