import { Hono } from 'hono'
import { NoContentSchema, WebhookSchema, type Api, type Webhook } from '@svc/hub-api'
import { Form, FormError } from '../../../components.js'
import type { WebContext, WebEnv } from '../../../env.js'
import { formText } from '../../../forms.js'
import { apiErrorPage, page, redirectWith } from '../../../responses.js'
import { apiCrumbs, readFailure } from '../shared.js'
import { hooksPath, hookPath, v1Hook, managedApi } from './shared.js'

/** Deleting a webhook, after a confirmation. */
export const deleteWebhookPages = new Hono<WebEnv>()

deleteWebhookPages.get('/:owner/apis/:slug/webhooks/:id/delete', async (c) => {
  const api = await managedApi(c)
  if (api instanceof Response) return api
  const answer = await c.get('api').get(WebhookSchema, v1Hook(api, c.req.param('id')))
  if (!answer.ok) return readFailure(c, answer)
  return deletePage(c, api, answer.data)
})

deleteWebhookPages.post('/:owner/apis/:slug/webhooks/:id/delete', async (c) => {
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
