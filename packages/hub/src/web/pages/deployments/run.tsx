import { RunSchema } from '@svc/hub-api'
import { Hono } from 'hono'
import { Badge, Empty, formatBytes, Time, Table } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { page } from '../../responses.js'
import { ProjectHead, projectCrumbs, projectHref } from '../projects/shared.js'
import { privateErrorPage } from '../stacks.js'
import {
  REFRESH_SECONDS,
  seg,
  runHref,
  duration,
  StatusBadge,
  RunRevision,
  readProject,
} from './shared.js'

/** One run: its status, manifest, log and artifacts. */
export const runPages = new Hono<WebEnv>()

type Issue = { level?: string; message?: string; location?: string; line?: number }
type Warning = { level?: string; message?: string; path?: string[]; suggestion?: string }

runPages.get('/:account/projects/:slug/runs/:id', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const project = answer.data
  const { account, slug } = project.project
  const id = c.req.param('id')
  const read = await c.get('api').get(RunSchema, `${v1}/runs/${seg(id)}`)
  if (!read.ok) return privateErrorPage(c, read)
  const run = read.data
  const base = projectHref(account, slug)
  const here = runHref(account, slug, run.id)
  const manifest = run.manifest ?? null
  const parseIssues = (Array.isArray(manifest?.parseIssues) ? manifest.parseIssues : []) as Issue[]
  const warnings = (
    Array.isArray(manifest?.enrichmentWarnings) ? manifest.enrichmentWarnings : []
  ) as Warning[]
  const artifacts = run.artifacts ?? []
  return page(
    c,
    {
      title: `Run ${run.id} · ${account}/${slug}`,
      section: 'projects',
      crumbs: [
        ...projectCrumbs(account, slug, 'Runs').slice(0, -1),
        { label: 'Runs', href: `${base}/runs` },
        { label: run.id },
      ],
      ...(run.status === 'running' ? { refreshSeconds: REFRESH_SECONDS } : {}),
    },
    <>
      <ProjectHead project={project} current={`${base}/runs`} />
      <h2 class="row">
        Run {run.id} <StatusBadge status={run.status} />
      </h2>
      {run.status === 'running' ? (
        <p class="muted">This run is still going; the page reloads until it ends.</p>
      ) : null}
      {run.error ? (
        <div class="flash error" role="alert" data-testid="run-error">
          {run.error}
        </div>
      ) : null}
      <div class="card">
        <dl class="facts" data-testid="run-facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={run.status} />
          </dd>
          <dt>Deployment</dt>
          <dd class="mono">
            <a href={`${base}/deployments`}>{run.deployment}</a> (version {run.stackVersion})
          </dd>
          <dt>Revision</dt>
          <dd class="mono" data-testid="run-revision">
            <RunRevision revision={run.revision} />
            {run.revision ? <span class="muted"> ({run.revision.id})</span> : null}
          </dd>
          <dt>Started by</dt>
          <dd>{run.createdBy}</dd>
          <dt>Started</dt>
          <dd>
            <Time at={run.startedAt} />
          </dd>
          <dt>Finished</dt>
          <dd>
            <Time at={run.finishedAt} />
          </dd>
          <dt>Duration</dt>
          <dd>{duration(run.durationMs)}</dd>
        </dl>
      </div>
      {run.status === 'succeeded' ? (
        <>
          <h2>Artifacts</h2>
          {run.artifactsPrunedAt ? (
            <Empty>
              <span data-testid="artifacts-pruned">
                The hub&apos;s retention rule removed this run&apos;s artifacts on{' '}
                <Time at={run.artifactsPrunedAt} />; run the deployment again to make them anew.
              </span>
            </Empty>
          ) : artifacts.length === 0 ? (
            <Empty>The run generated no files.</Empty>
          ) : (
            <Table testid="artifacts">
              <thead>
                <tr>
                  <th>File</th>
                  <th>Size</th>
                </tr>
              </thead>
              <tbody>
                {artifacts.map((a) => (
                  <tr>
                    <td class="mono">
                      <a href={`${here}/artifacts/${a.path.split('/').map(seg).join('/')}`}>
                        {a.path}
                      </a>
                    </td>
                    <td>{formatBytes(a.size)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <h2>Parse issues</h2>
          {parseIssues.length === 0 ? (
            <Empty>The document has no parse issues.</Empty>
          ) : (
            <Table testid="parse-issues">
              <thead>
                <tr>
                  <th>Level</th>
                  <th>Where</th>
                  <th>Message</th>
                </tr>
              </thead>
              <tbody>
                {parseIssues.map((issue) => (
                  <tr>
                    <td>
                      <Badge kind={levelKind(issue.level)}>{String(issue.level ?? '')}</Badge>
                    </td>
                    <td class="mono">
                      {String(issue.location ?? '')}
                      {typeof issue.line === 'number' ? ` (line ${issue.line})` : ''}
                    </td>
                    <td>{String(issue.message ?? '')}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <h2>Enrichment warnings</h2>
          {warnings.length === 0 ? (
            <Empty>The project&apos;s enrichments raised no warnings.</Empty>
          ) : (
            <Table testid="enrichment-warnings">
              <thead>
                <tr>
                  <th>Level</th>
                  <th>Path</th>
                  <th>Message</th>
                </tr>
              </thead>
              <tbody>
                {warnings.map((warning) => (
                  <tr>
                    <td>
                      <Badge kind={levelKind(warning.level)}>{String(warning.level ?? '')}</Badge>
                    </td>
                    <td class="mono">
                      {Array.isArray(warning.path) ? warning.path.join(' › ') : ''}
                    </td>
                    <td>
                      {String(warning.message ?? '')}
                      {warning.suggestion ? (
                        <span class="muted"> Did you mean {String(warning.suggestion)}?</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </>
      ) : null}
      {run.log ? (
        <>
          <h2>Log</h2>
          <p class="muted">The end of what server.js printed.</p>
          <pre data-testid="run-log">{run.log}</pre>
        </>
      ) : null}
    </>,
  )
})

function levelKind(level: unknown): string {
  return level === 'error' ? 'failed' : level === 'warning' ? 'warning' : 'info'
}
