import { z } from './zod.js'

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
    sourceFileCount: z.int32().nonnegative(),
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

/** `GET /v1/stacks/{account}/{slug}/versions`: every version, newest first. */
export const StackVersionListSchema = z.object({ versions: z.array(StackVersionSchema) })

export const StackSchema = z
  .object({
    stack: StackRefSchema,
    createdAt: z.iso.datetime(),
    latestVersion: z.string().nullable(),
    versions: z.array(z.string()).openapi({ description: 'Every published version, newest first' }),
  })
  .openapi('Stack')

export const StackSummarySchema = z
  .object({
    stack: StackRefSchema,
    createdAt: z.iso.datetime(),
    latestVersion: z.string().nullable(),
    versionCount: z.int32().nonnegative(),
    lastPublishedAt: z.iso.datetime().nullable(),
  })
  .openapi('StackSummary')

export const StackListSchema = z
  .object({
    stacks: z.array(StackSummarySchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .openapi('StackList')

export type GeneratorSource = z.infer<typeof GeneratorSourceSchema>
export type StackRef = z.infer<typeof StackRefSchema>
export type StackVersion = z.infer<typeof StackVersionSchema>
export type StoredFile = z.infer<typeof StoredFileSchema>
export type StackVersionDetail = z.infer<typeof StackVersionDetailSchema>
export type StackVersionList = z.infer<typeof StackVersionListSchema>
export type Stack = z.infer<typeof StackSchema>
export type StackSummary = z.infer<typeof StackSummarySchema>
export type StackList = z.infer<typeof StackListSchema>
