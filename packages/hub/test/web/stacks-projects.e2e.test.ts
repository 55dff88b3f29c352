import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from '../support/databases.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call, manifest, publishForm, type Reply } from '../support/http.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { signUpPeople, type WebSession } from '../support/web-session.js'
import { adminToken } from '../support/fixtures.js'

const BUNDLE = 'export default { name: "shop-stack" }\n'
const SOURCES = [
  manifest('@acme/shop-stack', {
    'gen-typescript': 'jsr:@svc/gen-typescript@^1.0.0',
    'gen-local': './gen-local/mod.ts',
  }),
  { path: 'gen-local/mod.ts', content: 'export const generator = {}\n' },
  { path: 'src/main.ts', content: 'console.log("hi")\n' },
]
const SETTINGS = {
  basePath: 'src/api',
  enrichments: { 'gen-zod': { Pet: { main: { exportName: 'PetSchema' } } } },
}

/**
 * The stack, project and account pages over plain HTTP (docs/web/stacks.md, docs/web/projects.md)
 * and the /v1 routes they read: `versionUrl` and the project `url` answer with their pages,
 * stacks and projects are not found for non-members and the signed-out, refused forms change
 * nothing.
 */
describe.each(await storeKinds())('stack and project pages (%s)', (kind) => {
  let hub: HubProcess
  /** alice owns the org acme; rita is a reader of acme; nora is no member. */
  let alice: WebSession
  let rita: WebSession
  let nora: WebSession
  let anonymous: WebSession
  let pat: string
  let noraPat: string
  let published: Reply

  const v1 = (path: string, token?: string, init: RequestInit & { json?: unknown } = {}) =>
    call(`${hub.url}/v1${path}`, { ...init, token })
  const path = (url: string) => new URL(url).pathname

  beforeAll(async () => {
    hub = await startHub(kind)
    ;({ alice, rita, nora, anonymous } = await signUpPeople(hub))
    const token = (user: string) =>
      adminToken(hub, user, 'read,write:releases,write:projects,write:apis')
    pat = await token('alice')
    noraPat = await token('nora')
    for (const version of ['1.0.0', '1.1.0']) {
      published = await v1('/stacks/acme/shop-stack/versions', pat, {
        method: 'POST',
        body: publishForm({ version, bundle: `${BUNDLE}// ${version}\n`, files: SOURCES }),
      })
      expect(published.status, published.text).toBe(201)
    }
    expect(
      (
        await v1('/apis', pat, {
          method: 'POST',
          json: { owner: 'acme', slug: 'petstore', name: 'Petstore' },
        })
      ).status,
    ).toBe(201)
  })
  afterAll(async () => {
    await hub?.dispose()
  })

  it('versionUrl of a publish answers the version page: bundle SHA-256, composition, files', async () => {
    const record = published.body
    expect(path(record.versionUrl)).toBe('/acme/stacks/shop-stack/versions/1.1.0')
    const page = await alice.get(path(record.versionUrl))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const sha = createHash('sha256').update(`${BUNDLE}// 1.1.0\n`).digest('hex')
    expect(record.bundleSha256).toBe(sha)
    expect(page.text).toContain(sha)
    for (const file of SOURCES) expect(page.text).toContain(file.path)
    expect(page.text).toContain('jsr:@svc/gen-typescript@^1.0.0')
    expect(page.text).toContain('gen-local/mod.ts')
    expect(page.text).toMatch(/Published by <a href="\/alice">alice<\/a>/)
    // Each file's SHA-256, and the bundle download as the viewer.
    const main = createHash('sha256').update('console.log("hi")\n').digest('hex')
    expect(page.text).toContain(main)
    const bundle = await alice.get(`${path(record.versionUrl)}/bundle`)
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get('content-disposition')).toBe('attachment; filename="server.js"')
    expect(bundle.text).toBe(`${BUNDLE}// 1.1.0\n`)
    const file = await alice.get(`${path(record.versionUrl)}/files/gen-local/mod.ts`)
    expect(file.status).toBe(200)
    expect(file.text).toBe('export const generator = {}\n')
    expect((await alice.get(`${path(record.versionUrl)}/files/nope.ts`)).status).toBe(404)
    expect((await alice.get('/acme/stacks/shop-stack/versions/9.9.9')).status).toBe(404)
  })

  it('the stack page lists versions newest first; /stacks lists readable stacks', async () => {
    const page = await rita.get('/acme/stacks/shop-stack')
    expect(page.status).toBe(200)
    expect(page.text.indexOf('>1.1.0<')).toBeGreaterThan(0)
    expect(page.text.indexOf('>1.1.0<')).toBeLessThan(page.text.indexOf('>1.0.0<'))
    const list = await alice.get('/stacks')
    expect(list.status).toBe(200)
    expect(list.text).toContain('href="/acme/stacks/shop-stack"')
    const none = await nora.get('/stacks')
    expect(none.status).toBe(200)
    expect(none.text).not.toContain('shop-stack')
    expect((await anonymous.get('/stacks')).status).toBe(303)
  })

  it('creates a project through the form; its url answers the project page', async () => {
    const refused = await expectStoreUnchanged(hub, () =>
      alice.submit(
        '/projects/new',
        {
          account: 'acme',
          slug: 'shop',
          stack: '@acme/nothing',
          stackVersion: '',
          api: 'acme/petstore',
        },
        '/projects/new',
      ),
    )
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('there is no stack @acme/nothing')
    expect(refused.text).toContain('value="shop"')

    const badPin = await expectStoreUnchanged(hub, () =>
      alice.submit('/projects/new', {
        account: 'acme',
        slug: 'shop',
        stack: '@acme/shop-stack',
        stackVersion: '7.0.0',
        api: 'acme/petstore',
      }),
    )
    expect(badPin.status).toBe(422)
    expect(badPin.text).toContain('@acme/shop-stack has no version 7.0.0')

    // nora may not create in acme: the API's refusal, and nothing written.
    const forbidden = await expectStoreUnchanged(hub, () =>
      nora.submit('/projects/new', {
        account: 'acme',
        slug: 'shop',
        stack: '@acme/shop-stack',
        stackVersion: 'latest',
        api: 'acme/petstore',
      }),
    )
    expect(forbidden.status).toBe(403)

    const created = await alice.submit('/projects/new', {
      account: 'acme',
      slug: 'shop',
      stack: '@acme/shop-stack',
      stackVersion: '1.0.0',
      api: 'acme/petstore',
    })
    expect(created.status, created.text).toBe(303)
    expect(created.headers.get('location')).toBe('/acme/projects/shop')

    const record = await v1('/projects/acme/shop', pat)
    expect(record.status).toBe(200)
    expect(record.body).toMatchObject({
      project: { account: 'acme', slug: 'shop' },
      stack: { account: 'acme', slug: 'shop-stack' },
      stackVersion: '1.0.0',
      api: { owner: 'acme', slug: 'petstore' },
      url: expect.stringMatching(/^http:\/\/[^/]+\/acme\/projects\/shop$/),
      configUpdatedAt: null,
      settingCount: 0,
      enrichmentCount: 0,
      baseFileCount: 0,
      baseFilesBytes: 0,
    })
    const page = await alice.get(path(record.body.url))
    expect(page.status).toBe(200)
    expect(page.text).toContain('Created the project acme/shop')
    expect(page.text).toContain('href="/acme/stacks/shop-stack/versions/1.0.0"')
    expect(page.text).toContain('href="/acme/apis/petstore"')
    for (const tab of ['config', 'base-files', 'deployments', 'runs'])
      expect(page.text).toContain(`href="/acme/projects/shop/${tab}"`)
    const again = await expectStoreUnchanged(hub, () =>
      alice.submit('/projects/new', {
        account: 'acme',
        slug: 'shop',
        stack: '@acme/shop-stack',
        stackVersion: 'latest',
        api: 'acme/petstore',
      }),
    )
    expect(again.status).toBe(409)
    expect(again.text).toContain('exists already')
    expect((await rita.get('/projects')).text).toContain('href="/acme/projects/shop"')
  })

  it('stacks and projects of acme are not found for non-members and the signed-out', async () => {
    const pages = [
      '/acme/stacks/shop-stack',
      '/acme/stacks/shop-stack/versions/1.0.0',
      '/acme/stacks/shop-stack/versions/1.0.0/bundle',
      '/acme/stacks/shop-stack/versions/1.0.0/files/deno.json',
      '/acme/projects/shop',
      '/acme/projects/shop/config',
      '/acme/projects/shop/base-files',
    ]
    const missing = await nora.get('/acme/projects/nothing')
    expect(missing.status).toBe(404)
    for (const page of pages) {
      for (const who of [nora, anonymous]) {
        const answer = await who.get(page)
        expect(answer.status, page).toBe(404)
        expect(answer.text).not.toContain('class="mono"')
      }
      expect((await rita.get(page)).status, page).toBe(200)
    }
    const posted = await expectStoreUnchanged(hub, async () => {
      await nora.get('/')
      return nora.post('/acme/projects/shop/config', { settings: '{}' })
    })
    expect(posted.status).toBe(404)
  })

  it('config: bad JSON and invalid config are 422 and change nothing; a good one is saved', async () => {
    const config = '/acme/projects/shop/config'
    const before = await alice.get(config)
    expect(before.status).toBe(200)
    expect(before.text).toContain('<textarea')

    const bad = await expectStoreUnchanged(hub, () => alice.post(config, { settings: '{"a": ' }))
    expect(bad.status).toBe(422)
    expect(bad.text).toContain('The settings are not JSON')
    expect(bad.text).toContain('{&quot;a&quot;: ') // the text as sent, to fix

    const array = await expectStoreUnchanged(hub, () => alice.post(config, { settings: '[1]' }))
    expect(array.status).toBe(422)
    expect(array.text).toContain('must be a JSON object')

    const invalid = await expectStoreUnchanged(hub, () =>
      alice.post(config, { settings: '{"enrichments": 3}' }),
    )
    expect(invalid.status).toBe(422)
    expect(invalid.text).toContain('settings.enrichments')

    // A reader sees the config but gets no form; a post is the API's 403.
    const read = await rita.get(config)
    expect(read.status).toBe(200)
    expect(read.text).not.toContain('<textarea')
    const refused = await expectStoreUnchanged(hub, () =>
      rita.post(config, { settings: JSON.stringify(SETTINGS) }),
    )
    expect(refused.status).toBe(403)
    expect(refused.text).toContain('reader')

    // No CSRF token: 403 before anything else.
    const csrf = await expectStoreUnchanged(hub, () =>
      alice.post(config, { settings: JSON.stringify(SETTINGS), _csrf: '' }),
    )
    expect(csrf.status).toBe(403)
    const foreign = await expectStoreUnchanged(hub, () =>
      alice.post(
        config,
        { settings: JSON.stringify(SETTINGS) },
        { origin: 'https://evil.example' },
      ),
    )
    expect(foreign.status).toBe(403)

    const saved = await alice.post(config, { settings: JSON.stringify(SETTINGS) })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe(config)
    const stored = await v1('/projects/acme/shop/config', pat)
    expect(stored.body.config).toEqual({
      settings: { basePath: 'src/api' },
      enrichments: [
        {
          generator: 'gen-zod',
          subject: ['Pet'],
          variant: 'main',
          value: { exportName: 'PetSchema' },
        },
      ],
    })
    const after = await alice.get(config)
    expect(after.text).toContain('Saved the config: 1 setting, 1 enrichment.')
    expect(after.text).toContain('&quot;basePath&quot;: &quot;src/api&quot;')
    expect(after.text).toMatch(
      /<td class="mono">gen-zod<\/td><td class="mono">Pet<\/td><td class="mono">main<\/td>/,
    )
  })

  it('base files: the stored list, and an upload through the form', async () => {
    const files = '/acme/projects/shop/base-files'
    expect((await alice.get(files)).text).toContain('No base files yet.')
    const none = await expectStoreUnchanged(hub, () => alice.post(files, {}))
    expect(none.status).toBe(422)
    const uploaded = await alice.post(files, {
      files: new File(['# readme\n'], 'README.md'),
    })
    expect(uploaded.status, uploaded.text).toBe(303)
    const page = await alice.get(files)
    expect(page.text).toContain('README.md')
    expect(page.text).toContain(createHash('sha256').update('# readme\n').digest('hex'))
    const list = await v1('/projects/acme/shop/preview/base-files', pat)
    expect(list.status).toBe(200)
    expect(list.body).toEqual({
      project: { account: 'acme', slug: 'shop' },
      files: [
        {
          path: 'README.md',
          size: 9,
          sha256: createHash('sha256').update('# readme\n').digest('hex'),
        },
      ],
      fileCount: 1,
      totalBytes: 9,
    })
  })

  it('GET /v1/stacks and /v1/projects: readable ones only, filtered by account', async () => {
    expect((await v1('/stacks')).status).toBe(401)
    expect((await v1('/projects')).status).toBe(401)
    const stacks = await v1('/stacks', pat)
    expect(stacks.status).toBe(200)
    expect(stacks.body).toEqual({
      stacks: [
        {
          stack: { account: 'acme', slug: 'shop-stack' },
          createdAt: expect.any(String),
          latestVersion: '1.1.0',
          versionCount: 2,
          lastPublishedAt: expect.any(String),
        },
      ],
      nextCursor: null,
    })
    expect((await v1('/stacks', noraPat)).body).toEqual({ stacks: [], nextCursor: null })
    expect((await v1('/stacks?account=acme', noraPat)).body.stacks).toEqual([])
    expect((await v1('/stacks?account=alice', pat)).body.stacks).toEqual([])
    expect((await v1('/stacks?account=nobody', pat)).status).toBe(404)
    expect((await v1('/stacks?account=NOT_A_HANDLE', pat)).status).toBe(422)

    const projects = await v1('/projects?account=acme', pat)
    expect(projects.status).toBe(200)
    expect(projects.body.projects).toHaveLength(1)
    expect(projects.body.projects[0]).toMatchObject({
      project: { account: 'acme', slug: 'shop' },
      url: expect.stringMatching(/\/acme\/projects\/shop$/),
      configUpdatedAt: expect.any(String),
    })
    expect((await v1('/projects', noraPat)).body).toEqual({ projects: [], nextCursor: null })
    expect((await v1('/projects?account=nobody', pat)).status).toBe(404)
    expect((await v1('/projects?cursor=garbage', pat)).status).toBe(422)

    // Paging: one per page, then the end.
    await hub.admin(['create-org', 'beta', '--owner', 'alice'])
    const second = await v1('/stacks/beta/tools/versions', pat, {
      method: 'POST',
      body: publishForm({ version: '0.1.0', bundle: 'x', files: [manifest('@beta/tools')] }),
    })
    expect(second.status).toBe(201)
    const first = await v1('/stacks?limit=1', pat)
    expect(first.body.stacks.map((s: any) => s.stack.slug)).toEqual(['shop-stack'])
    const next = await v1(`/stacks?limit=1&cursor=${first.body.nextCursor}`, pat)
    expect(next.body.stacks.map((s: any) => s.stack.slug)).toEqual(['tools'])
    expect(next.body.nextCursor).toBeNull()
  })

  it('GET /v1/projects/{account}/{slug} and …/preview/base-files: auth, access, 404', async () => {
    for (const route of ['/projects/acme/shop', '/projects/acme/shop/preview/base-files']) {
      expect((await v1(route)).status).toBe(401)
      const forbidden = await v1(route, noraPat)
      expect(forbidden.status).toBe(403)
      expect(forbidden.body.code).toBe('forbidden')
      expect((await v1(route.replace('shop', 'nothing'), pat)).status).toBe(404)
      expect((await v1(route.replace('acme', 'nobody'), pat)).status).toBe(404)
    }
    const record = await v1('/projects/acme/shop', pat)
    expect(record.body).toMatchObject({ settingCount: 1, enrichmentCount: 1, baseFileCount: 1 })
  })

  it('the account page: APIs, stacks and projects for members; 404 for an unknown handle', async () => {
    const own = await alice.get('/acme')
    expect(own.status).toBe(200)
    expect(own.text).toContain('href="/acme/settings"')
    expect(own.text).toContain('href="/acme/stacks/shop-stack"')
    expect(own.text).toContain('href="/acme/projects/shop"')
    const outsider = await nora.get('/acme')
    expect(outsider.status).toBe(200)
    expect(outsider.text).not.toContain('shop-stack')
    expect(outsider.text).not.toContain('href="/acme/settings"')
    const user = await anonymous.get('/alice')
    expect(user.status).toBe(200)
    expect(user.text).toContain('User')
    expect((await anonymous.get('/no-such-handle')).status).toBe(404)
  })
})
