import { Hono } from 'hono'
import { ApiSchema, type Api, type DiffProfile } from '@svc/hub-api'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { Form, FormError, Select } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import { apiErrorPage, notFoundPage, page, redirectWith, signInRedirect } from '../../responses.js'
import { ApiHead, apiCrumbs, apiPath, fieldErrors, loadApi, readFailure, v1Api } from './shared.js'

/** The labels of the diff profiles, in the order `DIFF_PROFILES` names them. */
export const PROFILE_OPTIONS = [
  { value: 'wire', label: 'wire: what requests and responses carry' },
  { value: 'sdk', label: 'sdk: also the code generated from the description' },
] as const satisfies readonly { value: DiffProfile; label: string }[]

/** An API's settings, for those who may write to it (the /v1 PATCH decides). */
export const apiSettingsPages = new Hono<WebEnv>()

apiSettingsPages.get('/:owner/apis/:slug/settings', async (c) => {
  const api = await settableApi(c)
  if (api instanceof Response) return api
  return settingsPage(c, api, {})
})

apiSettingsPages.post('/:owner/apis/:slug/settings', async (c) => {
  const api = await settableApi(c)
  if (api instanceof Response) return api
  const diffProfile = formText(await c.req.parseBody(), 'diffProfile')
  const answer = await c.get('api').send(ApiSchema, 'PATCH', v1Api(api.owner, api.slug), {
    json: { diffProfile },
  })
  if (!answer.ok) {
    if ([401, 403, 404].includes(answer.status)) return apiErrorPage(c, answer)
    const errors = fieldErrors(answer.error)
    return settingsPage(
      c,
      api,
      { diffProfile, error: errors.diffProfile ?? answer.error.message },
      answer.status,
    )
  }
  return redirectWith(c, `${apiPath(api.owner, api.slug)}/settings`, {
    kind: 'success',
    message: 'Settings saved.',
  })
})

/** The API of the path for a signed-in viewer who may write to it; else the answer to give. */
async function settableApi(c: WebContext): Promise<Api | Response> {
  const loaded = await loadApi(c)
  if (!loaded.ok) return readFailure(c, loaded)
  if (!c.get('viewer')) return signInRedirect(c)
  // As the other pages of a writer: to a reader, the page does not exist.
  if (!(await viewerCanWrite(c, loaded.data.owner))) return notFoundPage(c)
  return loaded.data
}

function settingsPage(
  c: WebContext,
  api: Api,
  state: { diffProfile?: string; error?: string },
  status = 200,
) {
  const here = `${apiPath(api.owner, api.slug)}/settings`
  return page(
    c,
    {
      title: `Settings · ${api.name}`,
      section: 'apis',
      crumbs: apiCrumbs(api, { label: 'settings' }),
      status: status as ContentfulStatusCode,
    },
    <>
      <ApiHead api={api} current={here} writable />
      <div class="narrow card">
        <h3>Diff profile</h3>
        <p class="muted">
          Whose breakage the changelogs of revisions pushed from now on are judged for. It is also
          the default of a diff, of the push gate (<span class="mono">svc api push --fail-on</span>)
          and of the webhooks that do not name a profile of their own. Revisions stored already keep
          their changelogs.
        </p>
        <FormError message={state.error} />
        <Form action={here} csrfToken={c.get('csrfToken')}>
          <Select
            name="diffProfile"
            label="Profile"
            options={PROFILE_OPTIONS}
            value={state.diffProfile ?? api.diffProfile}
            {...(state.error ? { error: state.error } : {})}
          />
          <div>
            <button type="submit" class="primary">
              Save
            </button>
          </div>
        </Form>
      </div>
    </>,
  )
}
