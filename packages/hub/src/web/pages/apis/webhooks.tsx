import { Hono } from 'hono'
import {
  DeliveryListSchema,
  DeliverySchema,
  NoContentSchema,
  RecoverResultSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
  type Api,
  type Delivery,
  type Webhook,
} from '@svc/hub-api'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ApiErrorBody } from '../../../errors/api-error.js'
import { ActionButton, Badge, Empty, Field, Form, FormError, Tabs, Time } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText, type FormBody } from '../../forms.js'
import { apiErrorPage, page, redirectWith, signInRedirect } from '../../responses.js'
import {
  ApiHead,
  apiCrumbs,
  apiPath,
  fieldErrors,
  loadApi,
  localPath,
  readFailure,
  v1Api,
} from './shared.js'

const STATES = ['pending', 'succeeded', 'failed'] as const

/**
 * An API's webhooks, for those who may manage them (the /v1 webhook routes decide: write access
 * on the owner); to everyone else these pages are not found.
 */
export const webhookPages = new Hono<WebEnv>()

const enc = encodeURIComponent
const hooksPath = (api: Api) => `${apiPath(api.owner, api.slug)}/webhooks`
const hookPath = (api: Api, id: string) => `${hooksPath(api)}/${enc(id)}`
const v1Hooks = (api: Api) => `${v1Api(api.owner, api.slug)}/webhooks`
const v1Hook = (api: Api, id: string) => `${v1Hooks(api)}/${enc(id)}`

/** The readable API of the path, for a signed-in viewer; else the answer to give. */
async function managedApi(c: WebContext): Promise<Api | Response> {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  if (!c.get('viewer')) return signInRedirect(c)
  return loaded.data
}

/** A refused write: 401 to sign in, 403 and 404 as not found; the rest is the form's to show. */
function hidden(status: number): boolean {
  return status === 401 || status === 403 || status === 404
}

webhookPages.get('/:owner/apis/:slug/webhooks', async (c) => {
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
        When a new revision of this API changes something, the hub POSTs a signed CloudEvent to
        every active webhook, and logs each delivery and its attempts.
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

type HookForm = { url?: string; description?: string; active?: boolean }
type FormState = { values?: HookForm; error?: string; errors?: Record<string, string> }

webhookPages.get('/:owner/apis/:slug/webhooks/new', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  // Whether the viewer may manage them is the /v1 routes' to say.
  const allowed = await c.get('api').get(WebhookListSchema, `${v1Hooks(api)}?limit=1`)
  if (!allowed.ok) return readFailure(c, allowed)
  return newHookPage(c, api, {})
})

webhookPages.post('/:owner/apis/:slug/webhooks/new', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const values = hookValues(await c.req.parseBody())
  const answer = await c.get('api').send(WebhookWithSecretSchema, 'POST', v1Hooks(api), {
    json: {
      url: values.url,
      active: values.active,
      ...(values.description ? { description: values.description } : {}),
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

function hookValues(form: FormBody): Required<HookForm> {
  return {
    url: formText(form, 'url').trim(),
    description: formText(form, 'description').trim(),
    active: formText(form, 'active') === 'on',
  }
}

function refusal(error: ApiErrorBody): Pick<FormState, 'error' | 'errors'> {
  const errors = fieldErrors(error)
  return {
    error: Object.keys(errors).length > 0 ? 'Not saved: see the fields below.' : error.message,
    errors,
  }
}

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
          values={state.values ?? { active: true }}
          errors={state.errors ?? {}}
          submit="Create webhook"
        />
      </div>
    </>,
  )
}

function HookFields(props: {
  c: WebContext
  action: string
  values: HookForm
  errors: Record<string, string>
  submit: string
}) {
  const { values, errors } = props
  return (
    <Form action={props.action} csrfToken={props.c.get('csrfToken')}>
      <Field
        name="url"
        label="Payload URL"
        type="url"
        hint="Where the hub POSTs the events: http or https, on a public address."
        value={values.url ?? ''}
        error={errors.url}
        required
        placeholder="https://example.com/hooks/svc"
      />
      <Field
        name="description"
        label="Description (optional)"
        value={values.description ?? ''}
        error={errors.description}
      />
      <label class="check">
        <input
          type="checkbox"
          name="active"
          value="on"
          {...(values.active ? { checked: true } : {})}
        />
        Active: send revision events to it
      </label>
      <div>
        <button type="submit" class="primary">
          {props.submit}
        </button>
      </div>
    </Form>
  )
}

/** The webhook page's state after a refused form: which form, its message and field errors. */
type HookPageState = {
  edit?: FormState
  recover?: { since?: string; error?: string }
  /** A refused action (test, retry): its message above the page. */
  error?: string
}

webhookPages.get('/:owner/apis/:slug/webhooks/:id', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  return hookPage(c, api, {})
})

webhookPages.post('/:owner/apis/:slug/webhooks/:id', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const values = hookValues(await c.req.parseBody())
  const answer = await c.get('api').send(WebhookSchema, 'PATCH', v1Hook(api, c.req.param('id')), {
    json: { url: values.url, description: values.description || null, active: values.active },
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

webhookPages.post('/:owner/apis/:slug/webhooks/:id/test', async (c) => {
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

webhookPages.post('/:owner/apis/:slug/webhooks/:id/rotate', async (c) => {
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

webhookPages.post('/:owner/apis/:slug/webhooks/:id/deliveries/:deliveryId/retry', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const id = c.req.param('id')
  const deliveryId = c.req.param('deliveryId')
  const answer = await c
    .get('api')
    .send(DeliverySchema, 'POST', `${v1Hook(api, id)}/deliveries/${enc(deliveryId)}/retry`)
  if (!answer.ok) {
    if (hidden(answer.status)) return apiErrorPage(c, answer)
    return hookPage(c, api, { error: answer.error.message }, answer.status)
  }
  return redirectWith(c, hookPath(api, id), {
    kind: 'success',
    message: `Delivery ${deliveryId} is retried now, with the same event id.`,
  })
})

webhookPages.post('/:owner/apis/:slug/webhooks/:id/recover', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const id = c.req.param('id')
  const since = formText(await c.req.parseBody(), 'since').trim()
  const instant = utcInstant(since)
  if (!instant) {
    return hookPage(
      c,
      api,
      { recover: { since, error: 'Give a date and time, such as 2026-11-20 09:00 (UTC).' } },
      422,
    )
  }
  const answer = await c
    .get('api')
    .send(
      RecoverResultSchema,
      'POST',
      `${v1Hook(api, id)}/recover?${new URLSearchParams({ since: instant })}`,
    )
  if (!answer.ok) {
    if (hidden(answer.status)) return apiErrorPage(c, answer)
    const errors = fieldErrors(answer.error)
    return hookPage(
      c,
      api,
      {
        recover: {
          since,
          error: errors.since ? 'The time must be in the past.' : answer.error.message,
        },
      },
      answer.status,
    )
  }
  const n = answer.data.recovered
  return redirectWith(c, hookPath(api, id), {
    kind: 'success',
    message:
      n === 0
        ? `No failed deliveries since ${instant}.`
        : `${n} failed deliver${n === 1 ? 'y' : 'ies'} since ${instant} queued again.`,
  })
})

/** A `datetime-local` value (no zone: taken as UTC) as an ISO instant, or undefined. */
export function utcInstant(value: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d{1,3})?)?$/.exec(value)
  if (!match) return undefined
  const iso = `${match[1]}T${match[2]}${match[3] ?? ':00'}Z`
  return Number.isNaN(Date.parse(iso)) ? undefined : new Date(iso).toISOString()
}

webhookPages.get('/:owner/apis/:slug/webhooks/:id/delete', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const answer = await c.get('api').get(WebhookSchema, v1Hook(api, c.req.param('id')))
  if (!answer.ok) return readFailure(c, answer)
  return deletePage(c, api, answer.data)
})

webhookPages.post('/:owner/apis/:slug/webhooks/:id/delete', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const id = c.req.param('id')
  const confirmed = formText(await c.req.parseBody(), 'confirm') === 'yes'
  if (!confirmed) {
    const answer = await c.get('api').get(WebhookSchema, v1Hook(api, id))
    if (!answer.ok) return readFailure(c, answer)
    return deletePage(c, api, answer.data, 'Tick the box to confirm the deletion.')
  }
  const answer = await c.get('api').send(NoContentSchema, 'DELETE', v1Hook(api, id))
  if (!answer.ok) return apiErrorPage(c, answer)
  return redirectWith(c, hooksPath(api), { kind: 'success', message: 'Webhook deleted.' })
})

function deletePage(c: WebContext, api: Api, hook: Webhook, error?: string) {
  return page(
    c,
    {
      title: `Delete webhook · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(
        api,
        { label: 'webhooks', href: hooksPath(api) },
        { label: hook.id, href: hookPath(api, hook.id) },
        { label: 'delete' },
      ),
      status: error ? 422 : 200,
    },
    <div class="narrow card">
      <h1>Delete this webhook?</h1>
      <p>
        <span class="mono">{hook.url}</span> gets no more events, and its delivery log is deleted
        with it. This cannot be undone.
      </p>
      <FormError message={error} />
      <Form action={`${hookPath(api, hook.id)}/delete`} csrfToken={c.get('csrfToken')}>
        <label class="check">
          <input type="checkbox" name="confirm" value="yes" required />
          Yes, delete the webhook and its deliveries
        </label>
        <div class="row">
          <button type="submit" class="danger">
            Delete webhook
          </button>
          <a href={hookPath(api, hook.id)}>Cancel</a>
        </div>
      </Form>
    </div>,
  )
}

async function hookPage(c: WebContext, api: Api, state: HookPageState, status = 200) {
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

function ActiveBadge({ active }: { active: boolean }) {
  return active ? <Badge kind="active">active</Badge> : <Badge>inactive</Badge>
}

function DeliveryCard(props: {
  c: WebContext
  api: Api
  hookId: string
  delivery: Delivery
  open: boolean
}) {
  const { delivery } = props
  const data = (delivery.event.data ?? {}) as {
    changesUrl?: string
    revision?: { url?: string; version?: string | null }
    counts?: { breaking: number; warning: number; info: number }
  }
  return (
    <div class="card" data-testid="delivery" data-state={delivery.state}>
      <div class="head">
        <div>
          <div class="row">
            <StateBadge state={delivery.state} />
            <strong class="mono">{delivery.eventType}</strong>
          </div>
          <div class="muted">
            {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'} · created{' '}
            <Time at={delivery.createdAt} />
            {delivery.nextAttemptAt ? (
              <>
                {' '}
                · next attempt <Time at={delivery.nextAttemptAt} />
              </>
            ) : null}
            {delivery.completedAt ? (
              <>
                {' '}
                · {delivery.state} <Time at={delivery.completedAt} />
              </>
            ) : null}
          </div>
          <div class="muted mono">
            {delivery.id} · event {delivery.eventId}
          </div>
          {data.changesUrl ? (
            <div>
              {data.counts
                ? `${data.counts.breaking} breaking, ${data.counts.warning} warning, ${data.counts.info} info · `
                : ''}
              <a href={localPath(data.changesUrl)}>the changes</a>
            </div>
          ) : null}
        </div>
        {delivery.state !== 'pending' ? (
          <ActionButton
            action={`${hookPath(props.api, props.hookId)}/deliveries/${enc(delivery.id)}/retry`}
            csrfToken={props.c.get('csrfToken')}
            label="Retry"
          />
        ) : null}
      </div>
      {delivery.attempts.length > 0 ? (
        <details {...(props.open ? { open: true } : {})}>
          <summary>Attempts</summary>
          <table>
            <thead>
              <tr>
                <th>#</th>
                <th>Started</th>
                <th>Outcome</th>
                <th>Status</th>
                <th>Duration</th>
                <th>Response or error</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt) => (
                <tr>
                  <td>
                    {attempt.number}
                    <div class="muted">{attempt.trigger}</div>
                  </td>
                  <td>
                    <Instant at={attempt.startedAt} />
                  </td>
                  <td>
                    <StateBadge state={attempt.outcome} />
                  </td>
                  <td>{attempt.status ?? <span class="muted">—</span>}</td>
                  <td>{attempt.durationMs} ms</td>
                  <td>
                    {attempt.error ? <div class="field-error mono">{attempt.error}</div> : null}
                    {attempt.responseExcerpt ? <pre>{attempt.responseExcerpt}</pre> : null}
                    {!attempt.error && !attempt.responseExcerpt ? (
                      <span class="muted">—</span>
                    ) : null}
                    {attempt.redirects.length > 0 ? (
                      <div class="muted">redirected to {attempt.redirects.join(' → ')}</div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </div>
  )
}

function StateBadge({ state }: { state: string }) {
  return <Badge kind={state}>{state}</Badge>
}

/** An attempt's start, to the second: attempts of one delivery are often seconds apart. */
function Instant({ at }: { at: string }) {
  return (
    <time datetime={at} title={at}>
      {at.slice(0, 19).replace('T', ' ')} UTC
    </time>
  )
}
