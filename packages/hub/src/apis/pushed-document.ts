import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Protocol } from '@svc/engine'
import { ApiError, invalidRequest } from '../errors/index.js'
import { readLimitedBody } from '../http/limited-body.js'
import { digestInSlices, TextDigest } from '../http/text-digest.js'
import { offload } from '../offload/pool.js'

export { DOCUMENT_BODY, PublishedAt, PushEnvelopeSchema, VersionLabel } from './push-envelope.js'

/** The media types a document may be pushed as, raw, and the protocol each one is read as. */
export const DOCUMENT_MEDIA_TYPES: Readonly<Record<string, Protocol>> = {
  'application/json': 'oas',
  'application/yaml': 'oas',
  'application/x-yaml': 'oas',
  'text/yaml': 'oas',
  'application/graphql': 'gql',
}

/** A pushed document as the hub stores it, with what the push says about it. */
export type PushedDocument = {
  /** The bytes stored and hashed: the raw body, or the envelope's `document` in UTF-8. */
  readonly bytes: Buffer
  /** The SHA-256 (hex) of `bytes`: the revision's content hash. */
  readonly sha256: string
  readonly text: string
  /** What the body said it is, for a raw push; an envelope's document is told by its content. */
  readonly mediaType: string | undefined
  readonly protocol: Protocol | undefined
  readonly version: string | null
  readonly publishedAt: string | null
}

/**
 * Reads a push body of at most `maxBytes`: a raw document (its Content-Type one of
 * {@link DOCUMENT_MEDIA_TYPES}, labels from the query) or, as `application/json`, an envelope.
 * A JSON body is the envelope when its top level is an object with a `document` key and no
 * `openapi` or `swagger` key.
 *
 * A large body never holds the event loop for long: it is hashed and decoded chunk by chunk as
 * it arrives, a JSON body is parsed (and an envelope's document encoded) in a worker thread, and
 * an envelope's document is hashed and decoded a slice at a time.
 */
export async function readPushedDocument(
  request: Request,
  query: { version?: string | undefined; publishedAt?: string | undefined },
  maxBytes: number,
): Promise<PushedDocument> {
  const mediaType = documentMediaType(request.headers.get('content-type'))
  const digest = new TextDigest()
  const body = await readLimitedBody(request, maxBytes, (chunk) => digest.update(chunk))
  if (!body || body.byteLength === 0) {
    throw new ApiError(
      'malformed_request',
      'The request has no body: send the document, or a JSON envelope {"document": …}.',
    )
  }
  // Joining the text and copying the body to the worker take a few tens of milliseconds each
  // for a large document: the event loop is served before each.
  await nextTurn()
  const { sha256, text } = digest.digest()
  if (text === undefined) throw notUtf8()
  const labels = { version: query.version ?? null, publishedAt: query.publishedAt ?? null }
  const raw = { bytes: body, sha256, text, mediaType, protocol: DOCUMENT_MEDIA_TYPES[mediaType] }
  if (mediaType !== 'application/json') return { ...raw, ...labels }

  await nextTurn()
  const read = await offload('pushJson', body)
  if (read.kind === 'malformed') {
    throw new ApiError('malformed_request', `The body is not valid JSON: ${read.reason}.`)
  }
  if (read.kind === 'raw') return { ...raw, ...labels }
  if (read.kind === 'invalid') throw invalidRequest(read.issues)
  const given = (['version', 'publishedAt'] as const).filter((key) => query[key] !== undefined)
  if (given.length > 0) {
    throw invalidRequest(
      given.map((key) => ({
        path: `query.${key}`,
        message: `is for raw pushes; give ${key} in the envelope instead`,
      })),
    )
  }
  const document = await digestInSlices(read.bytes)
  const documentText = read.text ?? document.text
  if (documentText === undefined) throw notUtf8()
  return {
    bytes: Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength),
    sha256: document.sha256,
    text: documentText,
    mediaType: undefined,
    protocol: undefined,
    version: read.version,
    publishedAt: read.publishedAt,
  }
}

/**
 * A document the hub fetched from an API's `sourceUrl`: its Content-Type is kept when it is one
 * of {@link DOCUMENT_MEDIA_TYPES}; otherwise (`text/plain`, `application/octet-stream` …) the
 * content tells what it is. Hashed and decoded a slice at a time, as a push is.
 */
export async function fetchedDocument(
  bytes: Buffer,
  contentType: string | undefined,
): Promise<PushedDocument> {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  const known = Object.hasOwn(DOCUMENT_MEDIA_TYPES, essence)
  const { sha256, text } = await digestInSlices(bytes)
  if (text === undefined) throw notUtf8()
  return {
    bytes,
    sha256,
    text,
    mediaType: known ? essence : undefined,
    protocol: known ? DOCUMENT_MEDIA_TYPES[essence] : undefined,
    version: null,
    publishedAt: null,
  }
}

/** The essence of a Content-Type that may carry a document, or 415. */
function documentMediaType(header: string | null): string {
  const [essence = '', ...parameters] = (header ?? '').split(';').map((p) => p.trim())
  const type = essence.toLowerCase()
  if (!Object.hasOwn(DOCUMENT_MEDIA_TYPES, type)) {
    throw new ApiError(
      'unsupported_media_type',
      `A revision is pushed as ${Object.keys(DOCUMENT_MEDIA_TYPES).join(', ')}; got '${essence || 'no Content-Type'}'.`,
      { supported: Object.keys(DOCUMENT_MEDIA_TYPES) },
    )
  }
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=').map((p) => p.trim().toLowerCase())
    if (name === 'charset' && !['utf-8', 'utf8', '"utf-8"'].includes(value)) {
      throw new ApiError(
        'unsupported_media_type',
        `Documents are read as UTF-8; got charset '${value}'.`,
        { supported: Object.keys(DOCUMENT_MEDIA_TYPES) },
      )
    }
  }
  return type
}

function notUtf8(): ApiError {
  return new ApiError('invalid_document', 'The document is not valid UTF-8 text.', {
    reason: 'invalid_encoding',
  })
}
