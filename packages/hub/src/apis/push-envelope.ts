import { z, type RouteConfig } from '@hono/zod-openapi'

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
 * The OpenAPI request body of the routes that take a document (push, diff): the document itself
 * in its media type, or the envelope. Plain schemas, not zod: the body is read by
 * readPushedDocument, within its limit.
 */
export const DOCUMENT_BODY: NonNullable<NonNullable<RouteConfig['request']>['body']> = {
  required: true,
  content: {
    'application/json': {
      schema: {
        oneOf: [
          { $ref: '#/components/schemas/PushEnvelope' },
          { type: 'object', description: 'An OpenAPI document (JSON)' },
        ],
      },
    },
    'application/yaml': {
      schema: { type: 'string', description: 'An OpenAPI document (YAML)' },
    },
    'application/graphql': { schema: { type: 'string', description: 'GraphQL SDL' } },
  },
}

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
