import { z } from '@hono/zod-openapi'
import { CHANGE_LEVELS } from '@svc/engine'
import type { ApiWithOwner, RevisionListing } from '../store/apis-repo.js'

export const ApiSchema = z
  .object({
    id: z.string(),
    owner: z.string(),
    slug: z.string(),
    name: z.string(),
    visibility: z.enum(['public', 'private']),
    sourceUrl: z.string().nullable(),
    url: z.url().openapi({ description: "The API's page on the hub" }),
    createdAt: z.iso.datetime(),
  })
  .openapi('Api')

export const RevisionSchema = z
  .object({
    id: z.string().openapi({ example: 'rev_5f0c7e2b9d4a1c3e8f6b2a70' }),
    sequence: z.int().openapi({
      description: "1 for the API's first revision, then 2, 3 …: the order of the series",
    }),
    contentHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({ description: "SHA-256 (hex) of the revision's document" }),
    version: z
      .string()
      .nullable()
      .openapi({ description: "The publisher's label; not an ordering" }),
    publishedAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .openapi({ description: "The publisher's timestamp, when given" }),
    retrievedAt: z.iso.datetime().openapi({ description: 'When the hub received the document' }),
    url: z.url().openapi({ description: 'The revision page on the hub' }),
    documentUrl: z.url().openapi({ description: 'Where to download the document' }),
    protocol: z.enum(['oas', 'gql']),
    format: z.enum(['json', 'yaml', 'graphql']),
    mediaType: z.string().openapi({ description: 'The Content-Type the document is served with' }),
    specVersion: z
      .string()
      .openapi({ description: '`3.1.0`, `3.0.3`, `2.0` … for OpenAPI; `sdl` for GraphQL' }),
    size: z.int().openapi({ description: 'Bytes of the document' }),
    origin: z.enum(['push', 'refetch']),
    previousRevisionId: z
      .string()
      .nullable()
      .openapi({ description: 'The latest revision before this one; null for the first' }),
    createdBy: z.string().openapi({ description: 'Handle of the user who pushed it' }),
    parseIssues: z
      .object({ error: z.int(), warning: z.int(), debug: z.int() })
      .openapi({ description: 'Parse issues of the document, per level' }),
  })
  .openapi('Revision')

const ChangeDeltaSchema = z
  .object({ added: z.int(), deleted: z.int(), modified: z.int() })
  .openapi('ChangeDelta')

export const ChangeSummarySchema = z
  .object({
    diff: z.boolean().openapi({ description: 'Whether the two documents differ' }),
    details: z.record(z.string(), ChangeDeltaSchema).openapi({
      description: 'Per section of the document (`operations`, `schemas`, `types` …) that changed',
    }),
  })
  .openapi('ChangeSummary')

export const ChangeSeveritySchema = z
  .object({ breaking: z.int(), warning: z.int(), info: z.int() })
  .openapi('ChangeSeverity')

export const ChangeSchema = z
  .object({
    id: z.string().openapi({ description: 'The rule that fired', example: 'endpoint-removed' }),
    level: z.enum(CHANGE_LEVELS),
    message: z.string(),
    location: z.string(),
    operation: z.string().optional(),
    operations: z.array(z.string()).optional(),
  })
  .openapi('Change')

export type ApiRecord = z.infer<typeof ApiSchema>
export type RevisionRecord = z.infer<typeof RevisionSchema>

export function apiRecord(row: ApiWithOwner, publicUrl: string): ApiRecord {
  return {
    id: row.id,
    owner: row.owner_handle,
    slug: row.slug,
    name: row.name,
    visibility: row.visibility,
    sourceUrl: row.source_url,
    url: `${publicUrl}/${encodeURIComponent(row.owner_handle)}/apis/${encodeURIComponent(row.slug)}`,
    createdAt: row.created_at,
  }
}

/** The API record of a stored revision of `api`. */
export function revisionRecord(
  row: RevisionListing,
  api: { owner_handle: string; slug: string },
  publicUrl: string,
): RevisionRecord {
  const [owner, slug] = [api.owner_handle, api.slug].map(encodeURIComponent)
  return {
    id: row.id,
    sequence: row.seq,
    contentHash: row.content_hash,
    version: row.version,
    publishedAt: row.published_at,
    retrievedAt: row.retrieved_at,
    url: `${publicUrl}/${owner}/apis/${slug}/revisions/${row.id}`,
    documentUrl: `${publicUrl}/v1/apis/${owner}/${slug}/revisions/${row.id}/document`,
    protocol: row.protocol,
    format: row.format,
    mediaType: row.media_type,
    specVersion: row.spec_version,
    size: row.size,
    origin: row.origin,
    previousRevisionId: row.previous_revision_id,
    createdBy: row.created_by_handle,
    parseIssues: {
      error: row.issue_errors,
      warning: row.issue_warnings,
      debug: row.issue_debug,
    },
  }
}
