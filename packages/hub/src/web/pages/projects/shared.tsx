import { ProjectDetailSchema, type ProjectListItem } from '@svc/hub-api'
import type { Child } from 'hono/jsx'
import { PageHead, Tabs } from '../../components.js'
import type { WebContext } from '../../env.js'
import { stackHref, versionHref } from '../stacks.js'

export const seg = encodeURIComponent

export { plural } from '../../components.js'

/** The project page, `/{account}/projects/{slug}` (the `url` of the API's project record). */
export function projectHref(account: string, slug: string): string {
  return `/${seg(account)}/projects/${seg(slug)}`
}

export function apiHref(owner: string, slug: string): string {
  return `/${seg(owner)}/apis/${seg(slug)}`
}

/**
 * The tabs of every project page; the deployments and runs pages use them too. `current` is the
 * href of the open tab (`projectHref(account, slug) + '/config'`, …).
 */
export function ProjectTabs(props: { account: string; slug: string; current: string }) {
  const base = projectHref(props.account, props.slug)
  return (
    <Tabs
      current={props.current}
      tabs={[
        { href: base, label: 'Overview' },
        { href: `${base}/config`, label: 'Config' },
        { href: `${base}/base-files`, label: 'Base files' },
        { href: `${base}/deployments`, label: 'Deployments' },
        { href: `${base}/runs`, label: 'Runs' },
      ]}
    />
  )
}

/** The trail of a project page. */
export function projectCrumbs(account: string, slug: string, here?: string) {
  return [
    { label: 'Projects', href: '/projects' },
    { label: account, href: `/${seg(account)}` },
    here ? { label: slug, href: projectHref(account, slug) } : { label: slug },
    ...(here ? [{ label: here }] : []),
  ]
}

/**
 * The stack and the version the project runs: production's when `production` names it (what a
 * `latest` pin resolved to when it was deployed), else the pin.
 */
export function StackPin({
  project,
  production,
}: {
  project: ProjectListItem
  production?: string
}) {
  const { stack, stackVersion } = project
  const version = production ?? stackVersion
  return (
    <>
      <a href={stackHref(stack.account, stack.slug)}>
        @{stack.account}/{stack.slug}
      </a>
      @
      {version === 'latest' ? (
        'latest'
      ) : (
        <a href={versionHref(stack.account, stack.slug, version)}>{version}</a>
      )}
    </>
  )
}

export async function readProject(c: WebContext) {
  const { account, slug } = c.req.param() as { account: string; slug: string }
  return c.get('api').get(ProjectDetailSchema, `/projects/${seg(account)}/${seg(slug)}`)
}

/** The head of every project page: the name, what it binds, the tabs. */
export function ProjectHead(props: {
  project: ProjectListItem
  current: string
  actions?: Child
  /** The stack version of the production deployment, when the page read it. */
  production?: string | undefined
}) {
  const { account, slug } = props.project.project
  const { production } = props
  const pin = props.project.stackVersion
  return (
    <>
      <PageHead
        title={`${account}/${slug}`}
        lead={
          <>
            Stack{' '}
            <span class="mono" data-testid="stack-pin">
              <StackPin project={props.project} {...(production ? { production } : {})} />
            </span>
            {production ? (
              <> in production{production === pin ? '' : <span class="mono"> (pin {pin})</span>}</>
            ) : null}{' '}
            · API{' '}
            <a class="mono" href={apiHref(props.project.api.owner, props.project.api.slug)}>
              {props.project.api.owner}/{props.project.api.slug}
            </a>
          </>
        }
        actions={props.actions}
      />
      <ProjectTabs account={account} slug={slug} current={props.current} />
    </>
  )
}
