import { ProjectDetailSchema, type ProjectListItem } from '@svc/hub-api'
import type { Child } from 'hono/jsx'
import { PageHead, Tabs } from '../../components.js'
import type { WebContext } from '../../env.js'
import { stackHref, versionHref } from '../stacks.js'

export const seg = encodeURIComponent

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

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

export function StackPin({ project }: { project: ProjectListItem }) {
  const { stack, stackVersion } = project
  return (
    <>
      <a href={stackHref(stack.account, stack.slug)}>
        @{stack.account}/{stack.slug}
      </a>
      @
      {stackVersion === 'latest' ? (
        'latest'
      ) : (
        <a href={versionHref(stack.account, stack.slug, stackVersion)}>{stackVersion}</a>
      )}
    </>
  )
}

export async function readProject(c: WebContext) {
  const { account, slug } = c.req.param() as { account: string; slug: string }
  return c.get('api').get(ProjectDetailSchema, `/projects/${seg(account)}/${seg(slug)}`)
}

/** The head of every project page: the name, what it binds, the tabs. */
export function ProjectHead(props: { project: ProjectListItem; current: string; actions?: Child }) {
  const { account, slug } = props.project.project
  return (
    <>
      <PageHead
        title={`${account}/${slug}`}
        lead={
          <>
            Stack{' '}
            <span class="mono">
              <StackPin project={props.project} />
            </span>{' '}
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
