import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot, PETSTORE, type AppRoot } from './support/app-root.js'
import { closedOrigin, createHome, startTestHub, type Home, type TestHub } from './support/hub.js'
import { parseJsonStdout } from './support/run-svc.js'

type Check = { id: string; status: string; message: string; hint?: string; data?: unknown }

let t: TestHub
let h: Home
/** No login and a hub that is not there, unless a test says otherwise. */
let offline: Record<string, string | undefined>

beforeAll(async () => {
  t = await startTestHub()
  h = createHome()
  offline = { ...h.env, SVC_API_ORIGIN: await closedOrigin() }
})
afterAll(async () => {
  await t?.dispose()
  h?.dispose()
})

async function doctor(
  root: AppRoot,
  args: readonly string[] = [],
  env: Record<string, string | undefined> = offline,
) {
  const run = await root.svc(['doctor', '--json', ...args], { env })
  const report = parseJsonStdout(run)
  const checks = report.checks as Check[]
  return { run, report, check: (id: string) => checks.find((check) => check.id === id) }
}

function edit(root: AppRoot, path: string, change: (value: Record<string, any>) => void) {
  const file = join(root.dir, path)
  const value = JSON.parse(readFileSync(file, 'utf8'))
  change(value)
  writeFileSync(file, JSON.stringify(value, null, 2))
}

/** The project `demo` publishing to @acme/demo (not svc init's `@local` placeholder). */
async function demo() {
  const root = createAppRoot()
  await root.svc(['init', 'demo', '--name', '@acme/demo'])
  await root.svc(['install', 'gen-typescript'])
  return root
}

describe('svc doctor', () => {
  it('passes a project after a generate, with the JSON shape of every check', async () => {
    const root = await demo()
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    const { run, report } = await doctor(root, ['--origin', t.url, '--token', t.people.alice])
    expect(run.code).toBe(0)
    expect(report).toEqual({
      type: 'doctor',
      appRoot: root.dir,
      cliVersion: '0.1.0',
      nodeVersion: process.versions.node,
      projects: ['demo'],
      checks: [
        'node-version',
        'hub',
        'hub-version',
        'login',
        'app-root',
        'project-deno-json/demo',
        'project-name/demo',
        'project-core-pin/demo',
        'project-client-json/demo',
        'project-base-path/demo',
        'project-bundle/demo',
        'project-manifest/demo',
        'project-enrichments/demo',
      ].map((id) => ({
        id,
        status: 'ok',
        message: expect.any(String),
        ...(id === 'login' || id === 'hub-version' ? { data: expect.any(Object) } : {}),
      })),
      summary: 'ok',
    })
  })

  it('warns about a missing bundle and skips what a first generate will make', async () => {
    const root = await demo()
    const { run, report, check } = await doctor(root)
    expect(run.code).toBe(0)
    expect(check('project-bundle/demo')).toMatchObject({
      status: 'warning',
      hint: 'svc bundle demo',
    })
    expect(check('project-manifest/demo')).toMatchObject({
      status: 'skipped',
      message: 'never generated',
    })
    expect(check('project-enrichments/demo')?.status).toBe('skipped')
    expect(report.summary).toBe('warning')
  })

  it('names a stale bundle with the out-of-sync message', async () => {
    const root = await demo()
    await root.svc(['bundle', 'demo'])
    await root.svc(['install', 'gen-zod'])
    const { run, check } = await doctor(root)
    expect(run.code).toBe(0)
    expect(check('project-bundle/demo')).toEqual({
      id: 'project-bundle/demo',
      status: 'warning',
      message: 'bundle.js is out of sync with deno.json — add: gen-zod',
      hint: 'svc bundle demo',
    })
  })

  it('gives the fix for an engine pin the shipped engine does not satisfy, and exits 1', async () => {
    const root = await demo()
    edit(root, '.svc/demo/deno.json', (m) => (m.imports['@svc/engine'] = 'jsr:@svc/engine@^2.0.0'))
    const { run, report, check } = await doctor(root)
    expect(run.code).toBe(1)
    expect(check('project-core-pin/demo')).toMatchObject({
      status: 'error',
      message: '@svc/engine is pinned to ^2.0.0, but svc ships 0.1.0: bundling would fail',
      hint: 'set in .svc/demo/deno.json imports: "@svc/engine": "jsr:@svc/engine@^0.1.0"',
    })
    expect(report.summary).toBe('error')
    // The hint's edit is the whole fix.
    edit(root, '.svc/demo/deno.json', (m) => (m.imports['@svc/engine'] = 'jsr:@svc/engine@^0.1.0'))
    expect((await doctor(root)).check('project-core-pin/demo')?.status).toBe('ok')
  })

  it("warns about svc init's @local placeholder name until it is renamed, naming the file and the name to write", async () => {
    const root = createAppRoot()
    expect((await root.svc(['init', 'demo'], { env: offline })).code).toBe(0)
    expect(root.json('.svc/demo/deno.json').name).toBe('@local/demo')
    const offlineReport = await doctor(root)
    expect(offlineReport.run.code).toBe(0)
    expect(offlineReport.check('project-name/demo')).toEqual({
      id: 'project-name/demo',
      status: 'warning',
      message:
        "the stack is @local/demo, the placeholder svc init writes without a login: no hub has the account 'local', so svc publish refuses it",
      hint: 'set "name": "@<your handle>/demo" in .svc/demo/deno.json (svc login, then svc whoami tells your handle; or an organisation\'s: @<organisation>/demo)',
      data: { name: '@local/demo', file: '.svc/demo/deno.json' },
    })
    // Logged in, the hint names the login's handle; the text output says the same.
    const loggedIn = ['--origin', t.url, '--token', t.people.alice]
    expect((await doctor(root, loggedIn)).check('project-name/demo')?.hint).toBe(
      'set "name": "@alice/demo" in .svc/demo/deno.json (or an organisation\'s: @<organisation>/demo)',
    )
    const text = await root.svc(['doctor', ...loggedIn], { env: offline })
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(
      /^warn {2}project-name\/demo +the stack is @local\/demo, the placeholder svc init writes without a login: .*\n +→ set "name": "@alice\/demo" in \.svc\/demo\/deno\.json/m,
    )
    // The hint's edit is the whole fix.
    edit(root, '.svc/demo/deno.json', (m) => (m.name = '@alice/demo'))
    expect((await doctor(root)).check('project-name/demo')).toEqual({
      id: 'project-name/demo',
      status: 'ok',
      message: 'the stack is @alice/demo',
    })
  })

  it('reports an invalid deno.json, an imported generator with a cloned folder, and an orphan folder', async () => {
    const root = await demo()
    mkdirSync(join(root.dir, '.svc/demo/gen-typescript'))
    mkdirSync(join(root.dir, '.svc/demo/gen-old'))
    const inconsistent = await doctor(root)
    expect(inconsistent.run.code).toBe(1)
    expect(inconsistent.check('project-deno-json/demo')).toMatchObject({
      status: 'error',
      message:
        "'gen-typescript' is imported (jsr:@svc/gen-typescript@^0.1.0) and also has a cloned folder 'gen-typescript/': remove one; the folder 'gen-old/' is not referenced by any import",
    })
    expect(inconsistent.check('project-bundle/demo')?.status).toBe('skipped')
    edit(root, '.svc/demo/deno.json', (m) => (m.version = 'one'))
    const invalid = await doctor(root)
    expect(invalid.check('project-deno-json/demo')).toMatchObject({
      status: 'error',
      message: expect.stringContaining("its version 'one' is not a semver version such as 1.2.0"),
    })
    expect(invalid.check('project-core-pin/demo')?.status).toBe('skipped')
    expect(invalid.check('project-name/demo')?.status).toBe('skipped')
    // svc bundle refuses the same inconsistency.
    const bundle = await root.svc(['bundle', 'demo'])
    expect(bundle.code).toBe(1)
  })

  it('reports a basePath that cannot be a folder, and an invalid client.json', async () => {
    const root = await demo()
    writeFileSync(join(root.dir, 'taken'), 'a file')
    edit(root, '.svc/demo/.settings/client.json', (c) => (c.settings.basePath = 'taken/out'))
    const file = await doctor(root)
    expect(file.run.code).toBe(1)
    expect(file.check('project-base-path/demo')).toMatchObject({
      status: 'error',
      message: "taken is a file, so basePath 'taken/out' cannot be a folder",
    })
    edit(root, '.svc/demo/.settings/client.json', (c) => (c.settings.basePath = '.'))
    expect((await doctor(root)).check('project-base-path/demo')).toMatchObject({
      status: 'error',
      message: expect.stringContaining('is the app root or above it'),
    })
    edit(root, '.svc/demo/.settings/client.json', (c) => (c.settings.skip = 'all'))
    const invalid = await doctor(root)
    expect(invalid.check('project-client-json/demo')).toMatchObject({
      status: 'error',
      message: expect.stringContaining('settings.skip'),
    })
    expect(invalid.check('project-base-path/demo')?.status).toBe('skipped')
  })

  it("turns the last run's failed items and enrichment warnings into warnings", async () => {
    const root = await demo()
    edit(root, '.svc/demo/.settings/client.json', (c) => {
      c.settings.enrichments = {
        '@svc/gen-typescript': { Pett: { main: {} }, Pet: { Main: {} } },
      }
    })
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(1)
    const { run, check } = await doctor(root)
    expect(run.code).toBe(0)
    expect(check('project-manifest/demo')).toMatchObject({
      status: 'warning',
      message: 'the last run had 1 failed item(s) and 0 failed file(s)',
    })
    expect(check('project-enrichments/demo')).toMatchObject({
      status: 'warning',
      message: expect.stringMatching(/^1 enrichment warning\(s\) in the last run: .*Pett/),
    })
    writeFileSync(join(root.dir, '.svc/demo/.settings/manifest.json'), '{ torn')
    expect((await doctor(root)).check('project-manifest/demo')?.status).toBe('error')
  })

  it('never exits 2: outside an app root it warns, and an unknown --project is an error check', async () => {
    const root = createAppRoot()
    const outside = await doctor(root)
    expect(outside.run.code).toBe(0)
    expect(outside.check('app-root')).toMatchObject({
      status: 'warning',
      hint: 'svc init <project>',
    })
    await root.svc(['init', 'demo'])
    const unknown = await doctor(root, ['--project', 'nope'])
    expect(unknown.run.code).toBe(1)
    expect(unknown.check('project/nope')).toMatchObject({ status: 'error', hint: 'projects: demo' })
    const text = await root.svc(['doctor'])
    expect(text.stdout).toMatch(/^warn {2}project-bundle\/demo +no bundle\.js yet/m)
    expect(text.stdout).toMatch(/→ svc bundle demo$/m)
  })
})

describe('svc doctor: the hub and the login', () => {
  it('says who the token belongs to, and that the hub answers', async () => {
    const root = createAppRoot()
    h.writeLogin({ host: t.url, token: t.people.walt })
    const { run, check } = await doctor(root, [], h.env)
    expect(run.code).toBe(0)
    expect(check('hub')).toEqual({
      id: 'hub',
      status: 'ok',
      message: `${t.url} answers (from the login)`,
    })
    expect(check('login')).toMatchObject({
      status: 'ok',
      message: `walt on ${t.url} (token from the login)`,
      data: { user: 'walt', scopes: expect.arrayContaining(['write:projects']) },
    })
    rmSync(h.loginFile)
  })

  it('offline and without a login: warnings with their fixes, exit 0, no crash', async () => {
    const root = createAppRoot()
    const { run, report, check } = await doctor(root)
    expect(run.code).toBe(0)
    expect(report.summary).toBe('warning')
    expect(check('hub')).toMatchObject({
      status: 'warning',
      message: `cannot reach the hub at ${offline.SVC_API_ORIGIN} (ECONNREFUSED) (from $SVC_API_ORIGIN)`,
      hint: expect.stringContaining('--origin, $SVC_API_ORIGIN or svc login --origin <url>'),
    })
    expect(check('login')).toEqual({
      id: 'login',
      status: 'warning',
      message: 'not logged in: no --token, no $SVC_HUB_TOKEN and no stored login',
      hint: `make a token at ${offline.SVC_API_ORIGIN}/settings/tokens, then svc login --origin ${offline.SVC_API_ORIGIN}`,
    })
    const text = await root.svc(['doctor'], { env: offline })
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^warn {2}login +not logged in/m)
    expect(text.stdout).toContain(`→ make a token at ${offline.SVC_API_ORIGIN}/settings/tokens`)
  })

  it('a token the hub refuses is a warning that says to log in again', async () => {
    const root = createAppRoot()
    const env = { ...h.env, SVC_API_ORIGIN: t.url, SVC_HUB_TOKEN: t.people.aliceRevoked }
    const { run, check } = await doctor(root, [], env)
    expect(run.code).toBe(0)
    expect(check('hub')?.status).toBe('ok')
    expect(check('login')).toMatchObject({
      status: 'warning',
      message: expect.stringMatching(
        /^the token from \$SVC_HUB_TOKEN: the hub refused the token \(.*401.*\); run svc login again or pass --token$/,
      ),
      hint: `make a token at ${t.url}/settings/tokens, then svc login --origin ${t.url}`,
    })
  })

  it('a token while the hub does not answer: the login is not checked', async () => {
    const root = createAppRoot()
    const { run, check } = await doctor(root, ['--token', t.people.alice])
    expect(run.code).toBe(0)
    expect(check('login')).toEqual({
      id: 'login',
      status: 'skipped',
      message: 'a token from --token, not checked: the hub does not answer',
    })
  })
})
