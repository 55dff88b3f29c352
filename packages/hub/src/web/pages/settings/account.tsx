import { Hono } from 'hono'
import {
  ActionButton,
  Badge,
  Empty,
  Field,
  Form,
  FormError,
  PageHead,
  Table,
} from '../../components.js'
import type { Viewer, WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { page, redirectWith, retryAfter, signInRedirect } from '../../responses.js'
import { hashPassword, passwordProblem, verifyPassword } from '../../../auth/passwords.js'
import { authThrottles } from '../../session/throttles.js'
import { orgSettingsUrl } from './org-context.js'

type PasswordErrors = { current?: string; password?: string; confirm?: string; form?: string }

/** `/settings`: the viewer's account, its organisations, its password and its sessions. */
export const accountPages = new Hono<WebEnv>()

accountPages.get('/settings', (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  return accountPage(c, viewer, {})
})

accountPages.post('/settings/password', async (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  // Each post checks the current password: whoever holds a stolen session cannot guess it fast.
  const wait = await authThrottles(c).passwordChange.spend(c.get('client').address)
  if (wait > 0) {
    const form = `Too many password changes from your address. Try again ${retryAfter(c, wait)}.`
    return accountPage(c, viewer, { form }, 429)
  }
  const form = await c.req.parseBody()
  const current = formText(form, 'current')
  const password = formText(form, 'password')
  const { store } = c.get('hub')
  const errors: PasswordErrors = {}
  const stored = await store.sessions.passwordOf(viewer.userId)
  if (!stored || !(await verifyPassword(current, stored))) {
    errors.current = 'This is not your current password.'
  }
  errors.password = passwordProblem(password, viewer.handle)
  if (!errors.password && password === current) {
    errors.password = 'The new password is the current one.'
  }
  if (!errors.password && formText(form, 'confirm') !== password) {
    errors.confirm = 'The two passwords differ.'
  }
  if (errors.current || errors.password || errors.confirm) {
    return accountPage(c, viewer, { ...errors, form: 'Your password was not changed.' }, 422)
  }
  const hash = await hashPassword(password)
  const ended = await store.transaction(async (tx) => {
    await tx.sessions.setPassword(viewer.userId, hash)
    return tx.sessions.deleteForUser(viewer.userId, viewer.sessionId)
  })
  return redirectWith(c, '/settings', {
    kind: 'success',
    message: `Your password is changed. ${signedOut(ended)}`,
  })
})

accountPages.post('/settings/sessions/end-others', async (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  const ended = await c.get('hub').store.sessions.deleteForUser(viewer.userId, viewer.sessionId)
  return redirectWith(c, '/settings', { kind: 'success', message: signedOut(ended) })
})

function signedOut(count: number): string {
  if (count === 0) return 'You were signed in nowhere else.'
  return `Signed out ${count} other session${count === 1 ? '' : 's'}.`
}

async function accountPage(
  c: WebContext,
  viewer: Viewer,
  errors: PasswordErrors,
  status: 200 | 422 | 429 = 200,
) {
  const { store } = c.get('hub')
  const [orgs, sessions] = await Promise.all([
    store.accounts.memberships(viewer.userId),
    store.accountSettings.sessionCount(viewer.userId),
  ])
  const others = Math.max(0, sessions - 1)
  return page(
    c,
    { title: 'Your account', section: 'settings', status, crumbs: [{ label: 'Settings' }] },
    <>
      <PageHead
        title={viewer.handle}
        lead="Your account: organisations, password and sign-ins."
        actions={
          <>
            <a class="button" href="/settings/tokens">
              Personal access tokens
            </a>
            <a class="button" href="/settings/usage">
              Storage usage
            </a>
          </>
        }
      />
      <h2>Organisations</h2>
      {orgs.length === 0 ? (
        <Empty>You are not a member of any organisation yet.</Empty>
      ) : (
        <Table testid="orgs">
          <thead>
            <tr>
              <th>Organisation</th>
              <th>Your role</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {orgs.map((org) => (
              <tr>
                <td>
                  <a href={`/${org.handle}`}>{org.handle}</a>
                </td>
                <td>
                  <Badge kind="info">{org.role}</Badge>
                </td>
                <td>
                  <a href={orgSettingsUrl(org.handle)}>Settings</a>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <p>
        <a class="button" href="/orgs/new">
          New organisation
        </a>
      </p>
      <div class="grid2">
        <section class="card">
          <h2>Change your password</h2>
          <FormError message={errors.form} />
          <Form action="/settings/password" csrfToken={c.get('csrfToken')}>
            <Field
              name="current"
              label="Current password"
              type="password"
              error={errors.current}
              required
              autocomplete="current-password"
            />
            <Field
              name="password"
              label="New password"
              type="password"
              hint="At least 10 characters, without your handle."
              error={errors.password}
              required
              autocomplete="new-password"
            />
            <Field
              name="confirm"
              label="Confirm new password"
              type="password"
              error={errors.confirm}
              required
              autocomplete="new-password"
            />
            <div>
              <button type="submit" class="primary">
                Change password
              </button>
            </div>
          </Form>
          <p class="hint">Changing it signs you out everywhere but here.</p>
        </section>
        <section class="card">
          <h2>Sessions</h2>
          <p data-testid="other-sessions">
            {others === 0
              ? 'You are signed in only here.'
              : `You are also signed in on ${others} other browser${others === 1 ? '' : 's'} or device${others === 1 ? '' : 's'}.`}
          </p>
          <ActionButton
            action="/settings/sessions/end-others"
            csrfToken={c.get('csrfToken')}
            label="Sign out everywhere else"
          />
        </section>
      </div>
    </>,
  )
}
