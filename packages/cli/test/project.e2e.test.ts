import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAppRoot } from './support/app-root.js'
import { parseJsonStdout, recipeLines } from './support/run-svc.js'

const imports = (root: ReturnType<typeof createAppRoot>, name = 'demo') =>
  root.json(`.svc/${name}/deno.json`).imports as Record<string, string>

describe('svc init', () => {
  it('creates the project layout: deno.json pinned to the engine, client.json, and ignores for derived files', async () => {
    const root = createAppRoot()
    const run = await root.svc(['init', 'demo', '--json'], {
      env: { HOME: root.dir, XDG_CONFIG_HOME: undefined, SVC_HUB_TOKEN: undefined },
    })
    expect(run.code).toBe(0)
    expect(parseJsonStdout(run)).toEqual({
      type: 'initialized',
      projectName: 'demo',
      name: '@local/demo',
      nameFrom: 'placeholder',
      note: expect.stringContaining('not logged in, so the stack is @local/demo'),
      path: join(root.dir, '.svc/demo'),
      basePath: 'generated/demo',
    })
    expect(root.json('.svc/demo/deno.json')).toEqual({
      name: '@local/demo',
      version: '0.1.0',
      imports: { '@svc/engine': 'jsr:@svc/engine@^0.1.0' },
    })
    expect(root.json('.svc/demo/.settings/client.json')).toEqual({
      settings: { basePath: 'generated/demo', enrichments: {} },
    })
    expect(root.read('.svc/demo/.gitignore').split('\n')).toEqual(
      expect.arrayContaining(['bundle.js', 'worker.ts', 'server.js', 'server.ts']),
    )
  })

  it('finds the app root from a subfolder, and takes --name and --base-path', async () => {
    const root = createAppRoot()
    expect((await root.svc(['init', 'first'])).code).toBe(0)
    mkdirSync(join(root.dir, 'src/deep'), { recursive: true })
    const run = await root.svc(['init', 'api', '--name', '@acme/api', '--base-path', 'src/api'], {})
    expect(run.code).toBe(0)
    expect(root.json('.svc/api/deno.json').name).toBe('@acme/api')
    expect(root.json('.svc/api/.settings/client.json').settings.basePath).toBe('src/api')
  })

  it('takes a project name with dots and underscores: it is the default slug of its stack', async () => {
    const root = createAppRoot()
    expect((await root.svc(['init', 'billing.v2_api'])).code).toBe(0)
    expect(root.json('.svc/billing.v2_api/deno.json').name).toBe('@local/billing.v2_api')
    const named = await root.svc(['init', 'other', '--name', '@acme/billing.v2'])
    expect(named.code).toBe(0)
    expect(root.json('.svc/other/deno.json').name).toBe('@acme/billing.v2')
  })

  it('refuses a missing, invalid or taken name with a recipe error, exit 2, changing nothing', async () => {
    const root = createAppRoot()
    const missing = await root.svc(['init'])
    expect(missing.code).toBe(2)
    expect(recipeLines(missing.stderr)).toEqual({
      error: 'error: svc init needs a project name.',
      usage: 'Usage: svc init <project> [--name @account/slug] [--base-path <dir>] [--json]',
      example: 'Example: svc init demo',
      discover: 'Discover: ls .svc (the projects that exist)',
    })
    for (const bad of ['Demo', 'x-', '_ab', 'a.', '../up', 'x'.repeat(65)]) {
      const run = await root.svc(['init', bad])
      expect(run.code, bad).toBe(2)
      expect(recipeLines(run.stderr).error).toContain('is not a project name')
    }
    expect(existsSync(join(root.dir, '.svc'))).toBe(false)
    expect((await root.svc(['init', 'demo'])).code).toBe(0)
    writeFileSync(join(root.dir, '.svc/demo/deno.json'), '{"kept": true}')
    const taken = await root.svc(['init', 'demo', '--json'])
    expect(taken.code).toBe(2)
    expect(recipeLines(taken.stderr).error).toMatch(/already exists/)
    expect(parseJsonStdout(taken)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
    expect(root.read('.svc/demo/deno.json')).toBe('{"kept": true}')
  })

  it('refuses a --base-path that is the app root or above it', async () => {
    const root = createAppRoot()
    for (const basePath of ['.', '..', './']) {
      const run = await root.svc(['init', 'demo', '--base-path', basePath])
      expect(run.code).toBe(2)
      expect(recipeLines(run.stderr).error).toMatch(
        /^error: --base-path: basePath '.*' is the app root or above it/,
      )
    }
    expect(existsSync(join(root.dir, '.svc'))).toBe(false)
  })

  it('refuses --name that is not @account/slug, leaving no project behind', async () => {
    const root = createAppRoot()
    const run = await root.svc(['init', 'demo', '--name', 'demo'])
    expect(run.code).toBe(2)
    expect(recipeLines(run.stderr).error).toBe(
      "error: --name 'demo' is not a stack name: it must be scoped, @account/slug.",
    )
    expect(existsSync(join(root.dir, '.svc/demo'))).toBe(false)
  })
})

describe('svc install and remove', () => {
  it('imports official generators by any of their names, once', async () => {
    const root = createAppRoot()
    await root.svc(['init', 'demo'])
    const run = await root.svc([
      'install',
      'gen-typescript',
      '@svc/gen-zod',
      'fetch-client',
      '--json',
    ])
    expect(run.code).toBe(0)
    expect(parseJsonStdout(run)).toEqual({
      type: 'installed',
      projectName: 'demo',
      added: [
        { key: 'gen-typescript', specifier: 'jsr:@svc/gen-typescript@^0.1.0' },
        { key: 'gen-zod', specifier: 'jsr:@svc/gen-zod@^0.1.0' },
        { key: 'gen-fetch-client', specifier: 'jsr:@svc/gen-fetch-client@^0.1.0' },
      ],
      unchanged: [],
    })
    const again = parseJsonStdout(await root.svc(['install', 'gen-zod', '--json']))
    expect(again).toMatchObject({ added: [], unchanged: ['gen-zod'] })
    expect(Object.keys(imports(root))).toEqual([
      '@svc/engine',
      'gen-typescript',
      'gen-zod',
      'gen-fetch-client',
    ])
    const removed = await root.svc(['remove', 'gen-zod', 'gen-typescript', '--json'])
    expect(parseJsonStdout(removed)).toEqual({
      type: 'removed',
      projectName: 'demo',
      removed: ['gen-zod', 'gen-typescript'],
      deletedFolders: [],
    })
    expect(Object.keys(imports(root))).toEqual(['@svc/engine', 'gen-fetch-client'])
  })

  it('installs gen-fetch-client with gen-tanstack-query, which builds on it', async () => {
    const root = createAppRoot()
    await root.svc(['init', 'demo'])
    const run = await root.svc(['install', 'tanstack-query'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe(
      'Installed gen-fetch-client (jsr:@svc/gen-fetch-client@^0.1.0) in demo: ' +
        'gen-tanstack-query builds on it\n' +
        'Installed gen-tanstack-query (jsr:@svc/gen-tanstack-query@^0.1.0) in demo\n',
    )
    expect(Object.keys(imports(root))).toEqual([
      '@svc/engine',
      'gen-fetch-client',
      'gen-tanstack-query',
    ])
    // A clone of the generator it builds on stands in for the import.
    const cloned = createAppRoot()
    await cloned.svc(['init', 'demo'])
    expect((await cloned.svc(['clone', 'demo', '-g', 'gen-fetch-client'])).code).toBe(0)
    const again = parseJsonStdout(await cloned.svc(['install', 'gen-tanstack-query', '--json']))
    expect(again).toMatchObject({
      added: [{ key: 'gen-tanstack-query' }],
      unchanged: ['gen-fetch-client'],
    })
    expect(imports(cloned)['gen-fetch-client']).toBe('./gen-fetch-client/mod.ts')
  })

  it('lists what it ships', async () => {
    const root = createAppRoot()
    const run = await root.svc(['install', '--list', '--json'])
    expect(run.code).toBe(0)
    expect((parseJsonStdout(run).generators as { key: string }[]).map((g) => g.key)).toEqual([
      'gen-typescript',
      'gen-zod',
      'gen-fetch-client',
      'gen-tanstack-query',
      'gen-graphql-client',
    ])
  })

  it('refuses unknown generators, ambiguous projects, and removing what is not there: exit 2, nothing changed', async () => {
    const root = createAppRoot()
    const outside = await root.svc(['install', 'gen-zod'])
    expect(outside.code).toBe(2)
    expect(recipeLines(outside.stderr).discover).toMatch(/svc init <project>/)
    await root.svc(['init', 'one'])
    await root.svc(['init', 'two'])
    const before = root.read('.svc/one/deno.json')
    const unknown = await root.svc(['install', 'gen-typo', '--project', 'one'])
    expect(unknown.code).toBe(2)
    expect(recipeLines(unknown.stderr)).toMatchObject({
      error: "error: 'gen-typo' is not a generator svc ships.",
      discover: 'Discover: svc install --list',
    })
    const ambiguous = await root.svc(['install', 'gen-zod'])
    expect(ambiguous.code).toBe(2)
    expect(recipeLines(ambiguous.stderr).error).toBe(
      'error: Name the project: this app root has one, two.',
    )
    const absent = await root.svc(['remove', 'gen-zod', '--project', 'one'])
    expect(absent.code).toBe(2)
    expect(recipeLines(absent.stderr).error).toBe("error: 'gen-zod' is not a generator of one.")
    expect(root.read('.svc/one/deno.json')).toBe(before)
  })
})

describe('svc clone', () => {
  it("copies an official generator's source as gen-X/mod.ts and points the import at it", async () => {
    const root = createAppRoot()
    await root.svc(['init', 'demo'])
    await root.svc(['install', 'gen-zod'])
    const run = await root.svc(['clone', 'demo', '-g', 'gen-zod', '--json'])
    expect(run.code, run.stderr).toBe(0)
    const report = parseJsonStdout(run)
    expect(report.files).toEqual(expect.arrayContaining(['gen-zod/mod.ts', 'gen-zod/print-zod.ts']))
    expect((report.files as string[]).filter((file) => file.endsWith('.test.ts'))).toEqual([])
    expect(imports(root)['gen-zod']).toBe('./gen-zod/mod.ts')
    expect(root.read('.svc/demo/gen-zod/mod.ts')).toContain("id: '@svc/gen-zod'")
  })

  it('never lets a generator be both imported and cloned', async () => {
    const root = createAppRoot()
    await root.svc(['init', 'demo'])
    expect((await root.svc(['clone', 'demo', '-g', 'gen-typescript'])).code).toBe(0)
    const install = await root.svc(['install', 'gen-typescript'])
    expect(install.code).toBe(2)
    expect(recipeLines(install.stderr)).toMatchObject({
      error: expect.stringContaining('never both imported and cloned'),
      discover: 'Discover: svc remove gen-typescript --project demo --force',
    })
    const twice = await root.svc(['clone', 'demo', '-g', 'gen-typescript'])
    expect(twice.code).toBe(2)
    expect(recipeLines(twice.stderr).error).toMatch(/already cloned/)
    expect(imports(root)['gen-typescript']).toBe('./gen-typescript/mod.ts')
    // A clone is the project's own code: removing it needs --force.
    const remove = await root.svc(['remove', 'gen-typescript'])
    expect(remove.code).toBe(2)
    expect(recipeLines(remove.stderr).error).toMatch(/needs --force/)
    expect(existsSync(join(root.dir, '.svc/demo/gen-typescript/mod.ts'))).toBe(true)
    expect((await root.svc(['remove', 'gen-typescript', '--force'])).code).toBe(0)
    expect(existsSync(join(root.dir, '.svc/demo/gen-typescript'))).toBe(false)
    expect(imports(root)['gen-typescript']).toBeUndefined()
  })

  it('refuses a missing or unknown -g with a recipe error', async () => {
    const root = createAppRoot()
    await root.svc(['init', 'demo'])
    for (const args of [
      ['clone', 'demo'],
      ['clone', 'demo', '-g', 'gen-nope'],
    ]) {
      const run = await root.svc(args)
      expect(run.code).toBe(2)
      expect(recipeLines(run.stderr).discover).toBe('Discover: svc install --list')
    }
    expect(readFileSync(join(root.dir, '.svc/demo/deno.json'), 'utf8')).not.toContain('gen-')
  })
})

describe('svc --help and --version', () => {
  it('lists every command, documents each, and prints the version', async () => {
    const root = createAppRoot()
    const help = await root.svc(['--help'])
    expect(help.code).toBe(0)
    for (const command of ['init', 'install', 'clone', 'remove', 'bundle', 'generate', 'doctor'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'))
    const generate = await root.svc(['generate', '--help'])
    expect(generate.code).toBe(0)
    expect(generate.stdout).toMatch(/^Usage: svc generate \[options\] \[project\] \[schema\]/m)
    expect(generate.stdout).toContain('--no-input')
    const version = await root.svc(['--version'])
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' })
  })
})
