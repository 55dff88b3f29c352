import { REVISION_EVENT, SIGNATURE_HEADER, TEST_EVENT, verifyWebhook } from '@svc/webhooks'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, signIn } from '../support/browser.js'
import { oasWithIssues, oasYaml, petsDocument } from '../support/documents.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { startReceiver, type Received, type Receiver } from '../support/receiver.js'
import { WebSession } from '../support/web-session.js'

/**
 * From sign-in to a webhook delivery, in a real browser: an organisation, an API, two revisions
 * uploaded (the second breaking), the changes page, a webhook at a loopback receiver, its
 * delivery log, a test event, a rotated secret and a retried delivery.
 */
describe('APIs, changes and webhooks in Chromium', () => {
  let hub: HubProcess
  let browser: Browser
  let receiver: Receiver
  let page: Page

  beforeAll(async () => {
    // The receiver's first request gets a 503, so that the log shows a retried attempt.
    receiver = await startReceiver((_request, index) =>
      index === 0 ? { status: 503, body: 'receiver warming up' } : { status: 204 },
    )
    ;[hub, browser] = await Promise.all([
      startHub('sqlite', { env: { SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin } }),
      launchBrowser(),
    ])
    await new WebSession(hub.url).signUp('alice')
    page = await browser.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await hub?.dispose()
    await receiver?.close()
  })

  const path = () => new URL(page.url()).pathname
  const flash = () => page.getByRole('status').first().textContent()

  /** Reloads the page until `check` holds (the dispatcher works on its own time). */
  async function reloadUntil(check: () => Promise<boolean>) {
    await expect
      .poll(
        async () => {
          await page.reload()
          return check()
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true)
  }

  it('creates an org and an API, pushes revisions, and follows a webhook delivery', async () => {
    await signIn(page, hub.url, 'alice')

    // An organisation, through its settings page.
    await page.goto(`${hub.url}/orgs/new`)
    await page.locator('#f-handle').fill('acme')
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await expect.poll(path).not.toBe('/orgs/new')

    // A private API of acme.
    await page.goto(`${hub.url}/apis`)
    await page.getByRole('link', { name: 'New API' }).click()
    await page.locator('#f-owner').selectOption('acme')
    await page.locator('#f-slug').fill('petstore')
    await page.locator('#f-name').fill('Petstore')
    await screenshot(page, 'apis-1-new-api')
    await page.getByRole('button', { name: 'Create API' }).click()
    await expect.poll(path).toBe('/acme/apis/petstore')
    await expect.poll(flash).toContain('Created acme/petstore.')
    await screenshot(page, 'apis-2-api-page-empty')

    // The first revision, by file upload.
    await page.getByRole('link', { name: 'Upload a revision' }).click()
    await page.locator('#f-file').setInputFiles({
      name: 'openapi.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(oasYaml(['get /pets', 'post /pets', 'get /pets/{id}'])),
    })
    await page.locator('#f-version').fill('1.0.0')
    await page.getByRole('button', { name: 'Push revision' }).click()
    await expect.poll(flash).toContain("Revision #1 · 1.0.0 created: the API's first revision.")
    await screenshot(page, 'apis-3-first-revision')

    // A malformed paste is refused with where it broke.
    await page.goto(`${hub.url}/acme/apis/petstore/revisions/new`)
    await page.locator('#f-document').fill('openapi: 3.0.3\ninfo:\n  title: [Pets\npaths: {}\n')
    await page.getByRole('button', { name: 'Push revision' }).click()
    await expect.poll(() => page.getByTestId('parse-problem').count()).toBe(1)
    await screenshot(page, 'apis-4-invalid-document')

    // A webhook at the loopback receiver; its secret is shown once.
    await page.getByRole('link', { name: 'Webhooks' }).click()
    await screenshot(page, 'apis-5-webhooks-empty')
    await page.getByRole('link', { name: 'New webhook' }).first().click()
    await page.locator('#f-url').fill(`${receiver.origin}/hook`)
    await page.locator('#f-description').fill('Regenerate the SDK')
    // Breaking changes only: the second revision below has one.
    expect(await page.locator('#f-minLevel').inputValue()).toBe('info')
    await page.getByLabel('Minimum level').selectOption('breaking')
    await page.getByRole('button', { name: 'Create webhook' }).click()
    const secret = (await page.getByTestId('secret').textContent())!
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(await page.getByTestId('min-level').textContent()).toBe('breaking')
    expect(await page.locator('#f-minLevel').inputValue()).toBe('breaking')
    await screenshot(page, 'apis-6-webhook-created')
    const hookPage = path()
    await page.reload()
    expect(await page.getByTestId('secret').count()).toBe(0)

    // The second revision, pasted, removes an operation: breaking.
    await page.goto(`${hub.url}/acme/apis/petstore/revisions/new`)
    await page.locator('#f-document').fill(oasYaml(['get /pets', 'get /pets/{id}', 'get /owners']))
    await page.locator('#f-version').fill('2.0.0')
    await page.getByRole('button', { name: 'Push revision' }).click()
    await expect
      .poll(flash)
      .toContain('Revision #2 · 2.0.0 created: 1 breaking change, 0 warnings, 1 info')
    await expect.poll(flash).toContain('1 webhook delivery queued.')
    await screenshot(page, 'apis-7-second-revision')
    await page.getByRole('link', { name: 'Changes', exact: true }).first().click()
    // By endpoint: the removed one (breaking) first, then the added one.
    const groups = page.getByTestId('change-group')
    await expect.poll(() => groups.count()).toBe(2)
    expect(await groups.nth(0).getAttribute('data-level')).toBe('breaking')
    expect(await groups.nth(0).locator('h3').textContent()).toContain('POST /pets')
    expect(await groups.nth(0).textContent()).toContain('endpoint-removed')
    expect(await groups.nth(1).locator('h3').textContent()).toContain('GET /owners')
    await screenshot(page, 'apis-8-changes')

    // Any two revisions compared, here backwards: #2 → #1 brings POST /pets back, loses /owners.
    await page.getByRole('link', { name: 'Compare', exact: true }).click()
    expect(await page.getByLabel('From').inputValue()).not.toBe(
      await page.getByLabel('To').inputValue(),
    )
    await page.getByLabel('From').selectOption({ label: '#2 · 2.0.0 (latest)' })
    await page.getByLabel('To').selectOption({ label: '#1 · 1.0.0' })
    await page.getByRole('button', { name: 'Compare' }).click()
    await expect
      .poll(() => page.getByTestId('comparison').locator('h2').textContent())
      .toMatch(/From revision #2 · 2\.0\.0 to revision #1 · 1\.0\.0/)
    expect(await groups.locator('h3').allTextContents()).toEqual([
      expect.stringContaining('GET /owners'),
      expect.stringContaining('POST /pets'),
    ])
    await screenshot(page, 'apis-8b-compare')

    // The event arrives (after one 503), signed with the secret shown.
    const [refused, delivered] = await receiver.waitFor(2)
    expect(refused!.body).toBe(delivered!.body)
    const event = verifyWebhook(delivered!.body, header(delivered!), secret)
    if (event.type !== REVISION_EVENT) throw new Error(`a ${event.type} event came`)
    await page.goto(`${hub.url}${new URL(event.data.changesUrl).pathname}`)
    expect(await page.locator('[data-testid="change-group"][data-level="breaking"]').count()).toBe(
      1,
    )

    // The delivery log shows it, with both attempts.
    await page.goto(`${hub.url}${hookPage}`)
    await reloadUntil(
      async () =>
        (await page.locator('[data-testid=delivery][data-state=succeeded]').count()) === 1,
    )
    const log = page.getByTestId('delivery').first()
    expect(await log.textContent()).toContain('2 attempts')
    expect(await log.textContent()).toContain('receiver warming up')
    expect(await log.textContent()).toContain('503')
    await screenshot(page, 'apis-9-delivery-log')

    // A test event.
    await page.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(flash).toContain('Test event queued')
    const [, , test] = await receiver.waitFor(3)
    expect(verifyWebhook(test!.body, header(test!), secret).type).toBe(TEST_EVENT)
    await reloadUntil(
      async () =>
        (await page.locator('[data-testid=delivery][data-state=succeeded]').count()) === 2,
    )

    // A new secret, shown once; the old one signs nothing more.
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    const rotated = (await page.getByTestId('secret').textContent())!
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(secret)
    await screenshot(page, 'apis-10-rotated')

    // Retry the revision delivery (the older one): sent again with the same event id.
    await page.getByTestId('delivery').nth(1).getByRole('button', { name: 'Retry' }).click()
    await expect.poll(flash).toContain('is retried now')
    const [, , , retried] = await receiver.waitFor(4)
    const again = verifyWebhook(retried!.body, header(retried!), rotated)
    expect(again.id).toBe(event.id)
    expect(() => verifyWebhook(retried!.body, header(retried!), secret)).toThrow()
    await reloadUntil(async () =>
      ((await page.getByTestId('delivery').nth(1).textContent()) ?? '').includes('3 attempts'),
    )
    await screenshot(page, 'apis-11-retried')

    // Recover since an hour ago: nothing failed.
    const since = new Date(Date.now() - 3600_000).toISOString().slice(0, 16)
    await page.locator('#f-since').fill(since)
    await page.getByRole('button', { name: 'Recover' }).click()
    await expect.poll(flash).toContain('No failed deliveries since')

    // Switch it off, then delete it after the confirmation.
    await page.locator('input[name=active]').uncheck()
    await page.getByLabel('Minimum level').selectOption('warning')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(flash).toBe('Webhook saved.')
    expect(await page.getByText('inactive').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('min-level').textContent()).toBe('warning')
    await page.getByRole('link', { name: 'Delete…' }).click()
    await page.getByLabel('Yes, delete the webhook and its deliveries').check()
    await screenshot(page, 'apis-12-delete-confirm')
    await page.getByRole('button', { name: 'Delete webhook' }).click()
    await expect.poll(flash).toBe('Webhook deleted.')
    await expect.poll(path).toBe('/acme/apis/petstore/webhooks')

    // The API page and the list, with the latest revision.
    await page.goto(`${hub.url}/acme/apis/petstore`)
    await screenshot(page, 'apis-13-api-page')
    await page.goto(`${hub.url}/apis`)
    expect(await page.locator('table').textContent()).toContain('#2 · 2.0.0')
    await screenshot(page, 'apis-14-list')
  })

  it('lists parse issues and renders changes readably at desktop and phone widths', async () => {
    const alice = new WebSession(hub.url)
    await alice.signIn('alice')
    const created = await alice.submit('/apis/new', {
      owner: 'alice',
      slug: 'shelter',
      name: 'Shelter',
      visibility: 'public',
      sourceUrl: '',
    })
    expect(created.status, created.text).toBe(303)
    const push = async (document: string) => {
      const pushed = await alice.submit('/alice/apis/shelter/revisions/new', {
        document,
        version: '',
      })
      expect(pushed.status, pushed.text).toBe(303)
      return pushed.headers.get('location')!
    }
    const long = 'adoptionApplicationReferenceNumber'
    await push(
      petsDocument(
        ['name', long],
        ['get /pets', 'get /pets/{petId}/vaccinations', 'get /shelters'],
      ),
    )
    // Removes a property (a warning) and two operations (breaking).
    const changed = await push(petsDocument(['name'], ['get /pets']))
    // Parse issues of every level.
    const revision = await push(oasWithIssues(60))

    for (const [width, height, suffix] of [
      [1280, 800, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height } })
      const tab = await context.newPage()
      await tab.goto(`${hub.url}${revision}`)
      const rows = tab.getByTestId('parse-issue')
      expect(await rows.count()).toBe(50)
      expect(await rows.first().textContent()).toContain('INVALID_OPERATION')
      expect(await rows.first().textContent()).toContain('line 5:5')
      expect(await tab.getByTestId('parse-issues').getByRole('link').allTextContents()).toEqual(
        expect.arrayContaining(['1 error', '62 warnings', '1 debug', 'Next 50 issues →']),
      )
      expect(await unbrokenWords(tab)).toEqual([])
      await screenshot(tab, `apis-revision-issues-${suffix}`)
      expect(await pageWidth(tab)).toBeLessThanOrEqual(width)

      await tab.getByTestId('parse-issues').getByRole('link', { name: '1 error' }).click()
      await expect.poll(() => rows.count()).toBe(1)

      await tab.goto(`${hub.url}${changed}/changes`)
      const warning = tab.locator('[data-testid="change-group"][data-kind="component"]')
      expect(await warning.locator('h3').textContent()).toContain('components › schemas › Pet')
      expect(await warning.locator('td code').first().textContent()).toBe('Pet')
      expect(await warning.getByTestId('change-path').textContent()).toBe(long)
      expect(await warning.textContent()).not.toContain('`')
      const breaking = tab.locator('[data-testid="change-group"][data-level="breaking"]')
      expect(await breaking.locator('h3').allTextContents()).toEqual([
        expect.stringContaining('GET /pets/{petId}/vaccinations'),
        expect.stringContaining('GET /shelters'),
      ])
      expect(await unbrokenWords(tab)).toEqual([])
      await screenshot(tab, `apis-changes-${suffix}`)
      expect(await pageWidth(tab)).toBeLessThanOrEqual(width)
      await context.close()
    }
  })
})

/**
 * The words of identifiers (rule ids, locations, code) that the layout broke across lines. An
 * identifier may wrap at its `<wbr>`s, which end its text nodes, and after a hyphen: a run of a
 * text node without either must stay on one line.
 */
function unbrokenWords(tab: Page): Promise<string[]> {
  // A string, run in the page: this package's types have no DOM.
  return tab.evaluate(`(() => {
    const broken = []
    for (const element of document.querySelectorAll('.ident')) {
      for (const node of element.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE) continue
        for (const match of node.textContent.matchAll(/[^\\s-]+-?/g)) {
          const range = document.createRange()
          range.setStart(node, match.index)
          range.setEnd(node, match.index + match[0].length)
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)))
          if (tops.size > 1) broken.push(match[0])
        }
      }
    }
    return broken
  })()`)
}

/** How wide the page lays out: wider than the window means it scrolls sideways. */
function pageWidth(tab: Page): Promise<number> {
  return tab.evaluate('document.documentElement.scrollWidth')
}

function header(request: Received): string {
  return request.headers[SIGNATURE_HEADER] as string
}
