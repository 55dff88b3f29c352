import {
  ApiListSchema,
  ProjectListSchema,
  RevisionListSchema,
  StackListSchema,
  UserSchema,
  WebhookListSchema,
} from '@svc/hub-api'
import { Hono } from 'hono'
import type { Child } from 'hono/jsx'
import { installLines } from '../../downloads/cli-tarball.js'
import type { Viewer, WebContext, WebEnv } from '../env.js'
import { page } from '../responses.js'

const seg = encodeURIComponent

/** The start page: what a visitor can do here, or where a signed-in user left off. */
export const homePages = new Hono<WebEnv>().get('/', async (c) => {
  const viewer = c.get('viewer')
  if (!viewer) {
    return page(
      c,
      { title: 'Welcome' },
      <div class="narrow card">
        <h1>svc hub</h1>
        <p>
          Publish API descriptions, see what changed between revisions, get signed webhooks when
          they do, and generate typed clients from them.
        </p>
        <p class="row">
          <a class="button primary" href="/signin">
            Sign in
          </a>
          <a class="button" href="/signup">
            Create an account
          </a>
          <a href="/apis">Browse public APIs</a>
          <a href="/install">Install the svc command</a>
        </p>
      </div>,
    )
  }
  return page(
    c,
    { title: 'Home' },
    <>
      <h1>Welcome, {viewer.handle}</h1>
      <GettingStarted steps={await gettingStarted(c, viewer)} />
      <section class="card" data-testid="install" aria-labelledby="install-title">
        <h2 id="install-title">Install the svc command</h2>
        <p>
          In a project, from this hub (then <code>npx svc …</code> there):
        </p>
        <pre>{installLines(c.get('hub').config.publicUrl).project}</pre>
        <p class="muted">
          On a CI runner, or for one command without installing: <a href="/install">Install</a>.
        </p>
      </section>
      <p class="lead">Where to go from here:</p>
      <div class="grid2">
        <a class="card" href="/apis">
          <strong>APIs</strong>
          <div class="muted">Descriptions, revisions, their changes and webhooks.</div>
        </a>
        <a class="card" href="/stacks">
          <strong>Stacks</strong>
          <div class="muted">Published generator bundles and their versions.</div>
        </a>
        <a class="card" href="/projects">
          <strong>Projects</strong>
          <div class="muted">A stack bound to an API: config, deployments and runs.</div>
        </a>
        <a class="card" href="/settings">
          <strong>Settings</strong>
          <div class="muted">Your account, organisations, tokens and API keys.</div>
        </a>
      </div>
    </>,
  )
})

type Step = {
  readonly id: string
  readonly title: string
  readonly done: boolean
  readonly how: Child
}

/**
 * The first steps of a new user, each ticked from what the user (or one of their organisations)
 * already has; read through the /v1 API as the viewer, like every page.
 */
async function gettingStarted(c: WebContext, viewer: Viewer): Promise<readonly Step[]> {
  const api = c.get('api')
  const { store, config } = c.get('hub')
  const [tokens, me, apis, stacks, projects] = await Promise.all([
    store.accountSettings.tokensOf(viewer.userId),
    api.get(UserSchema, '/user'),
    api.get(ApiListSchema, '/apis?limit=100'),
    api.get(StackListSchema, '/stacks?limit=100'),
    api.get(ProjectListSchema, '/projects?limit=1'),
  ])
  const now = Date.now()
  const hasToken = tokens.some(
    (t) => t.revoked_at === null && (t.expires_at === null || Date.parse(t.expires_at) > now),
  )
  const accounts = new Set([
    viewer.handle,
    ...(me.ok ? me.data.organizations.map((o) => o.handle) : []),
  ])
  // The list holds every public API too; only the viewer's own and their organisations' count.
  const own = apis.ok ? apis.data.apis.filter((a) => accounts.has(a.owner)) : []
  const [withRevision, withWebhook] = await Promise.all([
    firstOf(own, async (a) => {
      const list = await api.get(
        RevisionListSchema,
        `/apis/${seg(a.owner)}/${seg(a.slug)}/revisions?limit=1`,
      )
      return list.ok && list.data.revisions.length > 0
    }),
    firstOf(own, async (a) => {
      const list = await api.get(WebhookListSchema, `/apis/${seg(a.owner)}/${seg(a.slug)}/webhooks`)
      return list.ok && list.data.webhooks.length > 0
    }),
  ])
  const published = stacks.ok && stacks.data.stacks.some((s) => s.versionCount > 0)
  const hasProject = projects.ok && projects.data.projects.length > 0
  const firstApi = own[0]
  const handle = viewer.handle
  return [
    {
      id: 'token',
      title: 'Make a personal access token',
      done: hasToken,
      how: (
        <>
          <a href="/settings/tokens">Make a token</a> for the <code>svc</code> command, then sign it
          in: <code>svc login --origin {config.publicUrl}</code>
        </>
      ),
    },
    {
      id: 'api',
      title: 'Create an API and push a revision',
      done: withRevision !== undefined,
      how: (
        <>
          <a href="/apis/new">Create an API</a> and upload its OpenAPI document, or push it from
          your repository or CI: <code>svc api push {handle}/petstore openapi.yaml</code>
        </>
      ),
    },
    {
      id: 'webhook',
      title: 'Add a webhook',
      done: withWebhook !== undefined,
      how: (
        <>
          {firstApi ? (
            <a href={`/${seg(firstApi.owner)}/apis/${seg(firstApi.slug)}/webhooks/new`}>
              Add a webhook
            </a>
          ) : (
            'Add a webhook'
          )}{' '}
          to an API, to be told of each new revision and what changed in it.
        </>
      ),
    },
    {
      id: 'stack',
      title: 'Publish a stack',
      done: published,
      how: (
        <>
          Make a generator project and publish it as a stack:{' '}
          <code>svc init demo --name @{handle}/demo</code>, then <code>svc publish demo</code>
        </>
      ),
    },
    {
      id: 'project',
      title: 'Create a project',
      done: hasProject,
      how: (
        <>
          <a href="/projects/new">Create a project</a> that binds a stack to an API, then deploy and
          run it to generate code.
        </>
      ),
    },
  ]
}

/** The first item for which `test` holds, asking one at a time. */
async function firstOf<T>(
  items: readonly T[],
  test: (item: T) => Promise<boolean>,
): Promise<T | undefined> {
  for (const item of items) if (await test(item)) return item
  return undefined
}

/** The checklist of a new user; gone once every step is done. */
function GettingStarted({ steps }: { steps: readonly Step[] }) {
  const done = steps.filter((s) => s.done).length
  if (done === steps.length) return null
  return (
    <section class="card checklist" data-testid="getting-started" aria-labelledby="gs-title">
      <h2 id="gs-title">
        Getting started{' '}
        <span class="muted">
          · {done} of {steps.length} done
        </span>
      </h2>
      <ol>
        {steps.map((step) => (
          <li data-step={step.id} class={step.done ? 'done' : undefined}>
            <span class="tick" aria-hidden="true">
              {step.done ? '✓' : ''}
            </span>
            <div>
              <strong>{step.title}</strong>
              {step.done ? <span class="visually-hidden"> (done)</span> : null}
              <div class="muted">{step.how}</div>
            </div>
          </li>
        ))}
      </ol>
    </section>
  )
}
