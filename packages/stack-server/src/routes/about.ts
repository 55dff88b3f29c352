import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import type { ServerDeps } from '../deps.js'

const GeneratorSchema = z
  .object({
    id: z.string().openapi({ example: '@svc/gen-typescript' }),
    kind: z.enum(['operation', 'webhook', 'graphql', 'model']),
    enrichmentSchema: z.record(z.string(), z.unknown()).nullable().openapi({
      description: "JSON Schema of one variant's enrichment payload; null when it takes none",
    }),
  })
  .openapi('Generator')

/** `GET /generators` and `GET /healthz`: what the server runs, and that it runs. */
export function aboutRoutes(app: OpenAPIHono, deps: ServerDeps): void {
  const generators = deps.generators.map((entry) => ({
    id: entry.id,
    kind: entry.kind,
    enrichmentSchema: entry.enrichmentSchema
      ? (z.toJSONSchema(entry.enrichmentSchema, { io: 'input', unrepresentable: 'any' }) as Record<
          string,
          unknown
        >)
      : null,
  }))
  app.openapi(
    createRoute({
      method: 'get',
      path: '/generators',
      summary: 'The generators of the stack, with the enrichments each takes',
      responses: {
        200: {
          description: 'The stack and its generators',
          content: {
            'application/json': {
              schema: z
                .object({
                  stack: z.object({ name: z.string(), version: z.string() }),
                  generators: z.array(GeneratorSchema),
                })
                .openapi('Generators'),
            },
          },
        },
      },
    }),
    (c) => c.json({ stack: { ...deps.identity }, generators }, 200),
  )
  app.openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      summary: 'Liveness',
      responses: {
        200: {
          description: 'The server runs',
          content: {
            'application/json': {
              schema: z.object({ status: z.literal('ok'), stack: z.string(), version: z.string() }),
            },
          },
        },
      },
    }),
    (c) =>
      c.json(
        { status: 'ok' as const, stack: deps.identity.name, version: deps.identity.version },
        200,
      ),
  )
}
