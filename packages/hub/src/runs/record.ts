import { z } from '@hono/zod-openapi'
import type { DeploymentListing, RunListing } from '../store/deployments-repo.js'
import type { ProjectWithRefs } from '../store/projects-repo.js'
import type { StoredFile } from '../store/stacks-repo.js'

const Ref = z.object({ account: z.string(), slug: z.string() })

export const DeploymentSchema = z
  .object({
    id: z.string(),
    project: Ref,
    stack: Ref,
    stackVersion: z.string().openapi({ description: 'The pinned semver version' }),
    versionUrl: z.url().openapi({ description: 'The version page on the hub' }),
    production: z.boolean().openapi({ description: 'Whether `production` points here' }),
    createdBy: z.string(),
    createdAt: z.iso.datetime(),
  })
  .openapi('Deployment')

export const AliasSchema = z
  .object({
    name: z.literal('production'),
    deployment: DeploymentSchema,
    updatedBy: z.string(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('ProjectAlias')

const RunArtifactSchema = z
  .object({
    path: z.string(),
    size: z.int(),
    sha256: z.string(),
    url: z.url().openapi({ description: 'The bytes: GET …/runs/{id}/artifacts/{path}' }),
  })
  .openapi('RunArtifact')

export const RunSchema = z
  .object({
    id: z.string(),
    project: Ref,
    deployment: z.string().openapi({ description: 'The deployment id' }),
    stackVersion: z.string(),
    revision: z
      .object({ id: z.string(), url: z.url() })
      .nullable()
      .openapi({ description: "The API's latest revision when the run was asked for" }),
    status: z.enum(['running', 'succeeded', 'failed']),
    error: z.string().nullable().openapi({ description: 'Why a failed run failed' }),
    createdBy: z.string(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
    durationMs: z.int().nullable(),
    url: z.url().openapi({ description: 'The run page on the hub' }),
    manifest: z.record(z.string(), z.unknown()).nullable().optional().openapi({
      description: 'What server.js answered (parseIssues, enrichmentWarnings …); one run only',
    }),
    log: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The end of what the process printed; one run only' }),
    artifacts: z.array(RunArtifactSchema).optional().openapi({ description: 'One run only' }),
  })
  .openapi('Run')

const seg = encodeURIComponent

export function projectPath(project: ProjectWithRefs): string {
  return `${seg(project.account_handle)}/projects/${seg(project.slug)}`
}

export function deploymentRecord(
  project: ProjectWithRefs,
  row: DeploymentListing,
  productionId: string | undefined,
  publicUrl: string,
) {
  const stack = { account: project.stack_account_handle, slug: project.stack_slug }
  return {
    id: row.id,
    project: { account: project.account_handle, slug: project.slug },
    stack,
    stackVersion: row.version,
    versionUrl: `${publicUrl}/${seg(stack.account)}/stacks/${seg(stack.slug)}/versions/${seg(row.version)}`,
    production: row.id === productionId,
    createdBy: row.created_by_handle,
    createdAt: row.created_at,
  }
}

export function runRecord(
  project: ProjectWithRefs,
  row: RunListing,
  publicUrl: string,
  detail?: { artifacts: readonly StoredFile[]; full: true },
) {
  const api = `${publicUrl}/${seg(project.api_account_handle)}/apis/${seg(project.api_slug)}`
  const runApi = `${publicUrl}/v1/projects/${seg(project.account_handle)}/${seg(project.slug)}/runs/${row.id}`
  return {
    id: row.id,
    project: { account: project.account_handle, slug: project.slug },
    deployment: row.deployment_id,
    stackVersion: row.version,
    revision: row.revision_id
      ? { id: row.revision_id, url: `${api}/revisions/${row.revision_id}` }
      : null,
    status: row.status,
    error: row.error,
    createdBy: row.created_by_handle,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    url: `${publicUrl}/${projectPath(project)}/runs/${row.id}`,
    ...(detail
      ? {
          manifest: row.manifest ? (JSON.parse(row.manifest) as Record<string, unknown>) : null,
          log: row.log,
          artifacts: detail.artifacts.map((file) => ({
            ...file,
            url: `${runApi}/artifacts/${file.path.split('/').map(seg).join('/')}`,
          })),
        }
      : {}),
  }
}
