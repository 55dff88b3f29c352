import { z } from '@hono/zod-openapi'
import type { ProjectWithRefs } from '../store/projects-repo.js'
import { EMPTY_CONFIG, type ProjectConfig } from './config-fold.js'

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

const Ref = z.object({ account: z.string(), slug: z.string() })

export const ProjectConfigResponseSchema = z
  .object({
    project: Ref,
    config: ProjectConfigSchema,
    enrichmentCount: z.int(),
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

export function storedConfig(row: ProjectWithRefs): ProjectConfig {
  return row.config ? (JSON.parse(row.config) as ProjectConfig) : EMPTY_CONFIG
}

export function projectConfigResponse(
  row: ProjectWithRefs,
  config = storedConfig(row),
  updatedAt = row.config_updated_at,
) {
  return {
    project: { account: row.account_handle, slug: row.slug },
    config: { settings: config.settings, enrichments: [...config.enrichments] },
    enrichmentCount: config.enrichments.length,
    updatedAt,
  }
}

export function projectRecord(row: ProjectWithRefs, publicUrl: string) {
  return {
    id: row.id,
    project: { account: row.account_handle, slug: row.slug },
    stack: { account: row.stack_account_handle, slug: row.stack_slug },
    stackVersion: row.stack_version,
    api: { owner: row.api_account_handle, slug: row.api_slug },
    url: `${publicUrl}/${encodeURIComponent(row.account_handle)}/projects/${encodeURIComponent(row.slug)}`,
    createdAt: row.created_at,
  }
}
