import type { Child } from 'hono/jsx'
import { ApiSchema, type Api, type ChangeSeverity, type Revision } from '@svc/hub-api'
import type { ApiErrorBody } from '../../../errors/api-error.js'
import type { ApiAnswer } from '../../api-client.js'
import { Badge, PageHead, plural, Tabs } from '../../components.js'
import type { WebContext } from '../../env.js'
import type { Crumb } from '../../layout.js'
import { apiErrorPage, notFoundPage } from '../../responses.js'

const enc = encodeURIComponent

/** The API's page: its `url` without the hub's origin. */
export function apiPath(owner: string, slug: string): string {
  return `/${enc(owner)}/apis/${enc(slug)}`
}

/** The API under /v1 (for `c.get('api')`). */
export function v1Api(owner: string, slug: string): string {
  return `/apis/${enc(owner)}/${enc(slug)}`
}

export function revisionPath(owner: string, slug: string, id: string): string {
  return `${apiPath(owner, slug)}/revisions/${enc(id)}`
}

/** The page that compares revision `to` with revision `from`, when they are given. */
export function comparePath(owner: string, slug: string, from?: string, to?: string): string {
  const query = from && to ? `?${new URLSearchParams({ from, to })}` : ''
  return `${apiPath(owner, slug)}/compare${query}`
}

/**
 * Answers a failed /v1 read of a page: a name in the path that breaks its rule (422) is a page
 * that does not exist; 401, 403 and 404 as `apiErrorPage` (a private API is not found).
 */
export function readFailure(c: WebContext, answer: { status: number; error: ApiErrorBody }) {
  if (answer.status === 422 && answer.error.code === 'invalid_request') return notFoundPage(c)
  return apiErrorPage(c, answer)
}

/** The API of the page's `:owner` and `:slug`, as the viewer may read it. */
export async function loadApi(c: WebContext): Promise<ApiAnswer<Api>> {
  return c.get('api').get(ApiSchema, v1Api(c.req.param('owner') ?? '', c.req.param('slug') ?? ''))
}

/** The trail of every page of an API. */
export function apiCrumbs(api: Api, ...more: Crumb[]): Crumb[] {
  return [
    { label: 'APIs', href: '/apis' },
    { label: api.owner, href: `/apis?owner=${enc(api.owner)}` },
    { label: api.slug, href: apiPath(api.owner, api.slug) },
    ...more,
  ]
}

/** The head of every page of an API: its name, owner and visibility, and the API's tabs. */
export function ApiHead(props: { api: Api; current: string; writable: boolean; actions?: Child }) {
  const { api } = props
  const base = apiPath(api.owner, api.slug)
  const tabs = [
    { href: base, label: 'Overview' },
    { href: `${base}/revisions`, label: 'Revisions' },
    { href: `${base}/compare`, label: 'Compare' },
    ...(props.writable
      ? [
          { href: `${base}/revisions/new`, label: 'Upload' },
          { href: `${base}/webhooks`, label: 'Webhooks' },
          { href: `${base}/settings`, label: 'Settings' },
        ]
      : []),
  ]
  return (
    <>
      <PageHead
        title={
          <>
            {api.name} <Visibility api={api} />
          </>
        }
        lead={
          <span class="mono">
            {api.owner}/{api.slug}
          </span>
        }
        actions={props.actions}
      />
      <Tabs tabs={tabs} current={props.current} />
    </>
  )
}

export function Visibility({ api }: { api: Pick<Api, 'visibility'> }) {
  return <Badge kind={api.visibility}>{api.visibility}</Badge>
}

/** `3 breaking changes · 1 warning · 2 info` as badges; "no changes" when all are 0. */
export function Counts({ counts }: { counts: ChangeSeverity }) {
  if (counts.breaking + counts.warning + counts.info === 0) {
    return <span class="muted">no changes</span>
  }
  return (
    <span class="row">
      {counts.breaking > 0 ? (
        <Badge kind="breaking">{plural(counts.breaking, 'breaking change')}</Badge>
      ) : null}
      {counts.warning > 0 ? (
        <Badge kind="warning">{plural(counts.warning, 'warning')}</Badge>
      ) : null}
      {counts.info > 0 ? <Badge kind="info">{counts.info} info</Badge> : null}
    </span>
  )
}

/** `1 breaking change, 0 warnings, 2 info`: the counts in a sentence. */
export function countsText(counts: ChangeSeverity): string {
  return `${plural(counts.breaking, 'breaking change')}, ${plural(counts.warning, 'warning')}, ${counts.info} info`
}

/** The revision's label: `#3 · 2.1.0`. */
export function revisionLabel(revision: Pick<Revision, 'sequence' | 'version'>): string {
  return `#${revision.sequence}${revision.version ? ` · ${revision.version}` : ''}`
}

/** The path of a payload URL (`https://hub.example.com/acme/apis/x` → `/acme/apis/x`). */
export function localPath(url: string): string {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

/**
 * The field errors of a refused /v1 call: `details.issues` (`json.slug`, `query.version`) and
 * `details.field` of `url_refused`, keyed by the part after the dot.
 */
export function fieldErrors(error: ApiErrorBody): Record<string, string> {
  const details = (error.details ?? {}) as {
    issues?: { path: string; message: string }[]
    field?: string
  }
  const errors: Record<string, string> = {}
  for (const issue of details.issues ?? []) {
    const key = issue.path.replace(/^(?:json|query|form)\./, '')
    errors[key] ??= issue.message
  }
  if (error.code === 'url_refused' && details.field) {
    // The API names the field by its path in the body (`json.url`); the form, by its place.
    errors[details.field.replace(/^json\./, '')] = error.message.replace(details.field, 'this URL')
  }
  return errors
}
