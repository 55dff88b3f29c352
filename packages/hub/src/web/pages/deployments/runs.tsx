import {
  AliasSchema,
  RunListSchema,
  RunSchema,
  type ProjectListItem,
  type CreateRun,
} from '@svc/hub-api'
import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ActionButton, Empty, FormError, plural, Table, Time } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText, type FormBody } from '../../forms.js'
import { page, redirectWith } from '../../responses.js'
import { ProjectHead, projectCrumbs, projectHref } from '../projects/shared.js'
import { privateErrorPage } from '../stacks.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import {
  REFRESH_SECONDS,
  runHref,
  duration,
  StatusBadge,
  RunRevision,
  readProject,
  refusedWrite,
  issueText,
} from './shared.js'

/** A project's runs: the list and starting one. */
export const runListPages = new Hono<WebEnv>()

runListPages.get('/:account/projects/:slug/runs', async (c) => {
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
        production={production.ok ? production.data.deployment.stackVersion : undefined}
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
        <>
          <p class="muted" data-testid="run-count">
            {plural(runs.length, 'run')}, newest first{runs.length === 100 ? ' (the last 100)' : ''}
          </p>
          <Table testid="runs">
            <thead>
              <tr>
                <th>Run</th>
                <th>Status</th>
                <th>Stack version</th>
                <th>Revision</th>
                <th>Started by</th>
                <th>Started</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr>
                  <td class="mono nowrap">
                    <a href={runHref(account, slug, r.id)}>{r.id}</a>
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td class="mono">{r.stackVersion}</td>
                  <td class="mono" data-testid="run-revision">
                    <RunRevision revision={r.revision} />
                  </td>
                  <td>{r.createdBy}</td>
                  <td>
                    <Time at={r.startedAt} />
                  </td>
                  <td>{duration(r.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </>,
  )
}

runListPages.post('/:account/projects/:slug/runs', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const form: FormBody = await c.req.parseBody()
  const deployment = formText(form, 'deployment').trim()
  const run = await c.get('api').send(RunSchema, 'POST', `${v1}/runs`, {
    json: (deployment ? { deployment } : {}) satisfies CreateRun,
  })
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
