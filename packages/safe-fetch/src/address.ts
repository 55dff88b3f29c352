import ipaddr from 'ipaddr.js'
import type { ResolvedAddress } from './resolve.js'

/** An IP address, with IPv4-mapped IPv6 (`::ffff:a.b.c.d`) already reduced to its IPv4 form. */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6

/**
 * Parses an address the way a resolver would read it: dotted quads, but also the decimal, hex,
 * octal and short IPv4 forms `inet_aton` accepts (`2130706433`, `0x7f.1`, `127.1`) and IPv6 with
 * or without brackets. Undefined when `text` is not an address.
 */
export function parseAddress(text: string): IpAddress | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (!ipaddr.isValid(bare)) return undefined
  return ipaddr.process(bare)
}

/**
 * The ipaddr.js range of `address` (`unicast`, `loopback`, `private`, `6to4` …), except that the
 * deprecated IPv4-compatible block `::/96` counts as `ipv4Compatible`: ipaddr.js calls it unicast,
 * but `::7f00:1` embeds 127.0.0.1 all the same.
 */
export function addressRange(address: IpAddress): string {
  const range = address.range()
  if (address instanceof ipaddr.IPv6 && range === 'unicast' && isIpv4Compatible(address)) {
    return 'ipv4Compatible'
  }
  return range
}

/** Whether `address` is a public unicast address, the only kind the guard connects to unasked. */
export function isPublicUnicast(address: IpAddress): boolean {
  return addressRange(address) === 'unicast'
}

/** The form handed to `net.connect`: IPv4 stays IPv4 even when it arrived IPv4-mapped. */
export function toResolved(address: IpAddress): ResolvedAddress {
  return address.kind() === 'ipv4'
    ? { address: address.toString(), family: 4 }
    : { address: address.toString(), family: 6 }
}

function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0)
}
