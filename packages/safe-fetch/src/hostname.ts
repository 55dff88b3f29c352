import { parseAddress, type IpAddress } from './address.js'

/** What a URL's hostname names once normalised: an address literal or a domain name. */
export type Host =
  | { readonly kind: 'address'; readonly address: IpAddress }
  | { readonly kind: 'name'; readonly name: string }

/**
 * Normalises a WHATWG `URL.hostname`: drops IPv6 brackets and trailing dots (the URL parser keeps
 * `localhost.`, and `127.0.0.1..` stays a "domain" that a resolver still reads as an address), then
 * tells address literals from names. Undefined for a hostname that is only dots.
 */
export function parseHost(hostname: string): Host | undefined {
  const trimmed = hostname.replace(/\.+$/, '')
  if (trimmed === '') return undefined
  const address = parseAddress(trimmed)
  if (address) return { kind: 'address', address }
  return { kind: 'name', name: trimmed.toLowerCase() }
}

// Names that only mean something inside a host or a private network: RFC 6761 `localhost`,
// RFC 6762 mDNS `.local`, and `.internal` (cloud metadata such as metadata.google.internal).
const RESERVED_SUFFIXES = ['localhost', 'local', 'internal']

/** Whether `name` (normalised, no trailing dot) is a reserved name the guard never resolves. */
export function isReservedName(name: string): boolean {
  return RESERVED_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))
}

/** `host:port` with the scheme's default port filled in, the key exact-origin entries compare. */
export function originKey(protocol: string, host: Host, port: string): string {
  const hostText =
    host.kind === 'name'
      ? host.name
      : host.address.kind() === 'ipv6'
        ? `[${host.address.toString()}]`
        : host.address.toString()
  return `${protocol}//${hostText}:${port || (protocol === 'https:' ? '443' : '80')}`
}
