import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { toV3Json } from '@svc/engine'
import type { ServerDeps } from '../deps.js'
import { errorResponses, StackError } from '../errors.js'
import { asSchemaError, documentText, DocumentRequestSchema, SourceSchema } from '../request.js'

export function toV3JsonRoute(app: OpenAPIHono, deps: ServerDeps): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/to-v3-json',
      summary: 'An OpenAPI 3 document for any OpenAPI description (Swagger 2.0 is converted)',
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: DocumentRequestSchema } },
        },
      },
      responses: {
        200: {
          description: 'The OpenAPI 3 document',
          content: {
            'application/json': {
              schema: z
                .object({
                  schema: z.record(z.string(), z.unknown()),
                  source: SourceSchema.optional(),
                })
                .openapi('OpenApi3Document'),
            },
          },
        },
        ...errorResponses(400, 413, 422, 500),
      },
    }),
    async (c) => {
      const request = c.req.valid('json')
      if (request.protocol === 'gql')
        throw new StackError('invalid_schema', 'GraphQL SDL does not convert to OpenAPI 3.')
      const { text, source } = await documentText(request, deps.fetch, deps.limits)
      const converted = await toV3Json({ text }).catch((error: unknown) => {
        throw asSchemaError(error)
      })
      return c.json({ schema: converted.schema, ...(source ? { source } : {}) }, 200)
    },
  )
}
