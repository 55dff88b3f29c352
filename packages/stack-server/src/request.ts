import { z } from '@hono/zod-openapi'
import { parseApi, DocumentError, type ParseApiResult } from '@svc/engine'
import type { SafeFetch } from '@svc/safe-fetch'
import { StackError } from './errors.js'
import { fetchSource, type FetchedSource, type SourceLimits } from './source/fetch-source.js'

const Protocol = z.enum(['oas', 'gql']).openapi({
  description: 'The kind of description; detected from the document when left out',
})

/** The document, inline, or where to fetch it: exactly one of the two. */
export const DocumentFields = {
  protocol: Protocol.optional(),
  schema: z
    .union([z.string().min(1), z.record(z.string(), z.unknown())])
    .optional()
    .openapi({ description: 'The description: its text (JSON, YAML or SDL), or a JSON object' }),
  source: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2048)
    .optional()
    .openapi({ description: 'An http(s) URL the server fetches the description from' }),
}

const ClientSettings = z
  .object({
    enrichments: z.record(z.string(), z.unknown()).optional(),
    skip: z.array(z.string()).optional(),
    include: z.array(z.string()).optional(),
    importExtension: z.enum(['.ts', '.js', '']).optional(),
  })
  .openapi('ClientSettings', { description: "The `settings` of a project's client.json" })

export const ArtifactsRequestSchema = z
  .strictObject({ ...DocumentFields, clientSettings: ClientSettings.optional() })
  .superRefine(exactlyOneDocument)
  .openapi('ArtifactsRequest')

export const DocumentRequestSchema = z
  .strictObject(DocumentFields)
  .superRefine(exactlyOneDocument)
  .openapi('DocumentRequest')

export type DocumentRequest = z.infer<typeof DocumentRequestSchema>

export const SourceSchema = z
  .object({
    url: z.string(),
    resolvedUrl: z.string().openapi({ description: 'The URL that answered, after redirects' }),
    digest: z.string().openapi({ example: 'sha256:9f86d0…' }),
  })
  .openapi('FetchedSource')

function exactlyOneDocument(
  value: { schema?: unknown; source?: unknown; protocol?: string },
  ctx: z.RefinementCtx,
) {
  if (value.protocol === 'gql' && value.schema !== null && typeof value.schema === 'object')
    ctx.addIssue({
      code: 'custom',
      path: ['schema'],
      message: 'a JSON object is an OpenAPI document; send GraphQL SDL as text',
    })
  if ((value.schema === undefined) === (value.source === undefined))
    ctx.addIssue({
      code: 'custom',
      path: [value.schema === undefined ? 'schema' : 'source'],
      message: 'give exactly one of schema and source',
    })
}

/** The request's document as text, fetched when it is a source. */
export async function documentText(
  request: DocumentRequest,
  fetch: SafeFetch,
  limits: SourceLimits,
): Promise<{ text: string; source?: Omit<FetchedSource, 'text'> }> {
  if (request.source !== undefined) {
    const { text, ...source } = await fetchSource(fetch, request.source, limits)
    return { text, source }
  }
  const schema = request.schema!
  return { text: typeof schema === 'string' ? schema : JSON.stringify(schema) }
}

/** Parses the document; one that cannot be read at all is 422 `invalid_schema`. */
export async function parseDocument(
  text: string,
  request: DocumentRequest,
): Promise<ParseApiResult> {
  try {
    return await parseApi(
      { text },
      {
        ...(request.protocol ? { protocol: request.protocol } : {}),
        ...(typeof request.schema === 'object' ? { protocol: 'oas' as const } : {}),
      },
    )
  } catch (error) {
    throw asSchemaError(error)
  }
}

export function asSchemaError(error: unknown): unknown {
  return error instanceof DocumentError ? new StackError('invalid_schema', error.message) : error
}
