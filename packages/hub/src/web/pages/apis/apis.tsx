import { Hono } from 'hono'
import {
  ApiListSchema,
  ApiSchema,
  PushResultSchema,
  RevisionChangesSchema,
  RevisionListSchema,
  type Api,
  type Revision,
} from '@svc/hub-api'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ApiErrorBody } from '../../../errors/api-error.js'
import {
  ActionButton,
  Badge,
  Empty,
  Field,
  Form,
  FormError,
  PageHead,
  Select,
  Time,
} from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { viewerAccounts, viewerCanWrite } from '../../viewer-accounts.js'
import { apiErrorPage, page, redirectWith, signInRedirect } from '../../responses.js'
import {
  ApiHead,
  apiCrumbs,
  apiPath,
  Counts,
  countsText,
  fieldErrors,
  loadApi,
  readFailure,
  revisionLabel,
  revisionPath,
  v1Api,
  Visibility,
} from './shared.js'

/** The API list, the new-API form and the API page (`Api.url`), with its refetch button. */
export const apisPages = new Hono<WebEnv>()

apisPages.get('/apis', async (c) => {
  const owner = c.req.query('owner')
  const cursor = c.req.query('cursor')
  const query = new URLSearchParams({ limit: '20' })
  if (owner) query.set('owner', owner)
  if (cursor) query.set('cursor', cursor)
  const answer = await c.get('api').get(ApiListSchema, `/apis?${query}`)
  if (!answer.ok) return readFailure(c, answer)
  const { apis, nextCursor } = answer.data
  const latest = await Promise.all(
    apis.map(async (api) => {
      const revisions = await c
        .get('api')
        .get(RevisionListSchema, `${v1Api(api.owner, api.slug)}/revisions?limit=1`)
      return revisions.ok ? revisions.data.revisions[0] : undefined
    }),
  )
  const viewer = c.get('viewer')
  const next = new URLSearchParams({
    ...(owner ? { owner } : {}),
    ...(nextCursor ? { cursor: nextCursor } : {}),
  })
  return page(
    c,
    {
      title: owner ? `APIs of ${owner}` : 'APIs',
      section: 'apis',
      crumbs: owner ? [{ label: 'APIs', href: '/apis' }, { label: owner }] : [],
    },
    <>
      <PageHead
        title={owner ? `APIs of ${owner}` : 'APIs'}
        lead={
          viewer
            ? 'Every public API, and the private APIs of your account and your organisations.'
            : 'Every public API. Sign in to see private ones you can read.'
        }
        actions={
          viewer ? (
            <a class="button primary" href="/apis/new">
              New API
            </a>
          ) : null
        }
      />
      {apis.length === 0 ? (
        <Empty>
          No APIs {cursor ? 'on this page' : 'yet'}.
          {viewer ? (
            <>
              {' '}
              <a href="/apis/new">Create one</a>.
            </>
          ) : null}
        </Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>API</th>
              <th>Owner</th>
              <th>Visibility</th>
              <th>Latest revision</th>
            </tr>
          </thead>
          <tbody>
            {apis.map((api, i) => {
              const revision = latest[i]
              return (
                <tr>
                  <td>
                    <a href={apiPath(api.owner, api.slug)}>
                      <strong>{api.name}</strong>
                    </a>
                    <div class="muted mono">
                      {api.owner}/{api.slug}
                    </div>
                  </td>
                  <td>
                    <a href={`/apis?owner=${encodeURIComponent(api.owner)}`}>{api.owner}</a>
                  </td>
                  <td>
                    <Visibility api={api} />
                  </td>
                  <td>
                    {revision ? (
                      <>
                        <a href={revisionPath(api.owner, api.slug, revision.id)}>
                          {revisionLabel(revision)}
                        </a>{' '}
                        <span class="muted">
                          <Time at={revision.retrievedAt} />
                        </span>
                      </>
                    ) : (
                      <span class="muted">none yet</span>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      {nextCursor ? (
        <p>
          <a href={`/apis?${next}`}>Next page →</a>
        </p>
      ) : null}
    </>,
  )
})

type NewApiState = {
  owner?: string
  slug?: string
  name?: string
  visibility?: string
  sourceUrl?: string
  error?: string
  errors?: Record<string, string>
}

apisPages.get('/apis/new', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  return newApiPage(c, { owner: c.req.query('owner') ?? '' })
})

apisPages.post('/apis/new', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const form = await c.req.parseBody()
  const state: NewApiState = {
    owner: formText(form, 'owner'),
    slug: formText(form, 'slug').trim(),
    name: formText(form, 'name').trim(),
    visibility: formText(form, 'visibility'),
    sourceUrl: formText(form, 'sourceUrl').trim(),
  }
  const answer = await c.get('api').send(ApiSchema, 'POST', '/apis', {
    json: {
      owner: state.owner,
      slug: state.slug,
      name: state.name,
      visibility: state.visibility,
      ...(state.sourceUrl ? { sourceUrl: state.sourceUrl } : {}),
    },
  })
  if (!answer.ok) {
    if (answer.status === 401) return apiErrorPage(c, answer)
    return newApiPage(c, { ...state, ...formFailure(answer.error) }, answer.status)
  }
  const api = answer.data
  return redirectWith(c, apiPath(api.owner, api.slug), {
    kind: 'success',
    message: `Created ${api.owner}/${api.slug}. Push its first revision by upload, or with svc api push ${api.owner}/${api.slug} openapi.yaml.`,
  })
})

/** The form's message and its fields' errors from a refused `POST /v1/apis`. */
function formFailure(error: ApiErrorBody): Pick<NewApiState, 'error' | 'errors'> {
  const errors = fieldErrors(error)
  if (error.code === 'already_exists') errors.slug = error.message
  if (error.code === 'not_found' || error.code === 'forbidden') {
    errors.owner = error.message
  }
  return {
    error:
      Object.keys(errors).length > 0
        ? 'The API was not created: see the fields below.'
        : error.message,
    errors,
  }
}

async function newApiPage(c: WebContext, state: NewApiState, status = 200) {
  const viewer = c.get('viewer')!
  const me = await viewerAccounts(c)
  const orgs = me ? me.organizations.filter((org) => org.role !== 'reader') : []
  const errors = state.errors ?? {}
  return page(
    c,
    {
      title: 'New API',
      section: 'apis',
      crumbs: [{ label: 'APIs', href: '/apis' }, { label: 'New' }],
      status: status as ContentfulStatusCode,
    },
    <div class="narrow">
      <h1>New API</h1>
      <p class="lead">
        An API holds a series of revisions of one description (OpenAPI or GraphQL SDL), and the
        changes between them.
      </p>
      <div class="card">
        <FormError message={state.error} />
        <Form action="/apis/new" csrfToken={c.get('csrfToken')}>
          <Select
            name="owner"
            label="Owner"
            hint="You, or an organisation where you are an owner or writer."
            options={[
              { value: viewer.handle, label: `${viewer.handle} (you)` },
              ...orgs.map((org) => ({ value: org.handle, label: `${org.handle} (${org.role})` })),
            ]}
            value={state.owner || viewer.handle}
            error={errors.owner}
          />
          <Field
            name="slug"
            label="Slug"
            hint="Its name in URLs: lowercase letters, digits, dots, hyphens or underscores."
            value={state.slug ?? ''}
            error={errors.slug}
            required
            placeholder="billing"
          />
          <Field
            name="name"
            label="Name"
            value={state.name ?? ''}
            error={errors.name}
            required
            placeholder="Billing API"
          />
          <Select
            name="visibility"
            label="Visibility"
            hint="A private API is seen only by its owner's members."
            options={[
              { value: 'private', label: 'Private' },
              { value: 'public', label: 'Public' },
            ]}
            value={state.visibility || 'private'}
            error={errors.visibility}
          />
          <Field
            name="sourceUrl"
            label="Source URL (optional)"
            type="url"
            hint="Where the hub can fetch the document from when you press Refetch."
            value={state.sourceUrl ?? ''}
            error={errors.sourceUrl}
            placeholder="https://example.com/openapi.yaml"
          />
          <div>
            <button type="submit" class="primary">
              Create API
            </button>
          </div>
        </Form>
      </div>
    </div>,
  )
}

apisPages.get('/:owner/apis/:slug', async (c) => apiPage(c))

apisPages.post('/:owner/apis/:slug/refetch', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const answer = await c
    .get('api')
    .send(PushResultSchema, 'POST', `${v1Api(api.owner, api.slug)}/refetch`)
  if (!answer.ok) {
    if ([401, 403, 404].includes(answer.status)) return apiErrorPage(c, answer)
    return apiPage(c, { refetchError: answer.error.message }, answer.status)
  }
  const { created, revision, counts } = answer.data
  return redirectWith(c, revisionPath(api.owner, api.slug, revision.id), {
    kind: 'success',
    message: created
      ? `Fetched ${api.sourceUrl}: revision ${revisionLabel(revision)} created (${countsText(counts)}).`
      : `Fetched ${api.sourceUrl}: it serves the latest revision's document; nothing was created.`,
  })
})

/** The API page; `refetchError` when a refetch was refused (shown above the facts). */
async function apiPage(c: WebContext, state: { refetchError?: string } = {}, status = 200) {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const base = v1Api(api.owner, api.slug)
  const [writable, revisions, latest] = await Promise.all([
    viewerCanWrite(c, api.owner),
    c.get('api').get(RevisionListSchema, `${base}/revisions?limit=5`),
    c.get('api').get(RevisionChangesSchema, `${base}/revisions/latest/changes`),
  ])
  if (!revisions.ok) return readFailure(c, revisions)
  const list = revisions.data.revisions
  const changes = latest.ok ? latest.data : undefined
  const here = apiPath(api.owner, api.slug)
  return page(
    c,
    {
      title: api.name,
      section: 'apis',
      crumbs: apiCrumbs(api).slice(0, -1),
      status: status as ContentfulStatusCode,
    },
    <>
      <ApiHead
        api={api}
        current={here}
        writable={writable}
        actions={
          writable ? (
            <>
              {api.sourceUrl ? (
                <ActionButton
                  action={`${here}/refetch`}
                  csrfToken={c.get('csrfToken')}
                  label="Refetch"
                />
              ) : null}
              <a class="button primary" href={`${here}/revisions/new`}>
                Upload a revision
              </a>
            </>
          ) : null
        }
      />
      <FormError message={state.refetchError} />
      <dl class="facts">
        <dt>Owner</dt>
        <dd>
          <a href={`/apis?owner=${encodeURIComponent(api.owner)}`}>{api.owner}</a>
        </dd>
        <dt>Visibility</dt>
        <dd>
          <Visibility api={api} />
        </dd>
        <dt>Source URL</dt>
        <dd>
          {api.sourceUrl ? (
            <span class="mono">{api.sourceUrl}</span>
          ) : (
            <span class="muted">none</span>
          )}
        </dd>
        <dt>Diff profile</dt>
        <dd data-testid="diff-profile">
          {writable ? <a href={`${here}/settings`}>{api.diffProfile}</a> : api.diffProfile}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={api.createdAt} />
        </dd>
      </dl>

      <h2>Latest revision</h2>
      {changes ? (
        <div class="card">
          <div class="head">
            <div>
              <a href={revisionPath(api.owner, api.slug, changes.revision.id)}>
                <strong>Revision {revisionLabel(changes.revision)}</strong>
              </a>{' '}
              <span class="muted">
                {changes.revision.format} · {changes.revision.specVersion} · pushed by{' '}
                {changes.revision.createdBy} · <Time at={changes.revision.retrievedAt} />
              </span>
            </div>
            <a href={`${revisionPath(api.owner, api.slug, changes.revision.id)}/changes`}>
              Changes →
            </a>
          </div>
          {changes.previousRevision ? (
            <Counts counts={changes.counts} />
          ) : (
            <span class="muted">The first revision: nothing to compare with.</span>
          )}
        </div>
      ) : (
        <Empty>
          No revisions yet.
          {writable ? (
            <>
              {' '}
              <a href={`${here}/revisions/new`}>Upload the first one</a>, or run{' '}
              <code>
                svc api push {api.owner}/{api.slug} openapi.yaml
              </code>
              .
            </>
          ) : null}
        </Empty>
      )}

      {list.length > 0 ? (
        <>
          <h2>Recent revisions</h2>
          <RevisionTable api={api} revisions={list} />
          <p>
            <a href={`${here}/revisions`}>All revisions →</a>
          </p>
        </>
      ) : null}
    </>,
  )
}

/** Revisions as rows: number and label, format, who pushed it and when, links. */
export function RevisionTable({ api, revisions }: { api: Api; revisions: readonly Revision[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Revision</th>
          <th>Format</th>
          <th>Origin</th>
          <th>Retrieved</th>
          <th>Changes</th>
        </tr>
      </thead>
      <tbody>
        {revisions.map((revision) => {
          const path = revisionPath(api.owner, api.slug, revision.id)
          return (
            <tr>
              <td>
                <a href={path}>
                  <strong>{revisionLabel(revision)}</strong>
                </a>
                <div class="muted mono">{revision.id}</div>
              </td>
              <td>
                {revision.format} <span class="muted">{revision.specVersion}</span>
              </td>
              <td>
                {revision.origin} <span class="muted">by {revision.createdBy}</span>
              </td>
              <td>
                <Time at={revision.retrievedAt} />
              </td>
              <td data-testid="revision-counts">
                {revision.previousRevisionId ? (
                  <div class="stack-tight">
                    <Counts counts={revision.changeCounts} />
                    {revision.acceptance ? (
                      <span
                        title={`Accepted by ${revision.acceptance.by}: ${revision.acceptance.reason}`}
                      >
                        <Badge kind="accepted">accepted by {revision.acceptance.by}</Badge>
                      </span>
                    ) : null}
                    <a href={`${path}/changes`}>Changes</a>
                  </div>
                ) : (
                  <span class="muted">first</span>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
