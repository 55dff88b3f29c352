import { addressRange, isPublicUnicast, parseAddress, toResolved } from './address.js'
import { EMPTY_ALLOW_LIST, type AllowList } from './allow-list.js'
import { OutboundFailed, OutboundRefused } from './errors.js'
import { isReservedName, parseHost } from './hostname.js'
import type { ResolvedAddress, Resolver } from './resolve.js'

export type GuardOptions = { allow?: AllowList; resolve?: Resolver }

/** A URL that passed the synchronous checks, and what is left to check once it resolves. */
export type CheckedUrl =
  | { readonly kind: 'address'; readonly url: URL; readonly address: ResolvedAddress }
  /** `admitted`: an exact-origin entry admits it, so its addresses are not inspected. */
  | { readonly kind: 'name'; readonly url: URL; readonly name: string; readonly admitted: boolean }

/** Where one hop connects: the checked addresses, and the name TLS verifies (none for literals). */
export type Destination = {
  readonly url: URL
  readonly name: string | undefined
  readonly addresses: readonly [ResolvedAddress, ...ResolvedAddress[]]
}

/**
 * Synchronous check of a URL without DNS: scheme, hostname rules, literal addresses, allow-list.
 * Returns the parsed URL or throws OutboundRefused.
 *
 * @example
 * checkUrl('http://0x7f.1/') // throws OutboundRefused, code 'private_address'
 */
export function checkUrl(url: string | URL, options: GuardOptions = {}): URL {
  return inspectUrl(url, options.allow ?? EMPTY_ALLOW_LIST).url
}

/** @internal {@link checkUrl}, keeping what the asynchronous half needs. */
export function inspectUrl(input: string | URL, allow: AllowList): CheckedUrl {
  const text = String(input)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new OutboundRefused('invalid_url', text, `not a valid absolute URL: ${text}`)
  }
  const href = url.href
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefused(
      'unsupported_scheme',
      href,
      `only http: and https: are fetched, not ${url.protocol}`,
    )
  }
  // Like fetch(), no credentials in the URL: they would leak to every hop of a redirect chain.
  if (url.username !== '' || url.password !== '') {
    throw new OutboundRefused('invalid_url', href, 'a URL with credentials is not fetched')
  }
  const host = parseHost(url.hostname)
  if (!host) throw new OutboundRefused('invalid_url', href, `no hostname in ${href}`)
  const admitted = allow.admitsOrigin(url)
  if (host.kind === 'address') {
    if (!admitted && !isPublicUnicast(host.address) && !allow.admitsAddress(host.address)) {
      const range = addressRange(host.address)
      throw new OutboundRefused('private_address', href, `${host.address.toString()} is ${range}`)
    }
    return { kind: 'address', url, address: toResolved(host.address) }
  }
  if (!admitted && isReservedName(host.name) && !allow.admitsName(host.name)) {
    throw new OutboundRefused('reserved_hostname', href, `${host.name} is a reserved hostname`)
  }
  return { kind: 'name', url, name: host.name, admitted }
}

/**
 * Resolves a checked URL and refuses it when any address is not public unicast (and not in an
 * allow-listed CIDR): a name with one private record among public ones could be steered to it.
 */
export async function resolveDestination(
  checked: CheckedUrl,
  options: { allow: AllowList; resolve: Resolver },
): Promise<Destination> {
  if (checked.kind === 'address') {
    return { url: checked.url, name: undefined, addresses: [checked.address] }
  }
  const { url, name } = checked
  let found: ResolvedAddress[]
  try {
    found = await options.resolve(name)
  } catch (error) {
    throw new OutboundFailed('dns', url.href, `${name} does not resolve`, { cause: error })
  }
  const addresses: ResolvedAddress[] = []
  for (const { address: text } of found) {
    const address = parseAddress(text)
    if (!address) {
      throw new OutboundFailed('dns', url.href, `${name} resolved to ${JSON.stringify(text)}`)
    }
    if (
      !checked.admitted &&
      !isPublicUnicast(address) &&
      !options.allow.admitsAddress(address, name)
    ) {
      const range = addressRange(address)
      throw new OutboundRefused('private_dns', url.href, `${name} resolves to ${text} (${range})`)
    }
    addresses.push(toResolved(address))
  }
  const [first, ...rest] = addresses
  if (!first) throw new OutboundFailed('dns', url.href, `${name} resolved to no address`)
  return { url, name, addresses: [first, ...rest] }
}
