import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { listSubjects } from '@svc/engine/generate'
import type { ServerDeps } from '../deps.js'
import { asJson, errorResponses } from '../errors.js'
import { ArtifactsRequestSchema, documentText, parseDocument, SourceSchema } from '../request.js'

const SubjectSchema = z
  .object({
    key: z.string().openapi({ example: 'GET /pets' }),
    kind: z.enum(['operation', 'webhook', 'graphql', 'model']),
    route: z.record(z.string(), z.string()).openapi({ description: 'The enrichment routing keys' }),
    status: z.enum(['included', 'skipped', 'notSupported']),
  })
  .openapi('Subject')

export function subjectsRoute(app: OpenAPIHono, deps: ServerDeps): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/subjects',
      summary: 'What each generator would generate for a description, without generating',
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: ArtifactsRequestSchema } },
        },
      },
      responses: {
        200: {
          description: 'Generator id → its subjects, in document order',
          content: {
            'application/json': {
              schema: z
                .object({
                  subjects: z.record(z.string(), z.array(SubjectSchema)),
                  parseIssues: z.array(z.record(z.string(), z.unknown())),
                  source: SourceSchema.optional(),
                })
                .openapi('Subjects'),
            },
          },
        },
        ...errorResponses(400, 413, 422, 500),
      },
    }),
    async (c) => {
      const request = c.req.valid('json')
      const { text, source } = await documentText(request, deps.fetch, deps.limits)
      const parsed = await parseDocument(text, request)
      const subjects = listSubjects({
        parsed,
        generators: deps.generators,
        settings: request.clientSettings ?? {},
      })
      return c.json(
        {
          subjects: asJson(subjects),
          parseIssues: parsed.parseIssues.map(asJson),
          ...(source ? { source } : {}),
        },
        200,
      )
    },
  )
}
