import {
  ApiListSchema,
  BaseFilesSchema,
  ProjectConfigResponseSchema,
  ProjectDetailSchema,
  ProjectListSchema,
  ProjectSchema,
  StackListSchema,
  UnfoldedClientConfigSchema,
  UserSchema,
  type ProjectDetail,
  type ProjectListItem,
} from '@svc/hub-api'
import { Hono } from 'hono'
import type { Child } from 'hono/jsx'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  Empty,
  Field,
  Form,
  FormError,
  formatBytes,
  PageHead,
  Select,
  Tabs,
  Time,
} from '../components.js'
import type { WebContext, WebEnv } from '../env.js'
import { formText, type FormBody } from '../forms.js'
import { apiErrorPage, page, redirectWith, signInRedirect } from '../responses.js'
import { privateErrorPage, stackHref, versionHref } from './stacks.js'
import { viewerCanWrite, writableAccounts } from '../viewer-accounts.js'

const seg = encodeURIComponent

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** The project page, `/{account}/projects/{slug}` (the `url` of the API's project record). */
export function projectHref(account: string, slug: string): string {
  return `/${seg(account)}/projects/${seg(slug)}`
}

function apiHref(owner: string, slug: string): string {
  return `/${seg(owner)}/apis/${seg(slug)}`
}

/**
 * The tabs of every project page; the deployments and runs pages use them too. `current` is the
 * href of the open tab (`projectHref(account, slug) + '/config'`, …).
 */
export function ProjectTabs(props: { account: string; slug: string; current: string }) {
  const base = projectHref(props.account, props.slug)
  return (
    <Tabs
      current={props.current}
      tabs={[
        { href: base, label: 'Overview' },
        { href: `${base}/config`, label: 'Config' },
        { href: `${base}/base-files`, label: 'Base files' },
        { href: `${base}/deployments`, label: 'Deployments' },
        { href: `${base}/runs`, label: 'Runs' },
      ]}
    />
  )
}

/** The trail of a project page. */
export function projectCrumbs(account: string, slug: string, here?: string) {
  return [
    { label: 'Projects', href: '/projects' },
    { label: account, href: `/${seg(account)}` },
    here ? { label: slug, href: projectHref(account, slug) } : { label: slug },
    ...(here ? [{ label: here }] : []),
  ]
}

/** A table of projects (the projects page and the account page). */
export function ProjectTable({ projects }: { projects: readonly ProjectListItem[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Project</th>
          <th>Stack</th>
          <th>API</th>
          <th>Config pushed</th>
        </tr>
      </thead>
      <tbody>
        {projects.map((p) => (
          <tr>
            <td>
              <a href={projectHref(p.project.account, p.project.slug)} class="mono">
                {p.project.account}/{p.project.slug}
              </a>
            </td>
            <td class="mono">
              <StackPin project={p} />
            </td>
            <td class="mono">
              <a href={apiHref(p.api.owner, p.api.slug)}>
                {p.api.owner}/{p.api.slug}
              </a>
            </td>
            <td>
              {p.configUpdatedAt ? (
                <Time at={p.configUpdatedAt} />
              ) : (
                <span class="muted">never</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function StackPin({ project }: { project: ProjectListItem }) {
  const { stack, stackVersion } = project
  return (
    <>
      <a href={stackHref(stack.account, stack.slug)}>
        @{stack.account}/{stack.slug}
      </a>
      @
      {stackVersion === 'latest' ? (
        'latest'
      ) : (
        <a href={versionHref(stack.account, stack.slug, stackVersion)}>{stackVersion}</a>
      )}
    </>
  )
}

/** Projects: the list, creating one, and each project's overview, config and base files. */
export const projectPages = new Hono<WebEnv>()

projectPages.get('/projects', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const cursor = c.req.query('cursor')
  const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) })
  const answer = await c.get('api').get(ProjectListSchema, `/projects?${query}`)
  if (!answer.ok) return apiErrorPage(c, answer)
  const { projects, nextCursor } = answer.data
  return page(
    c,
    { title: 'Projects', section: 'projects', crumbs: [{ label: 'Projects' }] },
    <>
      <PageHead
        title="Projects"
        lead="A project binds a stack and an API, and holds the config and base files that svc push sends."
        actions={
          <a class="button primary" href="/projects/new">
            New project
          </a>
        }
      />
      {projects.length === 0 && !cursor ? (
        <Empty>
          No projects yet. <a href="/projects/new">Create one</a> from a stack you published and an
          API.
        </Empty>
      ) : (
        <ProjectTable projects={projects} />
      )}
      {nextCursor ? (
        <p>
          <a href={`/projects?cursor=${encodeURIComponent(nextCursor)}`}>More projects →</a>
        </p>
      ) : null}
    </>,
  )
})

type NewProjectForm = {
  account?: string
  slug?: string
  stack?: string
  stackVersion?: string
  api?: string
}
type NewProjectErrors = Partial<Record<keyof NewProjectForm, string>> & { form?: string }

projectPages.get('/projects/new', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  return newProjectPage(c, { stack: c.req.query('stack') ?? '', api: c.req.query('api') ?? '' }, {})
})

projectPages.post('/projects/new', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  const form = await c.req.parseBody()
  const values: Required<NewProjectForm> = {
    account: formText(form, 'account').trim(),
    slug: formText(form, 'slug').trim(),
    stack: formText(form, 'stack').trim(),
    stackVersion: formText(form, 'stackVersion').trim() || 'latest',
    api: formText(form, 'api').trim(),
  }
  const answer = await c.get('api').send(ProjectSchema, 'POST', '/projects', { json: values })
  if (answer.ok) {
    const { account, slug } = answer.data.project
    return redirectWith(c, projectHref(account, slug), {
      kind: 'success',
      message: `Created the project ${account}/${slug}. Push its config with svc push.`,
    })
  }
  if (answer.status === 401) return signInRedirect(c)
  const errors: NewProjectErrors = {}
  const issues = (answer.error.details as { issues?: { path: string; message: string }[] })?.issues
  if (answer.status === 422 && issues) {
    for (const issue of issues) {
      const key = issue.path.replace(/^json\./, '') as keyof NewProjectForm
      if (key in values) errors[key] ??= issue.message
      else errors.form ??= issue.message
    }
  } else if (answer.status === 409) {
    errors.slug = answer.error.message
  } else if (answer.status === 404) {
    errors.account = `There is no user or organisation '${values.account}'.`
  } else {
    errors.form = answer.error.message
  }
  return newProjectPage(c, values, errors, answer.status as ContentfulStatusCode)
})

async function newProjectPage(
  c: WebContext,
  values: NewProjectForm,
  errors: NewProjectErrors,
  status: ContentfulStatusCode = 200,
) {
  const api = c.get('api')
  const [me, stacks, apis] = await Promise.all([
    api.get(UserSchema, '/user'),
    api.get(StackListSchema, '/stacks?limit=100'),
    api.get(ApiListSchema, '/apis?limit=100'),
  ])
  if (!me.ok) return apiErrorPage(c, me)
  // Where the viewer may create: its own account and the organisations it can write to.
  const accounts = writableAccounts(me.data)
  return page(
    c,
    {
      title: 'New project',
      section: 'projects',
      status,
      crumbs: [{ label: 'Projects', href: '/projects' }, { label: 'New' }],
    },
    <div class="narrow">
      <h1>New project</h1>
      <p class="lead">
        Bind a stack (at a version, or <code>latest</code>) and an API. Then push its config from
        your app root with <code>svc push &lt;project&gt; --project @account/slug</code>.
      </p>
      <div class="card">
        <FormError message={errors.form} />
        <Form action="/projects/new" csrfToken={c.get('csrfToken')}>
          <Select
            name="account"
            label="Account"
            hint="Yours, or an organisation where you are a writer or owner."
            options={accounts}
            value={values.account ?? me.data.handle}
            error={errors.account}
          />
          <Field
            name="slug"
            label="Slug"
            hint="Lowercase letters, digits and inner hyphens: the project is account/slug."
            value={values.slug ?? ''}
            error={errors.slug}
            required
          />
          <ListField
            name="stack"
            label="Stack"
            hint="@account/slug of a stack you can read."
            value={values.stack ?? ''}
            error={errors.stack}
            placeholder="@acme/billing-stack"
            options={
              stacks.ok ? stacks.data.stacks.map((s) => `@${s.stack.account}/${s.stack.slug}`) : []
            }
          />
          <Field
            name="stackVersion"
            label="Stack version"
            hint="A published version, exactly as published (1.2.0), or latest."
            value={values.stackVersion ?? 'latest'}
            error={errors.stackVersion}
          />
          <ListField
            name="api"
            label="API"
            hint="owner/slug of an API you can read."
            value={values.api ?? ''}
            error={errors.api}
            placeholder="acme/billing"
            options={apis.ok ? apis.data.apis.map((a) => `${a.owner}/${a.slug}`) : []}
          />
          <div>
            <button type="submit" class="primary">
              Create project
            </button>
          </div>
        </Form>
      </div>
    </div>,
  )
}

/** A text input with suggestions (a datalist: no script needed). */
function ListField(props: {
  name: string
  label: string
  hint: string
  value: string
  error: string | undefined
  placeholder: string
  options: readonly string[]
}) {
  const id = `f-${props.name}`
  return (
    <div>
      <label for={id}>{props.label}</label>
      <div class="hint" id={`${id}-hint`}>
        {props.hint}
      </div>
      <input
        id={id}
        aria-describedby={`${id}-hint`}
        name={props.name}
        type="text"
        value={props.value}
        list={`${id}-list`}
        placeholder={props.placeholder}
        required
        autocomplete="off"
        {...(props.error ? { 'aria-invalid': 'true' } : {})}
      />
      <datalist id={`${id}-list`}>
        {props.options.map((option) => (
          <option value={option} />
        ))}
      </datalist>
      {props.error ? <div class="field-error">{props.error}</div> : null}
    </div>
  )
}

async function readProject(c: WebContext) {
  const { account, slug } = c.req.param() as { account: string; slug: string }
  return c.get('api').get(ProjectDetailSchema, `/projects/${seg(account)}/${seg(slug)}`)
}

/** The head of every project page: the name, what it binds, the tabs. */
export function ProjectHead(props: { project: ProjectListItem; current: string; actions?: Child }) {
  const { account, slug } = props.project.project
  return (
    <>
      <PageHead
        title={`${account}/${slug}`}
        lead={
          <>
            Stack{' '}
            <span class="mono">
              <StackPin project={props.project} />
            </span>{' '}
            · API{' '}
            <a class="mono" href={apiHref(props.project.api.owner, props.project.api.slug)}>
              {props.project.api.owner}/{props.project.api.slug}
            </a>
          </>
        }
        actions={props.actions}
      />
      <ProjectTabs account={account} slug={slug} current={props.current} />
    </>
  )
}

projectPages.get('/:account/projects/:slug', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  const p = answer.data
  const { account, slug } = p.project
  const here = projectHref(account, slug)
  return page(
    c,
    { title: `${account}/${slug}`, section: 'projects', crumbs: projectCrumbs(account, slug) },
    <>
      <ProjectHead project={p} current={here} />
      <div class="grid2">
        <div class="card">
          <h3>Binding</h3>
          <dl class="facts" data-testid="binding">
            <dt>Stack</dt>
            <dd class="mono">
              <a href={stackHref(p.stack.account, p.stack.slug)}>
                @{p.stack.account}/{p.stack.slug}
              </a>
            </dd>
            <dt>Version pin</dt>
            <dd class="mono">
              {p.stackVersion === 'latest' ? (
                <>latest (the highest release)</>
              ) : (
                <a href={versionHref(p.stack.account, p.stack.slug, p.stackVersion)}>
                  {p.stackVersion}
                </a>
              )}
            </dd>
            <dt>API</dt>
            <dd class="mono">
              <a href={apiHref(p.api.owner, p.api.slug)}>
                {p.api.owner}/{p.api.slug}
              </a>
            </dd>
            <dt>Created</dt>
            <dd>
              <Time at={p.createdAt} />
            </dd>
          </dl>
        </div>
        <div class="card">
          <h3>Config</h3>
          <dl class="facts" data-testid="config-summary">
            <dt>Last pushed</dt>
            <dd>
              {p.configUpdatedAt ? (
                <Time at={p.configUpdatedAt} />
              ) : (
                <span class="muted">never</span>
              )}
            </dd>
            <dt>Settings</dt>
            <dd>{plural(p.settingCount, 'key')}</dd>
            <dt>Enrichments</dt>
            <dd>{plural(p.enrichmentCount, 'row')}</dd>
            <dt>Base files</dt>
            <dd>
              {plural(p.baseFileCount, 'file')}, {formatBytes(p.baseFilesBytes)}
            </dd>
          </dl>
          <p class="row">
            <a href={`${here}/config`}>View or edit the config</a>
            <a href={`${here}/base-files`}>Base files</a>
          </p>
        </div>
      </div>
      <h2>Push from your app root</h2>
      <pre>{`svc push <project> --project @${account}/${slug}\nsvc push <project> --base-files   # also the app's base files\nsvc pull <project>                # the config back into client.json`}</pre>
    </>,
  )
})

projectPages.get('/:account/projects/:slug/config', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return configPage(c, answer.data, {})
})

projectPages.post('/:account/projects/:slug/config', async (c) => {
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
        <table data-testid="enrichments">
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
        </table>
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

projectPages.get('/:account/projects/:slug/base-files', async (c) => {
  const answer = await readProject(c)
  if (!answer.ok) return privateErrorPage(c, answer)
  return baseFilesPage(c, answer.data, undefined)
})

projectPages.post('/:account/projects/:slug/base-files', async (c) => {
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
        <table data-testid="base-files">
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
        </table>
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
