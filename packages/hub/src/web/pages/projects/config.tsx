import {
  ProjectConfigResponseSchema,
  UnfoldedClientConfigSchema,
  type ProjectDetail,
} from '@svc/hub-api'
import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { Empty, Form, FormError, Time, Table } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText, type FormBody } from '../../forms.js'
import { page, redirectWith } from '../../responses.js'
import { privateErrorPage } from '../stacks.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import { seg, plural, projectHref, projectCrumbs, readProject, ProjectHead } from './shared.js'

/** A project's config: the settings as client.json has them, and its enrichments. */
export const projectConfigPages = new Hono<WebEnv>()

projectConfigPages.get('/:account/projects/:slug/config', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return configPage(c, answer.data, {})
})

projectConfigPages.post('/:account/projects/:slug/config', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const { account, slug } = answer.data.project
  const form: FormBody = await c.req.parseBody()
  const text = formText(form, 'settings')
  let settings: unknown
  try {
    settings = JSON.parse(text)
  } catch (error) {
    return configPage(
      c,
      answer.data,
      { text, error: `The settings are not JSON: ${(error as Error).message}` },
      422,
    )
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    return configPage(
      c,
      answer.data,
      { text, error: 'The settings must be a JSON object, as client.json has them.' },
      422,
    )
  }
  const saved = await c
    .get('api')
    .send(
      ProjectConfigResponseSchema,
      'PUT',
      `/projects/${seg(account)}/${seg(slug)}/client-config`,
      {
        json: { settings },
      },
    )
  if (saved.ok) {
    return redirectWith(c, `${projectHref(account, slug)}/config`, {
      kind: 'success',
      message: `Saved the config: ${plural(Object.keys(saved.data.config.settings).length, 'setting')}, ${plural(saved.data.enrichmentCount, 'enrichment')}.`,
    })
  }
  if (saved.status === 401 || saved.status === 404) return privateErrorPage(c, saved)
  return configPage(
    c,
    answer.data,
    { text, error: saved.error.message },
    saved.status as ContentfulStatusCode,
  )
})

async function configPage(
  c: WebContext,
  project: ProjectDetail,
  state: { text?: string; error?: string },
  status: ContentfulStatusCode = 200,
) {
  const { account, slug } = project.project
  const base = `/projects/${seg(account)}/${seg(slug)}`
  const api = c.get('api')
  const [flat, unfolded, canWrite] = await Promise.all([
    api.get(ProjectConfigResponseSchema, `${base}/config`),
    api.get(UnfoldedClientConfigSchema, `${base}/client-config`),
    viewerCanWrite(c, account),
  ])
  if (!flat.ok) return privateErrorPage(c, flat)
  if (!unfolded.ok) return privateErrorPage(c, unfolded)
  const here = `${projectHref(account, slug)}/config`
  const { settings, enrichments } = flat.data.config
  const text = state.text ?? JSON.stringify(unfolded.data.settings, null, 2)
  return page(
    c,
    {
      title: `Config · ${account}/${slug}`,
      section: 'projects',
      status,
      crumbs: projectCrumbs(account, slug, 'Config'),
    },
    <>
      <ProjectHead project={project} current={here} />
      <p class="muted">
        The flat config the hub stores: <code>settings</code> of client.json without{' '}
        <code>enrichments</code>, and one row per enrichment leaf. Last pushed:{' '}
        {flat.data.updatedAt ? <Time at={flat.data.updatedAt} /> : 'never'}.
      </p>
      <h2>Settings</h2>
      <pre data-testid="settings">{JSON.stringify(settings, null, 2)}</pre>
      <h2>Enrichments ({flat.data.enrichmentCount})</h2>
      {enrichments.length === 0 ? (
        <Empty>No enrichments.</Empty>
      ) : (
        <Table testid="enrichments">
          <thead>
            <tr>
              <th>Generator</th>
              <th>Subject</th>
              <th>Variant</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {enrichments.map((row) => (
              <tr>
                <td class="mono">{row.generator}</td>
                <td class="mono">{row.subject.join(' › ')}</td>
                <td class="mono">{row.variant ?? <span class="muted">—</span>}</td>
                <td>
                  <code>{JSON.stringify(row.value)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h2 id="edit">Edit</h2>
      {canWrite ? null : <FormError message={state.error} />}
      {canWrite ? (
        <div class="card">
          <FormError message={state.error} />
          <Form action={here} csrfToken={c.get('csrfToken')}>
            <div>
              <label for="f-settings">client.json settings</label>
              <div class="hint" id="f-settings-hint">
                The same shape <code>svc pull</code> writes into <code>.settings/client.json</code>,
                enrichments nested. Saving replaces the whole config, as <code>svc push</code> does.
              </div>
              <textarea
                id="f-settings"
                aria-describedby="f-settings-hint"
                name="settings"
                rows={Math.min(40, Math.max(12, text.split('\n').length + 2))}
                spellcheck={false}
                {...(state.error ? { 'aria-invalid': 'true' } : {})}
              >
                {text}
              </textarea>
            </div>
            <div>
              <button type="submit" class="primary">
                Save config
              </button>
            </div>
          </Form>
        </div>
      ) : (
        <p class="muted">Only {account} and the writers and owners of it can change this config.</p>
      )}
    </>,
  )
}
