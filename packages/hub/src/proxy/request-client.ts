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
  const forwarded = settings.trusted.none ? undefined : c.req.header(settings.header)
  return {
    address: resolveClientAddress(peer, forwarded, settings),
    local: isLoopback(peer) && isLoopbackHost(c.req.header('host')) && !forwardingHeader(c),
  }
}

function socketPeer(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address
  } catch {
    // No socket: the app was called in-process without a client, as unit tests do.
    return undefined
  }
}

function forwardingHeader(c: Context): boolean {
  return FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined)
}

function isLoopback(text: string): boolean {
  return nodeAddress(text)?.range() === 'loopback'
}

/** `localhost`, `*.localhost`, a loopback address, with or without a port. */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false
  let name: string
  try {
    name = new URL(`http://${host}`).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
  } catch {
    return false
  }
  return name === 'localhost' || name.endsWith('.localhost') || isLoopback(name)
}
