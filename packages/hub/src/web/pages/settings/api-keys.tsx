import { Hono } from 'hono'
import { AdminError, createApiKey, revokeApiKey } from '../../../accounts/admin.js'
import { ActionButton, Badge, Empty, Form, Time, Table } from '../../components.js'
import type { WebEnv } from '../../env.js'
import { notFoundPage, redirectWith } from '../../responses.js'
import { openOrg, openOrgAsOwner, orgPage, orgSettingsUrl, OwnersOnly } from './org-context.js'

/** `/{org}/settings/api-keys`: the organisation's API keys; owners make (shown once) and revoke. */
export const apiKeyPages = new Hono<WebEnv>()

apiKeyPages.get('/:org/settings/api-keys', async (c) => {
  const view = await openOrg(c)
  if (view instanceof Response) return view
  const keys = await c.get('hub').store.accountSettings.apiKeysOf(view.org.id)
  const org = view.org.handle
  const owner = view.role === 'owner'
  return orgPage(
    c,
    view,
    { tab: 'api-keys' },
    <>
      <p class="lead">
        An API key (<code>svc_key_…</code>) acts for the organisation, not for a person: the library
        endpoints take it as <code>Authorization: Bearer</code>, and{' '}
        <code>GET /v1/rate-limits?apiKey=…</code> answers the organisation's rate limits. A key is
        shown once, when it is made; to replace one, make a new key and revoke the old.
      </p>
      {keys.length === 0 ? (
        <Empty>{org} has no API keys.</Empty>
      ) : (
        <Table testid="api-keys">
          <thead>
            <tr>
              <th>Key</th>
              <th>Made by</th>
              <th>Created</th>
              <th>State</th>
              {owner ? <th></th> : null}
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr data-key={key.id}>
                <td>
                  <code>{key.id}</code>
                </td>
                <td>
                  {key.creator_handle ?? <span class="muted">the operator (svc-hub admin)</span>}
                </td>
                <td>
                  <Time at={key.created_at} />
                </td>
                <td>
                  {key.revoked_at ? (
                    <>
                      <Badge kind="failed">revoked</Badge>{' '}
                      <span class="hint">
                        <Time at={key.revoked_at} />
                      </span>
                    </>
                  ) : (
                    <Badge kind="active">active</Badge>
                  )}
                </td>
                {owner ? (
                  <td>
                    {key.revoked_at ? null : (
                      <ActionButton
                        action={`/${org}/settings/api-keys/${key.id}/revoke`}
                        csrfToken={c.get('csrfToken')}
                        label="Revoke"
                        danger
                      />
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {owner ? (
        <Form action={`/${org}/settings/api-keys`} csrfToken={c.get('csrfToken')} class="inline">
          <button type="submit" class="primary">
            Make an API key
          </button>
        </Form>
      ) : (
        <OwnersOnly view={view} what="make or revoke API keys" />
      )}
    </>,
  )
})

apiKeyPages.post('/:org/settings/api-keys', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  const key = await createApiKey(c.get('hub').store, view.org.handle, view.viewer.userId)
  return redirectWith(
    c,
    orgSettingsUrl(view.org.handle, 'api-keys'),
    { kind: 'success', message: `Made API key ${key.id} for ${key.org}.` },
    { label: `The new API key of ${key.org}`, value: key.key },
  )
})

apiKeyPages.post('/:org/settings/api-keys/:id/revoke', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  try {
    const revoked = await revokeApiKey(c.get('hub').store, view.org.handle, c.req.param('id'))
    return redirectWith(c, orgSettingsUrl(view.org.handle, 'api-keys'), {
      kind: 'success',
      message: `Revoked API key ${revoked.id}: it is refused from now on.`,
    })
  } catch (error) {
    if (!(error instanceof AdminError)) throw error
    return notFoundPage(c)
  }
})
