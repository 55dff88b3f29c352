import { ApiListSchema, ProjectListSchema, StackListSchema, UserSchema } from '@svc/hub-api'
import { Hono } from 'hono'
import { Badge, Empty, PageHead, Table } from '../components.js'
import type { WebEnv } from '../env.js'
import { notFoundPage, page } from '../responses.js'
import { ProjectTable } from './projects/list.js'
import { StackTable } from './stacks.js'

const seg = encodeURIComponent

/**
 * `/{handle}`: a user's or an organisation's public face: the APIs the viewer can read, and for
 * the account's own user and the organisation's members its stacks and projects. Registered
 * last, after every fixed path.
 */
export const accountPages = new Hono<WebEnv>().get('/:handle', async (c) => {
  const handle = c.req.param('handle')
  // Handles are public (every API names its owner); what the page lists comes from the API.
  const account = await c.get('hub').store.accounts.find(handle)
  if (!account) return notFoundPage(c)
  const api = c.get('api')
  const viewer = c.get('viewer')
  const q = `account=${seg(handle)}&limit=100`
  const [apis, stacks, projects, me] = await Promise.all([
    api.get(ApiListSchema, `/apis?owner=${seg(handle)}&limit=100`),
    viewer ? api.get(StackListSchema, `/stacks?${q}`) : undefined,
    viewer ? api.get(ProjectListSchema, `/projects?${q}`) : undefined,
    viewer ? api.get(UserSchema, '/user') : undefined,
  ])
  const role = me?.ok ? me.data.organizations.find((o) => o.handle === handle)?.role : undefined
  const own = viewer?.handle === handle
  const isOrg = account.kind === 'org'
  // Stacks and projects are readable by the account's user or the organisation's members only.
  const member = own || role !== undefined
  return page(
    c,
    { title: handle, crumbs: [{ label: handle }] },
    <>
      <PageHead
        title={handle}
        lead={
          <>
            {isOrg ? 'Organisation' : 'User'}
            {role ? (
              <>
                {' '}
                · you are <Badge kind="info">{role}</Badge>
              </>
            ) : null}
            {own ? <> · this is you</> : null}
          </>
        }
        actions={
          isOrg && role ? (
            <a class="button" href={`/${seg(handle)}/settings`}>
              Organisation settings
            </a>
          ) : own ? (
            <a class="button" href="/settings">
              Your settings
            </a>
          ) : undefined
        }
      />
      <h2>APIs</h2>
      {apis.ok && apis.data.apis.length > 0 ? (
        <Table testid="apis">
          <thead>
            <tr>
              <th>API</th>
              <th>Name</th>
              <th>Visibility</th>
            </tr>
          </thead>
          <tbody>
            {apis.data.apis.map((a) => (
              <tr>
                <td class="mono">
                  <a href={`/${seg(a.owner)}/apis/${seg(a.slug)}`}>
                    {a.owner}/{a.slug}
                  </a>
                </td>
                <td>{a.name}</td>
                <td>
                  <Badge kind={a.visibility}>{a.visibility}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <Empty>No APIs {viewer ? 'you can see' : 'in public'}.</Empty>
      )}
      {apis.ok && apis.data.nextCursor ? (
        <p>
          <a href={`/apis?owner=${seg(handle)}`}>All APIs of {handle} →</a>
        </p>
      ) : null}
      {member ? (
        <>
          <h2>Stacks</h2>
          {stacks?.ok && stacks.data.stacks.length > 0 ? (
            <StackTable stacks={stacks.data.stacks} />
          ) : (
            <Empty>No stacks.</Empty>
          )}
          <h2>Projects</h2>
          {projects?.ok && projects.data.projects.length > 0 ? (
            <ProjectTable projects={projects.data.projects} />
          ) : (
            <Empty>
              No projects. <a href="/projects/new">Create one</a>.
            </Empty>
          )}
        </>
      ) : (
        <p class="muted">
          Stacks and projects of {handle} are shown to {isOrg ? 'its members' : 'its user'} only.
        </p>
      )}
    </>,
  )
})
