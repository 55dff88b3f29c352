import { createRoute, z } from '@hono/zod-openapi'
import {
  StackListSchema,
  StackSchema,
  StackVersionDetailSchema,
  StackVersionListSchema,
  StackVersionSchema,
} from '@svc/hub-api'
import semver from 'semver'
import {
  accountOrThrow,
  accountWithRoleOrThrow,
  requireAccess,
  requireAccessWith,
} from '../auth/access.js'
import { ApiError } from '../errors/index.js'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
import type { HubEnv } from '../http/env.js'
import { AccountParam, BEARER, createRouter, errorResponses, SlugParam } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import { latestOf } from '../stacks/latest-version.js'
import { publishStackVersion } from '../stacks/publish.js'
import { stackVersionRecord } from '../stacks/record.js'
import type { Context } from 'hono'
import { readUpload } from '../uploads/read-upload.js'

const StackParams = z.object({ account: AccountParam, slug: SlugParam })
const VersionParams = StackParams.extend({
  version: z.string().max(256).openapi({ example: '1.2.0' }),
})

/** Reading a stack needs `read`, or `write:releases` (so a publish-only token can read back). */
const READ = needs('read', 'write:releases')

export const stacks = createRouter()

const StackCursorShape = z.tuple([z.string(), z.string()])

stacks.openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['stacks'],
    summary: 'List the stacks the caller can read',
    description:
      "The stacks of the caller's own account and of the organisations it belongs to, by account and slug.",
    security: BEARER,
    middleware: [READ] as const,
    request: {
      query: PageQuery.extend({
        account: AccountParam.optional().openapi({
          description: 'Only the stacks of this account',
        }),
      }),
    },
    responses: {
      200: {
        description: 'A page of stacks',
        content: { 'application/json': { schema: StackListSchema } },
      },
      ...errorResponses(401, 403, 404, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const query = c.req.valid('query')
    const { store } = c.get('hub')
    const account = query.account ? await accountOrThrow(store, query.account) : undefined
    const after = query.cursor ? decodeCursor(query.cursor, StackCursorShape) : undefined
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const rows = await store.stacks.listReadable({
      readerId: caller.userId,
      accountId: account?.id,
      after: after && { account: after[0], slug: after[1] },
      limit: limit + 1,
    })
    const { page, nextCursor } = pageOf(rows, limit, (last) => [last.account_handle, last.slug])
    const names = await store.stacks.versionNames(page.map((row) => row.id))
    return c.json(
      {
        stacks: page.map((row) => ({
          stack: { account: row.account_handle, slug: row.slug },
          createdAt: row.created_at,
          latestVersion: latestOf(names.filter((n) => n.stack_id === row.id).map((n) => n.version)),
          versionCount: row.version_count,
          lastPublishedAt: row.last_published_at,
        })),
        nextCursor,
      },
      200,
    )
  },
)

stacks.openapi(
  createRoute({
    method: 'post',
    path: '/{account}/{slug}/versions',
    tags: ['stacks'],
    summary: 'Publish a stack version',
    description:
      'Uploads a version, its bundle and its source files in one multipart request and stores them atomically. ' +
      'The stack is created on its first publish. Parts may come in any order.',
    security: BEARER,
    middleware: [needs('write:releases')] as const,
    request: {
      params: StackParams,
      body: {
        required: true,
        content: {
          // A plain schema (not zod): the body is streamed by readUpload, never buffered by a validator.
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['version', 'bundle', 'files'],
              properties: {
                version: { type: 'string', description: 'semver, e.g. 1.2.0' },
                bundle: { type: 'string', format: 'binary', description: 'server.js' },
                files: {
                  type: 'array',
                  items: { type: 'string', format: 'binary' },
                  description: "One part per source file; the part's filename is its relative path",
                },
              },
            },
          },
        },
      },
    },
    responses: {
      201: {
        description: 'The stored stack version',
        content: { 'application/json': { schema: StackVersionSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { account: handle, slug } = c.req.valid('param')
    const { store, config } = c.get('hub')
    const account = await accountOrThrow(store, handle)
    await requireAccess(store, caller, account, 'write', 'stacks')
    const upload = await readUpload(c.req.raw, {
      fields: ['version'],
      bundle: true,
      limits: config.publish,
    })
    const record = await publishStackVersion({
      store,
      caller,
      account,
      slug,
      upload,
      publicUrl: config.publicUrl,
      quotas: config.quotas.storage,
    })
    c.header('Location', record.versionUrl)
    return c.json(record, 201)
  },
)

stacks.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}',
    tags: ['stacks'],
    summary: 'Get a stack and its versions',
    security: BEARER,
    middleware: [READ] as const,
    request: { params: StackParams },
    responses: {
      200: { description: 'The stack', content: { 'application/json': { schema: StackSchema } } },
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const stack = await readableStack(c)
    const versions = await c.get('hub').store.stacks.versions(stack.id)
    const sorted = versions.map((v) => v.version).sort(semver.rcompare)
    const latest = latestOf(sorted)
    return c.json(
      {
        stack: { account: stack.account_handle, slug: stack.slug },
        createdAt: stack.created_at,
        latestVersion: latest,
        versions: sorted,
      },
      200,
    )
  },
)

stacks.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/versions',
    tags: ['stacks'],
    summary: "List a stack's versions, newest first",
    security: BEARER,
    middleware: [READ] as const,
    request: { params: StackParams },
    responses: {
      200: {
        description: 'The versions',
        content: {
          'application/json': { schema: StackVersionListSchema },
        },
      },
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const stack = await readableStack(c)
    const versions = await c.get('hub').store.stacks.versions(stack.id)
    const { config } = c.get('hub')
    const ref = { account: stack.account_handle, slug: stack.slug }
    const records = [...versions]
      .sort((a, b) => semver.rcompare(a.version, b.version))
      .map((v) => stackVersionRecord(v, ref, v.publisher, config.publicUrl))
    return c.json({ versions: records }, 200)
  },
)

stacks.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/versions/{version}',
    tags: ['stacks'],
    summary: 'Get one stack version: its record, composition and file list',
    security: BEARER,
    middleware: [READ] as const,
    request: { params: VersionParams },
    responses: {
      200: {
        description: 'The version',
        content: { 'application/json': { schema: StackVersionDetailSchema } },
      },
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const { stack, version } = await readableVersion(c)
    const { store, config } = c.get('hub')
    const publisher = await store.accounts.findById(version.published_by)
    const record = stackVersionRecord(
      version,
      { account: stack.account_handle, slug: stack.slug },
      publisher?.handle ?? '',
      config.publicUrl,
    )
    return c.json({ ...record, files: await store.stacks.files(version.id) }, 200)
  },
)

stacks.openapi(
  createRoute({
    method: 'get',
    path: '/{account}/{slug}/versions/{version}/bundle',
    tags: ['stacks'],
    summary: "Download a version's bundle (server.js)",
    security: BEARER,
    middleware: [READ] as const,
    request: { params: VersionParams },
    responses: {
      200: {
        description: 'The bundle',
        content: { 'text/javascript': { schema: { type: 'string', format: 'binary' } } },
      },
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const { version } = await readableVersion(c)
    return blobResponse(c, version.bundle_sha256, 'text/javascript; charset=utf-8', 'server.js')
  },
)

const fileRoute = createRoute({
  method: 'get',
  path: '/{account}/{slug}/versions/{version}/files/{path}',
  tags: ['stacks'],
  summary: "Download one of a version's source files",
  description: 'The path may contain `/` as is or percent-encoded.',
  security: BEARER,
  request: { params: VersionParams.extend({ path: z.string().openapi({ example: 'deno.json' }) }) },
  responses: {
    200: {
      description: "The file's bytes",
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    },
    ...errorResponses(401, 403, 404),
  },
})
// Registered by hand so that `{path}` can span several segments.
stacks.openAPIRegistry.registerPath(fileRoute)
stacks.get('/:account/:slug/versions/:version/files/:path{.+}', READ, async (c) => {
  const { version } = await readableVersion(c)
  const path = c.req.param('path')
  const file = await c.get('hub').store.stacks.file(version.id, path)
  if (!file) throw new ApiError('not_found', `Version ${version.version} has no file '${path}'.`)
  return blobResponse(c, file.sha256, 'application/octet-stream', path.split('/').pop() ?? path)
})

type StackContext = Context<HubEnv>

async function readableStack(c: StackContext) {
  const caller = requireCaller(c)
  const handle = c.req.param('account') ?? ''
  const slug = c.req.param('slug') ?? ''
  const { store } = c.get('hub')
  requireAccessWith(caller, await accountWithRoleOrThrow(store, caller, handle), 'read', 'stacks')
  const stack = await store.stacks.find(handle, slug)
  if (!stack) throw new ApiError('not_found', `There is no stack @${handle}/${slug}.`)
  return stack
}

async function readableVersion(c: StackContext) {
  const stack = await readableStack(c)
  const wanted = c.req.param('version') ?? ''
  const version = await c.get('hub').store.stacks.version(stack.id, wanted)
  if (!version) {
    throw new ApiError(
      'not_found',
      `@${stack.account_handle}/${stack.slug} has no version '${wanted}'.`,
    )
  }
  return { stack, version }
}

async function blobResponse(c: StackContext, sha256: string, type: string, name: string) {
  const data = await c.get('hub').store.blobs.get(sha256)
  if (!data) throw new Error(`blob ${sha256} is missing`)
  return c.body(data as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': type,
    'Content-Disposition': `attachment; filename="${name.replace(/["\\\r\n]/g, '_')}"`,
    ETag: `"${sha256}"`,
    'Cache-Control': 'private, max-age=31536000, immutable',
  })
}
