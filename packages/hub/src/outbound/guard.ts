import { checkUrl, OutboundRefused, type AllowList } from '@svc/safe-fetch'
import type { Logger } from 'pino'
import type { HubConfig } from '../config.js'
import { ApiError } from '../errors/index.js'

/** Which targets the outbound guard admits, said once at start (docs/hub/running.md). */
export function logOutboundMode(config: HubConfig, log: Logger): void {
  const allow = config.allowPrivateNetworks.toString() || 'none'
  log.info({ mode: config.outboundMode, allow }, 'outbound guard')
}

/**
 * `url` as the guard normalises it, checked now (scheme, name, literal address) so that a
 * target the hub would never send to is refused when it is given, not at the first attempt;
 * DNS is checked at every request. 422 `url_refused` otherwise.
 */
export function outboundUrl(url: string, allow: AllowList, field: string): string {
  try {
    return checkUrl(url, { allow }).href
  } catch (error) {
    if (error instanceof OutboundRefused) throw refused(error, field)
    throw error
  }
}

/** 422 `url_refused` for what the guard refused; `details.reason` is its code. */
export function refused(error: OutboundRefused, field: string): ApiError {
  return new ApiError(
    'url_refused',
    `The hub does not send requests to ${field}: ${refusalReason(error)}.`,
    { reason: error.code, field },
  )
}

/**
 * The guard's reason, and for a private target the setting that would admit it: an operator who
 * meant the hub to reach it learns the variable there and then, not from the docs.
 */
export function refusalReason(error: OutboundRefused): string {
  const reason = error.message.replace(/\.$/, '')
  const entry = allowEntry(error)
  if (entry === undefined) return reason
  return `${reason}; a hub that should reach it sets SVC_HUB_ALLOW_PRIVATE_NETWORKS=${entry} (docs/hub/running.md)`
}

/** The narrowest allow-list entry that admits the refused target: its address, or its origin. */
function allowEntry(error: OutboundRefused): string | undefined {
  let url: URL
  try {
    url = new URL(error.url)
  } catch {
    return undefined
  }
  if (error.code === 'private_address') {
    const address = url.hostname.replace(/^\[(.*)\]$/, '$1')
    return address.includes(':') ? `${address}/128` : `${address}/32`
  }
  if (error.code === 'reserved_hostname' || error.code === 'private_dns') return url.origin
  return undefined
}
