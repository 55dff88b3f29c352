import { NoContentSchema, RateLimitOverrideListSchema } from '@svc/hub-api'
import { Hono } from 'hono'
import type { ApiErrorBody } from '../../../errors/api-error.js'
import { routeKey } from '../../../ratelimit/index.js'
import { ActionButton, Badge, Field, Form, FormError, Select, Table } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { apiErrorPage, redirectWith } from '../../responses.js'
import {
  openOrg,
  openOrgAsOwner,
  orgPage,
  orgSettingsUrl,
  OwnersOnly,
  type OrgView,
} from './org-context.js'

type OverrideForm = { route: string; max: string; window: string; error?: string }

/**
 * `/{org}/settings/rate-limits`: the organisation's effective limits (the hub's defaults with its
 * overrides, custom rows marked); owners set and clear overrides through the /v1 routes
 * `PUT`/`DELETE /v1/orgs/{org}/rate-limits`, so the API's rules decide (docs/api/rate-limits.md).
 */
export const rateLimitPages = new Hono<WebEnv>()

rateLimitPages.get('/:org/settings/rate-limits', async (c) => {
  const view = await openOrg(c)
  if (view instanceof Response) return view
  return rateLimitsPage(c, view, { route: '', max: '', window: '60' })
})

rateLimitPages.post('/:org/settings/rate-limits', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  const body = await c.req.parseBody()
  const form: OverrideForm = {
    route: formText(body, 'route'),
    max: formText(body, 'max').trim(),
    window: formText(body, 'window').trim(),
  }
  const api = c.get('api')
  const path = `/orgs/${view.org.handle}/rate-limits`
  const current = await api.get(RateLimitOverrideListSchema, path)
  if (!current.ok) return apiErrorPage(c, current)
  const [method = '', ...rest] = form.route.split(' ')
  const override = {
    method,
    path: rest.join(' '),
    max: wholeOrText(form.max),
    windowSeconds: wholeOrText(form.window),
  }
  // PUT replaces the whole set: the stored overrides, with this route's replaced.
  const others = current.data.filter((o) => routeKey(o) !== routeKey(override))
  const index = others.length
  const answer = await api.send(RateLimitOverrideListSchema, 'PUT', path, {
    json: [...others, override],
  })
  if (!answer.ok) {
    if (answer.status !== 422) return apiErrorPage(c, answer)
    return rateLimitsPage(c, view, { ...form, error: problems(answer.error, index) }, 422)
  }
  return redirectWith(c, orgSettingsUrl(view.org.handle, 'rate-limits'), {
    kind: 'success',
    message: `${override.method} ${override.path} now allows ${override.max} requests per ${override.windowSeconds} s for ${view.org.handle}.`,
  })
})

rateLimitPages.post('/:org/settings/rate-limits/clear', async (c) => {
  const view = await openOrgAsOwner(c)
  if (view instanceof Response) return view
  const body = await c.req.parseBody()
  const method = formText(body, 'method')
  const route = formText(body, 'path')
  const query = new URLSearchParams({ method, path: route })
  const answer = await c
    .get('api')
    .send(NoContentSchema, 'DELETE', `/orgs/${view.org.handle}/rate-limits?${query.toString()}`)
  if (!answer.ok) {
    if (answer.status !== 422) return apiErrorPage(c, answer)
    const message = problems(answer.error, 0)
    return rateLimitsPage(c, view, { route: '', max: '', window: '60', error: message }, 422)
  }
  return redirectWith(c, orgSettingsUrl(view.org.handle, 'rate-limits'), {
    kind: 'success',
    message: `${method} ${route} is back to the hub's default for ${view.org.handle}.`,
  })
})

/** A whole number as a number; anything else as sent, for the API to refuse. */
function wholeOrText(value: string): number | string {
  return /^\d{1,15}$/.test(value) ? Number(value) : value
}

/** The API's refusal in words: the issues of entry `index` (the one this form sent). */
function problems(error: ApiErrorBody, index: number): string {
  const issues = (error.details as { issues?: { path: string; message: string }[] } | undefined)
    ?.issues
  const names: Record<string, string> = { max: 'Max', windowSeconds: 'Window', path: 'Route' }
  const mine = (issues ?? [])
    .map((issue) => {
      const match = /^json\.(\d+)\.(\w+)$/.exec(issue.path)
      if (match && Number(match[1]) === index)
        return `${names[match[2]!] ?? match[2]}: ${issue.message}`
      if (/^(json|query)(\.\d+)?$/.test(issue.path) || issue.path.startsWith('query.')) {
        return issue.message
      }
      return undefined
    })
    .filter((m): m is string => m !== undefined)
  return mine.length > 0 ? `Not saved. ${mine.join('; ')}.` : `Not saved: ${error.message}`
}

async function rateLimitsPage(
  c: WebContext,
  view: OrgView,
  form: OverrideForm,
  status: 200 | 422 = 200,
) {
  const { rateLimits } = c.get('hub')
  const table = await rateLimits.tableFor(view.org.id)
  const defaults = new Map(rateLimits.settings.defaults.map((row) => [routeKey(row), row]))
  const owner = view.role === 'owner'
  const org = view.org.handle
  const custom = table.filter((row) => row.isCustom).length
  return orgPage(
    c,
    view,
    { tab: 'rate-limits', status },
    <>
      <p class="lead">
        Each row allows <em>max</em> requests per window to one caller (a user, or this
        organisation's API key) on one route. {org} has {custom} custom limit
        {custom === 1 ? '' : 's'}; they apply to API-key calls and to members' calls on routes that
        name {org}. The count stays each caller's own.
        {rateLimits.settings.enabled ? null : (
          <strong> Rate limiting is off on this hub: nothing is counted.</strong>
        )}
      </p>
      {owner ? (
        <section class="card">
          <h2>Set a custom limit</h2>
          <FormError message={form.error} />
          <Form action={`/${org}/settings/rate-limits`} csrfToken={c.get('csrfToken')}>
            <Select
              name="route"
              label="Route"
              options={table.map((row) => `${row.method} ${row.path}`)}
              value={form.route}
            />
            <div class="grid2">
              <Field name="max" label="Max requests" type="number" value={form.max} required />
              <Field
                name="window"
                label="Window (seconds)"
                type="number"
                hint="1 to 86,400 (a day)."
                value={form.window}
                required
              />
            </div>
            <div>
              <button type="submit" class="primary">
                Save limit
              </button>
            </div>
          </Form>
        </section>
      ) : (
        <OwnersOnly view={view} what="set or clear custom limits" />
      )}
      <Table testid="rate-limits">
        <thead>
          <tr>
            <th>Method</th>
            <th>Path</th>
            <th>Max</th>
            <th>Window</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          {table.map((row) => {
            const base = defaults.get(routeKey(row))
            return (
              <tr
                data-route={`${row.method} ${row.path}`}
                {...(row.isCustom ? { class: 'custom' } : {})}
              >
                <td>
                  <code>{row.method}</code>
                </td>
                <td>
                  <code>{row.path}</code>
                </td>
                <td>{row.max.toLocaleString('en')}</td>
                <td>{row.windowSeconds} s</td>
                <td>
                  {row.isCustom ? (
                    <div class="row">
                      <Badge kind="info">custom</Badge>
                      {base ? (
                        <span class="hint">
                          default {base.max}/{base.windowSeconds} s
                        </span>
                      ) : null}
                      {owner ? (
                        <ActionButton
                          action={`/${org}/settings/rate-limits/clear`}
                          csrfToken={c.get('csrfToken')}
                          label="Clear"
                          fields={{ method: row.method, path: row.path }}
                        />
                      ) : null}
                    </div>
                  ) : (
                    <span class="muted">default</span>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </Table>
    </>,
  )
}
