import { z } from '@hono/zod-openapi'
import { PlainText } from '../http/router.js'
import type { LibraryRow } from '../store/schema.js'

/** How deep the free-form objects of an ingestion profile may nest. */
export const MAX_PROFILE_DEPTH = 32

/** A JSON object of any inner structure (SPEC leaves it open), at most `MAX_PROFILE_DEPTH` deep. */
const FreeObject = z
  .record(z.string(), z.unknown())
  .refine((value) => depth(value) <= MAX_PROFILE_DEPTH, {
    error: `nests deeper than ${MAX_PROFILE_DEPTH} levels`,
  })
  .openapi({ type: 'object', additionalProperties: true })

export const IngestionProfileSchema = z
  .strictObject({
    id: PlainText(200).min(1),
    version: PlainText(100).min(1),
    required_capabilities: z.array(PlainText(200).min(1)).max(100),
    enrichment_schema: FreeObject,
    segmentation_policy: FreeObject,
    metadata_schema: FreeObject,
  })
  .openapi('IngestionProfile')

export const CreateLibrarySchema = z
  .strictObject({ name: PlainText(200).min(1), ingestion_profile: IngestionProfileSchema })
  .openapi('CreateLibraryRequest')

export const LibrarySchema = z
  .object({
    id: z.string().openapi({ example: 'lib_5f0c7e2b9d4a1c3e8f6b2a70' }),
    workspace_id: z
      .string()
      .optional()
      .openapi({ description: 'The id of the organisation the library belongs to' }),
    name: z.string(),
    ingestion_profile: IngestionProfileSchema,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi('Library')

export const ExecutionSchema = z
  .object({
    location: z.enum(['local', 'cloud']),
    capability_id: z.string().nullable(),
    capability_version: z.string().nullable(),
  })
  .openapi('Execution')

export const UsageSchema = z
  .object({
    billable: z.boolean(),
    quantity: z.number(),
    unit: z.string(),
    credits: z.number().optional(),
  })
  .openapi('Usage')

export const LibraryResponseSchema = z
  .object({
    request_id: z.string().openapi({ description: 'The id of the request that made the library' }),
    execution: ExecutionSchema,
    usage: UsageSchema,
    warnings: z.array(z.string()),
    data: LibrarySchema,
  })
  .openapi('LibraryResponse')

export type IngestionProfile = z.infer<typeof IngestionProfileSchema>
export type CreateLibrary = z.infer<typeof CreateLibrarySchema>
export type LibraryRecord = z.infer<typeof LibrarySchema>
export type LibraryResponse = z.infer<typeof LibraryResponseSchema>

export function libraryRecord(row: LibraryRow): LibraryRecord {
  return {
    id: row.id,
    workspace_id: row.org_id,
    name: row.name,
    ingestion_profile: JSON.parse(row.ingestion_profile) as IngestionProfile,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** How deep `value` nests (a scalar is 0, `{}` is 1), without recursion. */
function depth(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [node, level] = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    deepest = Math.max(deepest, level + 1)
    if (deepest > MAX_PROFILE_DEPTH) return deepest
    for (const child of Object.values(node)) stack.push([child, level + 1])
  }
  return deepest
}
