import { isEnvelope, PushEnvelopeSchema } from './push-envelope.js'

/** What a push body sent as `application/json` is. */
export type PushJson =
  | { readonly kind: 'malformed'; readonly reason: string }
  /** A raw document: its bytes are what is stored. */
  | { readonly kind: 'raw' }
  /** An envelope that breaks its schema: each issue with its `json.…` path. */
  | { readonly kind: 'invalid'; readonly issues: { path: string; message: string }[] }
  | {
      readonly kind: 'envelope'
      /** The envelope's `document` in UTF-8: what is stored and hashed. */
      readonly bytes: Uint8Array
      /**
       * The document itself, only when its UTF-8 does not decode back to it: it has lone
       * surrogates (which UTF-8 replaces) or starts with a BOM (which decoding drops).
       */
      readonly text?: string
      readonly version: string | null
      readonly publishedAt: string | null
    }

/**
 * Reads a push body sent as `application/json` (valid UTF-8): parses it, and when it is an
 * envelope checks it and encodes its document. Pure and synchronous, for a worker thread
 * (offload/worker.ts): a 28 MB body takes the better part of a second to parse and encode.
 */
export function readPushJson(body: Uint8Array): PushJson {
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder().decode(body))
  } catch (error) {
    return { kind: 'malformed', reason: error instanceof Error ? error.message : String(error) }
  }
  if (!isEnvelope(value)) return { kind: 'raw' }
  const envelope = PushEnvelopeSchema.safeParse(value)
  if (!envelope.success) {
    return {
      kind: 'invalid',
      issues: envelope.error.issues.map((issue) => ({
        path: ['json', ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    }
  }
  const { document, version, publishedAt } = envelope.data
  return {
    kind: 'envelope',
    bytes: new TextEncoder().encode(document),
    ...(document.startsWith('\ufeff') || LONE_SURROGATE.test(document) ? { text: document } : {}),
    version: version ?? null,
    publishedAt: publishedAt ?? null,
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
