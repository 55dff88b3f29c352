import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminToken } from '../support/fixtures.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call, manifest, publishForm } from '../support/http.js'
import { eventually } from '../support/poll.js'
import { ENV_BUNDLE } from '../support/stack-bundles.js'
import { WebSession } from '../support/web-session.js'

const DOCUMENT = (title: string) =>
  JSON.stringify({ openapi: '3.0.0', info: { title, version: '1' }, paths: {} })

/**
 * The layout and the project pages over plain HTTP (docs/web/README.md, docs/web/projects.md,
 * docs/web/deployments.md): tables in their own scrolling box, the navigation kept on a phone, the
 * project overview's production deployment and last run, the revision of each run, plurals, and
 * the getting-started checklist of a new user's home.
 */
describe('layout, project overview, runs and home', () => {
  let hub: HubProcess
  let alice: WebSession
  let pat: string
  const base = '/alice/projects/shop'
  const v1 = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    call(`${hub.url}/v1${path}`, { ...init, token: pat })

  /** Starts a run on the page and waits until the run page shows it ended. */
  async function runOnPage(project = base) {
    await alice.get(`${project}/runs`)
    const ran = await alice.post(`${project}/runs`)
    expect(ran.status, ran.text).toBe(303)
    const path = ran.headers.get('location') ?? ''
    return eventually(async () => {
      const answer = await alice.get(path)
      return answer.text.includes('badge running') ? undefined : { path, page: answer }
    }, 'the run ends')
  }

  beforeAll(async () => {
    hub = await startHub('sqlite')
    alice = new WebSession(hub.url)
    await alice.signUp('alice')
  })
  afterAll(() => hub?.dispose())

  it("a new user's home lists the first steps, none done, with where to do each", async () => {
    const home = await alice.get('/')
    expect(home.status).toBe(200)
    const list = checklist(home.text)
    expect(list).toContain('0 of 5 done')
    for (const step of ['token', 'api', 'webhook', 'stack', 'project']) {
      expect(stepOf(home.text, step), step).not.toContain('class="done"')
    }
    expect(stepOf(home.text, 'token')).toContain('href="/settings/tokens"')
    expect(stepOf(home.text, 'token')).toMatch(
      new RegExp(`svc login --origin http://[^<]+:${new URL(hub.url).port}</code>`),
    )
    expect(stepOf(home.text, 'api')).toContain('href="/apis/new"')
    expect(stepOf(home.text, 'api')).toContain('svc api push alice/petstore openapi.yaml')
    expect(stepOf(home.text, 'stack')).toContain('svc init demo --name @alice/demo')
    expect(stepOf(home.text, 'stack')).toContain('svc publish demo')
    expect(stepOf(home.text, 'project')).toContain('href="/projects/new"')
  })

  it('each step is ticked once the user has done it, and the list is gone when all are', async () => {
    pat = await adminToken(
      hub,
      'alice',
      'read,write:releases,write:projects,write:apis,admin:webhooks',
    )
    expect(stepOf((await alice.get('/')).text, 'token')).toContain('class="done"')

    expect(
      (await v1('/apis', { method: 'POST', json: { owner: 'alice', slug: 'pets', name: 'Pets' } }))
        .status,
    ).toBe(201)
    // An API without a revision is not the step done yet.
    let home = await alice.get('/')
    expect(stepOf(home.text, 'api')).not.toContain('class="done"')
    // The webhook step links the form of the user's API.
    expect(stepOf(home.text, 'webhook')).toContain('href="/alice/apis/pets/webhooks/new"')
    const pushed = await v1('/apis/alice/pets/revisions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: DOCUMENT('Pets'),
    })
    expect(pushed.status, pushed.text).toBe(201)
    home = await alice.get('/')
    expect(stepOf(home.text, 'api')).toContain('class="done"')
    expect(checklist(home.text)).toContain('2 of 5 done')

    const hook = await v1('/apis/alice/pets/webhooks', {
      method: 'POST',
      json: { url: 'https://hooks.example.com/svc' },
    })
    expect(hook.status, hook.text).toBe(201)
    const published = await v1('/stacks/alice/web/versions', {
      method: 'POST',
      body: publishForm({ version: '1.0.0', bundle: ENV_BUNDLE, files: [manifest('@alice/web')] }),
    })
    expect(published.status, published.text).toBe(201)
    home = await alice.get('/')
    for (const step of ['webhook', 'stack']) {
      expect(stepOf(home.text, step), step).toContain('class="done"')
    }
    expect(stepOf(home.text, 'project')).not.toContain('class="done"')
    expect(checklist(home.text)).toContain('4 of 5 done')

    const project = await v1('/projects', {
      method: 'POST',
      json: { account: 'alice', slug: 'shop', stack: '@alice/web', api: 'alice/pets' },
    })
    expect(project.status, project.text).toBe(201)
    home = await alice.get('/')
    expect(home.text).not.toContain('data-testid="getting-started"')
    expect(home.text).toContain('Where to go from here')
  })

  it('the overview says there is no production deployment nor run yet', async () => {
    const page = await alice.get(base)
    expect(page.status).toBe(200)
    expect(card(page.text, 'production')).toContain('No production deployment yet')
    expect(card(page.text, 'last-run')).toContain('No runs yet')
    expect(textOf(page.text, 'stack-pin')).toBe('@alice/web@latest')
  })

  it('the overview shows the production deployment with the version it runs, and the last run', async () => {
    await alice.get(`${base}/deployments`)
    expect((await alice.post(`${base}/deployments`, { stackVersion: 'latest' })).status).toBe(303)
    const id = (await v1('/projects/alice/shop/deployments')).body.deployments[0].id as string
    expect((await alice.post(`${base}/deployments/${id}/promote`)).status).toBe(303)

    let page = await alice.get(base)
    const production = card(page.text, 'production')
    expect(production).toContain('href="/alice/stacks/web/versions/1.0.0">1.0.0</a>')
    expect(production).toContain(id)
    expect(production).toMatch(/<time datetime="[^"]+"/)
    expect(production).toContain(`href="${base}/deployments"`)
    // The pin is `latest`; the head says what production really runs.
    expect(textOf(page.text, 'stack-pin')).toBe('@alice/web@1.0.0')
    expect(page.text).toMatch(/in production<span class="mono"> \(pin latest\)/)
    expect(page.text).not.toContain('@alice/web@latest')

    const { path } = await runOnPage()
    page = await alice.get(base)
    const last = card(page.text, 'last-run')
    expect(last).toContain(`href="${path}"`)
    expect(last).toContain('badge succeeded')
    expect(last).toMatch(/<time datetime="[^"]+"/)
    expect(last).toContain('#1')
    expect(textOf(last, 'run-count')).toBe('1 run')
  })

  it('runs say the revision they used, in the list, on the run page and in /v1', async () => {
    const pushed = await v1('/apis/alice/pets/revisions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: DOCUMENT('Pets 2'),
    })
    expect(pushed.status, pushed.text).toBe(201)
    const revision = pushed.body.revision.id as string
    const { path, page } = await runOnPage()
    const cell = textOf(page.text, 'run-revision')
    expect(cell).toBe(`#2 (${revision})`)
    expect(page.text).toContain(`href="/alice/apis/pets/revisions/${revision}"`)

    const list = await alice.get(`${base}/runs`)
    expect(textOf(list.text, 'run-count')).toBe('2 runs, newest first')
    const cells = [...list.text.matchAll(/data-testid="run-revision">(.*?)<\/td>/gs)].map((m) =>
      stripTags(m[1]!),
    )
    expect(cells).toEqual(['#2', '#1'])

    const runs = await v1('/projects/alice/shop/runs')
    expect(
      runs.body.runs.map((r: { revision: { sequence: number } }) => r.revision.sequence),
    ).toEqual([2, 1])
    const one = await v1(`/projects/alice/shop/runs/${path.split('/').pop()}`)
    expect(one.body.revision).toEqual({
      id: revision,
      sequence: 2,
      url: expect.stringMatching(
        new RegExp(`^http://[^/]+/alice/apis/pets/revisions/${revision}$`),
      ),
    })
  })

  it('a run of an API with no revision says it had none', async () => {
    expect(
      (await v1('/apis', { method: 'POST', json: { owner: 'alice', slug: 'empty', name: 'E' } }))
        .status,
    ).toBe(201)
    expect(
      (
        await v1('/projects', {
          method: 'POST',
          json: { account: 'alice', slug: 'bare', stack: '@alice/web', api: 'alice/empty' },
        })
      ).status,
    ).toBe(201)
    await alice.get('/alice/projects/bare/deployments')
    await alice.post('/alice/projects/bare/deployments', { stackVersion: '1.0.0' })
    const { page } = await runOnPage('/alice/projects/bare')
    expect(page.text).toContain('badge failed')
    expect(textOf(page.text, 'run-revision')).toBe('none: the API had no revision')
    const list = await alice.get('/alice/projects/bare/runs')
    expect(textOf(list.text, 'run-revision')).toBe('none: the API had no revision')
  })

  it('every table sits in its own scrolling box, and the phone layout keeps the navigation', async () => {
    for (const path of [`${base}/runs`, `${base}/deployments`, '/projects', '/settings/tokens']) {
      const page = await alice.get(path)
      const tables = page.text.match(/<table\b/g) ?? []
      const wrapped = page.text.match(/<div class="table-scroll"><table\b/g) ?? []
      expect(tables.length, path).toBeGreaterThan(0)
      expect(wrapped.length, path).toBe(tables.length)
    }
    const sheet = /<link rel="stylesheet" href="([^"]+)"/.exec((await alice.get('/')).text)?.[1]
    const css = await fetch(`${hub.url}${sheet}`).then((r) => r.text())
    expect(css).toMatch(/\.table-scroll \{ overflow-x: auto;/)
    expect(css).not.toMatch(/\.top nav \{ display: none/)
  })
})

/** The getting-started section of a page, or '' when it has none. */
function checklist(html: string): string {
  return /data-testid="getting-started"[\s\S]*?<\/section>/.exec(html)?.[0] ?? ''
}

function stepOf(html: string, step: string): string {
  const item = new RegExp(`<li data-step="${step}"[^>]*>[\\s\\S]*?</li>`).exec(checklist(html))
  expect(item, `step ${step}`).not.toBeNull()
  return item![0]
}

/** The card `<div class="card" data-testid="…">` up to the next card or the page's end. */
function card(html: string, id: string): string {
  const start = html.indexOf(`data-testid="${id}"`)
  expect(start, id).toBeGreaterThan(-1)
  const next = html.indexOf('class="card"', start)
  return html.slice(start, next === -1 ? undefined : next)
}

/** The text of the first element with `data-testid`. */
function textOf(html: string, id: string): string {
  const match = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(dd|td|span|p)>`).exec(html)
  expect(match, id).not.toBeNull()
  return stripTags(match![1]!).trim()
}

function stripTags(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}
