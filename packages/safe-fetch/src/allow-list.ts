import { addressRange, type IpAddress } from './address.js'
import { cidrsContain, CidrError, parseCidr, type Cidr } from './cidr.js'
import { AllowListError } from './errors.js'
import { originKey, parseHost } from './hostname.js'

/**
 * The operator's exceptions to the guard, parsed from `SVC_HUB_ALLOW_PRIVATE_NETWORKS`: CIDRs
 * admit addresses (literal or resolved), exact origins admit one scheme + host + port whatever
 * it resolves to. Build it with {@link parseAllowList}.
 */
export class AllowList {
  readonly #cidrs: readonly Cidr[]
  readonly #origins: ReadonlySet<string>
  readonly #loopback: boolean

  /** @internal */
  constructor(cidrs: readonly Cidr[], origins: ReadonlySet<string>, loopback = false) {
    this.#cidrs = cidrs
    this.#origins = origins
    this.#loopback = loopback
  }

  /** Whether this list admits loopback targets ({@link withLoopback}). */
  get loopback(): boolean {
    return this.#loopback
  }

  /**
   * This list, and the loopback targets a URL names besides: addresses ipaddr.js classes as
   * `loopback` (`127.0.0.0/8`, `::1`) and the names `localhost` and `*.localhost`, which are then
   * resolved and must resolve to addresses the list admits. Not any other name that resolves to
   * loopback, and not a redirect from a URL that does not name loopback (the fetch narrows the
   * list for the hops after such a URL): whoever may give URLs but not name loopback cannot reach
   * it through DNS or a server of theirs. Other private ranges stay refused.
   */
  withLoopback(): AllowList {
    return new AllowList(this.#cidrs, this.#origins, true)
  }

  /**
   * This list without the loopback targets {@link withLoopback} added (the operator's own CIDRs
   * and origins stay): for a request that a local trial must not serve as its own machine's.
   */
  withoutLoopback(): AllowList {
    return this.#loopback ? new AllowList(this.#cidrs, this.#origins) : this
  }

  /**
   * @internal Whether a CIDR entry contains `address`, or it is loopback and loopback is admitted:
   * as a literal (no `name`), or as what the loopback name `name` resolved to.
   */
  admitsAddress(address: IpAddress, name?: string): boolean {
    const loopbackNamed = name === undefined || isLoopbackName(name)
    if (this.#loopback && loopbackNamed && addressRange(address) === 'loopback') return true
    return cidrsContain(this.#cidrs, address)
  }

  /** @internal Whether the reserved `name` may be resolved: a loopback name when loopback is admitted. */
  admitsName(name: string): boolean {
    return this.#loopback && isLoopbackName(name)
  }

  /** @internal Whether an exact-origin entry names the origin of `url`. */
  admitsOrigin(url: URL): boolean {
    if (this.#origins.size === 0) return false
    const host = parseHost(url.hostname)
    return host !== undefined && this.#origins.has(originKey(url.protocol, host, url.port))
  }

  toString(): string {
    const cidrs = this.#cidrs.map(([network, bits]) => `${network.toString()}/${bits}`)
    return [...cidrs, ...this.#origins, ...(this.#loopback ? ['loopback'] : [])].join(',')
  }
}

/** @internal `localhost` or a name under it (RFC 6761): a loopback target by its name. */
export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost')
}

export const EMPTY_ALLOW_LIST = new AllowList([], new Set())

/**
 * Parses a comma-separated allow-list such as `127.0.0.1/32,::1/128,http://localhost:8080`.
 * A bare address is a single-address CIDR. Blank entries are ignored; `''` and `undefined` give
 * the empty list.
 *
 * @throws AllowListError naming the first entry that is neither a CIDR nor an exact origin.
 * @example
 * const allow = parseAllowList(process.env.SVC_HUB_ALLOW_PRIVATE_NETWORKS)
 */
export function parseAllowList(text: string | undefined): AllowList {
  const cidrs: Cidr[] = []
  const origins = new Set<string>()
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim()
    if (entry === '') continue
    if (entry.includes('://')) origins.add(parseOrigin(entry))
    else cidrs.push(allowedCidr(entry))
  }
  return cidrs.length === 0 && origins.size === 0 ? EMPTY_ALLOW_LIST : new AllowList(cidrs, origins)
}

function parseOrigin(entry: string): string {
  let url: URL
  try {
    url = new URL(entry)
  } catch {
    throw new AllowListError(entry, 'not a valid URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AllowListError(entry, 'an origin must be http: or https:')
  }
  if (url.username !== '' || url.password !== '') {
    throw new AllowListError(entry, 'an origin has no credentials')
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]$/.test(entry)) {
    throw new AllowListError(entry, 'an origin is scheme://host[:port] with no path')
  }
  const host = parseHost(url.hostname)
  if (!host) throw new AllowListError(entry, 'no hostname')
  return originKey(url.protocol, host, url.port)
}

function allowedCidr(entry: string): Cidr {
  try {
    return parseCidr(entry)
  } catch (error) {
    if (!(error instanceof CidrError)) throw error
    throw new AllowListError(
      entry,
      error.problem === 'form'
        ? 'expected a CIDR such as 10.0.0.0/8 or fd00::/8, or an origin'
        : error.message,
    )
  }
}
