import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { generate } from '@svc/engine/generate'
import type { ServerDeps } from '../deps.js'
import { asJson, errorResponses } from '../errors.js'
import { ArtifactsRequestSchema, documentText, parseDocument, SourceSchema } from '../request.js'

const ArtifactsSchema = z
  .object({
    artifacts: z
      .record(z.string(), z.string())
      .openapi({ description: 'Generated file path → its content' }),
    manifest: z.record(z.string(), z.unknown()).openapi({
      description: 'The run: parseIssues, enrichmentWarnings, results, render, files, timings',
    }),
    source: SourceSchema.optional(),
  })
  .openapi('Artifacts')

export function artifactsRoute(app: OpenAPIHono, deps: ServerDeps): void {
  app.openapi(
    createRoute({
      method: 'post',
      path: '/artifacts',
      summary: "Generate the files of the stack's generators for a description",
      description:
        'A readable document with problems is a 200 whose manifest lists its parse issues; one that cannot be read is 422 `invalid_schema`.',
      request: {
        body: {
          required: true,
          content: { 'application/json': { schema: ArtifactsRequestSchema } },
        },
      },
      responses: {
        200: {
          description: 'The artifacts and the manifest',
          content: { 'application/json': { schema: ArtifactsSchema } },
        },
        ...errorResponses(400, 413, 422, 500),
      },
    }),
    async (c) => {
      const request = c.req.valid('json')
      const { text, source } = await documentText(request, deps.fetch, deps.limits)
      const parsed = await parseDocument(text, request)
      const settings = request.clientSettings ?? {}
      const { files, manifest } = generate({
        parsed,
        generators: deps.generators,
        settings,
        ...(settings.importExtension === undefined
          ? {}
          : { importExtension: settings.importExtension }),
      })
      return c.json(
        {
          artifacts: Object.fromEntries(files),
          manifest: asJson(manifest),
          ...(source ? { source } : {}),
        },
        200,
      )
    },
  )
}
