import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot, PETSTORE, type AppRoot } from './support/app-root.js'
import {
  closedOrigin,
  countingServer,
  createHome,
  htmlErrorServer,
  oneJson,
  runSvcOpenStdin,
  startTestHub,
  type Home,
  type TestHub,
  failed,
} from './support/hub.js'
import { recipeLines, runSvcOnTerminal, type RunOptions } from './support/run-svc.js'

const SETTINGS = {
  basePath: 'src/api',
  include: ['/pets'],
  skip: ['/internal'],
  enrichments: {
    'gen-zod': {
      '/pets': { get: { main: { name: 'listPets' } } },
      Pet: { main: { exportName: 'PetSchema' } },
    },
    'gen-typescript': { _generator: { indent: 2 } },
  },
}
const CLIENT = '.svc/demo/.settings/client.json'

let t: TestHub
let h: Home

beforeAll(async () => {
  t = await startTestHub()
  h = createHome()
  for (const slug of ['shop', 'shop-b', 'fixed', 'files', 'prompt', 'pipe', 'pulled'])
    await t.createProject('acme', slug)
})
afterAll(async () => {
  await t?.dispose()
  h?.dispose()
})

/** An app root with the project `demo` whose client.json is `client`. */
async function app(client: Record<string, unknown> = { settings: SETTINGS }) {
  const root = createAppRoot()
  expect((await root.svc(['init', 'demo'])).code).toBe(0)
  write(root, CLIENT, JSON.stringify(client, null, 2))
  return root
}

function write(root: AppRoot, path: string, content: string) {
  mkdirSync(dirname(join(root.dir, path)), { recursive: true })
  writeFileSync(join(root.dir, path), content)
}

/** `svc <args>` with alice's token and the test hub from the environment, unless overridden. */
const svc = (root: AppRoot, args: readonly string[], options: RunOptions = {}) =>
  root.svc(args, {
    ...options,
    env: { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url, ...options.env },
  })

const config = async (slug: string) => {
  const reply = await t.get(`/v1/projects/acme/${slug}/config`)
  expect(reply.status).toBe(200)
  return reply.body as {
    config: { settings: Record<string, unknown>; enrichments: unknown[] }
    enrichmentCount: number
    updatedAt: string | null
  }
}

describe('svc push: before any network call', () => {
  let counter: Awaited<ReturnType<typeof countingServer>>
  beforeAll(async () => (counter = await countingServer()))
  afterAll(() => counter?.close())
  const offline = { env: { SVC_API_ORIGIN: undefined } }

  it('stage read: no client.json, or one that is not valid', async () => {
    const root = await app()
    const args = ['push', 'demo', '--project', '@acme/shop', '--origin', counter.origin]
    rmSync(join(root.dir, CLIENT))
    failed(await svc(root, [...args, '--json'], offline), 'read', /client\.json: does not exist/)
    const text = await svc(root, args, offline)
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toMatch(/^Pushing demo failed at stage read:\n {2}\S.*client\.json/)
    write(root, CLIENT, '{ not json')
    failed(await svc(root, [...args, '--json'], offline), 'read', 'is not JSON')
    write(root, CLIENT, JSON.stringify({ settings: ['not', 'an', 'object'] }))
    failed(await svc(root, [...args, '--json'], offline), 'read', 'settings')
    expect(counter.connections()).toBe(0)
  })

  it('stage destination: none or a malformed --project is exit 2 with a recipe error; a malformed client.json#project is exit 1', async () => {
    const root = await app()
    const before = root.read(CLIENT)
    for (const extra of [[], ['--json'], ['--no-input']]) {
      const run = await svc(root, ['push', 'demo', '--origin', counter.origin, ...extra], offline)
      expect(run.code).toBe(2)
      expect(recipeLines(run.stderr)).toEqual({
        error:
          'error: No destination: give --project @account/slug, or set "project" in .svc/demo/.settings/client.json.',
        usage: expect.stringMatching(/^Usage: svc push \[project\] \[--project <@account\/slug>\]/),
        example: 'Example: svc push demo --project @acme/billing',
        discover: 'Discover: svc projects list (projects are created in the web app)',
      })
      if (extra.includes('--json'))
        expect(oneJson(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
      else expect(run.stdout).toBe('')
    }
    for (const [bad, guess] of [
      ['acme', ''],
      ['@acme', ''],
      ['acme/shop', ' (did you mean @acme/shop?)'],
      ['@acme/shop/x', ''],
      ['@ACME/shop', ''],
    ]) {
      const run = await svc(
        root,
        ['push', 'demo', '--json', '--project', bad!, '--origin', counter.origin],
        offline,
      )
      expect(run.code).toBe(2)
      expect(recipeLines(run.stderr).error).toBe(
        `error: --project '${bad}' is not a hub project: it must be @account/slug${guess}.`,
      )
      expect(oneJson(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
    }
    // A malformed client.json#project is the file's fault: a failed stage.
    const recorded = await app({ project: 'acme', settings: {} })
    failed(
      await svc(recorded, ['push', 'demo', '--json', '--origin', counter.origin], offline),
      'destination',
      "'acme' is not a project: it must be @account/slug",
    )
    const text = await svc(recorded, ['push', 'demo', '--origin', counter.origin])
    expect(text.code).toBe(1)
    expect(text.stderr).toBe(
      "Pushing demo failed at stage destination:\n  'acme' is not a project: it must be @account/slug\n",
    )
    expect(root.read(CLIENT)).toBe(before)
    expect(counter.connections()).toBe(0)
  })

  it('--project alice/demo, as the web app shows a project: push and pull say did you mean @alice/demo', async () => {
    const root = await app()
    for (const command of ['push', 'pull']) {
      const run = await svc(
        root,
        [command, '--project', 'alice/demo', '--origin', counter.origin],
        offline,
      )
      expect(run.code, run.stderr).toBe(2)
      expect(run.stdout).toBe('')
      const recipe = recipeLines(run.stderr)
      expect(recipe.error).toBe(
        "error: --project 'alice/demo' is not a hub project: it must be @account/slug (did you mean @alice/demo?).",
      )
      expect(recipe.usage).toMatch(new RegExp(`^Usage: svc ${command} \\[project\\]`))
    }
    expect(counter.connections()).toBe(0)
  })

  it('strict mode: a missing <project> or no token is exit 2 with a recipe error', async () => {
    const root = await app({ project: '@acme/shop', settings: SETTINGS })
    const two = await app({ project: '@acme/shop', settings: SETTINGS })
    expect((await svc(two, ['init', 'other'])).code).toBe(0)
    const missing = await svc(two, ['push', '--json', '--origin', counter.origin], offline)
    expect(missing.code).toBe(2)
    expect(recipeLines(missing.stderr).error).toBe(
      'error: Name the project: this app root has demo, other.',
    )
    expect(oneJson(missing)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
    // SPEC 4.9: strict mode picks no project, not even the only one.
    for (const strict of [['--json'], ['--no-input']]) {
      const only = await svc(root, ['push', ...strict, '--origin', counter.origin], offline)
      expect(only.code, strict.join(' ')).toBe(2)
      expect(recipeLines(only.stderr).error).toBe(
        'error: Name the project: --json and --no-input never pick one, not even the only one (demo).',
      )
      expect(recipeLines(only.stderr).usage).toMatch(/^Usage: svc push \[project\]/)
    }
    const noToken = await svc(root, ['push', 'demo', '--no-input', '--origin', counter.origin], {
      env: { SVC_HUB_TOKEN: undefined, SVC_API_ORIGIN: undefined },
    })
    expect(noToken.code).toBe(2)
    expect(recipeLines(noToken.stderr).error).toBe(
      'error: svc push needs a token: --token, $SVC_HUB_TOKEN, or svc login.',
    )
    const both = await svc(root, ['push', 'demo', '--base-files', '--base-files-only'], offline)
    expect(both.code).toBe(2)
    expect(recipeLines(both.stderr).error).toMatch(/not both/)
    expect(counter.connections()).toBe(0)
  })
})

describe('svc push: stage push', () => {
  it('a project that does not exist (404): create it in the web app; nothing recorded', async () => {
    const root = await app()
    const before = root.read(CLIENT)
    const puts = await t.requests({ method: 'PUT' })
    for (const project of ['@acme/nothing', '@nobody/shop'])
      failed(
        await svc(root, ['push', 'demo', '--json', '--project', project]),
        'push',
        `the project ${project} does not exist on ${t.url}; create it in the web app first`,
      )
    const text = await svc(root, ['push', 'demo', '--project', '@acme/nothing'])
    expect(text.code).toBe(1)
    expect(text.stderr).toMatch(
      /^Pushing demo failed at stage push:\n {2}the project @acme\/nothing does not exist/,
    )
    expect(root.read(CLIENT)).toBe(before)
    expect(await t.requests({ method: 'PUT' })).toBe(puts)
  })

  it('a caller who may not write (403), a refused token (401)', async () => {
    const root = await app({ project: '@acme/shop', settings: SETTINGS })
    const json = ['push', 'demo', '--json']
    const forbidden = failed(
      await svc(root, [...json, '--token', t.people.rita]),
      'push',
      'not allowed to write @acme/shop',
    )
    expect(forbidden).toContain('HTTP 403 forbidden')
    // nora is no member: she cannot even read acme's projects.
    failed(await svc(root, [...json, '--token', t.people.nora]), 'push', 'HTTP 403')
    failed(
      await svc(root, [...json, '--token', t.people.aliceReadOnly]),
      'push',
      'HTTP 403 insufficient_scope',
    )
    const refused = failed(await svc(root, [...json, '--token', 'svc_pat_bad']), 'push', 'HTTP 401')
    expect(refused).toMatch(/^the hub refused the token/)
    expect((await config('shop')).updatedAt).toBeNull()
  })

  it('a hub that is down, or answers HTML, fails at stage push with a clear reason', async () => {
    const root = await app({ project: '@acme/shop', settings: SETTINGS })
    const closed = await closedOrigin()
    failed(
      await svc(root, ['push', 'demo', '--json', '--origin', closed]),
      'push',
      `cannot reach the hub at ${closed} (`,
    )
    const html = await htmlErrorServer()
    try {
      const reason = failed(
        await svc(root, ['push', 'demo', '--json'], { env: { SVC_API_ORIGIN: html.origin } }),
        'push',
        'not JSON',
      )
      expect(reason).toContain('HTTP 500')
    } finally {
      await html.close()
    }
  })
})

describe('svc push: replacing the config', () => {
  it('pushes, records an explicit --project, and replaces without a prompt under --json', async () => {
    const root = await app()
    const first = await svc(root, ['push', 'demo', '--project', '@acme/shop', '--json'])
    expect(first.code, first.stderr).toBe(0)
    const result = oneJson(first)
    expect(result).toEqual({
      type: 'pushed',
      projectName: 'demo',
      project: { account: 'acme', slug: 'shop' },
      origin: t.url,
      enrichmentCount: 3,
      overwroteExistingConfig: false,
      remoteWritten: true,
      baseFilesPushed: 0,
    })
    expect(Object.keys(result)).toEqual([
      'type',
      'projectName',
      'project',
      'origin',
      'enrichmentCount',
      'overwroteExistingConfig',
      'remoteWritten',
      'baseFilesPushed',
    ])
    expect(root.json(CLIENT)).toEqual({ project: '@acme/shop', settings: SETTINGS })

    const stored = await config('shop')
    expect(stored.enrichmentCount).toBe(3)
    expect(stored.config.settings).toEqual({
      basePath: 'src/api',
      include: ['/pets'],
      skip: ['/internal'],
    })
    expect(stored.config.enrichments).toEqual([
      {
        generator: 'gen-zod',
        subject: ['/pets', 'get'],
        variant: 'main',
        value: { name: 'listPets' },
      },
      {
        generator: 'gen-zod',
        subject: ['Pet'],
        variant: 'main',
        value: { exportName: 'PetSchema' },
      },
      { generator: 'gen-typescript', subject: ['_generator', 'indent'], variant: null, value: 2 },
    ])
    const unfolded = await t.get('/v1/projects/acme/shop/client-config')
    expect(unfolded.body).toEqual({ project: '@acme/shop', settings: SETTINGS })

    // Again, from client.json#project: replaced without asking, and client.json left as it is.
    const written = root.read(CLIENT)
    const second = await svc(root, ['push', 'demo', '--json'])
    expect(second.code).toBe(0)
    expect(oneJson(second)).toMatchObject({
      overwroteExistingConfig: true,
      remoteWritten: true,
      enrichmentCount: 3,
    })
    expect(root.read(CLIENT)).toBe(written)
    expect((await config('shop')).updatedAt! > stored.updatedAt!).toBe(true)
  })

  it('text output; an explicit --project replaces client.json#project', async () => {
    const root = await app({ project: '@acme/shop', settings: { basePath: 'lib' } })
    const run = await svc(root, ['push', 'demo', '--project', '@acme/shop-b'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe(
      [
        'Pushed demo to acme/shop-b',
        `  origin       ${t.url}`,
        '  enrichments  0',
        '  recorded destination in client.json#project',
        '',
      ].join('\n'),
    )
    expect(root.json(CLIENT).project).toBe('@acme/shop-b')
    const again = await svc(root, ['push', 'demo', '--no-input'])
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(
      [
        'Pushed demo to acme/shop-b',
        `  origin       ${t.url}`,
        '  enrichments  0',
        '  replaced existing config',
        '',
      ].join('\n'),
    )
    expect((await config('shop-b')).config.settings).toEqual({ basePath: 'lib' })
  })

  it('an explicit --project replaces a malformed client.json#project', async () => {
    const root = await app({ project: 'acme', settings: {} })
    const run = await svc(root, ['push', 'demo', '--json', '--project', '@acme/fixed'])
    expect(run.code, run.stderr).toBe(0)
    expect(oneJson(run)).toMatchObject({
      type: 'pushed',
      project: { account: 'acme', slug: 'fixed' },
    })
    expect(root.json(CLIENT).project).toBe('@acme/fixed')
  })
})

describe('svc push --base-files', () => {
  it('pushes the base files: built-in ignores, .svcignore, never .svc/ nor generated files', async () => {
    const root = await app({ project: '@acme/files', settings: { enrichments: {} } })
    expect((await root.svc(['install', 'gen-typescript'])).code).toBe(0)
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    const generated = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(generated.code, generated.stderr).toBe(0)
    expect(oneJson(generated).files).toContain('generated/demo/types.ts')
    const files: Record<string, string> = {
      '.svcignore': 'secret/\n*.tmp\n!keep.tmp\n',
      'README.md': '# app\n',
      'src/app.ts': 'export const app = 1\n',
      'src/sub/deep.ts': 'export const deep = 1\n',
      'generated/demo/extra.ts': '// written by hand beside generated files\n',
      'keep.tmp': 'kept by the negation\n',
      'a.tmp': 'ignored\n',
      'secret/key.txt': 'ignored\n',
      'src/secret/nested.txt': 'ignored too\n',
      '.env': 'TOKEN=1\n',
      '.env.local': 'TOKEN=2\n',
      'debug.log': 'ignored\n',
      'node_modules/pkg/index.js': 'ignored\n',
      'dist/out.js': 'ignored\n',
      '.git/config': 'ignored\n',
      'logo.png': 'binary asset\n',
    }
    for (const [path, content] of Object.entries(files)) write(root, path, content)
    const expected = [
      '.svcignore',
      'README.md',
      'generated/demo/extra.ts',
      'keep.tmp',
      'src/app.ts',
      'src/sub/deep.ts',
    ]

    const puts = await t.requests({
      method: 'PUT',
      path: '/v1/projects/acme/files/preview/base-files',
    })
    const run = await svc(root, ['push', 'demo', '--base-files', '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(oneJson(run)).toEqual({
      type: 'pushed',
      projectName: 'demo',
      project: { account: 'acme', slug: 'files' },
      origin: t.url,
      enrichmentCount: 0,
      overwroteExistingConfig: false,
      remoteWritten: true,
      baseFilesPushed: expected.length,
    })
    expect(
      await t.requests({ method: 'PUT', path: '/v1/projects/acme/files/preview/base-files' }),
    ).toBe(puts + 1)
    expect(await t.baseFiles('acme', 'files')).toEqual(expected)
    const pushed = await config('files')
    expect(pushed.updatedAt).not.toBeNull()

    // --base-files-only: the config stays as it is, even though client.json changed.
    write(
      root,
      CLIENT,
      JSON.stringify({
        project: '@acme/files',
        settings: { enrichments: { 'gen-zod': { a: 1 } } },
      }),
    )
    rmSync(join(root.dir, 'README.md'))
    const configCalls = await t.requests({ path: '/v1/projects/acme/files/c' })
    const only = await svc(root, ['push', 'demo', '--base-files-only', '--json'])
    expect(only.code, only.stderr).toBe(0)
    expect(oneJson(only)).toEqual({
      type: 'pushed',
      projectName: 'demo',
      project: { account: 'acme', slug: 'files' },
      origin: t.url,
      enrichmentCount: 0,
      overwroteExistingConfig: false,
      remoteWritten: false,
      baseFilesPushed: expected.length - 1,
    })
    expect(await t.requests({ path: '/v1/projects/acme/files/c' })).toBe(configCalls)
    expect(await config('files')).toEqual(pushed)
    expect(await t.baseFiles('acme', 'files')).toEqual(expected.filter((f) => f !== 'README.md'))

    const text = await svc(root, ['push', 'demo', '--base-files-only'])
    expect(text.code).toBe(0)
    expect(text.stdout).toBe(
      [
        'Pushed demo to acme/files',
        `  origin       ${t.url}`,
        '  enrichments  config untouched (--base-files-only)',
        `  base files   ${expected.length - 1}`,
        '',
      ].join('\n'),
    )
  })
})

describe('svc push: the overwrite prompt', () => {
  it('on a terminal it asks; no leaves the hub config unchanged, yes replaces it', async () => {
    const root = await app()
    expect((await svc(root, ['push', 'demo', '--project', '@acme/prompt', '--json'])).code).toBe(0)
    // A local change, and no destination recorded: the prompt decides both.
    write(
      root,
      CLIENT,
      JSON.stringify({ settings: { enrichments: { 'gen-zod': { Pet: { main: { a: 1 } } } } } }),
    )
    const local = root.read(CLIENT)
    const before = await config('prompt')
    expect(before.enrichmentCount).toBe(3)
    const env = { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url }
    const args = ['push', 'demo', '--project', '@acme/prompt']

    const declined = await runSvcOnTerminal(args, {
      cwd: root.dir,
      env,
      answer: { after: 'Replace it?', keys: 'n' },
    })
    expect(declined.timedOut, declined.output).toBe(false)
    expect(declined.answered, declined.output).toBe(true)
    expect(declined.code).toBe(0)
    expect(declined.output).toContain(
      `@acme/prompt on ${t.url} has a config (3 enrichments). Replace it?`,
    )
    expect(declined.output).toContain('Push of demo aborted: @acme/prompt is unchanged.')
    expect(await config('prompt')).toEqual(before)
    expect(root.read(CLIENT)).toBe(local)

    const accepted = await runSvcOnTerminal(args, {
      cwd: root.dir,
      env,
      answer: { after: 'Replace it?', keys: 'y' },
    })
    expect(accepted.timedOut, accepted.output).toBe(false)
    expect(accepted.answered, accepted.output).toBe(true)
    expect(accepted.code).toBe(0)
    expect(accepted.output).toContain('Pushed demo to acme/prompt')
    expect(accepted.output).toContain('replaced existing config')
    expect(accepted.output).toContain('recorded destination in client.json#project')
    const after = await config('prompt')
    expect(after.enrichmentCount).toBe(1)
    expect(after.config.enrichments).toEqual([
      { generator: 'gen-zod', subject: ['Pet'], variant: 'main', value: { a: 1 } },
    ])
    expect(root.json(CLIENT).project).toBe('@acme/prompt')

    // --force on the terminal: no question at all.
    const forced = await runSvcOnTerminal([...args, '--force'], { cwd: root.dir, env })
    expect(forced.timedOut, forced.output).toBe(false)
    expect(forced.code).toBe(0)
    expect(forced.output).not.toContain('Replace it?')
    expect(forced.output).toContain('replaced existing config')
  })

  it('never waits on a pipe: strict and non-strict pushes replace an existing config', async () => {
    const root = await app({ project: '@acme/pipe', settings: SETTINGS })
    expect((await svc(root, ['push', 'demo', '--json'])).code).toBe(0)
    const env = { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url }
    for (const args of [
      ['push', 'demo'],
      ['push', 'demo', '--no-input'],
      ['push', 'demo', '--json'],
    ]) {
      const before = (await config('pipe')).updatedAt!
      const run = await runSvcOpenStdin(args, { cwd: root.dir, env, timeoutMs: 20_000 })
      expect(run.timedOut, args.join(' ')).toBe(false)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).not.toContain('Replace it?')
      if (args.includes('--json')) expect(oneJson(run).overwroteExistingConfig).toBe(true)
      else expect(run.stdout).toContain('  replaced existing config\n')
      expect((await config('pipe')).updatedAt! > before).toBe(true)
    }
  })
})

describe('svc pull', () => {
  let source: AppRoot
  beforeAll(async () => {
    source = await app({ project: '@acme/pulled', settings: SETTINGS })
    expect((await svc(source, ['push', 'demo', '--json'])).code).toBe(0)
  })

  it('unfolds the hub config into client.json: enrichments, include, skip; other keys stay', async () => {
    const root = await app({
      project: '@acme/pulled',
      mine: 'kept',
      settings: {
        basePath: 'lib/generated',
        importExtension: '.js',
        custom: true,
        enrichments: {},
      },
    })
    const run = await svc(root, ['pull', 'demo', '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(oneJson(run)).toEqual({
      type: 'pulled',
      projectName: 'demo',
      project: { account: 'acme', slug: 'pulled' },
      origin: t.url,
      changed: ['enrichments', 'include', 'skip'],
    })
    expect(root.json(CLIENT)).toEqual({
      project: '@acme/pulled',
      mine: 'kept',
      settings: {
        basePath: 'lib/generated',
        importExtension: '.js',
        custom: true,
        enrichments: SETTINGS.enrichments,
        include: SETTINGS.include,
        skip: SETTINGS.skip,
      },
    })
    const again = await svc(root, ['pull', 'demo'])
    expect(again.code).toBe(0)
    expect(again.stdout).toBe('demo already matches @acme/pulled.\n')
  })

  it('local enrichments that differ need --force without a terminal; with it they are replaced', async () => {
    const local = {
      project: '@acme/pulled',
      settings: {
        basePath: 'x',
        enrichments: { 'gen-zod': { Pet: { main: { exportName: 'Mine' } } } },
        include: SETTINGS.include,
        skip: SETTINGS.skip,
      },
    }
    const root = await app(local)
    const before = root.read(CLIENT)
    const json = await svc(root, ['pull', 'demo', '--json'])
    expect(json.code).toBe(1)
    expect(oneJson(json)).toMatchObject({ type: 'error', code: 'failed', exitCode: 1 })
    expect(json.stderr).toBe(
      "error: the local enrichments of demo differ from @acme/pulled's; pass --force to replace them\n",
    )
    const piped = await runSvcOpenStdin(['pull', 'demo'], {
      cwd: root.dir,
      env: { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url },
    })
    expect(piped.timedOut).toBe(false)
    expect(piped.code).toBe(1)
    expect(piped.stderr).toContain('pass --force')
    expect(root.read(CLIENT)).toBe(before)

    const forced = await svc(root, ['pull', 'demo', '--force'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(forced.stdout).toBe(
      'Pulled @acme/pulled into .svc/demo/.settings/client.json: replaced enrichments.\n',
    )
    expect(root.json(CLIENT)).toEqual({
      ...local,
      settings: { ...local.settings, enrichments: SETTINGS.enrichments },
    })
  })

  it('on a terminal it asks before replacing differing local settings', async () => {
    const local = {
      project: '@acme/pulled',
      settings: { enrichments: { 'gen-zod': { Pet: { main: { exportName: 'Mine' } } } } },
    }
    const root = await app(local)
    const before = root.read(CLIENT)
    const env = { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url }
    const question = "Replace the local enrichments, include, skip of demo with @acme/pulled's?"
    const declined = await runSvcOnTerminal(['pull', 'demo'], {
      cwd: root.dir,
      env,
      answer: { after: question, keys: 'n' },
    })
    expect(declined.answered, declined.output).toBe(true)
    expect(declined.code).toBe(0)
    expect(declined.output).toContain('Pull aborted: .svc/demo/.settings/client.json is unchanged.')
    expect(root.read(CLIENT)).toBe(before)
    const accepted = await runSvcOnTerminal(['pull', 'demo'], {
      cwd: root.dir,
      env,
      answer: { after: question, keys: 'y' },
    })
    expect(accepted.answered, accepted.output).toBe(true)
    expect(accepted.code).toBe(0)
    expect(root.json(CLIENT).settings).toEqual({
      enrichments: SETTINGS.enrichments,
      include: SETTINGS.include,
      skip: SETTINGS.skip,
    })
  })

  it('takes --project, and fails with exit 1 for a project the hub does not have', async () => {
    const root = await app({ settings: {} })
    const missing = await svc(root, ['pull', 'demo', '--project', '@acme/nothing', '--json'])
    expect(missing.code).toBe(1)
    expect(oneJson(missing).message).toBe(`the project @acme/nothing does not exist on ${t.url}`)
    const none = await svc(root, ['pull', 'demo', '--json'])
    expect(none.code).toBe(2)
    expect(recipeLines(none.stderr).error).toMatch(/No project to pull from/)
    const run = await svc(root, ['pull', 'demo', '--project', '@acme/pulled', '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(root.json(CLIENT)).toEqual({
      project: '@acme/pulled',
      settings: {
        enrichments: SETTINGS.enrichments,
        include: SETTINGS.include,
        skip: SETTINGS.skip,
      },
    })
    expect(existsSync(join(root.dir, CLIENT))).toBe(true)
  })
})
