/**
 * @module
 * The client of a request behind reverse proxies: which peers may say who their client is
 * (`SVC_HUB_TRUSTED_PROXIES`), the address that every budget, throttle and log line counts, and
 * whether a request came straight from this machine (docs/hub/running.md, "Behind a reverse
 * proxy"). `config.ts` reads the settings from `./settings.js` directly, as it does the other
 * areas' settings.
 */
export { clientAddress, resolveClientAddress, type ProxySettings } from './client-address.js'
export {
  CLIENT_ADDRESS_HEADERS,
  FORWARDING_HEADERS,
  forwardedHops,
  type ClientAddressHeader,
} from './forwarded-hops.js'
export {
  IN_PROCESS_CLIENT,
  requestClient,
  type InProcessClientEnv,
  type RequestClient,
} from './request-client.js'
export { readProxySettings } from './settings.js'
export { parseTrustedProxies, TrustedProxies, TrustedProxiesError } from './trusted-proxies.js'
