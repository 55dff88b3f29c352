import { ApiListSchema, ProjectSchema, StackListSchema, UserSchema } from '@svc/hub-api'
import { Hono } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { Field, Form, FormError, Select } from '../../components.js'
import type { WebContext, WebEnv } from '../../env.js'
import { formText } from '../../forms.js'
import { apiErrorPage, page, redirectWith, signInRedirect } from '../../responses.js'
import { writableAccounts } from '../../viewer-accounts.js'
import { projectHref } from './shared.js'

/** Creating a project: `/projects/new`. */
export const newProjectPages = new Hono<WebEnv>()

type NewProjectForm = {
  account?: string
  slug?: string
  stack?: string
  stackVersion?: string
  api?: string
}
type NewProjectErrors = Partial<Record<keyof NewProjectForm, string>> & { form?: string }

newProjectPages.get('/projects/new', async (c) => {
  if (!c.get('viewer')) return signInRedirect(c)
  return newProjectPage(c, { stack: c.req.query('stack') ?? '', api: c.req.query('api') ?? '' }, {})
})

newProjectPages.post('/projects/new', async (c) => {
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
