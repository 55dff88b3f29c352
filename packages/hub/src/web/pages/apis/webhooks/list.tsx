import { Hono } from 'hono'
import { WebhookListSchema, WebhookWithSecretSchema, type Api } from '@svc/hub-api'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { Empty, FormError, Time } from '../../../components.js'
import type { WebContext, WebEnv } from '../../../env.js'
import { apiErrorPage, page, redirectWith } from '../../../responses.js'
import { ApiHead, apiCrumbs, readFailure } from '../shared.js'
import {
  enc,
  hooksPath,
  hookPath,
  v1Hooks,
  managedApi,
  hidden,
  hookValues,
  refusal,
  HookFields,
  ActiveBadge,
  minLevelJson,
  profileJson,
  type FormState,
} from './shared.js'

/** An API's webhooks: the list and the form that adds one. */
export const webhookListPages = new Hono<WebEnv>()

webhookListPages.get('/:owner/apis/:slug/webhooks', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const cursor = c.req.query('cursor')
  const query = new URLSearchParams({ limit: '50', ...(cursor ? { cursor } : {}) })
  const answer = await c.get('api').get(WebhookListSchema, `${v1Hooks(api)}?${query}`)
  if (!answer.ok) return readFailure(c, answer)
  const { webhooks, nextCursor } = answer.data
  return page(
    c,
    {
      title: `Webhooks · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(api, { label: 'webhooks' }),
    },
    <>
      <ApiHead
        api={api}
        current={hooksPath(api)}
        writable
        actions={
          <a class="button primary" href={`${hooksPath(api)}/new`}>
            New webhook
          </a>
        }
      />
      <p class="lead">
        When a new revision of this API changes something at a webhook's minimum level or above, the
        hub POSTs a signed CloudEvent to it (if it is active), and logs each delivery and its
        attempts.
      </p>
      {webhooks.length === 0 ? (
        <Empty>
          No webhooks yet. <a href={`${hooksPath(api)}/new`}>Add one</a>.
        </Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th>URL</th>
              <th>State</th>
              <th>Minimum level</th>
              <th>Diff profile</th>
              <th>Created</th>
              <th>Secret rotated</th>
            </tr>
          </thead>
          <tbody>
            {webhooks.map((hook) => (
              <tr>
                <td>
                  <a href={hookPath(api, hook.id)} class="mono">
                    {hook.url}
                  </a>
                  {hook.description ? <div class="muted">{hook.description}</div> : null}
                </td>
                <td>
                  <ActiveBadge active={hook.active} />
                </td>
                <td>{hook.minLevel}</td>
                <td>{hook.profile ?? <span class="muted">the API's</span>}</td>
                <td>
                  <Time at={hook.createdAt} />
                </td>
                <td>
                  <Time at={hook.secretRotatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextCursor ? (
        <p>
          <a href={`${hooksPath(api)}?cursor=${enc(nextCursor)}`}>More webhooks →</a>
        </p>
      ) : null}
    </>,
  )
})

webhookListPages.get('/:owner/apis/:slug/webhooks/new', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  // Whether the viewer may manage them is the /v1 routes' to say.
  const allowed = await c.get('api').get(WebhookListSchema, `${v1Hooks(api)}?limit=1`)
  if (!allowed.ok) return readFailure(c, allowed)
  return newHookPage(c, api, {})
})

webhookListPages.post('/:owner/apis/:slug/webhooks/new', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const values = hookValues(await c.req.parseBody())
  const answer = await c.get('api').send(WebhookWithSecretSchema, 'POST', v1Hooks(api), {
    json: {
      url: values.url,
      active: values.active,
      ...(values.description ? { description: values.description } : {}),
      ...minLevelJson(values),
      ...profileJson(values),
    },
  })
  if (!answer.ok) {
    if (hidden(answer.status)) return apiErrorPage(c, answer)
    return newHookPage(c, api, { values, ...refusal(answer.error) }, answer.status)
  }
  return redirectWith(
    c,
    hookPath(api, answer.data.id),
    { kind: 'success', message: 'Webhook created. It signs every event with this secret.' },
    { label: 'Signing secret', value: answer.data.secret },
  )
})

function newHookPage(c: WebContext, api: Api, state: FormState, status = 200) {
  return page(
    c,
    {
      title: `New webhook · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(api, { label: 'webhooks', href: hooksPath(api) }, { label: 'new' }),
      status: status as ContentfulStatusCode,
    },
    <>
      <ApiHead api={api} current={hooksPath(api)} writable />
      <div class="card">
        <h2>New webhook</h2>
        <FormError message={state.error} />
        <HookFields
          c={c}
          action={`${hooksPath(api)}/new`}
          values={state.values ?? { active: true, minLevel: 'info' }}
          errors={state.errors ?? {}}
          submit="Create webhook"
        />
      </div>
    </>,
  )
}
