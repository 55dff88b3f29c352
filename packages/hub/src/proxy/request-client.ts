import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import { nodeAddress } from './address.js'
import { resolveClientAddress, type ProxySettings } from './client-address.js'
import { FORWARDING_HEADERS } from './forwarded-hops.js'

/** Who sent a request, as every budget, throttle and log line of the hub sees it. */
export type RequestClient = {
  /**
   * The client's address: the one trusted proxies forwarded (docs/hub/running.md), else the
   * socket's peer; `unknown` for an in-process request that was given none.
   */
  readonly address: string
  /**
   * Whether the request came straight from this machine: the peer is loopback, it carries no
   * forwarding header, and its `Host` is a loopback name. Only then does a local trial admit
   * loopback targets for it.
   */
  readonly local: boolean
}

/** Where the web app's in-process calls to `/v1` carry the client of the page request. */
export const IN_PROCESS_CLIENT = Symbol('svc.inProcessClient')

export type InProcessClientEnv = { readonly [IN_PROCESS_CLIENT]?: RequestClient }

const NO_CLIENT: RequestClient = Object.freeze({ address: 'unknown', local: false })

/**
 * The client of the request `c`: the one its in-process caller passed on, else resolved from the
 * socket and the forwarding header `settings` name. Called once per request, by
 * `requestContext`, which keeps it in the `client` variable for everything after it.
 */
export function requestClient(c: Context, settings: ProxySettings): RequestClient {
  const env = c.env as InProcessClientEnv | undefined
  if (env && IN_PROCESS_CLIENT in env) return env[IN_PROCESS_CLIENT] ?? NO_CLIENT
  const peer = socketPeer(c)
  if (peer === undefined) return NO_CLIENT
  // Trusting nobody (the default), the peer is the client: no header is read on the hot path.
  const address = settings.trusted.none
    ? unmapped(peer)
    : resolveClientAddress(peer, c.req.header(settings.header), settings)
  let local: boolean | undefined
  return {
    address,
    // Asked only by what a local trial allows (outbound targets), so worked out then.
    get local() {
      return (local ??= isLoopback(peer) && isLoopbackHost(c.req.header('host')) && !forwarded(c))
    },
  }
}

/** The peer as written, an IPv4 client of a dual-stack socket (`::ffff:a.b.c.d`) as IPv4. */
function unmapped(peer: string): string {
  return peer.startsWith('::ffff:') && peer.includes('.') ? peer.slice(7) : peer
}

function socketPeer(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address
  } catch {
    // No socket: the app was called in-process without a client, as unit tests do.
    return undefined
  }
}

function forwarded(c: Context): boolean {
  return FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined)
}

function isLoopback(text: string): boolean {
  return nodeAddress(text)?.range() === 'loopback'
}

/** A `Host` header's name and optional port: `localhost:8080`, `[::1]:8080`, `127.0.0.1`. */
const HOST_HEADER = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+))(?::\d{1,5})?$/

/** `localhost`, `*.localhost` or a loopback address, with or without a port. */
function isLoopbackHost(host: string | undefined): boolean {
  const match = host === undefined ? null : HOST_HEADER.exec(host)
  if (!match) return false
  const name = (match[1] ?? match[2] ?? '').toLowerCase().replace(/\.$/, '')
  return name === 'localhost' || name.endsWith('.localhost') || isLoopback(name)
}
