import { ProjectListSchema, type ProjectListItem } from '@svc/hub-api'
import { Hono } from 'hono'
import { Empty, PageHead, Time, Table } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { apiErrorPage, page, signInRedirect } from '../../responses.js'
import { projectHref, apiHref, StackPin } from './shared.js'

/** The projects list, `/projects`. */
export const projectListPages = new Hono<WebEnv>()

/** A table of projects (the projects page and the account page). */
export function ProjectTable({ projects }: { projects: readonly ProjectListItem[] }) {
  return (
    <Table>
      <thead>
        <tr>
          <th>Project</th>
          <th>Stack</th>
          <th>API</th>
          <th>Config pushed</th>
        </tr>
      </thead>
      <tbody>
        {projects.map((p) => (
          <tr>
            <td>
              <a href={projectHref(p.project.account, p.project.slug)} class="mono">
                {p.project.account}/{p.project.slug}
              </a>
            </td>
            <td class="mono">
              <StackPin project={p} />
            </td>
            <td class="mono">
              <a href={apiHref(p.api.owner, p.api.slug)}>
                {p.api.owner}/{p.api.slug}
              </a>
            </td>
            <td>
              {p.configUpdatedAt ? (
                <Time at={p.configUpdatedAt} />
              ) : (
                <span class="muted">never</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  )
}

projectListPages.get('/projects', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const cursor = c.req.query('cursor')
  const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) })
  const answer = await c.get('api').get(ProjectListSchema, `/projects?${query}`)
  if (!answer.ok) return apiErrorPage(c, answer)
  const { projects, nextCursor } = answer.data
  return page(
    c,
    { title: 'Projects', section: 'projects', crumbs: [{ label: 'Projects' }] },
    <>
      <PageHead
        title="Projects"
        lead="A project binds a stack and an API, and holds the config and base files that svc push sends."
        actions={
          <a class="button primary" href="/projects/new">
            New project
          </a>
        }
      />
      {projects.length === 0 && !cursor ? (
        <Empty>
          No projects yet. <a href="/projects/new">Create one</a> from a stack you published and an
          API.
        </Empty>
      ) : (
        <ProjectTable projects={projects} />
      )}
      {nextCursor ? (
        <p>
          <a href={`/projects?cursor=${encodeURIComponent(nextCursor)}`}>More projects →</a>
        </p>
      ) : null}
    </>,
  )
})
