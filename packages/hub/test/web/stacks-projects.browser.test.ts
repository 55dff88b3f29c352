import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot, type AppRoot } from '../../../cli/test/support/app-root.js'
import { assertBuilt } from '../../../cli/test/support/run-svc.js'
import { launchBrowser, screenshot, signIn } from '../support/browser.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call } from '../support/http.js'
import { WebSession } from '../support/web-session.js'
import { adminToken } from '../support/fixtures.js'

const SETTINGS = {
  basePath: 'src/api',
  skip: ['/internal'],
  enrichments: {
    'gen-zod': {
      '/pets': { get: { main: { name: 'listPets' } } },
      Pet: { main: { exportName: 'PetSchema' } },
    },
  },
}

/**
 * From sign-in: publish a stack with the real CLI and open its `versionUrl`; create a project in
 * the web app on that stack and an API; `svc push` its config with the CLI and see it on the
 * config page; edit it there (docs/web/stacks.md, docs/web/projects.md).
 */
describe('stacks and projects in a browser', () => {
  let hub: HubProcess
  let browser: Browser
  let page: Page
  let pat: string
  let root: AppRoot
  /** The hub's public origin: versionUrl and the project url are on it. */
  let origin: string

  const svc = (args: string[]) =>
    root.svc([...args, '--token', pat, '--origin', hub.url], {
      env: { HOME: root.dir, XDG_CONFIG_HOME: undefined, SVC_HUB_TOKEN: undefined },
    })

  beforeAll(async () => {
    assertBuilt()
    hub = await startHub('sqlite')
    // The account exists before the flow, which starts at sign-in.
    await new WebSession(hub.url).signUp('alice')
    pat = await adminToken(hub, 'alice', 'read,write:releases,write:projects,write:apis')
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await hub?.dispose()
  })

  it('publishes with svc and opens versionUrl', async () => {
    root = createAppRoot()
    for (const args of [
      ['init', 'demo', '--name', '@alice/demo'],
      ['install', 'gen-typescript', '--project', 'demo'],
      ['clone', 'demo', '-g', 'gen-zod'],
    ]) {
      const run = await root.svc(args)
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0)
    }
    const manifest = root.json('.svc/demo/deno.json')
    manifest.version = '1.0.0'
    writeFileSync(join(root.dir, '.svc/demo/deno.json'), JSON.stringify(manifest, null, 2))
    const published = await svc(['publish', 'demo', '--json'])
    expect(published.code, published.stderr).toBe(0)
    const result = JSON.parse(published.stdout) as { versionUrl: string; bundleSha256: string }
    origin = new URL(result.versionUrl).origin

    page = await browser.newPage()
    await signIn(page, origin, 'alice')
    await page.goto(result.versionUrl)
    await expect.poll(() => page.title()).toBe('@alice/demo@1.0.0 · svc hub')
    expect(await page.getByTestId('bundle-sha256').textContent()).toBe(result.bundleSha256)
    const composition = await page.getByTestId('composition').textContent()
    expect(composition).toContain('gen-typescript')
    expect(composition).toContain('jsr:@svc/gen-typescript')
    expect(composition).toContain('gen-zod/')
    const files = await page.getByTestId('files').textContent()
    expect(files).toContain('deno.json')
    expect(files).toContain('gen-zod/')
    await screenshot(page, 'stacks-version')

    const download = page.waitForEvent('download')
    await page.getByTestId('download-bundle').click()
    expect((await download).suggestedFilename()).toBe('server.js')

    await page.getByRole('link', { name: '@alice/demo', exact: true }).first().click()
    await expect.poll(() => page.title()).toBe('@alice/demo · svc hub')
    expect(await page.getByTestId('versions').textContent()).toContain('1.0.0')
    await screenshot(page, 'stacks-stack')
    await page.getByRole('link', { name: 'Stacks', exact: true }).first().click()
    await expect.poll(() => page.title()).toBe('Stacks · svc hub')
    await screenshot(page, 'stacks-list')
  })

  it('creates a project in the web app, svc push fills its config, edits it there', async () => {
    const api = await call(`${hub.url}/v1/apis`, {
      method: 'POST',
      token: pat,
      json: { owner: 'alice', slug: 'petstore', name: 'Petstore', visibility: 'private' },
    })
    expect(api.status, api.text).toBe(201)

    await page.goto(`${origin}/projects`)
    await page.getByRole('link', { name: 'New project' }).click()
    await page.getByLabel('Slug', { exact: true }).fill('web')
    await page.getByLabel('Stack', { exact: true }).fill('@alice/demo')
    await page.getByLabel('API', { exact: true }).fill('alice/petstore')
    await screenshot(page, 'projects-new')
    await page.getByRole('button', { name: 'Create project' }).click()
    await expect.poll(() => new URL(page.url()).pathname).toBe('/alice/projects/web')
    expect(await page.getByTestId('binding').textContent()).toContain('@alice/demo')
    expect(await page.getByTestId('config-summary').textContent()).toContain('never')
    await screenshot(page, 'projects-overview-new')

    writeFileSync(
      join(root.dir, '.svc/demo/.settings/client.json'),
      JSON.stringify({ settings: SETTINGS }, null, 2),
    )
    writeFileSync(join(root.dir, 'README.md'), '# demo app\n')
    const pushed = await svc(['push', 'demo', '--project', '@alice/web', '--base-files', '--json'])
    expect(pushed.code, pushed.stderr).toBe(0)

    await page.getByRole('link', { name: 'Config', exact: true }).click()
    await expect.poll(() => page.title()).toBe('Config · alice/web · svc hub')
    const settings = JSON.parse((await page.getByTestId('settings').textContent()) ?? '')
    expect(settings).toEqual({ basePath: 'src/api', skip: ['/internal'] })
    const rows = await page.getByTestId('enrichments').locator('tbody tr').allTextContents()
    expect(rows).toEqual([
      'gen-zod/pets › getmain{"name":"listPets"}',
      'gen-zodPetmain{"exportName":"PetSchema"}',
    ])
    expect(JSON.parse(await page.locator('#f-settings').inputValue())).toEqual(SETTINGS)
    await screenshot(page, 'projects-config')

    // A typo is shown back with the error; nothing changes.
    await page.locator('#f-settings').fill('{"basePath": "src/gen",')
    await page.getByRole('button', { name: 'Save config' }).click()
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('not JSON')
    await screenshot(page, 'projects-config-error')
    await page
      .locator('#f-settings')
      .fill(JSON.stringify({ ...SETTINGS, basePath: 'src/gen' }, null, 2))
    await page.getByRole('button', { name: 'Save config' }).click()
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Saved')
    const after = await call(`${hub.url}/v1/projects/alice/web/client-config`, { token: pat })
    expect(after.body.settings).toEqual({ ...SETTINGS, basePath: 'src/gen' })

    await page.getByRole('link', { name: 'Base files', exact: true }).click()
    const baseFiles = await page.getByTestId('base-files').textContent()
    expect(baseFiles).toContain('README.md')
    await screenshot(page, 'projects-base-files')

    await page.getByRole('link', { name: 'Overview', exact: true }).click()
    expect(await page.getByTestId('config-summary').textContent()).toContain('2 rows')
    await screenshot(page, 'projects-overview')

    await page.goto(`${origin}/alice`)
    await expect.poll(() => page.title()).toBe('alice · svc hub')
    expect(await page.content()).toContain('href="/alice/projects/web"')
    await screenshot(page, 'account-page')

    // An organisation's page, for a member; and a private stack for a signed-out visitor.
    const org = await hub.admin(['create-org', 'acme', '--owner', 'alice'])
    expect(org.code, org.stderr).toBe(0)
    await page.goto(`${origin}/acme`)
    await page.getByRole('link', { name: 'Organisation settings' }).waitFor()
    await screenshot(page, 'account-org')
    const visitor = await browser.newPage()
    const hidden = await visitor.goto(`${origin}/alice/stacks/demo/versions/1.0.0`)
    expect(hidden?.status()).toBe(404)
    expect(await visitor.content()).not.toContain('server.js')
    await screenshot(visitor, 'stacks-not-found-signed-out')
    await visitor.close()
  })
})
