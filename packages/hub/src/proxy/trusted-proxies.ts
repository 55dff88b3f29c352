import ipaddr from 'ipaddr.js'
import type { IpAddress } from './address.js'
import { nodeAddress } from './address.js'

type Range = readonly [IpAddress, number]

/** Names a `SVC_HUB_TRUSTED_PROXIES` entry may use for a set of ranges. */
const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
}

/** An entry of `SVC_HUB_TRUSTED_PROXIES` that is none of its forms. */
export class TrustedProxiesError extends Error {
  override readonly name = 'TrustedProxiesError'
}

/**
 * The peers allowed to say who their client is (`SVC_HUB_TRUSTED_PROXIES`): CIDRs, single
 * addresses, and the keywords `loopback`, `private` and `linklocal`. Build it with
 * {@link parseTrustedProxies}.
 */
export class TrustedProxies {
  readonly #ranges: readonly Range[]
  readonly #text: string

  constructor(ranges: readonly Range[], text: string) {
    this.#ranges = ranges
    this.#text = text
  }

  /** Whether no peer is trusted (the default): forwarding headers are then never read. */
  get none(): boolean {
    return this.#ranges.length === 0
  }

  /** Whether `address` is one of the trusted proxies. */
  trusts(address: IpAddress): boolean {
    return this.#ranges.some(
      ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
    )
  }

  /** The entries as given, normalised (`none` for the empty list): for the start-up log line. */
  toString(): string {
    return this.#text || 'none'
  }
}

export const NO_TRUSTED_PROXIES = new TrustedProxies([], '')

/**
 * Parses a comma-separated list such as `loopback,10.1.0.0/16,2001:db8::7`. Blank entries are
 * ignored; `''` and `undefined` trust nobody.
 *
 * @throws TrustedProxiesError naming the first entry that is neither a CIDR, an address nor a
 * keyword.
 * @example
 * parseTrustedProxies('loopback,10.1.0.0/16').trusts(ipaddr.parse('10.1.2.3')) // true
 */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const ranges: Range[] = []
  const entries: string[] = []
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim().toLowerCase()
    if (entry === '') continue
    const keyword = KEYWORDS[entry]
    ranges.push(...(keyword ? keyword.map(range) : [entryRange(entry)]))
    entries.push(entry)
  }
  return ranges.length === 0 ? NO_TRUSTED_PROXIES : new TrustedProxies(ranges, entries.join(','))
}

function entryRange(entry: string): Range {
  if (!entry.includes('/')) {
    const address = nodeAddress(entry)
    if (!address || entry.startsWith('[')) throw invalid(entry)
    return [address, address.kind() === 'ipv4' ? 32 : 128]
  }
  const [network = '', bits = ''] = entry.split('/')
  const address = nodeAddress(network)
  if (!address || network.startsWith('[') || !/^\d{1,3}$/.test(bits) || !ipaddr.isValidCIDR(entry))
    throw invalid(entry)
  return range(entry)
}

/** A CIDR; one of IPv4-mapped IPv6 addresses is the IPv4 CIDR it stands for, as peers are. */
function range(cidr: string): Range {
  const [network, bits] = ipaddr.parseCIDR(cidr)
  if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && bits >= 96) {
    return [network.toIPv4Address(), bits - 96]
  }
  return [network, bits]
}

function invalid(entry: string): TrustedProxiesError {
  return new TrustedProxiesError(
    `'${entry}' is not an address, a CIDR (10.0.0.0/8, fd00::/8) nor one of loopback, private, linklocal`,
  )
}
