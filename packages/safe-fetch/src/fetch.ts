import * as http from 'node:http'
import * as https from 'node:https'
import { EMPTY_ALLOW_LIST, isLoopbackName, type AllowList } from './allow-list.js'
import { Deadline } from './deadline.js'
import { afterRedirects } from './errors.js'
import { addressRange, parseAddress } from './address.js'
import { inspectUrl, resolveDestination, type CheckedUrl, type GuardOptions } from './guard.js'
import { NO_REDIRECTS, redirectHop, type RedirectPolicy } from './redirect.js'
import { send, type Agents, type Hop } from './request.js'
import { systemResolver } from './resolve.js'
import { discardBody, SafeResponseImpl, type SafeResponse } from './response.js'
import { UrlVerdicts } from './url-verdicts.js'

export type SafeRequest = {
  /** Default GET. */
  method?: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** Default 10_000: one deadline for the whole exchange, every hop and reading the body included. */
  timeoutMs?: number
  /** Default `{ follow: 'none' }`. */
  redirects?: RedirectPolicy
  signal?: AbortSignal
  /**
   * The allow-list of this request (every hop) instead of the client's: a caller that serves
   * requests of several kinds narrows it for some (a hub's local trial admits loopback targets
   * only for requests from its own machine).
   */
  allow?: AllowList
}

export type SafeFetch = (url: string | URL, request?: SafeRequest) => Promise<SafeResponse>

/** A {@link SafeFetch} that owns keep-alive agents: `close()` destroys their sockets. */
export type SafeFetchClient = SafeFetch & { close(): void }

export type SafeFetchOptions = GuardOptions & {
  /** Sockets per origin and agent; default 256. */
  maxSockets?: number
  /** Certificate authorities trusted for https instead of Node's bundle (private CAs, tests). */
  ca?: string | Buffer | Array<string | Buffer>
}

export const DEFAULT_TIMEOUT_MS = 10_000
export const DEFAULT_MAX_SOCKETS = 256
// Below the 5 s keep-alive of Node servers, so an idle socket is dropped here before the receiver
// closes it under a new request. Node also honours a shorter `Keep-Alive: timeout` hint.
const IDLE_SOCKET_MS = 4_000

/**
 * A guarded client: every hop is checked (scheme, hostname, literal and resolved addresses,
 * allow-list) before anything is sent, and connected to the addresses that were checked.
 * Keep-alive agents (one http, one https) are reused across calls; `close()` destroys them.
 *
 * @example
 * const fetch = createSafeFetch({ allow: parseAllowList(process.env.SVC_HUB_ALLOW_PRIVATE_NETWORKS) })
 * const response = await fetch(url, { method: 'POST', body, redirects: { follow: 'same-request', max: 3 } })
 */
export function createSafeFetch(options: SafeFetchOptions = {}): SafeFetchClient {
  const allow = options.allow ?? EMPTY_ALLOW_LIST
  const resolve = options.resolve ?? systemResolver
  const maxSockets = options.maxSockets ?? DEFAULT_MAX_SOCKETS
  const agentOptions = { keepAlive: true, maxSockets, timeout: IDLE_SOCKET_MS }
  const agents: Agents = {
    http: new http.Agent(agentOptions),
    https: new https.Agent({ ...agentOptions, ...(options.ca ? { ca: options.ca } : {}) }),
  }
  const verdicts = new UrlVerdicts(allow)
  let closed = false

  async function safeFetch(input: string | URL, request: SafeRequest = {}): Promise<SafeResponse> {
    if (closed) throw new Error('this safe-fetch client is closed')
    const policy = request.redirects ?? NO_REDIRECTS
    validate(request.timeoutMs, policy)
    let hopAllow = request.allow ?? allow
    let checked = request.allow ? inspectUrl(input, request.allow) : verdicts.inspect(input)
    let hop: Hop = {
      method: (request.method ?? 'GET').toUpperCase(),
      headers: request.headers ?? {},
      body: request.body,
    }
    // The redirect locations sent to: a hop refused before it was sent is not one of them.
    const redirects: string[] = []
    let following: string | undefined
    const deadline = new Deadline(request.timeoutMs ?? DEFAULT_TIMEOUT_MS, request.signal)
    try {
      for (;;) {
        const href = checked.url.href
        const destination = await deadline.race(
          resolveDestination(checked, { allow: hopAllow, resolve }),
          href,
        )
        if (following !== undefined) redirects.push(following)
        const message = await send(destination, hop, agents, deadline)
        const answer = { status: message.statusCode ?? 0, location: message.headers.location }
        let next
        try {
          next = redirectHop(policy, answer, { url: checked.url, hop, followed: redirects.length })
        } catch (refusal) {
          void discardBody(message)
          throw refusal
        }
        if (!next) return new SafeResponseImpl(message, href, redirects, deadline)
        // Before the next hop, so a same-origin hop can take the freed socket.
        await discardBody(message)
        // Loopback is admitted as a target a URL names, never as where another server sends us.
        if (!namesLoopback(checked)) hopAllow = hopAllow.withoutLoopback()
        following = next.url.href
        checked = inspectUrl(next.url, hopAllow)
        hop = next.hop
      }
    } catch (error) {
      deadline.end()
      throw afterRedirects(error, redirects)
    }
  }

  return Object.assign(safeFetch, {
    close() {
      closed = true
      agents.http.destroy()
      agents.https.destroy()
    },
  })
}

/** Whether the URL of a hop names loopback: a loopback address, `localhost` or `*.localhost`. */
function namesLoopback(checked: CheckedUrl): boolean {
  if (checked.kind === 'name') return isLoopbackName(checked.name)
  const address = parseAddress(checked.address.address)
  return address !== undefined && addressRange(address) === 'loopback'
}

function validate(timeoutMs: number | undefined, policy: RedirectPolicy): void {
  if (timeoutMs !== undefined && !(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) {
    throw new RangeError(`timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`)
  }
  if (policy.follow !== 'none' && !(Number.isSafeInteger(policy.max) && policy.max >= 0)) {
    throw new RangeError(`redirects.max must be a non-negative integer, not ${policy.max}`)
  }
}
