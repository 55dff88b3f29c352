import parseForwarded from 'forwarded-parse'
import { nodeAddress, type IpAddress } from './address.js'

/** The header a trusted proxy writes its client's address in (`SVC_HUB_CLIENT_ADDRESS_HEADER`). */
export type ClientAddressHeader = 'x-forwarded-for' | 'forwarded' | 'x-real-ip'

export const CLIENT_ADDRESS_HEADERS: readonly ClientAddressHeader[] = [
  'x-forwarded-for',
  'forwarded',
  'x-real-ip',
]

/**
 * The headers that say a request came through a proxy. A request with any of them never gets
 * what the hub allows only its own machine (local trial), whoever sent it.
 */
export const FORWARDING_HEADERS: readonly string[] = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
]

/** One hop of a forwarding chain: its address, or undefined when it names none (`unknown`, `_hidden`). */
export type Hop = IpAddress | undefined

/**
 * The client addresses a forwarding header lists, nearest the client first, as each proxy
 * appended its own client (RFC 7239 §5.2; `X-Forwarded-For: client, proxy1, proxy2`). Repeated
 * headers arrive joined with `, `, in order. A `Forwarded` value that does not parse as a whole
 * gives no hop: none of it can be told apart from what a client made up.
 *
 * @example
 * forwardedHops('forwarded', 'for=192.0.2.60;proto=https, for="[2001:db8::17]:4711"')
 * // [192.0.2.60, 2001:db8::17]
 */
export function forwardedHops(header: ClientAddressHeader, value: string): Hop[] {
  if (header !== 'forwarded') return value.split(',').map(nodeAddress)
  let elements: Record<string, string>[]
  try {
    elements = parseForwarded(value)
  } catch {
    return []
  }
  return elements.map((element) =>
    element.for === undefined ? undefined : nodeAddress(element.for),
  )
}
