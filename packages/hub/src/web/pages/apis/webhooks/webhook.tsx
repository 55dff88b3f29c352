import { Hono } from 'hono'
import {
  DeliveryListSchema,
  DeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
  type Api,
} from '@svc/hub-api'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ActionButton, Empty, Field, Form, FormError, Tabs, Time } from '../../../components.js'
import type { WebContext, WebEnv } from '../../../env.js'
import { apiErrorPage, page, redirectWith } from '../../../responses.js'
import { ApiHead, apiCrumbs, readFailure } from '../shared.js'
import {
  hooksPath,
  hookPath,
  v1Hook,
  managedApi,
  hidden,
  hookValues,
  refusal,
  HookFields,
  ActiveBadge,
  minLevelJson,
  profileJson,
  profileValue,
  type FormState,
} from './shared.js'
import { DeliveryCard, STATES } from './delivery-card.js'

/** One webhook: its page, its settings, a test event and a new secret. */
export const hookPages = new Hono<WebEnv>()

/** The webhook page's state after a refused form: which form, its message and field errors. */
export type HookPageState = {
  edit?: FormState
  recover?: { since?: string; error?: string }
  /** A refused action (test, retry): its message above the page. */
  error?: string
}

hookPages.get('/:owner/apis/:slug/webhooks/:id', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  return hookPage(c, api, {})
})

hookPages.post('/:owner/apis/:slug/webhooks/:id', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const values = hookValues(await c.req.parseBody())
  const answer = await c.get('api').send(WebhookSchema, 'PATCH', v1Hook(api, c.req.param('id')), {
    json: {
      url: values.url,
      description: values.description || null,
      active: values.active,
      ...minLevelJson(values),
      ...profileJson(values),
    },
  })
  if (!answer.ok) {
    if (hidden(answer.status)) return apiErrorPage(c, answer)
    return hookPage(c, api, { edit: { values, ...refusal(answer.error) } }, answer.status)
  }
  return redirectWith(c, hookPath(api, answer.data.id), {
    kind: 'success',
    message: 'Webhook saved.',
  })
})

hookPages.post('/:owner/apis/:slug/webhooks/:id/test', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const id = c.req.param('id')
  const answer = await c.get('api').send(DeliverySchema, 'POST', `${v1Hook(api, id)}/test`)
  if (!answer.ok) {
    if (hidden(answer.status)) return apiErrorPage(c, answer)
    return hookPage(c, api, { error: answer.error.message }, answer.status)
  }
  return redirectWith(c, hookPath(api, id), {
    kind: 'success',
    message: `Test event queued (${answer.data.eventId}); it shows in the delivery log below.`,
  })
})

hookPages.post('/:owner/apis/:slug/webhooks/:id/rotate', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const id = c.req.param('id')
  const answer = await c
    .get('api')
    .send(WebhookWithSecretSchema, 'POST', `${v1Hook(api, id)}/rotate-secret`)
  if (!answer.ok) {
    if (hidden(answer.status)) return apiErrorPage(c, answer)
    return hookPage(c, api, { error: answer.error.message }, answer.status)
  }
  return redirectWith(
    c,
    hookPath(api, id),
    {
      kind: 'success',
      message: 'Secret rotated. The old secret signs nothing from now on, retries included.',
    },
    { label: 'New signing secret', value: answer.data.secret },
  )
})

export async function hookPage(c: WebContext, api: Api, state: HookPageState, status = 200) {
  const id = c.req.param('id') ?? ''
  const filter = STATES.find((s) => s === c.req.query('state'))
  const cursor = c.req.query('cursor')
  const query = new URLSearchParams({
    limit: '20',
    ...(filter ? { state: filter } : {}),
    ...(cursor ? { cursor } : {}),
  })
  const [answer, log] = await Promise.all([
    c.get('api').get(WebhookSchema, v1Hook(api, id)),
    c.get('api').get(DeliveryListSchema, `${v1Hook(api, id)}/deliveries?${query}`),
  ])
  if (!answer.ok) return readFailure(c, answer)
  if (!log.ok) return readFailure(c, log)
  const hook = answer.data
  const here = hookPath(api, hook.id)
  const edit = state.edit
  const csrf = c.get('csrfToken')
  const filterLink = (state?: string) =>
    state ? `${here}?state=${state}#deliveries` : `${here}#deliveries`
  return page(
    c,
    {
      title: `Webhook · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(api, { label: 'webhooks', href: hooksPath(api) }, { label: hook.id }),
      status: status as ContentfulStatusCode,
    },
    <>
      <ApiHead api={api} current={hooksPath(api)} writable />
      <FormError message={state.error} />
      <div class="head">
        <div>
          <h2 class="break">{hook.url}</h2>
          <div class="row">
            <ActiveBadge active={hook.active} />
            <span class="muted mono">{hook.id}</span>
          </div>
        </div>
        <div class="row">
          <ActionButton action={`${here}/test`} csrfToken={csrf} label="Send test event" />
          <ActionButton action={`${here}/rotate`} csrfToken={csrf} label="Rotate secret" />
          <a class="button" href={`${here}/delete`}>
            Delete…
          </a>
        </div>
      </div>
      <dl class="facts">
        <dt>Created</dt>
        <dd>
          <Time at={hook.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time at={hook.updatedAt} />
        </dd>
        <dt>Minimum level</dt>
        <dd data-testid="min-level">{hook.minLevel}</dd>
        <dt>Diff profile</dt>
        <dd data-testid="profile">{hook.profile ?? <span class="muted">the API's</span>}</dd>
        <dt>Secret rotated</dt>
        <dd>
          {hook.secretRotatedAt ? (
            <Time at={hook.secretRotatedAt} />
          ) : (
            <span class="muted">never</span>
          )}
        </dd>
      </dl>

      <div class="grid2">
        <div class="card">
          <h3>Settings</h3>
          <FormError message={edit?.error} />
          <HookFields
            c={c}
            action={here}
            values={
              edit?.values ?? {
                url: hook.url,
                description: hook.description ?? '',
                active: hook.active,
                minLevel: hook.minLevel,
                profile: profileValue(hook.profile),
              }
            }
            errors={edit?.errors ?? {}}
            submit="Save"
          />
        </div>
        <div class="card">
          <h3>Recover failed deliveries</h3>
          <p class="muted">
            Queue again every failed delivery made since a time (UTC), after the receiver was down
            or the webhook was switched off.
          </p>
          <FormError message={state.recover?.error} />
          <Form action={`${here}/recover`} csrfToken={csrf}>
            <Field
              name="since"
              label="Since (UTC)"
              type="datetime-local"
              value={state.recover?.since ?? ''}
              required
            />
            <div>
              <button type="submit">Recover</button>
            </div>
          </Form>
        </div>
      </div>

      <div class="head" id="deliveries">
        <h2>Delivery log</h2>
        <a class="button" href={filterLink(filter)}>
          Reload
        </a>
      </div>
      <Tabs
        tabs={[
          { href: filterLink(), label: 'All' },
          ...STATES.map((s) => ({ href: filterLink(s), label: s[0]!.toUpperCase() + s.slice(1) })),
        ]}
        current={filterLink(filter)}
      />
      {log.data.deliveries.length === 0 ? (
        <Empty>
          {filter ? `No ${filter} deliveries.` : 'No deliveries yet.'} Push a revision that changes
          something, or send a test event.
        </Empty>
      ) : (
        log.data.deliveries.map((delivery, i) => (
          <DeliveryCard
            c={c}
            api={api}
            hookId={hook.id}
            delivery={delivery}
            open={i === 0 || delivery.state !== 'succeeded'}
          />
        ))
      )}
      {log.data.nextCursor ? (
        <p>
          <a
            href={`${here}?${new URLSearchParams({ ...(filter ? { state: filter } : {}), cursor: log.data.nextCursor })}#deliveries`}
          >
            Older deliveries →
          </a>
        </p>
      ) : null}
    </>,
  )
}
