import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { RevisionChangesSchema, RevisionListSchema, type Revision } from '@svc/hub-api'
import { Empty, FormError, Select } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { page } from '../../responses.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import { ChangeList, ParseErrors } from './changelog-view.js'
import {
  ApiHead,
  apiCrumbs,
  comparePath,
  Counts,
  loadApi,
  readFailure,
  revisionLabel,
  revisionPath,
  v1Api,
} from './shared.js'

/** The revisions offered in the form: the newest, as many as one page of the API holds. */
const OFFERED = 100

/**
 * Any two revisions of an API compared (docs/web/apis.md): `from` is the old side, `to` the new
 * one, in either order of time; by default the latest against the one before it. The changelog
 * is the hub's `GET …/revisions/{to}/changes?against={from}`: computed, never stored.
 */
export const comparePages = new Hono<WebEnv>()

comparePages.get('/:owner/apis/:slug/compare', async (c) => {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const base = v1Api(api.owner, api.slug)
  const [listed, writable] = await Promise.all([
    c.get('api').get(RevisionListSchema, `${base}/revisions?limit=${OFFERED}`),
    viewerCanWrite(c, api.owner),
  ])
  if (!listed.ok) return readFailure(c, listed)
  const revisions = listed.data.revisions
  const here = comparePath(api.owner, api.slug)
  const from = c.req.query('from') || revisions[1]?.id || revisions[0]?.id
  const to = c.req.query('to') || revisions[0]?.id
  const answer =
    from && to
      ? await c
          .get('api')
          .get(
            RevisionChangesSchema,
            `${base}/revisions/${encodeURIComponent(to)}/changes?against=${encodeURIComponent(from)}`,
          )
      : undefined
  // A revision that is not there, or not a revision's name, is the form's to correct.
  if (answer && !answer.ok && ![404, 422, 429].includes(answer.status))
    return readFailure(c, answer)
  const options = (value: string | undefined) => {
    const offered = revisions.map((revision, index) => ({
      value: revision.id,
      label: `${revisionLabel(revision)}${index === 0 ? ' (latest)' : ''}`,
    }))
    return value && !revisions.some((revision) => revision.id === value)
      ? [...offered, { value, label: value }]
      : offered
  }
  const result = answer?.ok ? answer.data : undefined
  return page(
    c,
    {
      title: `Compare revisions · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(api, { label: 'compare' }),
      status: (answer && !answer.ok ? answer.status : 200) as ContentfulStatusCode,
    },
    <>
      <ApiHead api={api} current={here} writable={writable} />
      {revisions.length === 0 ? (
        <Empty>No revisions yet: there is nothing to compare.</Empty>
      ) : (
        <>
          <p class="lead">
            What changed from one revision to another, judged as a push of the second onto the first
            would be. Either can be the older: from a newer to an older one reads as what going back
            would change.
          </p>
          <form method="get" action={here} class="row bottom" data-testid="compare-form">
            <Select name="from" label="From" options={options(from)} value={from} />
            <Select name="to" label="To" options={options(to)} value={to} />
            <button type="submit" class="primary">
              Compare
            </button>
          </form>
          {answer && !answer.ok ? <FormError message={answer.error.message} /> : null}
          {result ? <Comparison api={api} result={result} /> : null}
        </>
      )}
    </>,
  )
})

function Comparison(props: {
  api: { owner: string; slug: string }
  result: {
    revision: Revision
    previousRevision: Revision | null
    counts: { breaking: number; warning: number; info: number }
    changes: Parameters<typeof ChangeList>[0]['changes']
    issues?: Parameters<typeof ParseErrors>[0]['issues'] | undefined
  }
}) {
  const { api, result } = props
  const link = (revision: Revision) => (
    <a href={revisionPath(api.owner, api.slug, revision.id)}>revision {revisionLabel(revision)}</a>
  )
  return (
    <section class="comparison" data-testid="comparison">
      <div class="head">
        <h2>
          From {result.previousRevision ? link(result.previousRevision) : 'nothing'} to{' '}
          {link(result.revision)}
        </h2>
        <Counts counts={result.counts} />
      </div>
      {result.issues ? <ParseErrors issues={result.issues} /> : null}
      {result.changes.length === 0 ? (
        <Empty>
          <strong>No changes.</strong> The documents differ only where a change is not judged
          (descriptions, titles, examples, order …), or not at all.
        </Empty>
      ) : (
        <ChangeList changes={result.changes} />
      )}
    </section>
  )
}
