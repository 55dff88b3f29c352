import { Hono } from 'hono'
import { formatBytes, Time } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { page } from '../../responses.js'
import { privateErrorPage, stackHref, versionHref } from '../stacks.js'
import { plural, projectHref, apiHref, projectCrumbs, readProject, ProjectHead } from './shared.js'

/** A project's overview, `/{account}/projects/{slug}`. */
export const projectOverviewPages = new Hono<WebEnv>()

projectOverviewPages.get('/:account/projects/:slug', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const p = answer.data
  const { account, slug } = p.project
  const here = projectHref(account, slug)
  return page(
    c,
    { title: `${account}/${slug}`, section: 'projects', crumbs: projectCrumbs(account, slug) },
    <>
      <ProjectHead project={p} current={here} />
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
                <>latest (the highest release)</>
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
