import { ConfigError } from '../config-error.js'
import type { ProxySettings } from './client-address.js'
import { CLIENT_ADDRESS_HEADERS, type ClientAddressHeader } from './forwarded-hops.js'
import { parseTrustedProxies, TrustedProxiesError } from './trusted-proxies.js'

export type { ProxySettings }

/**
 * `SVC_HUB_TRUSTED_PROXIES` (default: none) and `SVC_HUB_CLIENT_ADDRESS_HEADER` (default
 * `x-forwarded-for`), as docs/hub/running.md describes them.
 *
 * @throws ConfigError for an entry or a header name the hub does not know.
 * @example
 * readProxySettings({ SVC_HUB_TRUSTED_PROXIES: 'loopback' }).trusted.toString() // 'loopback'
 */
export function readProxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  let trusted
  try {
    trusted = parseTrustedProxies(env.SVC_HUB_TRUSTED_PROXIES)
  } catch (error) {
    if (!(error instanceof TrustedProxiesError)) throw error
    throw new ConfigError(`SVC_HUB_TRUSTED_PROXIES: ${error.message}`)
  }
  return { trusted, header: header(env.SVC_HUB_CLIENT_ADDRESS_HEADER) }
}

function header(raw: string | undefined): ClientAddressHeader {
  if (raw === undefined || raw.trim() === '') return 'x-forwarded-for'
  const name = raw.trim().toLowerCase()
  const known = CLIENT_ADDRESS_HEADERS.find((h) => h === name)
  if (known) return known
  throw new ConfigError(
    `SVC_HUB_CLIENT_ADDRESS_HEADER must be one of ${CLIENT_ADDRESS_HEADERS.join(', ')}, got '${raw}'`,
  )
}
