import { Hono } from 'hono'
import { RevisionChangesSchema, type Change, type ChangelogIssues } from '@svc/hub-api'
import { Badge, Empty, Ident, Prose, Time } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { page } from '../../responses.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import {
  ApiHead,
  apiCrumbs,
  apiPath,
  Counts,
  loadApi,
  readFailure,
  revisionLabel,
  revisionPath,
  v1Api,
} from './shared.js'

const LEVELS = [
  {
    level: 'breaking',
    title: ['Breaking change', 'Breaking changes'],
    lead: 'A client that worked with the old document stops working.',
  },
  {
    level: 'warning',
    title: ['Warning', 'Warnings'],
    lead: 'May break some clients; the document cannot tell.',
  },
  { level: 'info', title: ['Info', 'Info'], lead: 'Additive or harmless.' },
] as const

/** A revision's changelog (`changesUrl`), grouped by level. */
export const changesPages = new Hono<WebEnv>()

changesPages.get('/:owner/apis/:slug/revisions/:id/changes', async (c) => {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  const api = loaded.data
  const id = c.req.param('id')
  const [answer, writable] = await Promise.all([
    c
      .get('api')
      .get(
        RevisionChangesSchema,
        `${v1Api(api.owner, api.slug)}/revisions/${encodeURIComponent(id)}/changes`,
      ),
    viewerCanWrite(c, api.owner),
  ])
  if (!answer.ok) return readFailure(c, answer)
  const { revision, previousRevision, counts, changes, issues } = answer.data
  const revisionHref = revisionPath(api.owner, api.slug, revision.id)
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
                <Time at={revision.retrievedAt} />
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
        LEVELS.map(({ level, title, lead }) => {
          const entries = changes.filter((change) => change.level === level)
          if (entries.length === 0) return null
          return (
            <section data-testid={`changes-${level}`}>
              <h2>
                <Badge kind={level}>{entries.length}</Badge> {title[entries.length === 1 ? 0 : 1]}
              </h2>
              <p class="lead">{lead}</p>
              <ChangeTable changes={entries} />
            </section>
          )
        })
      )}
    </>,
  )
})

/** What either document failed to parse: each item it names is also a change below. */
function ParseErrors({ issues }: { issues: ChangelogIssues }) {
  const rows = [
    ...issues.before.map((issue) => ({ side: 'previous', issue })),
    ...issues.after.map((issue) => ({ side: 'this revision', issue })),
  ]
  return (
    <section data-testid="changes-parse-errors">
      <h2>
        <Badge kind="error">{rows.length}</Badge> Parse error{rows.length === 1 ? '' : 's'}
      </h2>
      <p class="lead">
        What a document failed to parse could not be compared; each item named here is a change
        below.
      </p>
      <table class="stacked">
        <thead>
          <tr>
            <th>Document</th>
            <th>Location</th>
            <th>Error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ side, issue }) => (
            <tr>
              <td class="inline">{side}</td>
              <td>
                <Ident text={issue.location} />
              </td>
              <td>
                <Prose text={issue.message} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

function ChangeTable({ changes }: { changes: readonly Change[] }) {
  return (
    <table class="stacked">
      <thead>
        <tr>
          <th>Rule</th>
          <th>Change</th>
          <th>Location</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => {
          const operations = change.operations ?? (change.operation ? [change.operation] : [])
          return (
            <tr>
              <td class="inline">
                <Ident text={change.id} />
              </td>
              <td>
                <Prose text={change.message} />
                {operations.length > 0 ? (
                  <div class="muted">
                    {change.operations ? 'Affects ' : ''}
                    {operations.map((operation, i) => (
                      <>
                        {i > 0 ? ', ' : ''}
                        <Ident text={operation} code />
                      </>
                    ))}
                  </div>
                ) : null}
              </td>
              <td>
                <Ident text={change.location} />
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
