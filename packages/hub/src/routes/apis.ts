import { createRoute, z } from '@hono/zod-openapi'
import { accountOrThrow, requireAccess } from '../auth/access.js'
import { ApiError } from '../errors/index.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import { AccountParam, BEARER, createRouter, errorResponses, SlugParam } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import type { ApiRow } from '../store/schema.js'

const CreateApiSchema = z
  .strictObject({
    owner: AccountParam,
    slug: SlugParam,
    name: z.string().min(1).max(200),
    visibility: z.enum(['public', 'private']).default('private'),
    sourceUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .max(2048)
      .optional(),
  })
  .openapi('CreateApi')

const ApiSchema = z
  .object({
    id: z.string(),
    owner: z.string(),
    slug: z.string(),
    name: z.string(),
    visibility: z.enum(['public', 'private']),
    sourceUrl: z.string().nullable(),
    url: z.url().openapi({ description: "The API's page on the hub" }),
    createdAt: z.iso.datetime(),
  })
  .openapi('Api')

export const apis = createRouter()

function apiRecord(row: ApiRow, owner: string, publicUrl: string): z.infer<typeof ApiSchema> {
  return {
    id: row.id,
    owner,
    slug: row.slug,
    name: row.name,
    visibility: row.visibility,
    sourceUrl: row.source_url,
    url: `${publicUrl}/${encodeURIComponent(owner)}/apis/${encodeURIComponent(row.slug)}`,
    createdAt: row.created_at,
  }
}

apis.openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags: ['apis'],
    summary: 'Create an API',
    security: BEARER,
    middleware: [needs('write:apis'), jsonBodyLimit] as const,
    request: {
      body: { required: true, content: { 'application/json': { schema: CreateApiSchema } } },
    },
    responses: {
      201: { description: 'The API', content: { 'application/json': { schema: ApiSchema } } },
      ...errorResponses(400, 401, 403, 404, 409, 415, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const body = c.req.valid('json')
    const { store, config } = c.get('hub')
    const owner = await accountOrThrow(store, body.owner)
    await requireAccess(store, caller, owner, 'write', 'APIs')
    try {
      const row = await store.projects.createApi({
        account_id: owner.id,
        slug: body.slug,
        name: body.name,
        visibility: body.visibility,
        source_url: body.sourceUrl ?? null,
      })
      return c.json(apiRecord(row, owner.handle, config.publicUrl), 201)
    } catch (error) {
      if (!store.capabilities.isUniqueViolation(error)) throw error
      throw new ApiError('already_exists', `The API ${body.owner}/${body.slug} exists already.`)
    }
  },
)

apis.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}',
    tags: ['apis'],
    summary: 'Get an API',
    security: BEARER,
    middleware: [needs('read', 'write:apis')] as const,
    request: { params: z.object({ owner: AccountParam, slug: SlugParam }) },
    responses: {
      200: { description: 'The API', content: { 'application/json': { schema: ApiSchema } } },
      ...errorResponses(401, 403, 404),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { owner: handle, slug } = c.req.valid('param')
    const { store, config } = c.get('hub')
    const owner = await accountOrThrow(store, handle)
    const row = await store.projects.findApi(handle, slug)
    if (!row || row.visibility === 'private')
      await requireAccess(store, caller, owner, 'read', 'APIs')
    if (!row) throw new ApiError('not_found', `There is no API ${handle}/${slug}.`)
    return c.json(apiRecord(row, owner.handle, config.publicUrl), 200)
  },
)
