import { createRoute, z } from '@hono/zod-openapi'
import {
  BaseFilesSchema,
  ClientConfigSchema,
  ProjectConfigResponseSchema,
  ProjectDetailSchema,
  ProjectListSchema,
  ProjectSchema,
  UnfoldedClientConfigSchema,
} from '@svc/hub-api'
import semver from 'semver'
import { parseScopedName } from '@svc/project-format'
import { accountOrThrow, requireAccess } from '../auth/access.js'
import { ApiError, invalidRequest } from '../errors/index.js'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import { AccountParam, BEARER, createRouter, errorResponses, SlugParam } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import { foldSettings, unfoldSettings } from '../projects/config-fold.js'
import { projectFor } from '../projects/project-access.js'
import { projectConfigResponse, projectRecord, storedConfig } from '../projects/record.js'
import { EMPTY_CONFIG } from '../projects/config-fold.js'
import { chargeStorage } from '../quotas/charge.js'
import { byCodeUnits } from '../store/ids.js'
import { readUpload, storedFile } from '../uploads/read-upload.js'

const ProjectParams = z.object({ account: AccountParam, slug: SlugParam })

const CreateProjectSchema = z
  .strictObject({
    account: AccountParam,
    slug: SlugParam,
    stack: z.string().openapi({ example: '@acme/billing-stack' }),
    stackVersion: z
      .string()
      .optional()
      .openapi({ description: 'A published semver version or `latest` (default)' }),
    api: z.string().openapi({ example: 'acme/billing' }),
  })
  .openapi('CreateProject')

/** Reading a project's config needs `read` or `write:projects`; changing it, `write:projects`. */
const READ = needs('read', 'write:projects')
const WRITE = needs('write:projects')

export const projects = createRouter()

projects.openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags: ['projects'],
    summary: 'Create a project (web app and tests; the CLI never creates projects)',
    security: BEARER,
    middleware: [WRITE, jsonBodyLimit] as const,
    request: {
      body: { required: true, content: { 'application/json': { schema: CreateProjectSchema } } },
    },
    responses: {
      201: {
        description: 'The project',
        content: { 'application/json': { schema: ProjectSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 409, 415, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const body = c.req.valid('json')
    const { store, config } = c.get('hub')
    const account = await accountOrThrow(store, body.account)
    await requireAccess(store, caller, account, 'write', 'projects')

    const stackName = parseScopedName(body.stack, { scoped: true })
    if (!stackName)
      throw invalid('stack', `'${body.stack}' is not a stack name such as @acme/billing`)
    const stackOwner = await store.accounts.find(stackName.account)
    if (!stackOwner) throw invalid('stack', `there is no account '${stackName.account}'`)
    await requireAccess(store, caller, stackOwner, 'read', 'stacks')
    const stack = await store.stacks.find(stackName.account, stackName.slug)
    if (!stack) throw invalid('stack', `there is no stack ${body.stack}`)
    const stackVersion = body.stackVersion ?? 'latest'
    if (stackVersion !== 'latest') {
      if (semver.valid(stackVersion) !== stackVersion) {
        throw invalid('stackVersion', `'${stackVersion}' is neither a semver version nor 'latest'`)
      }
      if (!(await store.stacks.version(stack.id, stackVersion))) {
        throw invalid('stackVersion', `${body.stack} has no version ${stackVersion}`)
      }
    }
    const apiName = parseScopedName(body.api, { scoped: false })
    if (!apiName) throw invalid('api', `'${body.api}' is not an API name such as acme/billing`)
    const apiOwner = await store.accounts.find(apiName.account)
    if (!apiOwner) throw invalid('api', `there is no account '${apiName.account}'`)
    const api = await store.apis.find(apiName.account, apiName.slug)
    // A private API (or one that may not exist) is only told about to those who can read it.
    if (api?.visibility !== 'public') await requireAccess(store, caller, apiOwner, 'read', 'APIs')
    if (!api) throw invalid('api', `there is no API ${apiName.account}/${apiName.slug}`)

    try {
      await store.projects.create({
        account_id: account.id,
        slug: body.slug,
        stack_id: stack.id,
        stack_version: stackVersion,
        api_id: api.id,
        config: JSON.stringify(EMPTY_CONFIG),
        created_by: caller.userId,
      })
    } catch (error) {
      if (!store.capabilities.isUniqueViolation(error)) throw error
      throw new ApiError(
        'already_exists',
        `The project ${body.account}/${body.slug} exists already.`,
      )
    }
    const row = await store.projects.find(body.account, body.slug)
    if (!row) throw new Error('the project just created is missing')
    return c.json(projectRecord(row, config.publicUrl), 201)
  },
)

projects.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/config',
    tags: ['projects'],
    summary: "Read a project's flat config (the overwrite pre-check of `svc push`)",
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams },
    responses: {
      200: {
        description: 'The config',
        content: { 'application/json': { schema: ProjectConfigResponseSchema } },
      },
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const row = await projectFor(c, 'read')
    return c.json(projectConfigResponse(row), 200)
  },
)

projects.openapi(
  createRoute({
    method: 'put',
    path: '/{account}/{slug}/client-config',
    tags: ['projects'],
    summary: "Replace a project's config from client.json (`svc push`)",
    description:
      '`settings` is folded into the flat config, one enrichment row per leaf; `source` is ignored.',
    security: BEARER,
    middleware: [WRITE, jsonBodyLimit] as const,
    request: {
      params: ProjectParams,
      body: { required: true, content: { 'application/json': { schema: ClientConfigSchema } } },
    },
    responses: {
      200: {
        description: 'The stored config',
        content: { 'application/json': { schema: ProjectConfigResponseSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 415, 422),
    },
  }),
  async (c) => {
    const row = await projectFor(c, 'write')
    const config = foldSettings(c.req.valid('json').settings)
    const updatedAt = await c.get('hub').store.projects.setConfig(row.id, JSON.stringify(config))
    return c.json(projectConfigResponse(row, config, updatedAt), 200)
  },
)

projects.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/client-config',
    tags: ['projects'],
    summary: 'The config unfolded back into client.json settings (`svc pull`)',
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams },
    responses: {
      200: {
        description: 'client.json `project` and `settings`',
        content: {
          'application/json': { schema: UnfoldedClientConfigSchema },
        },
      },
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const row = await projectFor(c, 'read')
    return c.json(
      {
        project: `@${row.account_handle}/${row.slug}`,
        settings: unfoldSettings(storedConfig(row)),
      },
      200,
    )
  },
)

projects.openapi(
  createRoute({
    method: 'put',
    path: '/{account}/{slug}/preview/base-files',
    tags: ['projects'],
    summary: "Replace a project's base files (`svc push --base-files`)",
    description:
      'Multipart, one `files` part per file (its filename is the relative path); replaces the whole set atomically.',
    security: BEARER,
    middleware: [WRITE] as const,
    request: {
      params: ProjectParams,
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } },
            },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The stored set',
        content: { 'application/json': { schema: BaseFilesSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 413, 415, 422),
    },
  }),
  async (c) => {
    const row = await projectFor(c, 'write')
    const { store, config } = c.get('hub')
    const upload = await readUpload(c.req.raw, {
      fields: [],
      bundle: false,
      limits: config.baseFiles,
    })
    const stored = upload.files.map(storedFile).sort((a, b) => byCodeUnits(a.path, b.path))
    await store.transaction(async (tx) => {
      // The new set replaces the old: the owner's usage moves by the difference.
      if (store.capabilities.rowLocks) await tx.projects.holdForBaseFiles(row.id)
      const before = await tx.projects.baseFiles(row.id)
      const sum = (files: readonly { size: number }[]) => files.reduce((n, f) => n + f.size, 0)
      await chargeStorage(
        tx,
        config.quotas.storage,
        { id: row.account_id, handle: row.account_handle },
        'baseFiles',
        {
          items: stored.length - before.length,
          bytes: sum(stored) - sum(before),
        },
      )
      await tx.blobs.putMany(upload.files)
      await tx.projects.replaceBaseFiles(row.id, stored)
    })
    return c.json(
      {
        project: { account: row.account_handle, slug: row.slug },
        files: stored,
        fileCount: stored.length,
        totalBytes: stored.reduce((sum, f) => sum + f.size, 0),
      },
      200,
    )
  },
)

const ProjectCursorShape = z.tuple([z.string(), z.string()])

projects.openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['projects'],
    summary: 'List the projects the caller can read',
    description:
      "The projects of the caller's own account and of the organisations it belongs to, by account and slug.",
    security: BEARER,
    middleware: [READ] as const,
    request: {
      query: PageQuery.extend({
        account: AccountParam.optional().openapi({
          description: 'Only the projects of this account',
        }),
      }),
    },
    responses: {
      200: {
        description: 'A page of projects',
        content: { 'application/json': { schema: ProjectListSchema } },
      },
      ...errorResponses(401, 403, 404, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const query = c.req.valid('query')
    const { store, config } = c.get('hub')
    const account = query.account ? await accountOrThrow(store, query.account) : undefined
    const after = query.cursor ? decodeCursor(query.cursor, ProjectCursorShape) : undefined
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const rows = await store.projects.listReadable({
      readerId: caller.userId,
      accountId: account?.id,
      after: after && { account: after[0], slug: after[1] },
      limit: limit + 1,
    })
    const { page, nextCursor } = pageOf(rows, limit, (last) => [last.account_handle, last.slug])
    return c.json(
      {
        projects: page.map((row) => ({
          ...projectRecord(row, config.publicUrl),
          configUpdatedAt: row.config_updated_at,
        })),
        nextCursor,
      },
      200,
    )
  },
)

projects.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}',
    tags: ['projects'],
    summary: 'Get a project: its stack, pin, API, and a summary of its config and base files',
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams },
    responses: {
      200: {
        description: 'The project',
        content: { 'application/json': { schema: ProjectDetailSchema } },
      },
      ...errorResponses(401, 403, 404, 422),
    },
  }),
  async (c) => {
    const row = await projectFor(c, 'read')
    const { store, config } = c.get('hub')
    const stored = storedConfig(row)
    const files = await store.projects.baseFiles(row.id)
    return c.json(
      {
        ...projectRecord(row, config.publicUrl),
        configUpdatedAt: row.config_updated_at,
        settingCount: Object.keys(stored.settings).length,
        enrichmentCount: stored.enrichments.length,
        baseFileCount: files.length,
        baseFilesBytes: files.reduce((sum, f) => sum + f.size, 0),
      },
      200,
    )
  },
)

projects.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/preview/base-files',
    tags: ['projects'],
    summary: "List a project's stored base files",
    security: BEARER,
    middleware: [READ] as const,
    request: { params: ProjectParams },
    responses: {
      200: {
        description: 'The stored set, sorted by path',
        content: { 'application/json': { schema: BaseFilesSchema } },
      },
      ...errorResponses(401, 403, 404, 422),
    },
  }),
  async (c) => {
    const row = await projectFor(c, 'read')
    const files = await c.get('hub').store.projects.baseFiles(row.id)
    return c.json(baseFilesAnswer(row, files), 200)
  },
)

function baseFilesAnswer(
  row: { account_handle: string; slug: string },
  files: readonly { path: string; size: number; sha256: string }[],
) {
  return {
    project: { account: row.account_handle, slug: row.slug },
    files: [...files],
    fileCount: files.length,
    totalBytes: files.reduce((sum, f) => sum + f.size, 0),
  }
}

function invalid(field: string, why: string): ApiError {
  return invalidRequest([{ path: `json.${field}`, message: why }])
}
