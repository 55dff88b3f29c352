import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot, PETSTORE, type AppRoot } from './support/app-root.js'
import {
  closedOrigin,
  countingServer,
  createHome,
  htmlErrorServer,
  oneJson,
  sha256,
  sha256File,
  startTestHub,
  type Home,
  type TestHub,
  failed,
} from './support/hub.js'
import { recipeLines, REPO_ROOT, type RunOptions } from './support/run-svc.js'

const DEFAULT_ORIGIN = 'http://localhost:8080'

let t: TestHub
const homes: Home[] = []
const home = () => {
  const created = createHome()
  homes.push(created)
  return created
}
let empty: Home

beforeAll(async () => {
  t = await startTestHub()
  empty = home()
})
afterAll(async () => {
  await t?.dispose()
  for (const h of homes) h.dispose()
})

/** An app root with the project `demo` publishing to `name`; `version: null` removes it. */
async function project(name: string | null, version: string | null = '0.1.0') {
  const root = createAppRoot()
  expect((await root.svc(['init', 'demo', '--name', '@local/demo'])).code).toBe(0)
  const manifest = root.json('.svc/demo/deno.json')
  if (name === null) delete manifest.name
  else manifest.name = name
  if (version === null) delete manifest.version
  else manifest.version = version
  write(root, '.svc/demo/deno.json', JSON.stringify(manifest, null, 2))
  return root
}

function write(root: AppRoot, path: string, content: string | Buffer) {
  mkdirSync(dirname(join(root.dir, path)), { recursive: true })
  writeFileSync(join(root.dir, path), content)
}

/** `svc <args>` in the app root, with HOME `h` (by default one without a login). */
const svc = (root: AppRoot, args: readonly string[], options: RunOptions & { home?: Home } = {}) =>
  root.svc(args, { ...options, env: { ...(options.home ?? empty).env, ...options.env } })

describe('svc publish: version and identity are settled before any network call', () => {
  let counter: Awaited<ReturnType<typeof countingServer>>
  beforeAll(async () => (counter = await countingServer()))
  afterAll(() => counter?.close())

  it('stage version: no version anywhere, or one that is not semver', async () => {
    const root = await project('@alice/nover', null)
    const args = ['publish', 'demo', '--token', t.people.alice, '--origin', counter.origin]
    failed(await svc(root, [...args, '--json']), 'version', '--version')
    for (const bad of ['1.2', 'v1.0.0', '1.0.0+build', 'latest'])
      failed(
        await svc(root, [...args, '--json', '--version', bad]),
        'version',
        `'${bad}' is not a semver version`,
      )
    const text = await svc(root, args)
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toBe(
      'Publishing demo failed at stage version:\n  no version: give --version, or set "version" in .svc/demo/deno.json\n',
    )
    const invalid = await project('@alice/badver', 'one')
    failed(await svc(invalid, [...args, '--json']), 'version', "'one' is not a semver version")
    expect(counter.connections()).toBe(0)
  })

  it('stage identity: no name, or a name that is not @account/slug', async () => {
    const args = ['publish', 'demo', '--token', t.people.alice, '--origin', counter.origin]
    const unnamed = await project(null)
    failed(await svc(unnamed, [...args, '--json']), 'identity', 'no stack name')
    for (const name of [
      'demo',
      'alice/demo',
      '@Alice/demo',
      '@alice',
      '@alice/demo.',
      '@al.ice/demo',
    ]) {
      const root = await project(name)
      failed(await svc(root, [...args, '--json']), 'identity', `the name '${name}' is not scoped`)
    }
    const text = await svc(unnamed, args)
    expect(text.code).toBe(1)
    expect(text.stderr).toBe(
      'Publishing demo failed at stage identity:\n  no stack name: set "name": "@account/slug" in .svc/demo/deno.json\n',
    )
    expect(counter.connections()).toBe(0)
  })

  it('stage bundle: a cloned generator that does not compile, or a gen- import to nowhere', async () => {
    const args = ['publish', 'demo', '--token', t.people.alice, '--origin', counter.origin]
    const before = counter.connections()
    const broken = await project('@alice/broken')
    expect((await svc(broken, ['clone', 'demo', '-g', 'gen-zod'])).code).toBe(0)
    write(broken, '.svc/demo/gen-zod/mod.ts', 'export const = ;\n')
    failed(await svc(broken, [...args, '--json']), 'bundle', /bundling .*server\.ts failed/)

    const missing = await project('@alice/missing')
    const manifest = missing.json('.svc/demo/deno.json')
    manifest.imports['gen-x'] = './gen-x/mod.ts'
    write(missing, '.svc/demo/deno.json', JSON.stringify(manifest))
    failed(await svc(missing, [...args, '--json']), 'bundle', "'gen-x' is cloned at ./gen-x/mod.ts")
    const text = await svc(missing, args)
    expect(text.code).toBe(1)
    expect(text.stderr).toMatch(/^Publishing demo failed at stage bundle:\n {2}\S/)
    // Only the account check's GET /v1/user, one a run, which gives way to the bundle when the
    // hub does not answer (account-check.ts); never the upload.
    expect(counter.connections() - before).toBe(3)
  })

  it('strict mode: a missing <project> or no token from any source is exit 2 with a recipe error', async () => {
    const before = counter.connections()
    const root = await project('@alice/strict')
    expect((await root.svc(['init', 'other'])).code).toBe(0)
    for (const args of [
      ['publish', '--json', '--token', t.people.alice, '--origin', counter.origin],
      ['publish', '--no-input', '--token', t.people.alice, '--origin', counter.origin],
      ['publish', 'demo', '--json', '--origin', counter.origin],
      ['publish', 'demo', '--no-input', '--origin', counter.origin],
    ]) {
      const run = await svc(root, args)
      expect(run.code, args.join(' ')).toBe(2)
      const recipe = recipeLines(run.stderr)
      expect(recipe.usage).toMatch(/^Usage: svc publish \[project\]/)
      expect(recipe.example).toBe('Example: svc publish demo --version 1.0.0')
      if (!args.includes('demo')) expect(recipe.error).toMatch(/Name the project/)
      else {
        expect(recipe.error).toBe(
          'error: svc publish needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
        )
        expect(recipe.discover).toBe('Discover: svc login --help')
      }
      if (args.includes('--json'))
        expect(oneJson(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
      else expect(run.stdout).toBe('')
    }
    expect(counter.connections()).toBe(before)
  })
})

describe('svc publish: strict mode names the project, even the only one (SPEC 4.9)', () => {
  it('--json or --no-input without <project> is exit 2 and nothing is published; without them, the only project is used', async () => {
    const root = await project('@alice/only', '1.0.0')
    const hub = ['--token', t.people.alice, '--origin', t.url]
    for (const strict of [['--json'], ['--no-input'], ['--json', '--no-input']]) {
      const run = await svc(root, ['publish', ...strict, ...hub])
      expect(run.code, strict.join(' ')).toBe(2)
      const recipe = recipeLines(run.stderr)
      expect(recipe.error).toBe(
        'error: Name the project: --json and --no-input never pick one, not even the only one (demo).',
      )
      expect(recipe.usage).toMatch(/^Usage: svc publish \[project\]/)
      expect(recipe.example).toBe('Example: svc publish demo --version 1.0.0')
      expect(recipe.discover).toBe('Discover: svc doctor (lists the projects of this app root)')
      if (strict.includes('--json'))
        expect(oneJson(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
      else expect(run.stdout).toBe('')
    }
    expect((await t.get('/v1/stacks/alice/only/versions/1.0.0')).status).toBe(404)
    // Named, strict mode publishes; unnamed outside strict mode, the only project is used.
    const named = await svc(root, ['publish', 'demo', '--json', ...hub])
    expect(named.code, named.stderr).toBe(0)
    expect(oneJson(named)).toMatchObject({ type: 'published', version: '1.0.0' })
    const inferred = await svc(root, ['publish', '--version', '1.0.1', ...hub])
    expect(inferred.code, inferred.stderr).toBe(0)
    expect(inferred.stdout).toMatch(/^Published demo as alice\/only@1\.0\.1\n/)
  })
})

describe('svc publish: to the hub', () => {
  it('uploads the bundle and exactly the source set; the JSON result is as SPEC 4.9 says', async () => {
    const root = await project('@acme/catalog', '0.3.0')
    expect((await svc(root, ['install', 'gen-typescript', '-p', 'demo'])).code).toBe(0)
    const cloned = await svc(root, ['clone', 'demo', '-g', 'gen-zod', '--json'])
    const clonedFiles = oneJson(cloned).files as string[]
    expect(clonedFiles).toContain('gen-zod/mod.ts')
    expect((await svc(root, ['bundle', 'demo'])).code).toBe(0)
    const generated = await svc(root, ['generate', 'demo', PETSTORE, '--json'])
    expect(generated.code, generated.stderr).toBe(0)
    const p = '.svc/demo'
    write(root, `${p}/src/x.ts`, 'export const x = 1\n')
    write(root, `${p}/sub/server.js`, 'nested, so not derived\n')
    write(root, `${p}/sub/worker.ts`, 'export {}\n')
    write(root, `${p}/notes.md`, '# notes\n')
    write(root, `${p}/.env`, 'SECRET=1\n')
    write(root, `${p}/.hidden/x.ts`, 'export {}\n')
    write(root, `${p}/src/.local.ts`, 'export {}\n')
    write(root, `${p}/.settings/.cache`, 'x\n')
    write(root, `${p}/server.ts`, '// derived\n')
    write(root, `${p}/logo.png`, Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    write(root, `${p}/doc.pdf`, '%PDF-1.4\n')
    write(root, `${p}/a.zip`, 'PK\u0003\u0004')
    write(root, `${p}/src/photo.JPG`, 'x')
    const expected = [
      '.settings/client.json',
      '.settings/manifest.json',
      'deno.json',
      ...clonedFiles,
      'notes.md',
      'src/x.ts',
      'sub/server.js',
      'sub/worker.ts',
    ].sort()

    const posts = await t.requests({ method: 'POST', path: '/v1/stacks/' })
    const run = await svc(root, [
      'publish',
      'demo',
      '--json',
      '--token',
      t.people.walt,
      '--origin',
      t.url,
      '--version',
      '1.0.0',
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(await t.requests({ method: 'POST', path: '/v1/stacks/' })).toBe(posts + 1)
    const bundlePath = join(root.dir, p, 'server.js')
    const sourceTotalBytes = expected.reduce(
      (sum, f) => sum + statSync(join(root.dir, p, f)).size,
      0,
    )
    const result = oneJson(run)
    expect(result).toEqual({
      type: 'published',
      projectName: 'demo',
      bundlePath,
      bundleBytes: statSync(bundlePath).size,
      bundleSha256: sha256File(bundlePath),
      stack: { account: 'acme', slug: 'catalog' },
      version: '1.0.0',
      versionUrl: expect.stringMatching(/\/acme\/stacks\/catalog\/versions\/1\.0\.0$/),
      sourceFileCount: expected.length,
      sourceTotalBytes,
    })
    expect(Object.keys(result)).toEqual([
      'type',
      'projectName',
      'bundlePath',
      'bundleBytes',
      'bundleSha256',
      'stack',
      'version',
      'versionUrl',
      'sourceFileCount',
      'sourceTotalBytes',
    ])

    const stored = await t.get('/v1/stacks/acme/catalog/versions/1.0.0')
    expect(stored.status).toBe(200)
    expect(stored.body).toMatchObject({
      version: '1.0.0',
      versionUrl: result.versionUrl,
      bundleSha256: result.bundleSha256,
      bundleBytes: result.bundleBytes,
      publishedBy: 'walt',
      composition: [
        { name: 'gen-typescript', kind: 'imported', specifier: 'jsr:@svc/gen-typescript@^0.1.0' },
        { name: 'gen-zod', kind: 'cloned', path: 'gen-zod/mod.ts' },
      ],
    })
    const files = stored.body.files as { path: string; size: number; sha256: string }[]
    expect(files.map((f) => f.path).sort()).toEqual(expected)
    for (const file of files) {
      expect(file.sha256, file.path).toBe(sha256File(join(root.dir, p, file.path)))
      expect(file.size, file.path).toBe(statSync(join(root.dir, p, file.path)).size)
    }
    const bundle = await fetch(`${t.url}/v1/stacks/acme/catalog/versions/1.0.0/bundle`, {
      headers: { authorization: `Bearer ${t.people.alice}` },
    })
    expect(sha256(Buffer.from(await bundle.arrayBuffer()))).toBe(sha256File(bundlePath))
    // The manifest names the schema relative to the app root, even one outside it: no machine path.
    const uploaded = await fetch(
      `${t.url}/v1/stacks/acme/catalog/versions/1.0.0/files/.settings/manifest.json`,
      { headers: { authorization: `Bearer ${t.people.alice}` } },
    )
    expect(uploaded.status).toBe(200)
    const manifestText = await uploaded.text()
    expect(JSON.parse(manifestText).source).toBe(relative(root.dir, PETSTORE))
    expect(JSON.parse(manifestText).source).toMatch(/^\.\.\//)
    expect(manifestText).not.toContain(REPO_ROOT)
    expect(manifestText).not.toMatch(/"\/[^"]*\//)
  })

  it('text success: a line naming project and account/slug@version, then indented details', async () => {
    const root = await project('@alice/texty', '2.1.0')
    const run = await svc(root, ['publish', 'demo', '--token', t.people.alice, '--origin', t.url])
    expect(run.code, run.stderr).toBe(0)
    const bundle = join(root.dir, '.svc/demo/server.js')
    const size = (f: string) => statSync(join(root.dir, '.svc/demo', f)).size
    const sourceBytes = size('deno.json') + size('.settings/client.json')
    expect(run.stdout.split('\n')).toEqual([
      'Published demo as alice/texty@2.1.0',
      '  bundle   .svc/demo/server.js',
      `  bytes    ${statSync(bundle).size}`,
      `  sha256   ${sha256File(bundle)}`,
      `  source   2 files, ${sourceBytes} bytes`,
      expect.stringMatching(
        /^ {2}version {2}http:\/\/\S+\/alice\/stacks\/texty\/versions\/2\.1\.0$/,
      ),
      '',
    ])
    const stored = await t.get('/v1/stacks/alice/texty/versions/2.1.0')
    expect(stored.body.files.map((f: { path: string }) => f.path)).toEqual([
      '.settings/client.json',
      'deno.json',
    ])
  })

  it('publishes with --version when deno.json has no version', async () => {
    const root = await project('@alice/unversioned', null)
    const run = await svc(root, [
      'publish',
      'demo',
      '--json',
      '--version',
      '3.0.0-rc.1',
      '--token',
      t.people.alice,
      '--origin',
      t.url,
    ])
    expect(run.code, run.stdout).toBe(0)
    expect(oneJson(run)).toMatchObject({ type: 'published', version: '3.0.0-rc.1' })
    expect((await t.get('/v1/stacks/alice/unversioned')).body.versions).toEqual(['3.0.0-rc.1'])
  })

  it('publishes to a slug with dots and underscores, which the hub accepts', async () => {
    const root = await project('@alice/billing.v2_api', '1.0.0')
    const run = await svc(root, [
      'publish',
      'demo',
      '--json',
      '--token',
      t.people.alice,
      '--origin',
      t.url,
    ])
    expect(run.code, run.stdout).toBe(0)
    expect(oneJson(run)).toMatchObject({ stack: { account: 'alice', slug: 'billing.v2_api' } })
    expect((await t.get('/v1/stacks/alice/billing.v2_api')).body.versions).toEqual(['1.0.0'])
  })

  it('stage publish: the same version again is 409 version_exists', async () => {
    const root = await project('@alice/twice', '1.0.0')
    const args = ['publish', 'demo', '--token', t.people.alice, '--origin', t.url]
    expect((await svc(root, [...args, '--json'])).code).toBe(0)
    const reason = failed(await svc(root, [...args, '--json']), 'publish', 'version_exists')
    expect(reason).toMatch(/HTTP 409/)
    const text = await svc(root, args)
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toMatch(
      /^Publishing demo failed at stage publish:\n {2}the hub answered HTTP 409 version_exists/,
    )
  })

  it('stage publish: a bad token is 401, an account the user cannot write is 403', async () => {
    const root = await project('@acme/guarded', '1.0.0')
    const args = ['publish', 'demo', '--json', '--origin', t.url]
    failed(await svc(root, [...args, '--token', 'svc_pat_bad']), 'publish', 'HTTP 401')
    failed(await svc(root, [...args, '--token', t.people.aliceRevoked]), 'publish', 'HTTP 401')
    // rita only reads acme: the hub refuses. nora is not a member: refused before bundling
    // (first-hour.e2e.test.ts).
    failed(await svc(root, [...args, '--token', t.people.rita]), 'publish', 'HTTP 403 forbidden')
    failed(
      await svc(root, [...args, '--token', t.people.nora]),
      'identity',
      "'acme' is neither you",
    )
    // A token without write:releases.
    failed(
      await svc(root, [...args, '--token', t.people.aliceReadOnly]),
      'publish',
      'HTTP 403 insufficient_scope',
    )
    expect((await t.get('/v1/stacks/acme/guarded')).status).toBe(404)
  })

  it('stage publish: a hub that is down, or answers HTML, fails with a clear reason', async () => {
    const root = await project('@alice/offline', '1.0.0')
    const closed = await closedOrigin()
    const base = ['publish', 'demo', '--json', '--token', t.people.alice]
    failed(
      await svc(root, [...base, '--origin', closed]),
      'publish',
      `cannot reach the hub at ${closed} (`,
    )
    const html = await htmlErrorServer()
    try {
      const reason = failed(
        await svc(root, [...base, '--origin', html.origin]),
        'publish',
        /not JSON/,
      )
      expect(reason).toContain('HTTP 500')
      // The account check's GET /v1/user, which gives up quietly, then the publish: no retry.
      expect(html.requests()).toBe(2)
    } finally {
      await html.close()
    }
    const text = await svc(root, ['publish', 'demo', '--token', 'x', '--origin', closed])
    expect(text.code).toBe(1)
    expect(text.stderr).toMatch(
      new RegExp(
        `^Publishing demo failed at stage publish:\\n {2}cannot reach the hub at ${closed}`,
      ),
    )
    expect(text.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('svc publish: token and origin resolution', () => {
  it('uses the login file: its token and its host', async () => {
    const h = home()
    expect(
      (
        await svc(createAppRoot(), ['login', '--origin', t.url, '--token', t.people.walt], {
          home: h,
        })
      ).code,
    ).toBe(0)
    const root = await project('@acme/by-login', '1.0.0')
    const run = await svc(root, ['publish', 'demo', '--json'], { home: h })
    expect(run.code, run.stdout).toBe(0)
    expect(oneJson(run)).toMatchObject({
      type: 'published',
      stack: { account: 'acme', slug: 'by-login' },
    })
    expect((await t.get('/v1/stacks/acme/by-login/versions/1.0.0')).body.publishedBy).toBe('walt')
  })

  it('$SVC_HUB_TOKEN beats the login file, --token beats both', async () => {
    const h = home()
    h.writeLogin({ host: t.url, token: t.people.alice })
    const root = await project('@acme/ordered', '1.0.0')
    // rita reads acme only: her token in the environment wins over alice's login, so 403.
    const env = { SVC_HUB_TOKEN: t.people.rita, SVC_API_ORIGIN: t.url }
    failed(await svc(root, ['publish', 'demo', '--json'], { home: h, env }), 'publish', 'HTTP 403')
    const run = await svc(root, ['publish', 'demo', '--json', '--token', t.people.walt], {
      home: h,
      env,
    })
    expect(run.code, run.stdout).toBe(0)
    expect((await t.get('/v1/stacks/acme/ordered/versions/1.0.0')).body.publishedBy).toBe('walt')
  })

  it('--origin beats $SVC_API_ORIGIN beats the stored host', async () => {
    const h = home()
    const closed = await closedOrigin()
    h.writeLogin({ host: closed, token: t.people.alice })
    const root = await project('@alice/origins', '1.0.0')
    failed(
      await svc(root, ['publish', 'demo', '--json', '--origin', closed], {
        home: h,
        env: { SVC_API_ORIGIN: t.url },
      }),
      'publish',
      `cannot reach the hub at ${closed}`,
    )
    const run = await svc(root, ['publish', 'demo', '--json'], {
      home: h,
      env: { SVC_API_ORIGIN: t.url },
    })
    expect(run.code, run.stdout).toBe(0)
  })

  it('a token from $SVC_HUB_TOKEN is never sent to the stored host: the default origin', async () => {
    const h = home()
    h.writeLogin({ host: t.url, token: t.people.alice })
    const root = await project('@alice/default-origin', '1.0.0')
    const posts = await t.requests({ method: 'POST' })
    failed(
      await svc(root, ['publish', 'demo', '--json'], {
        home: h,
        env: { SVC_HUB_TOKEN: t.people.alice },
      }),
      'publish',
      `cannot reach the hub at ${DEFAULT_ORIGIN} (`,
    )
    expect(await t.requests({ method: 'POST' })).toBe(posts)
    expect((await t.get('/v1/stacks/alice/default-origin')).status).toBe(404)
  })
})

describe('svc publish --version is the command’s, not the CLI’s', () => {
  it('svc --version still prints the CLI version', async () => {
    const root = createAppRoot()
    const run = await root.svc(['--version'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/)
  })

  it('publish --version 9.9.9 does not print the CLI version', async () => {
    const root = await project('@alice/flagged', null)
    const run = await svc(root, [
      'publish',
      'demo',
      '--version',
      '9.9.9',
      '--token',
      'x',
      '--origin',
      await closedOrigin(),
    ])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^Publishing demo failed at stage publish:/)
  })
})
