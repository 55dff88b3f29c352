import { createRoute, z } from '@hono/zod-openapi'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import { AccountParam, createRouter, ErrorSchema } from '../http/router.js'
import { invalidRequest } from '../errors/index.js'
import {
  libraryCaller,
  namedOrg,
  readableLibrary,
  type LibraryCaller,
  type LibraryOrg,
} from '../libraries/access.js'
import { createLibrary } from '../libraries/create.js'
import {
  IDEMPOTENCY_KEY_PATTERN,
  inFlight,
  requireIdempotencyKey,
} from '../libraries/idempotency.js'
import {
  CreateLibrarySchema,
  LibraryResponseSchema,
  LibrarySchema,
  libraryRecord,
} from '../libraries/record.js'
import { needsUserOrKey } from '../middleware/authenticate.js'
import type { Repos } from '../store/store.js'

/** A PAT (`bearerAuth`) with the scope the route names, or an organisation API key. */
const SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { orgApiKey: [] }]

const DEFAULT_ERROR = {
  default: {
    description: 'Any failure: the ApiError envelope (see docs/api/errors.md for the codes)',
    content: { 'application/json': { schema: ErrorSchema } },
  },
}

const OrgQuery = z.object({
  org: AccountParam.optional().openapi({
    description:
      'The organisation (handle) the libraries belong to: required with a PAT when creating; with an API key, its own organisation (the default)',
  }),
})

const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().regex(IDEMPOTENCY_KEY_PATTERN).openapi({
    description:
      'A unique value per operation (a UUID, say), 1 to 255 printable ASCII characters without spaces: a retry with the same key and body answers the first response again',
    example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
  }),
})

const LibraryListSchema = z
  .object({ libraries: z.array(LibrarySchema), nextCursor: z.string().nullable() })
  .openapi('LibraryList')

const LibraryCursorShape = z.tuple([z.iso.datetime(), z.string()])

export const libraries = createRouter()

libraries.openAPIRegistry.registerComponent('securitySchemes', 'orgApiKey', {
  type: 'http',
  scheme: 'bearer',
  description: 'An organisation API key (`svc_key_…`), on the library endpoints only',
})

libraries.openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags: ['libraries'],
    summary: 'Create a library',
    description:
      'Needs `Idempotency-Key`. With a PAT (scope `write:libraries`), `org` names the organisation, where the user must have write access; an API key creates in its own organisation. See docs/api/libraries.md for the idempotency rules.',
    security: SECURITY,
    middleware: [needsUserOrKey('write:libraries'), requireIdempotencyKey, jsonBodyLimit] as const,
    request: {
      query: OrgQuery,
      headers: IdempotencyHeaders,
      body: { required: true, content: { 'application/json': { schema: CreateLibrarySchema } } },
    },
    responses: {
      201: {
        description: 'The library; a replay answers the first response again, byte for byte',
        content: { 'application/json': { schema: LibraryResponseSchema } },
      },
      ...DEFAULT_ERROR,
    },
  }),
  async (c) => {
    const who = libraryCaller(c)
    const { store, config } = c.get('hub')
    const key = c.req.valid('header')['idempotency-key']
    const org = await creatingOrg(store, who, c.req.valid('query').org)
    const outcome = await createLibrary({
      store,
      who,
      org,
      body: c.req.valid('json'),
      idempotencyKey: key,
      requestId: c.get('requestId'),
      publicUrl: config.publicUrl,
    })
    if (outcome.kind === 'in_flight') {
      c.header('Retry-After', '1')
      throw inFlight(key)
    }
    if (outcome.kind === 'replay') c.header('Idempotent-Replayed', 'true')
    const { status, body } = outcome.response
    // The stored text itself, so that every answer to this key is the same bytes.
    return c.body(body, status as 201, { 'Content-Type': 'application/json' }) as never
  },
)

libraries.openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['libraries'],
    summary: 'List libraries',
    description:
      "Oldest first. With an API key, its organisation's; with a PAT (scope `read` or `write:libraries`), those of `org`, or without it of every organisation the user belongs to.",
    security: SECURITY,
    middleware: [needsUserOrKey('read', 'write:libraries')] as const,
    request: { query: PageQuery.extend(OrgQuery.shape) },
    responses: {
      200: {
        description: 'A page of libraries',
        content: { 'application/json': { schema: LibraryListSchema } },
      },
      ...DEFAULT_ERROR,
    },
  }),
  async (c) => {
    const who = libraryCaller(c)
    const query = c.req.valid('query')
    const { store } = c.get('hub')
    const owners = query.org
      ? { orgId: (await namedOrg(store, who, query.org, 'read')).id }
      : who.kind === 'key'
        ? { orgId: who.key.orgId }
        : { memberId: who.user.userId }
    const after = query.cursor ? decodeCursor(query.cursor, LibraryCursorShape) : undefined
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const rows = await store.libraries.list(owners, {
      after: after && { createdAt: after[0], id: after[1] },
      limit: limit + 1,
    })
    const { page, nextCursor } = pageOf(rows, limit, (last) => [last.created_at, last.id])
    return c.json(
      {
        libraries: page.map(libraryRecord),
        nextCursor,
      },
      200,
    )
  },
)

libraries.openapi(
  createRoute({
    method: 'get',
    path: '/{id}',
    tags: ['libraries'],
    summary: 'Get a library',
    description:
      "404 alike for a library that does not exist and for another organisation's library.",
    security: SECURITY,
    middleware: [needsUserOrKey('read', 'write:libraries')] as const,
    request: {
      params: z.object({
        id: z
          .string()
          .regex(/^lib_[0-9a-f]{24}$/, { error: 'must be a library id (`lib_…`)' })
          .openapi({ example: 'lib_5f0c7e2b9d4a1c3e8f6b2a70' }),
      }),
    },
    responses: {
      200: {
        description: 'The library',
        content: { 'application/json': { schema: LibrarySchema } },
      },
      ...DEFAULT_ERROR,
    },
  }),
  async (c) => {
    const row = await readableLibrary(c.get('hub').store, libraryCaller(c), c.req.valid('param').id)
    return c.json(libraryRecord(row), 200)
  },
)

/** The organisation a new library goes to: the key's own, or the one a PAT names in `org`. */
async function creatingOrg(
  repos: Repos,
  who: LibraryCaller,
  handle: string | undefined,
): Promise<LibraryOrg> {
  if (handle) return namedOrg(repos, who, handle, 'write')
  if (who.kind === 'key') return { id: who.key.orgId, handle: who.key.orgHandle }
  throw invalidRequest([
    {
      path: 'query.org',
      message:
        'is required with a personal access token: the organisation to create the library in',
    },
  ])
}
