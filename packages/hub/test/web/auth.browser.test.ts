import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, PASSWORD, screenshot, signIn, signUp } from '../support/browser.js'
import { startHub, type HubProcess } from '../support/hub-process.js'

/** Sign up, sign out and sign in again in a real browser. */
describe('web sign-in in Chromium', () => {
  let hub: HubProcess
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;[hub, browser] = await Promise.all([startHub('sqlite'), launchBrowser()])
    page = await browser.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await hub?.dispose()
  })

  it('signs up, signs out, refuses a wrong password, signs in and returns to the page asked for', async () => {
    await page.goto(hub.url)
    await screenshot(page, 'auth-1-start')
    await signUp(page, hub.url, 'alice')
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Welcome to svc hub, alice.')
    await screenshot(page, 'auth-2-signed-up')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect.poll(() => page.getByTestId('viewer').count()).toBe(0)
    await expect
      .poll(() => page.getByRole('banner').getByRole('link', { name: 'Sign in' }).count())
      .toBe(1)

    await page.goto(`${hub.url}/signin?next=%2Fapis`)
    await page.getByLabel('Handle').fill('alice')
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Incorrect handle or password.')
    await screenshot(page, 'auth-3-wrong-password')

    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/apis')
    await expect.poll(() => page.getByTestId('viewer').textContent()).toBe('alice')
    await screenshot(page, 'auth-4-signed-in')

    // A second browser signs in on its own; the first stays signed in.
    const other = await browser.newPage()
    await signIn(other, hub.url, 'alice')
    await page.reload()
    await expect.poll(() => page.getByTestId('viewer').textContent()).toBe('alice')
    await other.close()
  })
})
