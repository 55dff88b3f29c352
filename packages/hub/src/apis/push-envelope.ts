import { z } from '@hono/zod-openapi'

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

/**
 * Whether a JSON body is an envelope rather than a raw document: its top level is an object with
 * a `document` key and no `openapi` or `swagger` key.
 */
export function isEnvelope(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.hasOwn(value, 'document') &&
    !Object.hasOwn(value, 'openapi') &&
    !Object.hasOwn(value, 'swagger')
  )
}
