import { createRoute, z } from '@hono/zod-openapi'
import { ApiListSchema, ApiSchema, DiffProfileSchema } from '@svc/hub-api'
import { API_READ_SCOPES, readableApi, writableApi } from '../apis/api-access.js'
import { apiRecord } from '../apis/record.js'
import { accountOrThrow, requireAccess } from '../auth/access.js'
import { ApiError } from '../errors/index.js'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import { outboundUrl } from '../outbound/guard.js'
import { requestAllowList } from '../outbound/request-guard.js'
import {
  AccountParam,
  BEARER,
  createRouter,
  errorResponses,
  OPTIONAL_BEARER,
  PlainText,
  SlugParam,
} from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'

const CreateApiSchema = z
  .strictObject({
    owner: AccountParam,
    slug: SlugParam,
    name: PlainText(200).min(1),
    visibility: z.enum(['public', 'private']).default('private'),
    sourceUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .max(2048)
      .optional(),
  })
  .openapi('CreateApi')

const UpdateApiSchema = z
  .strictObject({
    diffProfile: DiffProfileSchema.optional().openapi({
      description:
        "The profile the API's next revisions are diffed with; revisions stored already keep their changelogs",
    }),
  })
  .openapi('UpdateApi')

const ApiCursorShape = z.tuple([z.iso.datetime(), z.string()])

export const apis = createRouter()

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
      const row = await store.apis.create({
        account_id: owner.id,
        slug: body.slug,
        name: body.name,
        visibility: body.visibility,
        // Checked now, so that a source the hub would never fetch is refused when it is given.
        source_url: body.sourceUrl
          ? outboundUrl(body.sourceUrl, requestAllowList(c), 'json.sourceUrl')
          : null,
      })
      return c.json(apiRecord({ ...row, owner_handle: owner.handle }, config.publicUrl), 201)
    } catch (error) {
      if (!store.capabilities.isUniqueViolation(error)) throw error
      throw new ApiError('already_exists', `The API ${body.owner}/${body.slug} exists already.`)
    }
  },
)

apis.openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['apis'],
    summary: 'List the APIs the caller can read',
    description:
      'Every public API, and the private APIs of accounts the caller can read (with a token that has `read` or `write:apis`); oldest first.',
    security: OPTIONAL_BEARER,
    request: {
      query: PageQuery.extend({
        owner: AccountParam.optional().openapi({ description: 'Only the APIs of this account' }),
      }),
    },
    responses: {
      200: {
        description: 'A page of APIs',
        content: { 'application/json': { schema: ApiListSchema } },
      },
      ...errorResponses(401, 404, 422),
    },
  }),
  async (c) => {
    const query = c.req.valid('query')
    const { store, config } = c.get('hub')
    const caller = c.get('caller')
    const owner = query.owner ? await accountOrThrow(store, query.owner) : undefined
    const after = query.cursor ? decodeCursor(query.cursor, ApiCursorShape) : undefined
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const readerId =
      caller && API_READ_SCOPES.some((scope) => caller.scopes.includes(scope))
        ? caller.userId
        : undefined
    const rows = await store.apis.listReadable({
      readerId,
      ownerId: owner?.id,
      after: after && { createdAt: after[0], id: after[1] },
      limit: limit + 1,
    })
    const { page, nextCursor } = pageOf(rows, limit, (last) => [last.created_at, last.id])
    return c.json(
      {
        apis: page.map((row) => apiRecord(row, config.publicUrl)),
        nextCursor,
      },
      200,
    )
  },
)

apis.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}',
    tags: ['apis'],
    summary: 'Get an API',
    description:
      'A public API needs no token. A private one needs read access on its owner and a token with `read` or `write:apis`; to anyone else it is 404.',
    security: OPTIONAL_BEARER,
    request: { params: z.object({ owner: AccountParam, slug: SlugParam }) },
    responses: {
      200: { description: 'The API', content: { 'application/json': { schema: ApiSchema } } },
      ...errorResponses(401, 403, 404, 422),
    },
  }),
  async (c) => {
    const { owner, slug } = c.req.valid('param')
    const { store, config } = c.get('hub')
    const api = await readableApi(store, c.get('caller'), owner, slug)
    return c.json(apiRecord(api, config.publicUrl), 200)
  },
)

apis.openapi(
  createRoute({
    method: 'patch',
    path: '/{owner}/{slug}',
    tags: ['apis'],
    summary: "Change an API's settings",
    description:
      'Sets the fields given; the others stay. `diffProfile` is the profile the changelogs of the ' +
      'revisions pushed from now on are computed with, and the default of `…/diff`, of a push’s ' +
      'gate and of the webhooks that follow the API. Needs write access on the owner and a token ' +
      'with `write:apis`.',
    security: BEARER,
    middleware: [needs('write:apis'), jsonBodyLimit] as const,
    request: {
      params: z.object({ owner: AccountParam, slug: SlugParam }),
      body: { required: true, content: { 'application/json': { schema: UpdateApiSchema } } },
    },
    responses: {
      200: { description: 'The API', content: { 'application/json': { schema: ApiSchema } } },
      ...errorResponses(400, 401, 403, 404, 415, 422),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { owner, slug } = c.req.valid('param')
    const body = c.req.valid('json')
    const { store, config } = c.get('hub')
    const api = await writableApi(store, caller, owner, slug)
    if (body.diffProfile === undefined) return c.json(apiRecord(api, config.publicUrl), 200)
    await store.apis.setDiffProfile(api.id, body.diffProfile)
    return c.json(apiRecord({ ...api, diff_profile: body.diffProfile }, config.publicUrl), 200)
  },
)
