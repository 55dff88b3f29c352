import { createRoute, z } from '@hono/zod-openapi'
import {
  AliasSchema,
  CreateDeploymentSchema,
  CreateRunSchema,
  DeploymentListSchema,
  DeploymentSchema,
  RunListSchema,
  RunSchema,
  SetAliasSchema,
} from '@svc/hub-api'
import type { Context } from 'hono'
import semver from 'semver'
import { accountOrThrow, requireAccess } from '../auth/access.js'
import { ApiError, invalidRequest } from '../errors/index.js'
import type { HubEnv } from '../http/env.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import {
  AccountParam,
  BEARER,
  createRouter,
  ErrorSchema,
  errorResponses,
  SlugParam,
} from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import { unfoldSettings } from '../projects/config-fold.js'
import { projectFor } from '../projects/project-access.js'
import { storedConfig } from '../projects/record.js'
import { deploymentRecord, runRecord } from '../runs/record.js'
import { runQueue, type Admission } from '../runs/queue.js'
import { findSandbox, sandboxRefusal } from '../runs/sandbox-probe.js'
import { latestOf } from '../stacks/latest-version.js'
import type { DeploymentListing } from '../store/deployments-repo.js'
import type { ProjectWithRefs } from '../store/projects-repo.js'

/**
 * A project's deployments (a pinned stack version), its runs (a deployment's `server.js` run
 * against the API's latest revision) and its `production` alias. docs/api/projects.md.
 */
export const deployments = createRouter()

const ProjectParams = z.object({ account: AccountParam, slug: SlugParam })
const IdParam = z.string().max(64).openapi({ example: 'run_3f9c0a…' })
const ALIAS = 'production' as const

const READ = needs('read', 'write:projects')
const WRITE = needs('write:projects')

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})

deployments.openapi(
  createRoute({
    method: 'post',
    path: '/{account}/{slug}/deployments',
    tags: ['deployments'],
    summary: "Deploy a version of the project's stack (pins it)",
    security: BEARER,
    middleware: [WRITE, jsonBodyLimit] as const,
    request: {
      params: ProjectParams,
      body: { required: true, content: { 'application/json': { schema: CreateDeploymentSchema } } },
    },
    responses: {
      201: json(DeploymentSchema, 'The deployment'),
      ...errorResponses(400, 401, 403, 404, 415, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const project = await projectFor(c, 'write')
    const { store, config } = c.get('hub')
    const stackOwner = await accountOrThrow(store, project.stack_account_handle)
    await requireAccess(store, caller, stackOwner, 'read', 'stacks')
    // Without a version, the project's own pin (a version, or `latest`).
    const wanted = c.req.valid('json').stackVersion ?? project.stack_version
    const name = `@${project.stack_account_handle}/${project.stack_slug}`
    const versions = await store.stacks.versions(project.stack_id)
    let version
    if (wanted === 'latest') {
      const latest = latestOf(versions.map((v) => v.version))
      version = versions.find((v) => v.version === latest)
      if (!version) throw invalid('stackVersion', `${name} has no published version yet`)
    } else {
      if (semver.valid(wanted) !== wanted) {
        throw invalid('stackVersion', `'${wanted}' is neither a semver version nor 'latest'`)
      }
      version = versions.find((v) => v.version === wanted)
      if (!version) throw invalid('stackVersion', `${name} has no version ${wanted}`)
    }
    const row = await store.deployments.createDeployment({
      project_id: project.id,
      stack_version_id: version.id,
      created_by: caller.userId,
    })
    const listing = await store.deployments.deployment(project.id, row.id)
    if (!listing) throw new Error('the deployment just made is missing')
    const alias = await store.deployments.alias(project.id, ALIAS)
    c.header(
      'Location',
      `${config.publicUrl}/v1/projects/${project.account_handle}/${project.slug}/deployments/${row.id}`,
    )
    return c.json(deploymentRecord(project, listing, alias?.deployment_id, config.publicUrl), 201)
  },
)

deployments.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/deployments',
    tags: ['deployments'],
    summary: "The project's deployments, newest first (the last 100)",
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams },
    responses: {
      200: json(DeploymentListSchema, 'The deployments'),
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const project = await projectFor(c, 'read')
    const { store, config } = c.get('hub')
    const [rows, alias] = await Promise.all([
      store.deployments.deployments(project.id),
      store.deployments.alias(project.id, ALIAS),
    ])
    return c.json(
      {
        deployments: rows.map((row) =>
          deploymentRecord(project, row, alias?.deployment_id, config.publicUrl),
        ),
      },
      200,
    )
  },
)

deployments.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/deployments/{id}',
    tags: ['deployments'],
    summary: 'One deployment',
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams.extend({ id: IdParam }) },
    responses: {
      200: json(DeploymentSchema, 'The deployment'),
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const project = await projectFor(c, 'read')
    const { store, config } = c.get('hub')
    const id = c.req.valid('param').id
    const row = await store.deployments.deployment(project.id, id)
    if (!row) throw notFound(project, `deployment '${id}'`)
    const alias = await store.deployments.alias(project.id, ALIAS)
    return c.json(deploymentRecord(project, row, alias?.deployment_id, config.publicUrl), 200)
  },
)

deployments.openapi(
  createRoute({
    method: 'post',
    path: '/{account}/{slug}/runs',
    tags: ['deployments'],
    summary: "Run a deployment's server.js against the API's latest revision",
    description:
      'The run is queued and answered at once as `running`; poll it until it is `succeeded` or `failed`. ' +
      'Without `deployment`, the production deployment runs, else the latest one.',
    security: BEARER,
    middleware: [WRITE, jsonBodyLimit] as const,
    request: {
      params: ProjectParams,
      body: { required: false, content: { 'application/json': { schema: CreateRunSchema } } },
    },
    responses: {
      202: json(RunSchema, 'The run, queued'),
      ...errorResponses(400, 401, 403, 404, 409, 415, 422),
      429: json(
        ErrorSchema,
        "The caller's own queue of runs is full (`queue_full`, with `Retry-After`), or its rate limit is spent (`rate_limited`)",
      ),
      503: json(
        ErrorSchema,
        "The hub's queue of runs is full or it is stopping (`unavailable`, with `Retry-After`), or it cannot start the sandbox runs need (`sandbox_unavailable`)",
      ),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const project = await projectFor(c, 'write')
    const { store, config } = c.get('hub')
    const log = c.get('log')
    // An empty body is the same as `{}`.
    const wanted = (c.req.valid('json') as { deployment?: string } | undefined)?.deployment
    const alias = await store.deployments.alias(project.id, ALIAS)
    let deployment: DeploymentListing | undefined
    if (wanted === undefined) {
      deployment = alias
        ? await store.deployments.deployment(project.id, alias.deployment_id)
        : await store.deployments.latestDeployment(project.id)
      if (!deployment) {
        throw new ApiError(
          'no_deployment',
          `The project ${project.account_handle}/${project.slug} has no deployment to run; deploy a stack version first.`,
        )
      }
    } else {
      const id = wanted === ALIAS ? alias?.deployment_id : wanted
      deployment = id ? await store.deployments.deployment(project.id, id) : undefined
      if (!deployment) {
        throw invalid(
          'deployment',
          wanted === ALIAS
            ? 'the project has no production deployment'
            : `the project has no deployment '${wanted}'`,
        )
      }
    }
    const api = await store.apis.find(project.api_account_handle, project.api_slug)
    if (!api) throw new Error('the API of a project is missing')
    if (api.visibility !== 'public') {
      const apiOwner = await accountOrThrow(store, project.api_account_handle)
      await requireAccess(store, caller, apiOwner, 'read', 'APIs')
    }
    const sandbox = await findSandbox(config.runs)
    if (!sandbox.ok) throw new ApiError('sandbox_unavailable', sandboxRefusal(sandbox.reason))
    const admission = runQueue(store, config, log).admit(`user:${caller.userId}`)
    if (!admission.ok) throw queueRefusal(admission, caller.handle, config.runs.timeoutMs)
    const { ticket } = admission
    let run
    try {
      const revision = await store.apis.latestRevision(api.id)
      run = await store.deployments.createRun({
        project_id: project.id,
        deployment_id: deployment.id,
        revision_id: revision?.id ?? null,
        created_by: caller.userId,
      })
      if (!revision) {
        await store.deployments.finishRun(run.id, {
          status: 'failed',
          error: `The API ${project.api_account_handle}/${project.api_slug} has no revision yet; push a document first.`,
          manifest: null,
          log: null,
          finishedAt: new Date().toISOString(),
          durationMs: 0,
        })
      } else {
        ticket.enqueue({
          runId: run.id,
          owner: project.account_handle,
          bundleSha256: deployment.bundle_sha256,
          document: { sha256: revision.content_hash, protocol: revision.protocol },
          clientSettings: unfoldSettings(storedConfig(project)),
        })
      }
    } finally {
      ticket.release()
    }
    const listing = await store.deployments.run(project.id, run.id)
    if (!listing) throw new Error('the run just made is missing')
    const url = `${config.publicUrl}/v1/projects/${project.account_handle}/${project.slug}/runs/${run.id}`
    c.header('Location', url)
    return c.json(runRecord(project, listing, config.publicUrl), 202)
  },
)

deployments.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/runs',
    tags: ['deployments'],
    summary: "The project's runs, newest first (the last 100); without manifest, log and artifacts",
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams },
    responses: {
      200: json(RunListSchema, 'The runs'),
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const project = await projectFor(c, 'read')
    const { store, config } = c.get('hub')
    const rows = await store.deployments.runs(project.id)
    return c.json({ runs: rows.map((row) => runRecord(project, row, config.publicUrl)) }, 200)
  },
)

deployments.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/runs/{id}',
    tags: ['deployments'],
    summary: 'One run, with its manifest, log tail and artifacts once it ended',
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams.extend({ id: IdParam }) },
    responses: {
      200: json(RunSchema, 'The run'),
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const project = await projectFor(c, 'read')
    const { store, config } = c.get('hub')
    const id = c.req.valid('param').id
    const row = await store.deployments.run(project.id, id)
    if (!row) throw notFound(project, `run '${id}'`)
    const artifacts = await store.deployments.artifacts(row.id)
    return c.json(runRecord(project, row, config.publicUrl, { artifacts, full: true }), 200)
  },
)

const artifactRoute = createRoute({
  method: 'get',
  path: '/{account}/{slug}/runs/{id}/artifacts/{path}',
  tags: ['deployments'],
  summary: 'The bytes of one file a run generated',
  description: 'The path may contain `/` as is or percent-encoded.',
  security: BEARER,
  request: {
    params: ProjectParams.extend({
      id: IdParam,
      path: z.string().openapi({ example: 'types.ts' }),
    }),
  },
  responses: {
    200: {
      description: "The file's bytes",
      content: { 'text/plain': { schema: { type: 'string', format: 'binary' } } },
    },
    ...errorResponses(401, 403, 404),
  },
})
// Registered by hand so that `{path}` can span several segments.
deployments.openAPIRegistry.registerPath(artifactRoute)
deployments.get('/:account/:slug/runs/:id/artifacts/:path{.+}', READ, async (c) => {
  const project = await projectFor(c, 'read')
  const { store } = c.get('hub')
  const id = c.req.param('id')
  const run = await store.deployments.run(project.id, id)
  if (!run) throw notFound(project, `run '${id}'`)
  const path = c.req.param('path')
  if (run.artifacts_pruned_at) {
    throw new ApiError(
      'not_found',
      `The artifacts of run ${run.id} were removed on ${run.artifacts_pruned_at} by the hub's retention rule for run artifacts; run the deployment again to make them anew.`,
      { artifactsPrunedAt: run.artifacts_pruned_at },
    )
  }
  const file = await store.deployments.artifact(run.id, path)
  if (!file) throw new ApiError('not_found', `The run ${run.id} made no file '${path}'.`)
  const data = await store.blobs.get(file.sha256)
  if (!data) throw new Error(`blob ${file.sha256} is missing`)
  const name = path.split('/').pop() ?? path
  return c.body(data as Uint8Array<ArrayBuffer>, 200, {
    // Generated code is shown as text, never run by a browser.
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Disposition': `inline; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`,
    'X-Content-Type-Options': 'nosniff',
    ETag: `"${file.sha256}"`,
    'Cache-Control': 'private, max-age=31536000, immutable',
  })
})

deployments.openapi(
  createRoute({
    method: 'put',
    path: '/{account}/{slug}/aliases/production',
    tags: ['deployments'],
    summary: 'Point `production` at a deployment (promote it)',
    security: BEARER,
    middleware: [WRITE, jsonBodyLimit] as const,
    request: {
      params: ProjectParams,
      body: { required: true, content: { 'application/json': { schema: SetAliasSchema } } },
    },
    responses: {
      200: json(AliasSchema, 'The alias'),
      ...errorResponses(400, 401, 403, 404, 415, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const project = await projectFor(c, 'write')
    const { store, config } = c.get('hub')
    const id = c.req.valid('json').deployment
    const deployment = await store.deployments.deployment(project.id, id)
    if (!deployment) throw invalid('deployment', `the project has no deployment '${id}'`)
    await store.deployments.setAlias(project.id, ALIAS, deployment.id, caller.userId)
    return c.json(await aliasRecord(c, project, config.publicUrl), 200)
  },
)

deployments.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/aliases/production',
    tags: ['deployments'],
    summary: 'The deployment `production` points at',
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams },
    responses: {
      200: json(AliasSchema, 'The alias'),
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const project = await projectFor(c, 'read')
    return c.json(await aliasRecord(c, project, c.get('hub').config.publicUrl), 200)
  },
)

async function aliasRecord(c: Context<HubEnv>, project: ProjectWithRefs, publicUrl: string) {
  const { store } = c.get('hub')
  const alias = await store.deployments.alias(project.id, ALIAS)
  if (!alias) throw notFound(project, 'production deployment')
  const deployment = await store.deployments.deployment(project.id, alias.deployment_id)
  if (!deployment) throw new Error('the production deployment is missing')
  return {
    name: ALIAS,
    deployment: deploymentRecord(project, deployment, alias.deployment_id, publicUrl),
    updatedBy: alias.updated_by_handle,
    updatedAt: alias.updated_at,
  }
}

/**
 * Why a run cannot queue: the caller's own queue is full (429 `queue_full`), or the hub's queue
 * of waiting runs is, or the hub is stopping (503 `unavailable`). Either way a place frees
 * within about one run's time limit.
 */
function queueRefusal(
  refused: Extract<Admission, { ok: false }>,
  handle: string,
  timeoutMs: number,
): ApiError {
  const wait = Math.ceil(timeoutMs / 1000)
  if (refused.full === 'account') {
    return new ApiError(
      'queue_full',
      `${handle} already has ${refused.limit} runs waiting or running on this hub, the most one account may have (SVC_HUB_RUN_QUEUE_PER_ACCOUNT); other accounts' runs are not held up. Ask again when one of them ends.`,
      { queue: 'runs', limit: refused.limit },
    ).retryAfter(wait)
  }
  if (refused.full === 'hub') {
    return new ApiError(
      'unavailable',
      `The hub has ${refused.limit} runs waiting, the most it holds (SVC_HUB_RUN_QUEUE_MAX); try again in a minute.`,
      { queue: 'runs', limit: refused.limit },
    ).retryAfter(wait)
  }
  return new ApiError('unavailable', 'The hub is stopping; try again shortly.').retryAfter(5)
}

function notFound(project: ProjectWithRefs, what: string): ApiError {
  return new ApiError(
    'not_found',
    `The project ${project.account_handle}/${project.slug} has no ${what}.`,
  )
}

function invalid(field: string, why: string): ApiError {
  return invalidRequest([{ path: `json.${field}`, message: why }])
}
