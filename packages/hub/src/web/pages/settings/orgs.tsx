import { Hono } from 'hono'
import { AdminError, createOrg } from '../../../accounts/admin.js'
import { handleProblem } from '@svc/project-format'
import { Badge, Field, Form, PageHead } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { page, redirectWith, signInRedirect } from '../../responses.js'
import { openOrg, orgPage, orgSettingsUrl } from './org-context.js'

/** `/orgs/new` (make an organisation) and `/{org}/settings` (its overview). */
export const orgPages = new Hono<WebEnv>()

orgPages.get('/orgs/new', (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  return newOrgPage(c, '')
})

orgPages.post('/orgs/new', async (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  const handle = formText(await c.req.parseBody(), 'handle')
    .trim()
    .toLowerCase()
  const problem = handleProblem(handle)
  if (problem) return newOrgPage(c, handle, problem, 422)
  try {
    await createOrg(c.get('hub').store, handle, viewer.handle)
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return newOrgPage(c, handle, `'${handle}' is taken by a user or an organisation.`, 422)
  }
  return redirectWith(c, orgSettingsUrl(handle), {
    kind: 'success',
    message: `Made the organisation ${handle}; you are its owner.`,
  })
})

orgPages.get('/:org/settings', async (c) => {
  const view = await openOrg(c)
  if (view instanceof Response) return view
  const { store } = c.get('hub')
  const [members, balance, keys] = await Promise.all([
    store.accountSettings.members(view.org.id),
    store.credits.balance(view.org.id),
    store.accountSettings.apiKeysOf(view.org.id),
  ])
  const owners = members.filter((m) => m.role === 'owner').length
  const org = view.org.handle
  return orgPage(
    c,
    view,
    { tab: 'overview' },
    <>
      <dl class="facts" data-testid="overview">
        <dt>Handle</dt>
        <dd>
          <a href={`/${org}`}>{org}</a>
        </dd>
        <dt>Members</dt>
        <dd>
          <a href={orgSettingsUrl(org, 'members')}>
            {members.length} member{members.length === 1 ? '' : 's'}
          </a>{' '}
          <span class="muted">
            ({owners} owner{owners === 1 ? '' : 's'})
          </span>
        </dd>
        <dt>Your role</dt>
        <dd>
          <Badge kind="info">{view.role}</Badge>
        </dd>
        <dt>API keys</dt>
        <dd>
          <a href={orgSettingsUrl(org, 'api-keys')}>
            {keys.filter((k) => !k.revoked_at).length} active
          </a>
        </dd>
        <dt>Credits</dt>
        <dd>
          <a href={orgSettingsUrl(org, 'credits')}>{balance.toLocaleString('en')}</a>
        </dd>
        <dt>Created</dt>
        <dd>{view.org.created_at.slice(0, 10)}</dd>
      </dl>
      <p class="muted">
        {view.role === 'owner'
          ? 'As an owner you manage members, API keys, the low-credit threshold and rate-limit overrides.'
          : 'Owners manage members, API keys, the low-credit threshold and rate-limit overrides; you can see them.'}
      </p>
    </>,
  )
})

function newOrgPage(c: WebContext, handle: string, error?: string, status: 200 | 422 = 200) {
  return page(
    c,
    {
      title: 'New organisation',
      section: 'settings',
      status,
      crumbs: [{ label: 'Settings', href: '/settings' }, { label: 'New organisation' }],
    },
    <div class="narrow">
      <PageHead
        title="New organisation"
        lead="An organisation owns APIs, stacks and projects with its members. You become its owner."
      />
      <div class="card">
        <Form action="/orgs/new" csrfToken={c.get('csrfToken')}>
          <Field
            name="handle"
            label="Handle"
            hint="Its name on the hub and in URLs: lowercase letters, digits and inner hyphens. Users and organisations share handles."
            value={handle}
            error={error}
            required
          />
          <div>
            <button type="submit" class="primary">
              Create organisation
            </button>
          </div>
        </Form>
      </div>
    </div>,
  )
}
