import type { ProjectWithRefs } from '../store/projects-repo.js'
import { EMPTY_CONFIG, type ProjectConfig } from './config-fold.js'

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
