import { Hono } from 'hono'
import { DeliverySchema, RecoverResultSchema } from '@svc/hub-api'
import type { WebEnv } from '../../../env.js'
import { formText } from '../../../forms.js'
import { apiErrorPage, redirectWith } from '../../../responses.js'
import { fieldErrors } from '../shared.js'
import { enc, hookPath, v1Hook, managedApi, hidden } from './shared.js'
import { hookPage } from './webhook.js'

/** A webhook's deliveries: retrying one, and recovering the failed ones since a time. */
export const deliveryPages = new Hono<WebEnv>()

deliveryPages.post('/:owner/apis/:slug/webhooks/:id/deliveries/:deliveryId/retry', async (c) => {
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

deliveryPages.post('/:owner/apis/:slug/webhooks/:id/recover', async (c) => {
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
