export { parseAllowList, type AllowList } from './allow-list.js'
export { cidrsContain, CidrError, parseCidr, type Cidr } from './cidr.js'
export {
  AllowListError,
  OutboundFailed,
  OutboundRefused,
  type FailureCode,
  type RefusalCode,
} from './errors.js'
export {
  createSafeFetch,
  DEFAULT_MAX_SOCKETS,
  DEFAULT_TIMEOUT_MS,
  type SafeFetch,
  type SafeFetchClient,
  type SafeFetchOptions,
  type SafeRequest,
} from './fetch.js'
export { checkUrl, type GuardOptions } from './guard.js'
export type { RedirectPolicy } from './redirect.js'
export { dnsResolver, systemResolver, type ResolvedAddress, type Resolver } from './resolve.js'
export type { SafeResponse } from './response.js'
