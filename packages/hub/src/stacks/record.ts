import { z } from '@hono/zod-openapi'
import type { StackVersionRow } from '../store/schema.js'
import type { Composition } from './composition.js'

export const GeneratorSourceSchema = z
  .union([
    z.object({ name: z.string(), kind: z.literal('imported'), specifier: z.string() }),
    z.object({ name: z.string(), kind: z.literal('cloned'), path: z.string() }),
  ])
  .openapi('GeneratorSource')

export const StackRefSchema = z
  .object({ account: z.string(), slug: z.string() })
  .openapi('StackRef')

export const StackVersionSchema = z
  .object({
    id: z.string(),
    stack: StackRefSchema,
    version: z.string().openapi({ example: '1.2.0' }),
    versionUrl: z.url().openapi({ description: 'The version page on the hub' }),
    bundleBytes: z.int(),
    bundleSha256: z.string().regex(/^[0-9a-f]{64}$/),
    bundleUrl: z.url().openapi({ description: 'Where to download the bundle (server.js)' }),
    sourceFileCount: z.int(),
    sourceTotalBytes: z.int(),
    manifestPath: z.string(),
    composition: z.array(GeneratorSourceSchema),
    publishedBy: z.string(),
    publishedAt: z.iso.datetime(),
  })
  .openapi('StackVersion')

export const StoredFileSchema = z
  .object({ path: z.string(), size: z.int(), sha256: z.string() })
  .openapi('StoredFile')

export const StackVersionDetailSchema = StackVersionSchema.extend({
  files: z.array(StoredFileSchema),
}).openapi('StackVersionDetail')

export type StackVersionRecord = z.infer<typeof StackVersionSchema>

/** The API record of a stored stack version. */
export function stackVersionRecord(
  row: StackVersionRow,
  stack: { account: string; slug: string },
  publishedBy: string,
  publicUrl: string,
): StackVersionRecord {
  const [account, slug, version] = [stack.account, stack.slug, row.version].map(encodeURIComponent)
  return {
    id: row.id,
    stack,
    version: row.version,
    versionUrl: `${publicUrl}/${account}/stacks/${slug}/versions/${version}`,
    bundleBytes: row.bundle_bytes,
    bundleSha256: row.bundle_sha256,
    bundleUrl: `${publicUrl}/v1/stacks/${account}/${slug}/versions/${version}/bundle`,
    sourceFileCount: row.source_file_count,
    sourceTotalBytes: row.source_total_bytes,
    manifestPath: row.manifest_path,
    composition: JSON.parse(row.composition) as Composition as StackVersionRecord['composition'],
    publishedBy,
    publishedAt: row.published_at,
  }
}
