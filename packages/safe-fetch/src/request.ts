import type { IncomingMessage } from 'node:http'
import * as http from 'node:http'
import * as https from 'node:https'
import type { LookupFunction } from 'node:net'
import type { Deadline } from './deadline.js'
import { OutboundFailed } from './errors.js'
import type { Destination } from './guard.js'
import type { ResolvedAddress } from './resolve.js'

/** The request sent to one hop; a followed redirect may change it. */
export type Hop = {
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array | undefined
}

export type Agents = { readonly http: http.Agent; readonly https: https.Agent }

/** Sends `hop` to the checked `destination` and resolves with the response head. */
export async function send(
  destination: Destination,
  hop: Hop,
  agents: Agents,
  deadline: Deadline,
): Promise<IncomingMessage> {
  try {
    return await sendOnce(destination, hop, agents, deadline)
  } catch (error) {
    // A kept-alive socket the server closed while idle fails the next write; Node's advice is to
    // retry such a request once, on a fresh socket. Nothing was answered on it.
    if (!(error instanceof StaleSocket)) throw error
    return sendOnce(destination, hop, agents, deadline).catch((again: unknown) => {
      throw again instanceof StaleSocket ? networkFailure(destination.url.href, again.cause) : again
    })
  }
}

class StaleSocket extends Error {}

function sendOnce(
  { url, name, addresses }: Destination,
  hop: Hop,
  agents: Agents,
  deadline: Deadline,
): Promise<IncomingMessage> {
  const early = deadline.failure(url.href)
  if (early) return Promise.reject(early)
  const secure = url.protocol === 'https:'
  const headers: Record<string, string> = {}
  for (const key in hop.headers) {
    if (Object.hasOwn(hop.headers, key) && key.toLowerCase() !== 'host') {
      headers[key] = hop.headers[key] as string
    }
  }
  headers.host = url.host
  const options: https.RequestOptions = {
    agent: secure ? agents.https : agents.http,
    // A name is connected through `lookup` to the addresses checked for it, so TLS still verifies
    // the certificate against the name; a literal is connected directly (Node skips lookup).
    host: name ?? addresses[0].address,
    port: url.port || (secure ? 443 : 80),
    path: url.pathname + url.search,
    method: hop.method,
    headers,
    joinDuplicateHeaders: true,
  }
  if (name !== undefined) {
    options.lookup = checkedLookup(addresses)
    if (secure) options.servername = name
  }
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = (secure ? https : http).request(options)
    const onAbort = () => {
      reject(deadline.failure(url.href))
      request.destroy()
    }
    deadline.onInterrupt(onAbort)
    const settle = () => deadline.offInterrupt(onAbort)
    request.once('response', (response) => {
      settle()
      // Body errors are read from `errored` on close; an unheard 'error' event would crash.
      response.on('error', () => {})
      resolve(response)
    })
    // `on`, not `once`: a socket can fail again after the first error, and the promise is settled.
    request.on('error', (error: NodeJS.ErrnoException) => {
      settle()
      const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')
      reject(stale ? new StaleSocket('stale socket', { cause: error }) : failure(url.href, error))
    })
    request.end(hop.body)
  })
}

function checkedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return function checkedLookup(_hostname, options, callback) {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined
    const usable = family ? addresses.filter((a) => a.family === family) : addresses
    const [first] = usable
    // Asynchronous like a real lookup: net expects its callback after connect() returned.
    process.nextTick(() => {
      if (first === undefined) {
        const error: NodeJS.ErrnoException = new Error(`no IPv${family} address was checked`)
        error.code = 'ENOTFOUND'
        callback(error, '')
      } else if (options.all) {
        const all = usable.map(({ address, family }) => ({ address, family }))
        callback(null, all)
      } else {
        callback(null, first.address, first.family)
      }
    })
  }
}

function failure(url: string, error: NodeJS.ErrnoException): OutboundFailed {
  if (error.code === 'ETIMEDOUT') {
    const message = `connecting timed out: ${error.message}`
    return new OutboundFailed('timeout', url, message, { cause: error })
  }
  return networkFailure(url, error)
}

function networkFailure(url: string, cause: unknown): OutboundFailed {
  const message = cause instanceof Error ? cause.message : String(cause)
  return new OutboundFailed('network', url, `no answer from ${url}: ${message}`, { cause })
}
