import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, signIn } from '../support/browser.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call, manifest, publishForm } from '../support/http.js'
import { PETSTORE, realServerJs } from '../support/stack-bundles.js'
import { WebSession } from '../support/web-session.js'
import { adminToken } from '../support/fixtures.js'

/** Petstore with a reference to a schema it lacks: a parse issue the run page lists. */
function petstoreWithIssue(): string {
  const document = JSON.parse(readFileSync(PETSTORE, 'utf8'))
  document.paths['/broken'] = {
    get: {
      operationId: 'broken',
      responses: {
        '200': {
          description: 'ok',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
        },
      },
    },
  }
  return JSON.stringify(document)
}

/**
 * From sign-in, with a published stack, an API with a revision and a project made over /v1:
 * deploy a version on the deployments page, promote it to production, run it, and read the run
 * page (artifacts, parse issues, enrichment warnings) and one artifact (docs/web/deployments.md).
 */
describe('deployments and runs in a browser', () => {
  let hub: HubProcess
  let browser: Browser
  let page: Page
  let pat: string
  const v1 = (path: string) => `${hub.url}/v1${path}`

  beforeAll(async () => {
    // Built before any connection is open: the build blocks this process for seconds.
    const serverJs = realServerJs()
    hub = await startHub('sqlite')
    await new WebSession(hub.url).signUp('alice')
    pat = await adminToken(hub, 'alice', 'read,write:releases,write:projects,write:apis')
    for (const [version, bundle] of [
      ['1.0.0', serverJs],
      ['1.1.0', serverJs],
      ['0.9.0', 'throw new Error("this bundle is broken")'],
    ] as const) {
      const published = await call(v1('/stacks/alice/clients/versions'), {
        method: 'POST',
        token: pat,
        body: publishForm({
          version,
          bundle,
          files: [manifest('@alice/clients', {}, version)],
        }),
      })
      expect(published.status, published.text).toBe(201)
    }
    const api = await call(v1('/apis'), {
      method: 'POST',
      token: pat,
      json: { owner: 'alice', slug: 'petstore', name: 'Petstore' },
    })
    expect(api.status, api.text).toBe(201)
    const pushed = await call(v1('/apis/alice/petstore/revisions'), {
      method: 'POST',
      token: pat,
      headers: { 'content-type': 'application/json' },
      body: petstoreWithIssue(),
    })
    expect(pushed.status, pushed.text).toBe(201)
    const project = await call(v1('/projects'), {
      method: 'POST',
      token: pat,
      json: { account: 'alice', slug: 'shop', stack: '@alice/clients', api: 'alice/petstore' },
    })
    expect(project.status, project.text).toBe(201)
    const config = await call(v1('/projects/alice/shop/client-config'), {
      method: 'PUT',
      token: pat,
      json: { settings: { enrichments: { 'gen-zodd': { Pet: { main: { name: 'x' } } } } } },
    })
    expect(config.status, config.text).toBe(200)
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await hub?.dispose()
  })

  it('deploys a version, promotes it, runs it and shows the run', async () => {
    await signIn(page, hub.url, 'alice')
    await page.goto(`${hub.url}/alice/projects/shop/deployments`)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('alice/shop')
    expect(await page.locator('nav.tabs a[aria-current="page"]').textContent()).toBe('Deployments')
    await screenshot(page, 'deployments-empty')

    await page.getByLabel('Stack version').selectOption('1.0.0')
    await page.getByRole('button', { name: 'Deploy' }).click()
    await expect
      .poll(() => page.locator('.flash').first().textContent())
      .toMatch(/Deployed version 1\.0\.0/)
    const row = page.locator('[data-testid="deployments"] tbody tr')
    expect(await row.count()).toBe(1)
    expect(await row.first().textContent()).toContain('1.0.0')
    expect(await row.first().locator('.badge.production').count()).toBe(0)

    await row.first().getByRole('button', { name: 'Promote to production' }).click()
    await expect
      .poll(() => page.locator('.flash').first().textContent())
      .toMatch(/Production is now dep_/)
    expect(await row.first().locator('.badge.production').textContent()).toBe('production')
    expect(await row.first().getByRole('button', { name: 'Promote to production' }).count()).toBe(0)
    await screenshot(page, 'deployments-production')

    const alias = await call(v1('/projects/alice/shop/aliases/production'), { token: pat })
    expect(alias.body.deployment.stackVersion).toBe('1.0.0')

    await row.first().getByRole('button', { name: 'Run' }).click()
    await expect.poll(() => page.url()).toMatch(/\/alice\/projects\/shop\/runs\/run_[0-9a-f]+$/)
    // The page reloads itself while the run goes; reload here too until it ended.
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.getByTestId('run-facts').textContent()
        },
        { timeout: 60_000, interval: 500 },
      )
      .toContain('succeeded')
    const facts = await page.getByTestId('run-facts').textContent()
    expect(facts).toContain('1.0.0')
    expect(facts).toMatch(/rev_[0-9a-f]+/)
    const artifacts = await page.getByTestId('artifacts').textContent()
    expect(artifacts).toContain('types.ts')
    expect(artifacts).toContain('zod.ts')
    expect(await page.getByTestId('parse-issues').textContent()).toContain('Missing')
    expect(await page.getByTestId('enrichment-warnings').textContent()).toContain('gen-zodd')
    await screenshot(page, 'run-succeeded')

    await page.getByRole('link', { name: 'types.ts' }).click()
    await expect.poll(() => page.getByTestId('artifact-content').textContent()).toContain('Pet')
    await screenshot(page, 'run-artifact')

    await page.goto(`${hub.url}/alice/projects/shop/runs`)
    expect(await page.getByTestId('runs').textContent()).toContain('succeeded')
    await screenshot(page, 'runs-list')
  }, 120_000)

  it('a refused deploy shows the reason on the page and changes nothing', async () => {
    await page.goto(`${hub.url}/alice/projects/shop/deployments`)
    // The select offers only published versions; a crafted post is refused by the API.
    await page.locator('select[name="stackVersion"]').evaluate((select) => {
      type Node = { appendChild(child: unknown): void }
      type Doc = { createElement(tag: string): Node & { value: string; textContent: string } }
      const node = select as unknown as Node & { ownerDocument: Doc }
      const option = node.ownerDocument.createElement('option')
      option.value = '9.9.9'
      option.textContent = '9.9.9'
      node.appendChild(option)
    })
    await page.getByLabel('Stack version').selectOption('9.9.9')
    await page.getByRole('button', { name: 'Deploy' }).click()
    await expect
      .poll(() => page.locator('.flash.error').textContent())
      .toContain('has no version 9.9.9')
    expect(await page.locator('[data-testid="deployments"] tbody tr').count()).toBe(1)
  })

  it('a run that fails shows why and the log', async () => {
    await page.goto(`${hub.url}/alice/projects/shop/deployments`)
    await page.getByLabel('Stack version').selectOption('0.9.0')
    await page.getByRole('button', { name: 'Deploy' }).click()
    const broken = page.locator('[data-testid="deployments"] tbody tr', { hasText: '0.9.0' })
    await broken.getByRole('button', { name: 'Run' }).click()
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.getByTestId('run-facts').textContent()
        },
        { timeout: 60_000, interval: 500 },
      )
      .toContain('failed')
    expect(await page.getByTestId('run-error').textContent()).toBe(
      'server.js exited (code 1) before it answered.',
    )
    expect(await page.getByTestId('run-log').textContent()).toContain('this bundle is broken')
    expect(await page.getByTestId('artifacts').count()).toBe(0)
    await screenshot(page, 'run-failed')
  })
})
