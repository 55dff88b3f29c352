import { AliasSchema, RunListSchema, type Alias, type Run } from '@svc/hub-api'
import { Hono } from 'hono'
import { Badge, Empty, formatBytes, Time } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { page } from '../../responses.js'
import { duration, pathOf, runHref, RunRevision, StatusBadge } from '../deployments/shared.js'
import { privateErrorPage, stackHref, versionHref } from '../stacks.js'
import {
  plural,
  projectHref,
  apiHref,
  projectCrumbs,
  readProject,
  ProjectHead,
  seg,
} from './shared.js'

/** A project's overview, `/{account}/projects/{slug}`. */
export const projectOverviewPages = new Hono<WebEnv>()

projectOverviewPages.get('/:account/projects/:slug', async (c) => {
  const v1 = `/projects/${seg(c.req.param('account'))}/${seg(c.req.param('slug'))}`
  const api = c.get('api')
  const [answer, production, runs] = await Promise.all([
    readProject(c),
    api.get(AliasSchema, `${v1}/aliases/production`),
    api.get(RunListSchema, `${v1}/runs`),
  ])
  if (!answer.ok) return privateErrorPage(c, answer)
  if (!runs.ok) return privateErrorPage(c, runs)
  const p = answer.data
  const { account, slug } = p.project
  const here = projectHref(account, slug)
  // Without a production alias the answer is 404; the card then says so.
  const alias = production.ok ? production.data : undefined
  return page(
    c,
    { title: `${account}/${slug}`, section: 'projects', crumbs: projectCrumbs(account, slug) },
    <>
      <ProjectHead project={p} current={here} production={alias?.deployment.stackVersion} />
      <div class="grid2">
        <ProductionCard alias={alias} base={here} />
        <LastRunCard runs={runs.data.runs} account={account} slug={slug} />
      </div>
      <div class="grid2">
        <div class="card">
          <h3>Binding</h3>
          <dl class="facts" data-testid="binding">
            <dt>Stack</dt>
            <dd class="mono">
              <a href={stackHref(p.stack.account, p.stack.slug)}>
                @{p.stack.account}/{p.stack.slug}
              </a>
            </dd>
            <dt>Version pin</dt>
            <dd class="mono">
              {p.stackVersion === 'latest' ? (
                <>latest (a deployment takes the highest release)</>
              ) : (
                <a href={versionHref(p.stack.account, p.stack.slug, p.stackVersion)}>
                  {p.stackVersion}
                </a>
              )}
            </dd>
            <dt>API</dt>
            <dd class="mono">
              <a href={apiHref(p.api.owner, p.api.slug)}>
                {p.api.owner}/{p.api.slug}
              </a>
            </dd>
            <dt>Created</dt>
            <dd>
              <Time at={p.createdAt} />
            </dd>
          </dl>
        </div>
        <div class="card">
          <h3>Config</h3>
          <dl class="facts" data-testid="config-summary">
            <dt>Last pushed</dt>
            <dd>
              {p.configUpdatedAt ? (
                <Time at={p.configUpdatedAt} />
              ) : (
                <span class="muted">never</span>
              )}
            </dd>
            <dt>Settings</dt>
            <dd>{plural(p.settingCount, 'key')}</dd>
            <dt>Enrichments</dt>
            <dd>{plural(p.enrichmentCount, 'row')}</dd>
            <dt>Base files</dt>
            <dd>
              {plural(p.baseFileCount, 'file')}, {formatBytes(p.baseFilesBytes)}
            </dd>
          </dl>
          <p class="row">
            <a href={`${here}/config`}>View or edit the config</a>
            <a href={`${here}/base-files`}>Base files</a>
          </p>
        </div>
      </div>
      <h2>Push from your app root</h2>
      <pre>{`svc push <project> --project @${account}/${slug}\nsvc push <project> --base-files   # also the app's base files\nsvc pull <project>                # the config back into client.json`}</pre>
    </>,
  )
})

function ProductionCard({ alias, base }: { alias: Alias | undefined; base: string }) {
  return (
    <div class="card" data-testid="production">
      <h3>Production</h3>
      {alias ? (
        <>
          <dl class="facts">
            <dt>Stack version</dt>
            <dd class="mono">
              <a href={pathOf(alias.deployment.versionUrl)}>{alias.deployment.stackVersion}</a>
            </dd>
            <dt>Deployment</dt>
            <dd class="mono">
              {alias.deployment.id} <Badge kind="production">production</Badge>
            </dd>
            <dt>Deployed</dt>
            <dd>
              <Time at={alias.deployment.createdAt} /> by {alias.deployment.createdBy}
            </dd>
            <dt>Promoted</dt>
            <dd>
              <Time at={alias.updatedAt} /> by {alias.updatedBy}
            </dd>
          </dl>
          <p class="row">
            <a href={`${base}/deployments`}>Deployments</a>
          </p>
        </>
      ) : (
        <Empty>
          No production deployment yet. <a href={`${base}/deployments`}>Deploy a version</a> and
          promote it to production.
        </Empty>
      )}
    </div>
  )
}

function LastRunCard(props: { runs: readonly Run[]; account: string; slug: string }) {
  const last = props.runs[0]
  const all = `${projectHref(props.account, props.slug)}/runs`
  return (
    <div class="card" data-testid="last-run">
      <h3>Last run</h3>
      {last ? (
        <>
          <dl class="facts">
            <dt>Run</dt>
            <dd class="mono">
              <a href={runHref(props.account, props.slug, last.id)}>{last.id}</a>{' '}
              <StatusBadge status={last.status} />
            </dd>
            <dt>Started</dt>
            <dd>
              <Time at={last.startedAt} /> by {last.createdBy}
            </dd>
            <dt>Took</dt>
            <dd>{duration(last.durationMs)}</dd>
            <dt>Stack version</dt>
            <dd class="mono">{last.stackVersion}</dd>
            <dt>Revision</dt>
            <dd class="mono">
              <RunRevision revision={last.revision} />
            </dd>
          </dl>
          <p class="row">
            <span>
              <a href={all}>All runs</a> (
              <span data-testid="run-count">
                {props.runs.length >= 100 ? '100 or more' : plural(props.runs.length, 'run')}
              </span>
              )
            </span>
          </p>
        </>
      ) : (
        <Empty>
          No runs yet. <a href={all}>Run</a> a deployment to generate code from the API.
        </Empty>
      )}
    </div>
  )
}
