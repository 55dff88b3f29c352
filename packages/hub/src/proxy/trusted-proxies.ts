import { cidrsContain, CidrError, parseCidr, type Cidr } from '@svc/safe-fetch'
import type { IpAddress } from './address.js'

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
  readonly #ranges: readonly Cidr[]
  readonly #text: string

  constructor(ranges: readonly Cidr[], text: string) {
    this.#ranges = ranges
    this.#text = text
  }

  /** Whether no peer is trusted (the default): forwarding headers are then never read. */
  get none(): boolean {
    return this.#ranges.length === 0
  }

  /** Whether `address` is one of the trusted proxies. */
  trusts(address: IpAddress): boolean {
    return cidrsContain(this.#ranges, address)
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
  const ranges: Cidr[] = []
  const entries: string[] = []
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim().toLowerCase()
    if (entry === '') continue
    const keyword = KEYWORDS[entry]
    ranges.push(...(keyword ? keyword.map((cidr) => parseCidr(cidr)) : [entryCidr(entry)]))
    entries.push(entry)
  }
  return ranges.length === 0 ? NO_TRUSTED_PROXIES : new TrustedProxies(ranges, entries.join(','))
}

function entryCidr(entry: string): Cidr {
  try {
    return parseCidr(entry)
  } catch (error) {
    if (error instanceof CidrError) throw invalid(entry)
    throw error
  }
}

function invalid(entry: string): TrustedProxiesError {
  return new TrustedProxiesError(
    `'${entry}' is not an address, a CIDR (10.0.0.0/8, fd00::/8) nor one of loopback, private, linklocal`,
  )
}
