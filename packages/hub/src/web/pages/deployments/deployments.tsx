import {
  AliasSchema,
  DeploymentListSchema,
  DeploymentSchema,
  StackVersionListSchema,
  type ProjectListItem,
  type CreateDeployment,
  type SetAlias,
} from '@svc/hub-api'
import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  ActionButton,
  Badge,
  Empty,
  Form,
  FormError,
  Select,
  Time,
  Table,
} from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText, type FormBody } from '../../forms.js'
import { page, redirectWith } from '../../responses.js'
import { ProjectHead, projectCrumbs, projectHref } from '../projects/shared.js'
import { privateErrorPage } from '../stacks.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import { seg, pathOf, readProject, refusedWrite, issueText } from './shared.js'

/** A project's deployments: the list, deploying a stack version, promoting one to production. */
export const deploymentListPages = new Hono<WebEnv>()

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
      <ProjectHead
        project={project}
        current={`${base}/deployments`}
        production={deployments.find((d) => d.production)?.stackVersion}
      />
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
        <Table testid="deployments">
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
                <td class="mono nowrap">
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
        </Table>
      )}
    </>,
  )
}

deploymentListPages.get('/:account/projects/:slug/deployments', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return deploymentsPage(c, answer.data, v1)
})

deploymentListPages.post('/:account/projects/:slug/deployments', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const form: FormBody = await c.req.parseBody()
  const stackVersion = formText(form, 'stackVersion').trim() || 'latest'
  const deployed = await c.get('api').send(DeploymentSchema, 'POST', `${v1}/deployments`, {
    json: { stackVersion } satisfies CreateDeployment,
  })
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

deploymentListPages.post('/:account/projects/:slug/deployments/:id/promote', async (c) => {
  const { answer, v1 } = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const id = c.req.param('id')
  const set = await c.get('api').send(AliasSchema, 'PUT', `${v1}/aliases/production`, {
    json: { deployment: id } satisfies SetAlias,
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
