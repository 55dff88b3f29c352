import { StoredFileSchema } from './stacks.js'
import { z } from './zod.js'

const Ref = z.object({ account: z.string(), slug: z.string() })

export const EnrichmentRowSchema = z
  .object({
    generator: z.string(),
    subject: z.array(z.string()),
    variant: z.string().nullable(),
    value: z.unknown(),
  })
  .openapi('EnrichmentRow')

export const ProjectConfigSchema = z
  .object({
    settings: z.record(z.string(), z.unknown()),
    enrichments: z.array(EnrichmentRowSchema),
  })
  .openapi('ProjectConfig')

export const ProjectConfigResponseSchema = z
  .object({
    project: Ref,
    config: ProjectConfigSchema,
    enrichmentCount: z.int32().nonnegative(),
    updatedAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'When a client last replaced the config; null if never' }),
  })
  .openapi('ProjectConfigResponse')

export const ProjectSchema = z
  .object({
    id: z.string(),
    project: Ref,
    stack: Ref,
    stackVersion: z.string().openapi({ description: 'A semver version or `latest`' }),
    api: z.object({ owner: z.string(), slug: z.string() }),
    url: z.url(),
    createdAt: z.iso.datetime(),
  })
  .openapi('Project')

export const ProjectListItemSchema = ProjectSchema.extend({
  configUpdatedAt: z.iso
    .datetime()
    .nullable()
    .openapi({ description: 'When a client last replaced the config; null if never' }),
}).openapi('ProjectListItem')

export const ProjectListSchema = z
  .object({
    projects: z.array(ProjectListItemSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .openapi('ProjectList')

export const ProjectDetailSchema = ProjectListItemSchema.extend({
  settingCount: z
    .int32()
    .nonnegative()
    .openapi({ description: 'Top-level keys of the flat `settings`' }),
  enrichmentCount: z.int32().nonnegative(),
  baseFileCount: z.int32().nonnegative(),
  baseFilesBytes: z.int(),
}).openapi('ProjectDetail')

/** `PUT …/client-config`: client.json's settings (`svc push`, the web app's config form). */
export const ClientConfigSchema = z
  .strictObject({
    source: z
      .unknown()
      .optional()
      .openapi({ description: 'Accepted and ignored: a project reads its bound API' }),
    settings: z.record(z.string(), z.unknown()),
  })
  .openapi('ClientConfig')

/** `GET …/client-config`: the config unfolded back into client.json (`svc pull`). */
export const UnfoldedClientConfigSchema = z.object({
  project: z.string(),
  settings: z.record(z.string(), z.unknown()),
})

export const BaseFilesSchema = z
  .object({
    project: z.object({ account: z.string(), slug: z.string() }),
    files: z.array(StoredFileSchema),
    fileCount: z.int32().nonnegative(),
    totalBytes: z.int(),
  })
  .openapi('BaseFiles')

export type EnrichmentRow = z.infer<typeof EnrichmentRowSchema>
export type ProjectConfigResponse = z.infer<typeof ProjectConfigResponseSchema>
export type Project = z.infer<typeof ProjectSchema>
export type ProjectListItem = z.infer<typeof ProjectListItemSchema>
export type ProjectList = z.infer<typeof ProjectListSchema>
export type ProjectDetail = z.infer<typeof ProjectDetailSchema>
export type ClientConfig = z.infer<typeof ClientConfigSchema>
export type UnfoldedClientConfig = z.infer<typeof UnfoldedClientConfigSchema>
export type BaseFiles = z.infer<typeof BaseFilesSchema>
