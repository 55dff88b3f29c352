import { OutboundRefused } from './errors.js'
import type { Hop } from './request.js'

export type RedirectPolicy =
  /** 3xx is returned as is. */
  | { readonly follow: 'none' }
  /** Only 307/308 are followed, with the same method, headers and body; other 3xx are returned. */
  | { readonly follow: 'same-request'; readonly max: number }
  /** 301/302/303 continue as GET without a body, 307/308 as the same request. */
  | { readonly follow: 'fetch'; readonly max: number }

export const NO_REDIRECTS: RedirectPolicy = { follow: 'none' }

/** The next hop of a redirect that `policy` follows, or undefined to return the response as is. */
export function redirectHop(
  policy: RedirectPolicy,
  answer: { readonly status: number; readonly location: string | undefined },
  current: { readonly url: URL; readonly hop: Hop; readonly followed: number },
): { readonly url: URL; readonly hop: Hop } | undefined {
  const { status, location } = answer
  const { url: from, hop, followed } = current
  if (policy.follow === 'none' || location === undefined) return undefined
  const sameRequest = status === 307 || status === 308
  const asGet = policy.follow === 'fetch' && (status === 301 || status === 302 || status === 303)
  if (!sameRequest && !asGet) return undefined
  let url: URL
  try {
    url = new URL(location, from)
  } catch {
    throw new OutboundRefused('invalid_url', location, `the redirect to ${location} is not a URL`)
  }
  if (followed >= policy.max) {
    throw new OutboundRefused('too_many_redirects', url.href, `more than ${policy.max} redirects`)
  }
  if (from.protocol === 'https:' && url.protocol === 'http:') {
    throw new OutboundRefused('downgrade', url.href, `a redirect from https: to ${url.href}`)
  }
  let next = asGet && hop.method !== 'HEAD' ? asGetHop(hop) : hop
  if (url.origin !== from.origin) next = withoutCredentials(next)
  return { url, hop: next }
}

// What fetch() drops when a redirect turns the request into a GET without a body.
const BODY_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
  'transfer-encoding',
])

// What fetch() drops on a redirect to another origin: credentials meant for the first one.
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie'])

function asGetHop(hop: Hop): Hop {
  return { method: 'GET', headers: without(hop.headers, BODY_HEADERS), body: undefined }
}

function withoutCredentials(hop: Hop): Hop {
  return { ...hop, headers: without(hop.headers, CREDENTIAL_HEADERS) }
}

function without(headers: Hop['headers'], names: ReadonlySet<string>): Hop['headers'] {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())),
  )
}
