import type { DeploymentListing, RunListing } from '../store/deployments-repo.js'
import type { ProjectWithRefs } from '../store/projects-repo.js'
import type { StoredFile } from '../store/stacks-repo.js'

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
    // revision_seq is set whenever revision_id is: runs.revision_id references revisions.id.
    revision:
      row.revision_id && row.revision_seq !== null
        ? {
            id: row.revision_id,
            sequence: row.revision_seq,
            url: `${api}/revisions/${row.revision_id}`,
          }
        : null,
    status: row.status,
    error: row.error,
    createdBy: row.created_by_handle,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    durationMs: row.duration_ms,
    artifactsPrunedAt: row.artifacts_pruned_at,
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
