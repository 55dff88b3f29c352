import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, signIn, signUp } from '../support/browser.js'
import { adminToken } from '../support/fixtures.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call, manifest, publishForm } from '../support/http.js'
import { eventually } from '../support/poll.js'
import { ENV_BUNDLE } from '../support/stack-bundles.js'
import { WebSession } from '../support/web-session.js'

const WIDTHS = { desktop: 1280, phone: 390 } as const

/**
 * The layout at a desktop and a phone width (docs/web/README.md): a new user's home with its
 * getting-started list, a project overview with production and the last run, and a runs list
 * whose table is wider than a phone. On the phone the main navigation stays reachable, and no
 * page scrolls sideways: a wide table scrolls inside its own box.
 */
describe('the layout at desktop and phone widths', () => {
  let hub: HubProcess
  let browser: Browser
  let pat: string
  const v1 = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    call(`${hub.url}/v1${path}`, { ...init, token: pat })

  beforeAll(async () => {
    hub = await startHub('sqlite')
    await new WebSession(hub.url).signUp('alice')
    pat = await adminToken(hub, 'alice', 'read,write:releases,write:projects,write:apis')
    const published = await v1('/stacks/alice/web-clients/versions', {
      method: 'POST',
      body: publishForm({
        version: '0.1.0',
        bundle: ENV_BUNDLE,
        files: [manifest('@alice/web-clients', {}, '0.1.0')],
      }),
    })
    expect(published.status, published.text).toBe(201)
    expect(
      (
        await v1('/apis', {
          method: 'POST',
          json: { owner: 'alice', slug: 'petstore', name: 'Petstore' },
        })
      ).status,
    ).toBe(201)
    for (const title of ['Petstore', 'Petstore 2']) {
      const pushed = await v1('/apis/alice/petstore/revisions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ openapi: '3.0.0', info: { title, version: '1' }, paths: {} }),
      })
      expect(pushed.status, pushed.text).toBe(201)
    }
    const project = await v1('/projects', {
      method: 'POST',
      json: {
        account: 'alice',
        slug: 'storefront-checkout',
        stack: '@alice/web-clients',
        api: 'alice/petstore',
      },
    })
    expect(project.status, project.text).toBe(201)
    const base = '/projects/alice/storefront-checkout'
    const deployed = await v1(`${base}/deployments`, { method: 'POST', json: {} })
    expect(deployed.status, deployed.text).toBe(201)
    const promoted = await v1(`${base}/aliases/production`, {
      method: 'PUT',
      json: { deployment: deployed.body.id },
    })
    expect(promoted.status, promoted.text).toBe(200)
    for (let i = 0; i < 3; i++) {
      const run = await v1(`${base}/runs`, { method: 'POST', json: {} })
      expect(run.status, run.text).toBe(202)
      await eventually(async () => {
        const read = await v1(`${base}/runs/${run.body.id}`)
        return read.body.status === 'running' ? undefined : read
      }, 'the run ends')
    }
    browser = await launchBrowser()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await hub?.dispose()
  })

  async function openAt(width: number): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 800 } })
    return { context, page: await context.newPage() }
  }

  /** Whether the document scrolls sideways: the bug of a table or a bar wider than the screen. */
  function scrollsSideways(page: Page): Promise<boolean> {
    return page.evaluate(() => {
      const root = (
        globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }
      ).document.documentElement
      return root.scrollWidth > (globalThis as unknown as { innerWidth: number }).innerWidth
    })
  }

  async function expectMainNavigation(page: Page, links: readonly string[]) {
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const name of links) {
      const link = nav.getByRole('link', { name, exact: true })
      expect(await link.isVisible(), name).toBe(true)
      const box = await link.boundingBox()
      expect(box, name).not.toBeNull()
      // Inside the screen, not pushed off its edge.
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(page.viewportSize()!.width)
    }
  }

  it('no page scrolls sideways on a phone, and each keeps the main navigation', async () => {
    const { context, page } = await openAt(WIDTHS.phone)
    await signIn(page, hub.url, 'alice')
    const runs = await v1('/projects/alice/storefront-checkout/runs')
    const revision = (await v1('/apis/alice/petstore/revisions')).body.revisions[0].id as string
    for (const path of [
      '/apis',
      '/alice/apis/petstore',
      '/alice/apis/petstore/revisions',
      `/alice/apis/petstore/revisions/${revision}`,
      `/alice/apis/petstore/revisions/${revision}/changes`,
      '/stacks',
      '/alice/stacks/web-clients',
      '/alice/stacks/web-clients/versions/0.1.0',
      '/projects',
      '/alice/projects/storefront-checkout/deployments',
      `/alice/projects/storefront-checkout/runs/${runs.body.runs[0].id}`,
      '/settings',
      '/settings/tokens',
      '/alice',
    ]) {
      const answer = await page.goto(`${hub.url}${path}`)
      expect(answer?.status(), path).toBe(200)
      expect(await scrollsSideways(page), path).toBe(false)
      await expectMainNavigation(page, ['APIs', 'Stacks', 'Projects'])
    }
    await context.close()
  })

  for (const [device, width] of Object.entries(WIDTHS)) {
    it(`a new user's home shows the getting-started list (${device})`, async () => {
      const { context, page } = await openAt(width)
      await signUp(page, hub.url, `nina-${device}`)
      await page.goto(hub.url)
      const list = page.getByTestId('getting-started')
      expect(await list.isVisible()).toBe(true)
      expect(await list.getByRole('heading').textContent()).toContain('0 of 5 done')
      expect(await list.locator('li').count()).toBe(5)
      expect(await list.getByRole('link', { name: 'Make a token' }).isVisible()).toBe(true)
      await expectMainNavigation(page, ['APIs', 'Stacks', 'Projects'])
      expect(await scrollsSideways(page)).toBe(false)
      await screenshot(page, `home-empty-${device}`)
      await context.close()
    })

    it(`the project overview shows production and the last run (${device})`, async () => {
      const { context, page } = await openAt(width)
      await signIn(page, hub.url, 'alice')
      await page.goto(`${hub.url}/alice/projects/storefront-checkout`)
      expect(await page.getByTestId('stack-pin').textContent()).toBe('@alice/web-clients@0.1.0')
      const production = page.getByTestId('production')
      expect(await production.textContent()).toContain('0.1.0')
      expect(await production.locator('.badge.production').isVisible()).toBe(true)
      const last = page.getByTestId('last-run')
      expect(await last.locator('.badge.succeeded').isVisible()).toBe(true)
      expect(await last.getByTestId('run-count').textContent()).toBe('3 runs')
      expect(await last.textContent()).toContain('#2')
      await expectMainNavigation(page, ['APIs', 'Stacks', 'Projects'])
      expect(await scrollsSideways(page)).toBe(false)
      await screenshot(page, `project-overview-${device}`)

      await last.getByRole('link', { name: /^run_/ }).click()
      await expect.poll(() => page.url()).toMatch(/\/runs\/run_[0-9a-f]+$/)
      expect(await page.getByTestId('run-revision').textContent()).toMatch(/^#2 \(rev_[0-9a-f]+\)$/)
      await context.close()
    })

    it(`the runs list keeps its wide table in a box of its own (${device})`, async () => {
      const { context, page } = await openAt(width)
      await signIn(page, hub.url, 'alice')
      await page.goto(`${hub.url}/alice/projects/storefront-checkout/runs`)
      expect(await page.getByTestId('run-count').textContent()).toBe('3 runs, newest first')
      const revisions = await page.getByTestId('run-revision').allTextContents()
      expect(revisions).toEqual(['#2', '#2', '#2'])
      await expectMainNavigation(page, ['APIs', 'Stacks', 'Projects'])
      expect(await scrollsSideways(page)).toBe(false)
      const box = page.locator('.table-scroll', { has: page.getByTestId('runs') })
      const { scrollWidth, clientWidth } = await box.evaluate((el) => ({
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
      }))
      // On a phone the table is wider than the screen and scrolls inside its box.
      if (device === 'phone') expect(scrollWidth).toBeGreaterThan(clientWidth)
      else expect(scrollWidth).toBe(clientWidth)
      await screenshot(page, `runs-list-${device}`)
      if (device === 'phone') {
        await box.evaluate((el) => el.scrollBy({ left: el.scrollWidth }))
        expect(await scrollsSideways(page)).toBe(false)
        await screenshot(page, 'runs-list-phone-scrolled')
      }
      await context.close()
    })
  }
})
