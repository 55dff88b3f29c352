import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, signIn } from '../support/browser.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { WebSession } from '../support/web-session.js'

/**
 * The new-webhook form in Chromium, on the hub `npm start` runs (a local trial: a loopback
 * receiver is allowed, and the form says so) and on a hub with a public URL (the refusal names
 * SVC_HUB_ALLOW_PRIVATE_NETWORKS under the field).
 */
describe('the webhook form and the outbound guard, in Chromium', () => {
  let browser: Browser
  let receiver: Receiver
  const hubs: HubProcess[] = []
  beforeAll(async () => {
    ;[browser, receiver] = await Promise.all([launchBrowser(), startReceiver()])
  })
  afterAll(async () => {
    await browser?.close()
    for (const hub of hubs) await hub.dispose()
    await receiver?.close()
  })

  /** A hub with `env`, alice signed in on a new page, on her API's new-webhook form. */
  async function newWebhookForm(env: NodeJS.ProcessEnv): Promise<Page> {
    const hub = await startHub('sqlite', { env: { HOST: '', ...env } })
    hubs.push(hub)
    const web = new WebSession(hub.url)
    await web.signUp('alice')
    await web.createApi('alice', 'hooks')
    const page = await browser.newPage()
    await signIn(page, hub.url, 'alice')
    await page.goto(`${hub.url}/alice/apis/hooks/webhooks/new`)
    return page
  }

  it('a local trial: the hint allows loopback receivers, and one is created', async () => {
    const page = await newWebhookForm({})
    await expect
      .poll(() => page.locator('main').textContent())
      .toContain('this hub is a local trial, which listens on loopback only')
    await screenshot(page, 'webhook-guard-1-local-trial-form')
    await page.locator('#f-url').fill(`${receiver.origin}/hook`)
    await page.getByRole('button', { name: 'Create webhook' }).click()
    expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/)
    await screenshot(page, 'webhook-guard-2-local-trial-created')
  })

  it('a hub with a public URL: the refused loopback URL names the setting under the field', async () => {
    const page = await newWebhookForm({ SVC_HUB_PUBLIC_URL: 'https://hub.example.com' })
    await page.locator('#f-url').fill(`${receiver.origin}/hook`)
    await page.getByRole('button', { name: 'Create webhook' }).click()
    await expect
      .poll(() => page.locator('.field-error').first().textContent())
      .toContain('SVC_HUB_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32 (docs/hub/running.md)')
    await screenshot(page, 'webhook-guard-3-strict-refused')
    expect(receiver.connections()).toBe(0)
  })
})
