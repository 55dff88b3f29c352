import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, signIn, signUp } from '../support/browser.js'
import { startHub, type HubProcess } from '../support/hub-process.js'

/** Account and organisation settings in a real browser (docs/web/settings.md). */
describe('web settings in Chromium', () => {
  let hub: HubProcess
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;[hub, browser] = await Promise.all([startHub('sqlite'), launchBrowser()])
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  })
  afterAll(async () => {
    await browser?.close()
    await hub?.dispose()
  })

  it('makes an organisation, adds a writer, a PAT and an API key, and shows credits and rate limits', async () => {
    // bob signs up in a browser of his own.
    const signUpContext = await browser.newContext()
    await signUp(await signUpContext.newPage(), hub.url, 'bob')
    await signUpContext.close()

    await signUp(page, hub.url, 'alice')
    await page.goto(`${hub.url}/settings`)
    await screenshot(page, 'settings-1-account')

    await page.getByRole('link', { name: 'New organisation' }).click()
    await page.getByLabel('Handle').fill('acme')
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/acme/settings')
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Made the organisation acme; you are its owner.')
    await screenshot(page, 'settings-2-org-overview')

    await page.getByRole('link', { name: 'Members' }).click()
    await page.getByLabel('User').fill('bob')
    await page.getByLabel('Role', { exact: true }).selectOption('writer')
    await page.getByRole('button', { name: 'Add member' }).click()
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('bob is now writer of acme.')
    await expect.poll(() => page.getByLabel('Role of bob').inputValue()).toBe('writer')
    await screenshot(page, 'settings-3-members')

    await page.goto(`${hub.url}/settings/tokens`)
    await page.getByLabel('Note').fill('CI publish')
    await page.getByRole('checkbox', { name: /write:releases/ }).check()
    await page.getByLabel('Expires after (days)').fill('30')
    await page.getByRole('button', { name: 'Make token' }).click()
    const pat = await page.getByTestId('secret').textContent()
    expect(pat).toMatch(/^svc_pat_[A-Za-z0-9_-]{43}$/)
    await expect.poll(() => page.locator('[data-token]').count()).toBe(1)
    await screenshot(page, 'settings-4-token-made')
    await page.reload()
    await expect.poll(() => page.getByTestId('secret').count()).toBe(0)
    expect(await page.content()).not.toContain(pat!)
    await screenshot(page, 'settings-5-tokens')

    await page.goto(`${hub.url}/acme/settings/api-keys`)
    await page.getByRole('button', { name: 'Make an API key' }).click()
    await expect
      .poll(() => page.getByTestId('secret').textContent())
      .toMatch(/^svc_key_[A-Za-z0-9_-]{43}$/)
    await screenshot(page, 'settings-6-api-key')

    const granted = await hub.admin(['grant-credits', 'acme', '8', '--reason', 'trial credits'])
    expect(granted.code, granted.stderr).toBe(0)
    await page.getByRole('link', { name: 'Credits' }).click()
    await expect.poll(() => page.getByTestId('balance').textContent()).toMatch(/^8 credits/)
    await screenshot(page, 'settings-7-credits')

    await page.getByRole('link', { name: 'Rate limits' }).click()
    await page.getByLabel('Route').selectOption('GET /v1/user')
    await page.getByLabel('Max requests').fill('100')
    await page.getByLabel('Window (seconds)').fill('60')
    await page.getByRole('button', { name: 'Save limit' }).click()
    await expect.poll(() => page.locator('tr.custom').count()).toBe(1)
    await screenshot(page, 'settings-8-rate-limits')

    // bob, a writer, sees the members but no forms.
    const bobContext = await browser.newContext({ viewport: { width: 1200, height: 800 } })
    const bob = await bobContext.newPage()
    await signIn(bob, hub.url, 'bob')
    await bob.goto(`${hub.url}/acme/settings/members`)
    await expect.poll(() => bob.getByTestId('owners-only').count()).toBe(1)
    await expect.poll(() => bob.getByRole('button', { name: 'Add member' }).count()).toBe(0)
    await screenshot(bob, 'settings-9-members-as-writer')
    await bobContext.close()
  })
})
