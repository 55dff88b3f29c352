import { Hono } from 'hono'
import { AdminError, createToken } from '../../../accounts/admin.js'
import { SCOPES, type Scope } from '../../../auth/scopes.js'
import type { TokenRow } from '../../../store/schema.js'
import {
  ActionButton,
  Badge,
  Empty,
  Field,
  Form,
  FormError,
  PageHead,
  Time,
  Table,
} from '../../components.js'
import type { Viewer, WebContext, WebEnv } from '../../env.js'
import { formText, formTexts } from '../../forms.js'
import { notFoundPage, page, redirectWith, signInRedirect } from '../../responses.js'

const NOTE_MAX = 100
const MAX_DAYS = 3650

/** What each scope allows (docs/api/authentication.md#scopes). */
const SCOPE_HINTS: Record<Scope, string> = {
  read: 'read stacks and their files, project configs, private APIs and their revisions',
  'write:releases': 'publish stack versions (svc publish)',
  'write:projects': 'create projects, replace their config and base files (svc push)',
  'write:apis': 'create APIs, push and refetch their revisions',
  'admin:webhooks': 'manage the webhooks of APIs, their deliveries and secrets',
  'write:libraries': 'create libraries of organisations',
}

type TokenForm = { note: string; scopes: readonly string[]; days: string }
type TokenErrors = { note?: string; scopes?: string; days?: string; form?: string }

/** `/settings/tokens`: the viewer's personal access tokens; make one (shown once), revoke one. */
export const tokenPages = new Hono<WebEnv>()

tokenPages.get('/settings/tokens', (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  return tokensPage(c, viewer, { note: '', scopes: ['read'], days: '90' }, {})
})

tokenPages.post('/settings/tokens', async (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  const body = await c.req.parseBody({ all: true })
  const form: TokenForm = {
    note: formText(body, 'note').trim(),
    scopes: formTexts(body, 'scopes'),
    days: formText(body, 'days').trim(),
  }
  const errors: TokenErrors = {}
  if ([...form.note].length > NOTE_MAX) errors.note = `Use at most ${NOTE_MAX} characters.`
  if (form.scopes.length === 0) errors.scopes = 'Choose at least one scope.'
  else if (form.scopes.some((s) => !(SCOPES as readonly string[]).includes(s))) {
    errors.scopes = `Scopes are ${SCOPES.join(', ')}.`
  }
  const days = form.days === '' ? undefined : /^\d+$/.test(form.days) ? Number(form.days) : NaN
  if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= MAX_DAYS)) {
    errors.days = `Give a whole number of days from 1 to ${MAX_DAYS}, or nothing for no expiry.`
  }
  if (errors.note || errors.scopes || errors.days) {
    return tokensPage(c, viewer, form, { ...errors, form: 'No token was made.' }, 422)
  }
  let created
  try {
    created = await createToken(
      c.get('hub').store,
      viewer.handle,
      form.scopes.join(','),
      days,
      form.note || null,
    )
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return tokensPage(c, viewer, form, { form: error.message }, 422)
  }
  return redirectWith(
    c,
    '/settings/tokens',
    { kind: 'success', message: `Made token ${created.id} (${created.scopes.join(', ')}).` },
    { label: 'Your new personal access token', value: created.token },
  )
})

tokenPages.post('/settings/tokens/:id/revoke', async (c) => {
  const viewer = c.get('viewer')
  if (!viewer) return signInRedirect(c)
  const { store } = c.get('hub')
  const token = await store.accounts.findToken(c.req.param('id'))
  // Someone else's token is as unknown as one that does not exist.
  if (token?.user_id !== viewer.userId) return notFoundPage(c)
  const revoked = await store.accounts.revokeToken(token.id)
  return redirectWith(c, '/settings/tokens', {
    kind: 'success',
    message:
      token.revoked_at === null
        ? `Revoked token ${token.id}: it is refused from now on.`
        : `Token ${token.id} was already revoked (${revoked?.revoked_at ?? token.revoked_at}).`,
  })
})

function state(token: TokenRow, at: number): { kind: string; label: string } {
  if (token.revoked_at) return { kind: 'failed', label: 'revoked' }
  if (token.expires_at && Date.parse(token.expires_at) <= at) {
    return { kind: 'warning', label: 'expired' }
  }
  return { kind: 'active', label: 'active' }
}

async function tokensPage(
  c: WebContext,
  viewer: Viewer,
  form: TokenForm,
  errors: TokenErrors,
  status: 200 | 422 = 200,
) {
  const tokens = await c.get('hub').store.accountSettings.tokensOf(viewer.userId)
  const at = Date.now()
  return page(
    c,
    {
      title: 'Personal access tokens',
      section: 'settings',
      status,
      crumbs: [{ label: 'Settings', href: '/settings' }, { label: 'Tokens' }],
    },
    <>
      <PageHead
        title="Personal access tokens"
        lead={
          <>
            Tokens let the <code>svc</code> command and scripts call the hub's API as you (
            <code>Authorization: Bearer svc_pat_…</code>). A token is shown once, when it is made.
          </>
        }
      />
      {tokens.length === 0 ? (
        <Empty>You have no tokens yet.</Empty>
      ) : (
        <Table testid="tokens">
          <thead>
            <tr>
              <th>Token</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>State</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => {
              const s = state(token, at)
              return (
                <tr data-token={token.id}>
                  <td>
                    {token.note ? <div>{token.note}</div> : <div class="muted">no note</div>}
                    <code class="hint">{token.id}</code>
                  </td>
                  <td>
                    {token.scopes.split(' ').map((scope) => (
                      <>
                        <code>{scope}</code>{' '}
                      </>
                    ))}
                  </td>
                  <td>
                    <Time at={token.created_at} />
                  </td>
                  <td>
                    {token.last_used_at ? (
                      <Time at={token.last_used_at} />
                    ) : (
                      <span class="muted">never</span>
                    )}
                  </td>
                  <td>
                    {token.expires_at ? (
                      <Time at={token.expires_at} />
                    ) : (
                      <span class="muted">never</span>
                    )}
                  </td>
                  <td>
                    <Badge kind={s.kind}>{s.label}</Badge>
                    {token.revoked_at ? (
                      <div class="hint">
                        <Time at={token.revoked_at} />
                      </div>
                    ) : null}
                  </td>
                  <td>
                    {token.revoked_at ? null : (
                      <ActionButton
                        action={`/settings/tokens/${token.id}/revoke`}
                        csrfToken={c.get('csrfToken')}
                        label="Revoke"
                        danger
                      />
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </Table>
      )}
      <section class="card form-card">
        <h2>New token</h2>
        <FormError message={errors.form} />
        <Form action="/settings/tokens" csrfToken={c.get('csrfToken')}>
          <Field
            name="note"
            label="Note"
            hint="What it is for, e.g. “CI publish”."
            value={form.note}
            error={errors.note}
          />
          <fieldset class="checks">
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <label class="check">
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  {...(form.scopes.includes(scope) ? { checked: true } : {})}
                />
                <span>
                  <code>{scope}</code> <span class="hint">{SCOPE_HINTS[scope]}</span>
                </span>
              </label>
            ))}
            {errors.scopes ? <div class="field-error">{errors.scopes}</div> : null}
          </fieldset>
          <Field
            name="days"
            label="Expires after (days)"
            type="number"
            hint={`1 to ${MAX_DAYS} days; leave empty for a token that never expires.`}
            value={form.days}
            error={errors.days}
          />
          <div>
            <button type="submit" class="primary">
              Make token
            </button>
          </div>
        </Form>
      </section>
    </>,
  )
}
