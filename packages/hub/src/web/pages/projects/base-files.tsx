import { BaseFilesSchema, type ProjectDetail } from '@svc/hub-api'
import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { Empty, Form, FormError, formatBytes, Table } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { page, redirectWith } from '../../responses.js'
import { privateErrorPage } from '../stacks.js'
import { viewerCanWrite } from '../../viewer-accounts.js'
import { seg, plural, projectHref, projectCrumbs, readProject, ProjectHead } from './shared.js'

/** A project's base files: the list and the form that replaces them. */
export const baseFilePages = new Hono<WebEnv>()

baseFilePages.get('/:account/projects/:slug/base-files', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return baseFilesPage(c, answer.data, undefined)
})

baseFilePages.post('/:account/projects/:slug/base-files', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const { account, slug } = answer.data.project
  const body = await c.req.parseBody({ all: true })
  const chosen = [body.files ?? []]
    .flat()
    .filter((f): f is File => f instanceof File && f.name !== '')
  if (chosen.length === 0) {
    return baseFilesPage(c, answer.data, 'Choose at least one file to upload.', 422)
  }
  const form = new FormData()
  for (const file of chosen) form.append('files', file, file.name)
  const saved = await c
    .get('api')
    .send(BaseFilesSchema, 'PUT', `/projects/${seg(account)}/${seg(slug)}/preview/base-files`, {
      form,
    })
  if (saved.ok) {
    return redirectWith(c, `${projectHref(account, slug)}/base-files`, {
      kind: 'success',
      message: `Replaced the base files: ${plural(saved.data.fileCount, 'file')}, ${formatBytes(saved.data.totalBytes)}.`,
    })
  }
  if (saved.status === 401 || saved.status === 404) return privateErrorPage(c, saved)
  return baseFilesPage(c, answer.data, saved.error.message, saved.status as ContentfulStatusCode)
})

async function baseFilesPage(
  c: WebContext,
  project: ProjectDetail,
  error: string | undefined,
  status: ContentfulStatusCode = 200,
) {
  const { account, slug } = project.project
  const [list, canWrite] = await Promise.all([
    c.get('api').get(BaseFilesSchema, `/projects/${seg(account)}/${seg(slug)}/preview/base-files`),
    viewerCanWrite(c, account),
  ])
  if (!list.ok) return privateErrorPage(c, list)
  const here = `${projectHref(account, slug)}/base-files`
  return page(
    c,
    {
      title: `Base files · ${account}/${slug}`,
      section: 'projects',
      status,
      crumbs: projectCrumbs(account, slug, 'Base files'),
    },
    <>
      <ProjectHead project={project} current={here} />
      <p class="muted">
        The app's hand-authored files the hub keeps for this project: what{' '}
        <code>svc push --base-files</code> found under the app root, without <code>.svc/</code>,
        generated files, build output and what <code>.svcignore</code> leaves out.
      </p>
      <h2>
        Stored files{' '}
        <span class="muted">
          ({list.data.fileCount}, {formatBytes(list.data.totalBytes)})
        </span>
      </h2>
      {list.data.files.length === 0 ? (
        <Empty>No base files yet.</Empty>
      ) : (
        <Table testid="base-files">
          <thead>
            <tr>
              <th>Path</th>
              <th>Size</th>
              <th>SHA-256</th>
            </tr>
          </thead>
          <tbody>
            {list.data.files.map((f) => (
              <tr>
                <td class="mono">{f.path}</td>
                <td>{formatBytes(f.size)}</td>
                <td class="mono">{f.sha256}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h2>Upload</h2>
      <p>
        From the app root, with the CLI (every file, with its path):{' '}
        <code>svc push &lt;project&gt; --base-files</code>, or{' '}
        <code>svc push &lt;project&gt; --base-files-only</code> to leave the config as it is.
      </p>
      {canWrite ? null : <FormError message={error} />}
      {canWrite ? (
        <div class="card">
          <FormError message={error} />
          <Form action={here} csrfToken={c.get('csrfToken')} upload>
            <div>
              <label for="f-files">Files</label>
              <div class="hint" id="f-files-hint">
                Replaces the whole stored set. Each file is stored under its name, at the root; use
                the CLI for folders.
              </div>
              <input
                id="f-files"
                aria-describedby="f-files-hint"
                name="files"
                type="file"
                multiple
              />
            </div>
            <div>
              <button type="submit">Replace base files</button>
            </div>
          </Form>
        </div>
      ) : null}
    </>,
  )
}
