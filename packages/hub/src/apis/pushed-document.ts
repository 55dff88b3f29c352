import { z } from '@hono/zod-openapi'
import type { Protocol } from '@svc/engine'
import { ApiError, invalidRequest } from '../errors/index.js'
import { readLimitedBody } from '../http/limited-body.js'

/** The media types a document may be pushed as, raw, and the protocol each one is read as. */
export const DOCUMENT_MEDIA_TYPES: Readonly<Record<string, Protocol>> = {
  'application/json': 'oas',
  'application/yaml': 'oas',
  'application/x-yaml': 'oas',
  'text/yaml': 'oas',
  'application/graphql': 'gql',
}

export const VersionLabel = z.string().min(1).max(100)
export const PublishedAt = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' })

/** `{document, version?, publishedAt?}`: a push as JSON, for clients that cannot send raw bodies. */
export const PushEnvelopeSchema = z
  .strictObject({
    document: z.string().openapi({ description: 'The whole document: JSON, YAML or GraphQL SDL' }),
    version: VersionLabel.optional(),
    publishedAt: PublishedAt.optional(),
  })
  .openapi('PushEnvelope')

/** A pushed document as the hub stores it, with what the push says about it. */
export type PushedDocument = {
  /** The bytes stored and hashed: the raw body, or the envelope's `document` in UTF-8. */
  readonly bytes: Buffer
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
 */
export async function readPushedDocument(
  request: Request,
  query: { version?: string | undefined; publishedAt?: string | undefined },
  maxBytes: number,
): Promise<PushedDocument> {
  const mediaType = documentMediaType(request.headers.get('content-type'))
  const body = await readLimitedBody(request, maxBytes)
  if (!body || body.byteLength === 0) {
    throw new ApiError(
      'malformed_request',
      'The request has no body: send the document, or a JSON envelope {"document": …}.',
    )
  }
  const text = utf8(body)
  const labels = { version: query.version ?? null, publishedAt: query.publishedAt ?? null }
  const raw = { bytes: body, text, mediaType, protocol: DOCUMENT_MEDIA_TYPES[mediaType], ...labels }
  if (mediaType !== 'application/json') return raw

  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ApiError('malformed_request', `The body is not valid JSON: ${reason}.`)
  }
  if (!isEnvelope(value)) return raw
  const envelope = PushEnvelopeSchema.safeParse(value)
  if (!envelope.success) {
    throw invalidRequest(
      envelope.error.issues.map((issue) => ({
        path: ['json', ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    )
  }
  const given = (['version', 'publishedAt'] as const).filter((key) => query[key] !== undefined)
  if (given.length > 0) {
    throw invalidRequest(
      given.map((key) => ({
        path: `query.${key}`,
        message: `is for raw pushes; give ${key} in the envelope instead`,
      })),
    )
  }
  const { document, version, publishedAt } = envelope.data
  return {
    bytes: Buffer.from(document, 'utf8'),
    text: document,
    mediaType: undefined,
    protocol: undefined,
    version: version ?? null,
    publishedAt: publishedAt ?? null,
  }
}

/**
 * A document the hub fetched from an API's `sourceUrl`: its Content-Type is kept when it is one
 * of {@link DOCUMENT_MEDIA_TYPES}; otherwise (`text/plain`, `application/octet-stream` …) the
 * content tells what it is.
 */
export function fetchedDocument(bytes: Buffer, contentType: string | undefined): PushedDocument {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  const known = Object.hasOwn(DOCUMENT_MEDIA_TYPES, essence)
  return {
    bytes,
    text: utf8(bytes),
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

function isEnvelope(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.hasOwn(value, 'document') &&
    !Object.hasOwn(value, 'openapi') &&
    !Object.hasOwn(value, 'swagger')
  )
}

const decoder = new TextDecoder('utf-8', { fatal: true })

function utf8(bytes: Buffer): string {
  try {
    return decoder.decode(bytes)
  } catch {
    throw new ApiError('invalid_document', 'The document is not valid UTF-8 text.', {
      reason: 'invalid_encoding',
    })
  }
}
