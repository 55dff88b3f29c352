import { Hono } from 'hono'
import { RevisionChangesSchema } from '@svc/hub-api'
import { Empty, Prose, Time } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { page } from '../../responses.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import { ChangeList, ParseErrors } from './changelog-view.js'
import {
  ApiHead,
  apiCrumbs,
  apiPath,
  comparePath,
  Counts,
  loadApi,
  readFailure,
  revisionLabel,
  revisionPath,
  v1Api,
} from './shared.js'

/** A revision's changelog (`changesUrl`), grouped by endpoint, then by component. */
export const changesPages = new Hono<WebEnv>()

changesPages.get('/:owner/apis/:slug/revisions/:id/changes', async (c) => {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const id = c.req.param('id')
  // A webhook event links here with the profile its changelog was judged under.
  const asked = c.req.query('profile')
  const query = asked === 'wire' || asked === 'sdk' ? `?profile=${asked}` : ''
  const [answer, writable] = await Promise.all([
    c
      .get('api')
      .get(
        RevisionChangesSchema,
        `${v1Api(api.owner, api.slug)}/revisions/${encodeURIComponent(id)}/changes${query}`,
      ),
    viewerCanWrite(c, api.owner),
  ])
  if (!answer.ok) return readFailure(c, answer)
  const { revision, previousRevision, profile, counts, changes, issues } = answer.data
  const revisionHref = revisionPath(api.owner, api.slug, revision.id)
  const other = profile === 'sdk' ? 'wire' : 'sdk'
  return page(
    c,
    {
      title: `Changes in ${revisionLabel(revision)} · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(
        api,
        { label: 'revisions', href: `${apiPath(api.owner, api.slug)}/revisions` },
        { label: `#${revision.sequence}`, href: revisionHref },
        { label: 'changes' },
      ),
    },
    <>
      <ApiHead
        api={api}
        current={`${apiPath(api.owner, api.slug)}/revisions`}
        writable={writable}
      />
      <div class="head">
        <div>
          <h2>
            Changes in <a href={revisionHref}>revision {revisionLabel(revision)}</a>
          </h2>
          <p class="lead">
            {previousRevision ? (
              <>
                Against{' '}
                <a href={revisionPath(api.owner, api.slug, previousRevision.id)}>
                  revision {revisionLabel(previousRevision)}
                </a>
                , the latest before it · pushed by {revision.createdBy}{' '}
                <Time at={revision.retrievedAt} /> ·{' '}
                <a
                  href={comparePath(api.owner, api.slug, previousRevision.id, revision.id)}
                  data-testid="compare-link"
                >
                  compare with another revision
                </a>{' '}
                · judged for {profile === 'sdk' ? 'generated SDKs' : 'the wire'} (
                <a href={`?profile=${other}`} data-testid="profile-link">
                  judge for {other === 'sdk' ? 'generated SDKs' : 'the wire'}
                </a>
                )
              </>
            ) : (
              <>
                Pushed by {revision.createdBy} <Time at={revision.retrievedAt} />
              </>
            )}
          </p>
        </div>
        {previousRevision ? <Counts counts={counts} /> : null}
      </div>
      {revision.acceptance ? (
        <div class="flash success" data-testid="changes-acceptance">
          Accepted as deliberate by <strong>{revision.acceptance.by}</strong>{' '}
          <Time at={revision.acceptance.at} />: <Prose text={revision.acceptance.reason} />
        </div>
      ) : null}
      {issues ? <ParseErrors issues={issues} /> : null}
      {!previousRevision ? (
        <Empty>
          <strong>The first revision.</strong> There is no revision before it to compare it with, so
          it has no changes.
        </Empty>
      ) : changes.length === 0 ? (
        <Empty>
          <strong>No changes.</strong> The documents differ only where a change is not judged
          (descriptions, titles, examples, order …).
        </Empty>
      ) : (
        <ChangeList changes={changes} />
      )}
    </>,
  )
})
