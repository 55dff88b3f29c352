import { createHash } from 'node:crypto'
import { OutboundFailed, OutboundRefused, type SafeFetch } from '@svc/safe-fetch'
import { StackError } from '../errors.js'

/** Limits of a source fetch (issue 7): one deadline, a body cap, and a redirect cap. */
export const SOURCE_LIMITS = Object.freeze({
  timeoutMs: 10_000,
  maxBytes: 20 * 1024 * 1024,
  maxRedirects: 5,
})

export type SourceLimits = { timeoutMs: number; maxBytes: number; maxRedirects: number }

/** What the response echoes of a fetched source. */
export type FetchedSource = {
  readonly text: string
  readonly url: string
  /** The URL that answered, after redirects. */
  readonly resolvedUrl: string
  /** `sha256:<hex>` of the bytes fetched. */
  readonly digest: string
}

/**
 * Fetches a source URL through the guard: every hop (at most 5 redirects, 301/302/303/307/308)
 * is checked before it is connected to, names are resolved and their addresses checked, and
 * the body is cut at the limit. Every failure is `source_fetch_failed` with the reason.
 */
export async function fetchSource(
  fetch: SafeFetch,
  url: string,
  limits: SourceLimits = SOURCE_LIMITS,
): Promise<FetchedSource> {
  try {
    const response = await fetch(url, {
      headers: {
        accept:
          'application/json, application/yaml, application/graphql, text/plain;q=0.9, */*;q=0.5',
      },
      timeoutMs: limits.timeoutMs,
      redirects: { follow: 'fetch', max: limits.maxRedirects },
    })
    if (response.status < 200 || response.status > 299) {
      await response.discard()
      throw new StackError('source_fetch_failed', `The source answered HTTP ${response.status}.`)
    }
    const bytes = await response.bytes(limits.maxBytes)
    return {
      text: new TextDecoder().decode(bytes),
      url,
      resolvedUrl: response.url,
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    }
  } catch (error) {
    if (error instanceof StackError) throw error
    if (error instanceof OutboundRefused || error instanceof OutboundFailed)
      throw new StackError('source_fetch_failed', `The source cannot be fetched: ${error.message}.`)
    throw error
  }
}
