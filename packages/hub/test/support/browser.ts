import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { expect } from 'vitest'

/** Debian's Chromium, which `bash .ci/run` installs; `SVC_TEST_CHROMIUM` points elsewhere. */
export const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium'

/** Where the browser tests leave their screenshots (ignored by git): `test-results/screenshots`. */
export const SCREENSHOTS = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../test-results/screenshots',
)

/**
 * Headless Chromium as this machine allows it: no sandbox (tests run as root), and none of
 * Chromium's own background traffic (the network here is closed; it would only add failures).
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's chromium (bash .ci/run does) or set SVC_TEST_CHROMIUM`,
    )
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

/** Saves a full-page screenshot as `<name>.png` and answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

export const PASSWORD = 'correct-horse-battery-staple'

/** Creates an account through the sign-up page; the browser is then signed in as `handle`. */
export async function signUp(page: Page, hubUrl: string, handle: string): Promise<void> {
  await page.goto(`${hubUrl}/signup`)
  await page.getByLabel('Handle').fill(handle)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Confirm password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect.poll(() => page.getByTestId('viewer').textContent()).toBe(handle)
}

/** Signs `handle` in through the sign-in page. */
export async function signIn(
  page: Page,
  hubUrl: string,
  handle: string,
  password = PASSWORD,
): Promise<void> {
  await page.goto(`${hubUrl}/signin`)
  await page.getByLabel('Handle').fill(handle)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect.poll(() => page.getByTestId('viewer').textContent()).toBe(handle)
}
