import { createRoute, z } from '@hono/zod-openapi'
import {
  DiffProfileSchema,
  ISSUE_LEVELS,
  PushResultSchema,
  RevisionChangesSchema,
  RevisionIssueListSchema,
  RevisionListSchema,
  RevisionSchema,
  type RevisionIssue,
} from '@svc/hub-api'
import type { DiffProfile } from '@svc/engine'
import { readableApi, writableApi } from '../apis/api-access.js'
import { revisionChangelog } from '../apis/profile-changelog.js'
import { pushRevision, type PushResult } from '../apis/push.js'
import { refetchRevision } from '../apis/refetch.js'
import { requestServices } from '../outbound/request-guard.js'
import {
  DOCUMENT_BODY,
  PublishedAt,
  PushEnvelopeSchema,
  readPushedDocument,
  VersionLabel,
} from '../apis/pushed-document.js'
import type { AnalysisRequest } from '../apis/document-analysis.js'
import { revisionRecord, servedChangelog, servedRevisionIssues } from '../apis/record.js'
import { findRevision } from '../apis/revision-address.js'
import { diffWithRevision } from '../apis/revision-diff.js'
import { decodeCursor, DEFAULT_PAGE_SIZE, PageQuery, pageOf } from '../http/cursor.js'
import type { HubServices } from '../http/env.js'
import { BEARER, createRouter, errorResponses, OPTIONAL_BEARER } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import type { RevisionListing } from '../store/apis-repo.js'
import { ApiParams, readableRevision, RevisionParam, RevisionParams } from './revision-params.js'

const SeqCursorShape = z.tuple([z.int().positive()])
const OffsetCursorShape = z.tuple([z.int().positive()])

const READ_ERRORS = errorResponses(401, 403, 404, 422)

const ANALYSIS_NOTE =
  'The document is read and diffed within the hub’s budget (its nodes once YAML aliases are ' +
  'expanded, time, memory: over one, 422 `document_too_complex` names it), in the caller’s own ' +
  'queue, served in turn with other accounts’ (full: 429 `queue_full` with `Retry-After`).'

export const revisions = createRouter()

revisions.openAPIRegistry.register('PushEnvelope', PushEnvelopeSchema)

revisions.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/revisions',
    tags: ['apis'],
    summary: 'Push a revision',
    description:
      'The body is the document itself (`version` and `publishedAt` then come as query parameters), ' +
      'or, as `application/json`, the envelope `{document, version?, publishedAt?}`: a JSON body is the ' +
      'envelope when its top level has a `document` key and no `openapi` or `swagger` key. ' +
      "A document byte-identical to the latest revision's makes no revision (200, `created: false`). " +
      ANALYSIS_NOTE,
    security: BEARER,
    middleware: [needs('write:apis')] as const,
    request: {
      params: ApiParams,
      query: z.object({
        version: VersionLabel.optional().openapi({ description: "The publisher's version label" }),
        publishedAt: PublishedAt.optional().openapi({ description: "The publisher's timestamp" }),
        profile: DiffProfileSchema.optional().openapi({
          description:
            "The profile the answer's `summary` and `counts` (the gate of `svc api push --fail-on`) are judged with; the API's `diffProfile` when not given. The revision's own changelog is the API's profile's; this one is kept beside it (`…/changes?profile=`).",
        }),
      }),
      body: DOCUMENT_BODY,
    },
    responses: {
      200: {
        description: 'Nothing was created: the document is the latest revision’s',
        content: { 'application/json': { schema: PushResultSchema } },
      },
      201: {
        description: 'The new latest revision and its diff against the one before',
        content: { 'application/json': { schema: PushResultSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429, 503),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { owner, slug } = c.req.valid('param')
    const query = c.req.valid('query')
    const { store, config } = c.get('hub')
    const api = await writableApi(store, caller, owner, slug)
    const { documents } = c.get('hub')
    const result = await documents.admitted(caller, async () =>
      pushRevision({
        store,
        caller,
        api,
        document: await readPushedDocument(c.req.raw, query, config.documentBytes),
        maxBytes: config.documentBytes,
        documents,
        origin: 'push',
        publicUrl: config.publicUrl,
        deliveries: c.get('hub').deliveries,
        signal: c.req.raw.signal,
        log: c.get('log'),
        quotas: config.quotas.storage,
        profile: query.profile,
      }),
    )
    const body = pushBody(result, api, config.publicUrl)
    if (!result.created) return c.json(body, 200)
    c.header('Location', body.revision.url)
    return c.json(body, 201)
  },
)

revisions.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/refetch',
    tags: ['apis'],
    summary: "Fetch the API's sourceUrl and push what it serves",
    description:
      'The hub GETs `sourceUrl` through its outbound guard (no private targets; 30 s; at most 5 ' +
      'redirects, each re-checked; the document size limit) and handles the body exactly as a push: ' +
      "a new revision when it differs from the latest revision's bytes (201), else none (200). " +
      ANALYSIS_NOTE,
    security: BEARER,
    middleware: [needs('write:apis')] as const,
    request: { params: ApiParams },
    responses: {
      200: {
        description: 'Nothing was created: the source serves the latest revision’s document',
        content: { 'application/json': { schema: PushResultSchema } },
      },
      201: {
        description: 'The new latest revision and its diff against the one before',
        content: { 'application/json': { schema: PushResultSchema } },
      },
      ...errorResponses(401, 403, 404, 409, 413, 422, 429, 502, 503),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { owner, slug } = c.req.valid('param')
    const hub = c.get('hub')
    const api = await writableApi(hub.store, caller, owner, slug)
    // Its guard is the request's: loopback only for a local trial's own machine.
    const result = await hub.documents.admitted(caller, () =>
      refetchRevision(requestServices(c), caller, api, {
        signal: c.req.raw.signal,
        log: c.get('log'),
      }),
    )
    const body = pushBody(result, api, hub.config.publicUrl)
    if (!result.created) return c.json(body, 200)
    c.header('Location', body.revision.url)
    return c.json(body, 201)
  },
)

revisions.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/revisions',
    tags: ['apis'],
    summary: "List an API's revisions, newest first",
    security: OPTIONAL_BEARER,
    request: { params: ApiParams, query: PageQuery },
    responses: {
      200: {
        description: 'A page of revisions',
        content: { 'application/json': { schema: RevisionListSchema } },
      },
      ...READ_ERRORS,
    },
  }),
  async (c) => {
    const { owner, slug } = c.req.valid('param')
    const query = c.req.valid('query')
    const { store, config } = c.get('hub')
    const api = await readableApi(store, c.get('caller'), owner, slug)
    const before = query.cursor ? decodeCursor(query.cursor, SeqCursorShape)[0] : undefined
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const rows = await store.apis.revisions(api.id, { beforeSeq: before, limit: limit + 1 })
    const { page, nextCursor } = pageOf(rows, limit, (last) => [last.seq])
    return c.json(
      {
        revisions: page.map((row) => revisionRecord(row, api, config.publicUrl)),
        nextCursor,
      },
      200,
    )
  },
)

revisions.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/revisions/{id}',
    tags: ['apis'],
    summary: 'Get a revision (by id, by sequence number, or `latest`)',
    security: OPTIONAL_BEARER,
    request: { params: RevisionParams },
    responses: {
      200: {
        description: 'The revision',
        content: { 'application/json': { schema: RevisionSchema } },
      },
      ...READ_ERRORS,
    },
  }),
  async (c) => {
    const { api, revision } = await readableRevision(c)
    return c.json(revisionRecord(revision, api, c.get('hub').config.publicUrl), 200)
  },
)

revisions.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/revisions/{id}/document',
    tags: ['apis'],
    summary: "Download a revision's document",
    description: 'The bytes as they were pushed, with the media type they were pushed as.',
    security: OPTIONAL_BEARER,
    request: { params: RevisionParams },
    responses: {
      200: {
        description: 'The document',
        content: {
          'application/json': { schema: { type: 'string', format: 'binary' } },
          'application/yaml': { schema: { type: 'string', format: 'binary' } },
          'application/graphql': { schema: { type: 'string', format: 'binary' } },
        },
      },
      ...READ_ERRORS,
    },
  }),
  async (c) => {
    const { revision } = await readableRevision(c)
    const data = await c.get('hub').store.blobs.get(revision.content_hash)
    if (!data) throw new Error(`blob ${revision.content_hash} of ${revision.id} is missing`)
    return c.body(data as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': revision.media_type,
      ETag: `"${revision.content_hash}"`,
      'Cache-Control': 'private, max-age=31536000, immutable',
    })
  },
)

revisions.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/revisions/{id}/changes',
    tags: ['apis'],
    summary:
      "A revision's changelog against the revision that was latest before it, or against any other",
    description:
      '`summary`, `counts`, `changes` and, when either document has parse errors, `issues` are what `svc diff --json` prints for the two documents, under `profile` (the revision’s own, the API’s `diffProfile` when it was pushed, by default). ' +
      'With `against`, the changelog is from that revision to this one (older or newer), computed as `POST …/diff` computes it and not stored; ' +
      '`previousRevision` is then the revision compared with. ' +
      'A changelog under another profile is kept with the revision when a push or a webhook asked for it; otherwise the two documents are diffed again under it, once (as a push is: 429 `queue_full`, 422 `document_too_complex`), and kept.',
    security: OPTIONAL_BEARER,
    request: {
      params: RevisionParams,
      query: z.object({
        against: RevisionParam.optional().openapi({
          description:
            'The revision to compare with instead of the one before: its id (`rev_…`), its sequence number (`5`), or `latest`',
          example: '1',
        }),
        profile: DiffProfileSchema.optional().openapi({
          description: "The changelog's profile, `wire` or `sdk`; the revision's own by default",
        }),
      }),
    },
    responses: {
      200: {
        description: 'The changelog',
        content: { 'application/json': { schema: RevisionChangesSchema } },
      },
      // `against` reads both documents again, as a push does (429).
      ...errorResponses(401, 403, 404, 422, 429),
    },
  }),
  async (c) => {
    const { api, revision } = await readableRevision(c)
    const hub = c.get('hub')
    const { store, config } = hub
    const query = c.req.valid('query')
    const profile = query.profile ?? revision.profile
    const against = query.against ? await findRevision(store, api, query.against) : undefined
    if (against && against.id !== revision.previous_revision_id) {
      const changelog = await compareRevisions(hub, revision, against, profile, {
        caller: c.get('caller'),
        signal: c.req.raw.signal,
        log: c.get('log'),
      })
      return c.json(
        {
          revision: revisionRecord(revision, api, config.publicUrl),
          previousRevision: revisionRecord(against, api, config.publicUrl),
          profile,
          ...servedChangelog(changelog),
        },
        200,
      )
    }
    const previous = revision.previous_revision_id
      ? await store.apis.revision(api.id, revision.previous_revision_id)
      : undefined
    const changelog = await revisionChangelog(
      { store, documents: hub.documents, maxBytes: config.documentBytes },
      revision,
      profile,
      { caller: c.get('caller'), signal: c.req.raw.signal, log: c.get('log') },
    )
    const record = (row: typeof revision) =>
      JSON.stringify(revisionRecord(row, api, config.publicUrl))
    // The stored summary and changes are JSON already: spliced in, not parsed and rewritten,
    // since the changes of a large pair run to megabytes.
    const body =
      `{"revision":${record(revision)},` +
      `"previousRevision":${previous ? record(previous) : 'null'},` +
      `"profile":${JSON.stringify(changelog.profile)},` +
      `"summary":${changelog.summary},` +
      `"counts":${JSON.stringify({ breaking: changelog.breaking, warning: changelog.warning, info: changelog.info })},` +
      `"changes":${changelog.changes}` +
      (changelog.changelog_issues ? `,"issues":${changelog.changelog_issues}}` : '}')
    // Typed routes expect c.json(); this is the same JSON, already text.
    return c.body(body, 200, { 'Content-Type': 'application/json' }) as never
  },
)

revisions.openapi(
  createRoute({
    method: 'get',
    path: '/{owner}/{slug}/revisions/{id}/issues',
    tags: ['apis'],
    summary: "List a revision's parse issues",
    description:
      "The document's parse issues (`revision.parseIssues` counts them), errors first, then " +
      'warnings, then debug, in document order within a level; `level` keeps one level. ' +
      '`line` and `column` are given for YAML and GraphQL, and for JSON up to 4 MiB.',
    security: OPTIONAL_BEARER,
    request: {
      params: RevisionParams,
      query: PageQuery.extend({
        level: z
          .enum(ISSUE_LEVELS)
          .optional()
          .openapi({ description: 'Only the issues of this level' }),
      }),
    },
    responses: {
      200: {
        description: 'A page of parse issues',
        content: { 'application/json': { schema: RevisionIssueListSchema } },
      },
      // A revision stored before its issues were kept is read again, as a push is (429).
      ...errorResponses(401, 403, 404, 422, 429),
    },
  }),
  async (c) => {
    const { revision } = await readableRevision(c)
    const query = c.req.valid('query')
    const all = await revisionIssues(c.get('hub'), revision, {
      caller: c.get('caller'),
      signal: c.req.raw.signal,
      log: c.get('log'),
    })
    const rank = (issue: RevisionIssue) => ISSUE_LEVELS.indexOf(issue.level)
    // Array.prototype.sort is stable: document order holds within a level.
    const sorted = all
      .filter((issue) => !query.level || issue.level === query.level)
      .sort((a, b) => rank(a) - rank(b))
    const start = query.cursor ? decodeCursor(query.cursor, OffsetCursorShape)[0] : 0
    const limit = query.limit ?? DEFAULT_PAGE_SIZE
    const rows = sorted.slice(start, start + limit + 1)
    const { page, nextCursor } = pageOf(rows, limit, () => [start + limit])
    return c.json(
      {
        counts: {
          error: revision.issue_errors,
          warning: revision.issue_warnings,
          debug: revision.issue_debug,
        },
        issues: page,
        nextCursor,
      },
      200,
    )
  },
)

/**
 * The changelog from revision `against` to `revision`, as a push of `revision`'s document onto
 * `against` would store it; a signed-in caller's counts as one of its account's pushes under way.
 */
async function compareRevisions(
  hub: HubServices,
  revision: RevisionListing,
  against: RevisionListing,
  profile: DiffProfile,
  request: AnalysisRequest,
) {
  const data = await hub.store.blobs.get(revision.content_hash)
  if (!data) throw new Error(`blob ${revision.content_hash} of ${revision.id} is missing`)
  const diff = () =>
    diffWithRevision({
      ...request,
      store: hub.store,
      documents: hub.documents,
      document: { bytes: Buffer.from(data), protocol: revision.protocol },
      against,
      // Both documents were accepted once; a lower limit since must not refuse them now.
      maxBytes: Math.max(hub.config.documentBytes, data.byteLength, against.size),
      policies: [],
      profile,
    })
  return request.caller ? hub.documents.admitted(request.caller, diff) : diff()
}

/**
 * A revision's parse issues: as stored with it, or, for a revision stored before they were
 * kept, found by reading its document again (once: they are kept then).
 */
async function revisionIssues(
  hub: HubServices,
  revision: RevisionListing,
  request: AnalysisRequest,
): Promise<RevisionIssue[]> {
  const kept = await hub.store.apis.parseIssues(revision.id)
  if (kept) return JSON.parse(kept) as RevisionIssue[]
  const data = await hub.store.blobs.get(revision.content_hash)
  if (!data) throw new Error(`blob ${revision.content_hash} of ${revision.id} is missing`)
  const analysis = await hub.documents.analyse(
    {
      document: data,
      protocol: revision.protocol,
      maxBytes: Math.max(hub.config.documentBytes, data.byteLength),
    },
    { caller: request.caller, signal: request.signal, log: request.log },
  )
  if (!analysis.ok) throw new Error(`the document of ${revision.id} no longer reads`)
  const issues = [...servedRevisionIssues(analysis.parseIssues)]
  await hub.store.apis.keepParseIssues(revision.id, JSON.stringify(issues))
  return issues
}

function pushBody(
  result: PushResult,
  api: { owner_handle: string; slug: string },
  publicUrl: string,
) {
  return {
    created: result.created,
    revision: revisionRecord(result.revision, api, publicUrl),
    previousRevision: result.previousRevision
      ? revisionRecord(result.previousRevision, api, publicUrl)
      : null,
    profile: result.profile,
    summary: result.changelog.summary,
    counts: result.changelog.counts,
    webhookDeliveries: result.deliveries,
  }
}
