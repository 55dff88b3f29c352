import type { Child } from 'hono/jsx'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AccountRow, Role } from '../../../store/schema.js'
import { Badge, PageHead, Tabs } from '../../components.js'
import type { Viewer, WebContext } from '../../env.js'
import { errorPage, notFoundPage, page, signInRedirect } from '../../responses.js'

/** An organisation's settings as one of its members opens them. */
export type OrgView = {
  readonly org: AccountRow
  readonly role: Role
  readonly viewer: Viewer
}

export type OrgTab = 'overview' | 'members' | 'api-keys' | 'credits' | 'rate-limits' | 'usage'

/**
 * The organisation `:org` of the URL when the viewer is one of its members; else the answer to
 * give: sign in when signed out, the not-found page for anyone else (a user's handle, no such
 * organisation, or not a member: a page never tells which).
 */
export async function openOrg(c: WebContext): Promise<OrgView | Response> {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  const { store } = c.get('hub')
  const org = await store.accounts.find(c.req.param('org') ?? '')
  if (org?.kind !== 'org') return notFoundPage(c)
  const role = await store.accounts.roleOf(org.id, viewer.userId)
  if (!role) return notFoundPage(c)
  return { org, role, viewer }
}

/**
 * Like `openOrg`, for a form that changes the organisation: members who are not owners see every
 * settings page but get 403 "only owners" for a change, and nothing changes.
 */
export async function openOrgAsOwner(c: WebContext): Promise<OrgView | Response> {
  const view = await openOrg(c)
  if (view instanceof Response || view.role === 'owner') return view
  return errorPage(
    c,
    403,
    'Only owners can do this',
    `Only owners of ${view.org.handle} can change its settings; your role is ${view.role}.`,
  )
}

const TABS: readonly { tab: OrgTab; path: string; label: string }[] = [
  { tab: 'overview', path: '', label: 'Overview' },
  { tab: 'members', path: '/members', label: 'Members' },
  { tab: 'api-keys', path: '/api-keys', label: 'API keys' },
  { tab: 'credits', path: '/credits', label: 'Credits' },
  { tab: 'rate-limits', path: '/rate-limits', label: 'Rate limits' },
  { tab: 'usage', path: '/usage', label: 'Storage' },
]

export function orgSettingsUrl(org: string, tab: OrgTab = 'overview'): string {
  return `/${org}/settings${TABS.find((t) => t.tab === tab)!.path}`
}

/** A page of an organisation's settings: its head, its tabs, then `body`. */
export function orgPage(
  c: WebContext,
  view: OrgView,
  options: { tab: OrgTab; status?: ContentfulStatusCode },
  body: Child,
): Response | Promise<Response> {
  const org = view.org.handle
  const label = TABS.find((t) => t.tab === options.tab)!.label
  return page(
    c,
    {
      title: options.tab === 'overview' ? `${org} settings` : `${label} · ${org}`,
      section: 'settings',
      crumbs: [
        { label: 'Settings', href: '/settings' },
        { label: org, href: orgSettingsUrl(org) },
        ...(options.tab === 'overview' ? [] : [{ label }]),
      ],
      ...(options.status ? { status: options.status } : {}),
    },
    <>
      <PageHead
        title={org}
        lead={
          <>
            Organisation settings · your role: <Badge kind="info">{view.role}</Badge>
          </>
        }
      />
      <Tabs
        tabs={TABS.map((t) => ({ href: orgSettingsUrl(org, t.tab), label: t.label }))}
        current={orgSettingsUrl(org, options.tab)}
      />
      {body}
    </>,
  )
}

/** What a member who is not an owner reads where an owner has a form. */
export function OwnersOnly({ view, what }: { view: OrgView; what: string }) {
  return (
    <p class="muted" data-testid="owners-only">
      Only owners of {view.org.handle} can {what}; your role is {view.role}.
    </p>
  )
}
