import { createRoute, z } from '@hono/zod-openapi'
import { AcceptanceResultSchema, DiffProfileSchema, RevisionDiffSchema } from '@svc/hub-api'
import { DIFF_POLICIES, type DiffPolicy } from '@svc/engine'
import { acceptRevision, withdrawAcceptance } from '../apis/acceptance.js'
import { readableApi, writableApi } from '../apis/api-access.js'
import { DOCUMENT_BODY, readPushedDocument } from '../apis/pushed-document.js'
import { revisionRecord, servedChangelog } from '../apis/record.js'
import { findRevision } from '../apis/revision-address.js'
import { diffWithRevision } from '../apis/revision-diff.js'
import { jsonBodyLimit } from '../http/json-body-limit.js'
import { BEARER, createRouter, errorResponses, OPTIONAL_BEARER, PlainText } from '../http/router.js'
import { needs, requireCaller } from '../middleware/authenticate.js'
import { ApiParams, RevisionParam, RevisionParams } from './revision-params.js'

/** A policy name, or a comma list of them (`sunset,version`). */
const PolicyList = z
  .string()
  .regex(new RegExp(`^(?:${DIFF_POLICIES.join('|')})(?:,(?:${DIFF_POLICIES.join('|')}))*$`), {
    error: `must be ${DIFF_POLICIES.join(', ')} or a comma list of them`,
  })

const DiffQuery = z.object({
  against: RevisionParam.optional().openapi({
    description:
      'The revision to compare with: its id (`rev_…`), its sequence number (`5`), or `latest` (the default)',
    example: 'latest',
  }),
  policy: z
    .union([PolicyList, z.array(PolicyList)])
    .optional()
    .openapi({
      description: `Conventions to apply on top of the rules, as \`svc diff --policy\`: ${DIFF_POLICIES.join(', ')} (repeat the parameter, or give a comma list)`,
      example: 'sunset,version',
    }),
  profile: DiffProfileSchema.optional().openapi({
    description:
      "Whose breakage to judge, as `svc diff --profile`: `wire` or `sdk`; the API's `diffProfile` when not given",
  }),
})

const AcceptanceBody = z
  .strictObject({
    reason: PlainText(500)
      .trim()
      .min(1, { error: 'give a reason: why the changes are deliberate' })
      .openapi({ description: 'Why the changes are deliberate: 1 to 500 characters' }),
  })
  .openapi('AcceptanceRequest')

/** Comparing a document with a stored revision, and accepting a revision's changes. */
export const revisionReview = createRouter()

revisionReview.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/diff',
    tags: ['apis'],
    summary: 'Diff a document against a stored revision, storing nothing',
    description:
      'The body is a document as for a push (raw, or the JSON envelope `{document}`; labels are ' +
      'ignored), compared with `against` (the latest revision by default) under `profile` (the ' +
      'API’s `diffProfile` by default): the changelog is the one a push of the document would ' +
      'store against that revision, but nothing is stored, ' +
      'charged or sent. An API without revisions answers `against: null` and an empty changelog. ' +
      'Read access suffices: a public API can be diffed without a token (its body is then ' +
      'limited to 64 KiB), a private one needs `read` or `write:apis`. The document is read and ' +
      'diffed within the budgets and in the queue of a push.',
    security: OPTIONAL_BEARER,
    request: {
      params: ApiParams,
      query: DiffQuery,
      body: DOCUMENT_BODY,
    },
    responses: {
      200: {
        description: 'The changelog of the document against `against`',
        content: { 'application/json': { schema: RevisionDiffSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 415, 422, 429, 503),
    },
  }),
  async (c) => {
    const { owner, slug } = c.req.valid('param')
    const query = c.req.valid('query')
    const hub = c.get('hub')
    const { store, config } = hub
    const caller = c.get('caller')
    const api = await readableApi(store, caller, owner, slug)
    const against = query.against ?? 'latest'
    // An unknown revision is 404 before the body is read; no revision at all is no comparison.
    const revision =
      against === 'latest'
        ? await store.apis.latestRevision(api.id)
        : await findRevision(store, api, against)
    const policies = [query.policy ?? []].flat().flatMap((list) => list.split(',') as DiffPolicy[])
    const profile = query.profile ?? api.diff_profile
    const diff = async () =>
      diffWithRevision({
        store,
        documents: hub.documents,
        document: await readPushedDocument(c.req.raw, {}, config.documentBytes),
        against: revision,
        maxBytes: config.documentBytes,
        policies: [...new Set(policies)],
        profile,
        caller,
        signal: c.req.raw.signal,
        log: c.get('log'),
      })
    // A signed-in caller's diff counts as one of the pushes its account may have under way.
    const changelog = caller ? await hub.documents.admitted(caller, diff) : await diff()
    return c.json(
      {
        against: revision ? revisionRecord(revision, api, config.publicUrl) : null,
        profile,
        ...servedChangelog(changelog),
      },
      200,
    )
  },
)

revisionReview.openapi(
  createRoute({
    method: 'post',
    path: '/{owner}/{slug}/revisions/{id}/acceptance',
    tags: ['apis'],
    summary: "Accept a revision's breaking changes and warnings as deliberate",
    description:
      'Records who accepted them, when and why; the revision then carries `acceptance`, and a ' +
      '`--fail-on` gate of `svc api push` passes on it. The API’s webhooks get a ' +
      '`dev.svc.api.revision.accepted.v1` event. Refused with 409 when the revision is accepted ' +
      'already (`already_accepted`, `details.acceptance`) or has no breaking change or warning ' +
      '(`nothing_to_accept`).',
    security: BEARER,
    middleware: [needs('write:apis'), jsonBodyLimit] as const,
    request: {
      params: RevisionParams,
      body: { required: true, content: { 'application/json': { schema: AcceptanceBody } } },
    },
    responses: {
      201: {
        description: 'The acceptance, and the revision that now carries it',
        content: { 'application/json': { schema: AcceptanceResultSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429, 503),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { owner, slug, id } = c.req.valid('param')
    const { reason } = c.req.valid('json')
    const hub = c.get('hub')
    const api = await writableApi(hub.store, caller, owner, slug)
    const { revision, deliveries } = await acceptRevision({
      store: hub.store,
      caller,
      api,
      id,
      reason,
      publicUrl: hub.config.publicUrl,
      documents: hub.documents,
      maxBytes: hub.config.documentBytes,
      analysis: { caller, signal: c.req.raw.signal, log: c.get('log') },
    })
    if (deliveries > 0) hub.deliveries.wake()
    const record = revisionRecord(revision, api, hub.config.publicUrl)
    return c.json(
      {
        revision: record,
        acceptance: record.acceptance!,
        counts: record.changeCounts,
        webhookDeliveries: deliveries,
      },
      201,
    )
  },
)

revisionReview.openapi(
  createRoute({
    method: 'delete',
    path: '/{owner}/{slug}/revisions/{id}/acceptance',
    tags: ['apis'],
    summary: "Withdraw the acceptance of a revision's changes",
    description:
      'The revision carries no `acceptance` any more, and a `--fail-on` gate fails on its changes ' +
      'again. No webhook event is sent. 404 when its changes are not accepted.',
    security: BEARER,
    middleware: needs('write:apis'),
    request: { params: RevisionParams },
    responses: {
      204: { description: 'Withdrawn' },
      ...errorResponses(401, 403, 404, 422, 503),
    },
  }),
  async (c) => {
    const caller = requireCaller(c)
    const { owner, slug, id } = c.req.valid('param')
    const { store } = c.get('hub')
    const api = await writableApi(store, caller, owner, slug)
    await withdrawAcceptance(store, api, id)
    return c.body(null, 204)
  },
)
