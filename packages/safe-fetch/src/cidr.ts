import ipaddr from 'ipaddr.js'
import type { IpAddress } from './address.js'

/** A network: its address and prefix length; an IPv4-mapped IPv6 one in its IPv4 form. */
export type Cidr = readonly [IpAddress, number]

/** Why a text is no CIDR: not in its canonical form, or a prefix length out of range. */
export class CidrError extends Error {
  override readonly name = 'CidrError'
  constructor(
    readonly problem: 'form' | 'prefix',
    /** The longest prefix of the address's family (32 or 128). */
    readonly max: number,
  ) {
    super(problem === 'form' ? 'not a CIDR' : `the prefix length must be 0 to ${max}`)
  }
}

/**
 * Parses an operator's CIDR (`10.0.0.0/8`, `fd00::/8`), or one address as a single-address CIDR.
 * Only the canonical forms: `10.1/8`, `0x7f.0.0.1`, a zone (`%eth0`) or brackets in a config
 * entry are typos. An IPv4-mapped IPv6 network is its IPv4 one, as addresses are compared.
 *
 * @throws CidrError
 * @example
 * parseCidr('::ffff:10.0.0.0/104') // [10.0.0.0, 8]
 */
export function parseCidr(entry: string): Cidr {
  const [address = '', bitsText, ...rest] = entry.split('/')
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(address)
  if (rest.length > 0 || (!v4 && (!ipaddr.IPv6.isValid(address) || address.includes('%')))) {
    throw new CidrError('form', 128)
  }
  const network = ipaddr.parse(address)
  const max = v4 ? 32 : 128
  const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN
  if (!(bits >= 0 && bits <= max)) throw new CidrError('prefix', max)
  if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && bits >= 96) {
    return [network.toIPv4Address(), bits - 96]
  }
  return [network, bits]
}

/** Whether `address` is in one of `cidrs` (of its own family). */
export function cidrsContain(cidrs: readonly Cidr[], address: IpAddress): boolean {
  return cidrs.some(
    ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
  )
}
