import {
  AliasSchema,
  DeploymentListSchema,
  DeploymentSchema,
  ProjectDetailSchema,
  RunListSchema,
  RunSchema,
  StackVersionListSchema,
  type ProjectListItem,
  type Run,
} from '@svc/hub-api'
import { Hono } from 'hono'
import { z } from 'zod'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  ActionButton,
  Badge,
  Empty,
  Form,
  FormError,
  formatBytes,
  PageHead,
  Select,
  Time,
} from '../components.js'
import type { WebContext, WebEnv } from '../env.js'
import { formText, type FormBody } from '../forms.js'
import { page, redirectWith } from '../responses.js'
import { ProjectHead, projectCrumbs, projectHref } from './projects.js'
import { privateErrorPage } from './stacks.js'
import { viewerCanWrite } from '../viewer-accounts.js'

type Issue = { level?: string; message?: string; location?: string; line?: number }
type Warning = { level?: string; message?: string; path?: string[]; suggestion?: string }

/** How often a page with a run still going reloads itself. */
const REFRESH_SECONDS = 2

const seg = encodeURIComponent

/** A URL the API answered, as a path on this site (the same origin serves both). */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.pathname}${parsed.search}`
  } catch {
    return url
  }
}

function runHref(account: string, slug: string, id: string): string {
  return `${projectHref(account, slug)}/runs/${seg(id)}`
}

function duration(ms: number | null): string {
  if (ms === null) return '—'
  if (ms < 1000) return `${ms} ms`
  return `${(ms / 1000).toFixed(1)} s`
}

function StatusBadge({ status }: { status: Run['status'] }) {
  return <Badge kind={status}>{status}</Badge>
}

/** The project of the URL and the v1 path of its routes; a page answer when it cannot be read. */
async function readProject(c: WebContext) {
  const { account, slug } = c.req.param() as { account: string; slug: string }
  const v1 = `/projects/${seg(account)}/${seg(slug)}`
  const answer = await c.get('api').get(ProjectDetailSchema, v1)
  return { answer, v1 }
}

/** A refused write of a project the viewer can read: 403 is told on the page, the rest is 404. */
function refusedWrite(status: number): boolean {
  return status === 401 || status === 404
}

export const deploymentPages = new Hono<WebEnv>()

type DeployForm = { stackVersion?: string; error?: string }

async function deploymentsPage(
  c: WebContext,
  project: ProjectListItem,
  v1: string,
  form: DeployForm = {},
  status: ContentfulStatusCode = 200,
) {
  const { account, slug } = project.project
  const base = projectHref(account, slug)
  const api = c.get('api')
  const [list, versions, canWrite] = await Promise.all([
    api.get(DeploymentListSchema, `${v1}/deployments`),
    api.get(
      StackVersionListSchema,
      `/stacks/${seg(project.stack.account)}/${seg(project.stack.slug)}/versions`,
    ),
    viewerCanWrite(c, account),
  ])
  if (!list.ok) return privateErrorPage(c, list)
  const deployments = list.data.deployments
  const options = ['latest', ...(versions.ok ? versions.data.versions.map((v) => v.version) : [])]
  const csrf = c.get('csrfToken')
  return page(
    c,
    {
      title: `Deployments · ${account}/${slug}`,
      section: 'projects',
      crumbs: projectCrumbs(account, slug, 'Deployments'),
      status,
    },
    <>
      <ProjectHead project={project} current={`${base}/deployments`} />
      {canWrite ? null : <FormError message={form.error} />}
      {canWrite ? (
        <div class="card" data-testid="deploy-form">
          <h3>Deploy a version</h3>
          <p class="muted">
            A deployment pins a version of{' '}
            <span class="mono">
              @{project.stack.account}/{project.stack.slug}
            </span>{' '}
            for this project; <span class="mono">latest</span> pins the highest release now.
          </p>
          <FormError message={form.error} />
          <Form action={`${base}/deployments`} csrfToken={csrf} class="row bottom">
            <Select
              name="stackVersion"
              label="Stack version"
              options={options}
              value={form.stackVersion ?? project.stackVersion}
            />
            <button type="submit" class="primary">
              Deploy
            </button>
          </Form>
        </div>
      ) : (
        <p class="muted">
          Only {account} and the writers and owners of it can deploy, promote and run.
        </p>
      )}
      {deployments.length === 0 ? (
        <Empty>No deployments yet: deploy a version of the stack to run it.</Empty>
      ) : (
        <table data-testid="deployments">
          <thead>
            <tr>
              <th>Deployment</th>
              <th>Stack version</th>
              <th>Deployed by</th>
              <th>When</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {deployments.map((d) => (
              <tr data-deployment={d.id}>
                <td class="mono">
                  {d.id} {d.production ? <Badge kind="production">production</Badge> : null}
                </td>
                <td class="mono">
                  <a href={pathOf(d.versionUrl)}>{d.stackVersion}</a>
                </td>
                <td>{d.createdBy}</td>
                <td>
                  <Time at={d.createdAt} />
                </td>
                <td>
                  {canWrite ? (
                    <div class="row">
                      {d.production ? null : (
                        <ActionButton
                          action={`${base}/deployments/${seg(d.id)}/promote`}
                          csrfToken={csrf}
                          label="Promote to production"
                        />
                      )}
                      <ActionButton
                        action={`${base}/runs`}
                        csrfToken={csrf}
                        label="Run"
                        primary
                        fields={{ deployment: d.id }}
                      />
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>,
  )
}

deploymentPages.get('/:account/projects/:slug/deployments', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return deploymentsPage(c, answer.data, v1)
})

deploymentPages.post('/:account/projects/:slug/deployments', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const form: FormBody = await c.req.parseBody()
  const stackVersion = formText(form, 'stackVersion').trim() || 'latest'
  const deployed = await c
    .get('api')
    .send(DeploymentSchema, 'POST', `${v1}/deployments`, { json: { stackVersion } })
  const { account, slug } = answer.data.project
  if (deployed.ok) {
    return redirectWith(c, `${projectHref(account, slug)}/deployments`, {
      kind: 'success',
      message: `Deployed version ${deployed.data.stackVersion} (${deployed.data.id}).`,
    })
  }
  if (refusedWrite(deployed.status)) return privateErrorPage(c, deployed)
  return deploymentsPage(
    c,
    answer.data,
    v1,
    { stackVersion, error: issueText(deployed.error) },
    deployed.status as ContentfulStatusCode,
  )
})

deploymentPages.post('/:account/projects/:slug/deployments/:id/promote', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const id = c.req.param('id')
  const set = await c.get('api').send(AliasSchema, 'PUT', `${v1}/aliases/production`, {
    json: { deployment: id },
  })
  const { account, slug } = answer.data.project
  if (set.ok) {
    return redirectWith(c, `${projectHref(account, slug)}/deployments`, {
      kind: 'success',
      message: `Production is now ${set.data.deployment.id} (version ${set.data.deployment.stackVersion}).`,
    })
  }
  if (refusedWrite(set.status)) return privateErrorPage(c, set)
  return deploymentsPage(
    c,
    answer.data,
    v1,
    { error: issueText(set.error) },
    set.status as ContentfulStatusCode,
  )
})

deploymentPages.get('/:account/projects/:slug/runs', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return runsPage(c, answer.data, v1)
})

async function runsPage(
  c: WebContext,
  project: ProjectListItem,
  v1: string,
  error?: string,
  status: ContentfulStatusCode = 200,
) {
  const { account, slug } = project.project
  const base = projectHref(account, slug)
  const [list, production, canWrite] = await Promise.all([
    c.get('api').get(RunListSchema, `${v1}/runs`),
    c.get('api').get(AliasSchema, `${v1}/aliases/production`),
    viewerCanWrite(c, account),
  ])
  if (!list.ok) return privateErrorPage(c, list)
  const runs = list.data.runs
  const going = runs.some((r) => r.status === 'running')
  return page(
    c,
    {
      title: `Runs · ${account}/${slug}`,
      section: 'projects',
      crumbs: projectCrumbs(account, slug, 'Runs'),
      status,
      ...(going ? { refreshSeconds: REFRESH_SECONDS } : {}),
    },
    <>
      <ProjectHead
        project={project}
        current={`${base}/runs`}
        actions={
          canWrite ? (
            <ActionButton
              action={`${base}/runs`}
              csrfToken={c.get('csrfToken')}
              label={
                production.ok
                  ? `Run production (${production.data.deployment.stackVersion})`
                  : 'Run the latest deployment'
              }
              primary
            />
          ) : null
        }
      />
      <FormError message={error} />
      <p class="muted">
        A run executes a deployment&apos;s <span class="mono">server.js</span> against the
        API&apos;s latest revision with the project&apos;s config. Without a production deployment,
        the latest deployment runs.
      </p>
      {runs.length === 0 ? (
        <Empty>
          No runs yet. <a href={`${base}/deployments`}>Deploy a version</a> and run it.
        </Empty>
      ) : (
        <table data-testid="runs">
          <thead>
            <tr>
              <th>Run</th>
              <th>Status</th>
              <th>Stack version</th>
              <th>Started by</th>
              <th>Started</th>
              <th>Duration</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr>
                <td class="mono">
                  <a href={runHref(account, slug, r.id)}>{r.id}</a>
                </td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td class="mono">{r.stackVersion}</td>
                <td>{r.createdBy}</td>
                <td>
                  <Time at={r.startedAt} />
                </td>
                <td>{duration(r.durationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>,
  )
}

deploymentPages.post('/:account/projects/:slug/runs', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const form: FormBody = await c.req.parseBody()
  const deployment = formText(form, 'deployment').trim()
  const run = await c
    .get('api')
    .send(RunSchema, 'POST', `${v1}/runs`, { json: deployment ? { deployment } : {} })
  const { account, slug } = answer.data.project
  if (run.ok) {
    return redirectWith(c, runHref(account, slug, run.data.id), {
      kind: 'success',
      message: `Started a run of version ${run.data.stackVersion}.`,
    })
  }
  if (refusedWrite(run.status)) return privateErrorPage(c, run)
  return runsPage(c, answer.data, v1, issueText(run.error), run.status as ContentfulStatusCode)
})

deploymentPages.get('/:account/projects/:slug/runs/:id', async (c) => {
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
          <dd class="mono">
            {run.revision ? (
              <a href={pathOf(run.revision.url)}>{run.revision.id}</a>
            ) : (
              <span class="muted">none (the API had no revision)</span>
            )}
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
          {artifacts.length === 0 ? (
            <Empty>The run generated no files.</Empty>
          ) : (
            <table data-testid="artifacts">
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
            </table>
          )}
          <h2>Parse issues</h2>
          {parseIssues.length === 0 ? (
            <Empty>The document has no parse issues.</Empty>
          ) : (
            <table data-testid="parse-issues">
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
            </table>
          )}
          <h2>Enrichment warnings</h2>
          {warnings.length === 0 ? (
            <Empty>The project&apos;s enrichments raised no warnings.</Empty>
          ) : (
            <table data-testid="enrichment-warnings">
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
            </table>
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

deploymentPages.get('/:account/projects/:slug/runs/:id/artifacts/:path{.+}', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const { account, slug } = answer.data.project
  const id = c.req.param('id')
  const path = c.req.param('path')
  const encoded = path.split('/').map(seg).join('/')
  const file = await c.get('api').get(z.string(), `${v1}/runs/${seg(id)}/artifacts/${encoded}`)
  if (!file.ok) return privateErrorPage(c, file)
  const run = runHref(account, slug, id)
  return page(
    c,
    {
      title: `${path} · ${id}`,
      section: 'projects',
      crumbs: [
        ...projectCrumbs(account, slug, 'Runs').slice(0, -1),
        { label: 'Runs', href: `${projectHref(account, slug)}/runs` },
        { label: id, href: run },
        { label: path },
      ],
    },
    <>
      <PageHead
        title={path}
        lead={
          <>
            Generated by run <a href={run}>{id}</a> · {formatBytes(Buffer.byteLength(file.data))}
          </>
        }
      />
      <pre data-testid="artifact-content">{file.data}</pre>
    </>,
  )
})

function levelKind(level: unknown): string {
  return level === 'error' ? 'failed' : level === 'warning' ? 'warning' : 'info'
}

/** The message of a refused call, with its first issue when it names one. */
function issueText(error: { message?: string; details?: unknown }): string {
  const issues = (error.details as { issues?: { message: string }[] } | undefined)?.issues
  const first = issues?.[0]?.message
  return first ? `${capitalise(first)}.` : (error.message ?? 'The hub refused this.')
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
