import { existsSync, mkdirSync, renameSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createProject,
  GITHUB_REST,
  PETSTORE,
  typecheckFolder,
  type AppRoot,
} from './support/app-root.js'
import { parseJsonStdout, recipeLines, runSvcOnTerminal } from './support/run-svc.js'

const ANSI = /\u001b\[/

const project = createProject

function setClientJson(
  root: AppRoot,
  change: (config: Record<string, any>) => void,
  name = 'demo',
) {
  const path = join(root.dir, '.svc', name, '.settings/client.json')
  const config = JSON.parse(readFileSync(path, 'utf8'))
  change(config)
  writeFileSync(path, JSON.stringify(config, null, 2))
}

describe("svc generate: the issue's first runs", () => {
  it('init + install + generate on the Petstore gives files that compile', async () => {
    const root = await project(['gen-typescript', 'gen-zod', 'gen-fetch-client'])
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.stderr).toContain('Bundling demo (no bundle.js yet)')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^Wrote 3 files \(\d+ lines\) to generated\/demo in \d+ ms\.$/m)
    expect(root.files('generated/demo')).toEqual(['client.ts', 'types.ts', 'zod.ts'])
    expect(typecheckFolder(join(root.dir, 'generated/demo'))).toEqual({ status: 0, output: '' })
    const manifest = root.json('.svc/demo/.settings/manifest.json')
    expect(manifest.parseIssues).toEqual([])
    expect(manifest.files['types.ts']).toEqual({
      lines: expect.any(Number),
      characters: root.read('generated/demo/types.ts').length,
      destinationPath: 'generated/demo/types.ts',
    })
    expect(manifest.results['@svc/gen-fetch-client']['GET /pet/{petId}']).toEqual({
      status: 'success',
    })
    expect(Object.values(manifest.render)).toEqual([
      { status: 'success' },
      { status: 'success' },
      { status: 'success' },
    ])
  })
})

describe('svc generate with gen-tanstack-query', () => {
  it('writes queries.ts beside the client it calls, and the files compile', async () => {
    const root = await project(['gen-fetch-client', 'gen-tanstack-query'])
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.code, run.stderr).toBe(0)
    expect(root.files('generated/demo')).toEqual(['client.ts', 'queries.ts', 'types.ts'])
    expect(root.read('generated/demo/queries.ts')).toContain(
      'export function getPetByIdQuery(...[args, options]: Parameters<typeof getPetById>)',
    )
    expect(typecheckFolder(join(root.dir, 'generated/demo'))).toEqual({ status: 0, output: '' })
  })

  it('fails to render queries.ts without gen-fetch-client, naming the missing client.ts', async () => {
    // svc install brings gen-fetch-client along; a project can still remove it afterwards.
    const root = await project(['gen-tanstack-query'])
    expect((await root.svc(['remove', 'gen-fetch-client'])).code).toBe(0)
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    const run = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(run.code).toBe(1)
    expect(parseJsonStdout(run).errors).toContainEqual({
      generator: null,
      item: 'queries.ts',
      cause: expect.stringContaining(
        "depends on 'HttpStatus' in file 'client.ts', which is not registered",
      ),
    })
  })
})

describe('svc generate --json', () => {
  it('prints exactly one JSON object and nothing coloured, progress or bundling notes on stderr', async () => {
    const root = await project(['gen-typescript'])
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    const run = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(run.code).toBe(0)
    expect(run.stdout).not.toMatch(ANSI)
    const report = parseJsonStdout(run)
    expect(report).toEqual({
      type: 'generated',
      projectName: 'demo',
      basePath: 'generated/demo',
      manifestPath: join(root.dir, '.svc/demo/.settings/manifest.json'),
      stats: { files: 1, lines: expect.any(Number), totalTimeMs: expect.any(Number) },
      files: ['generated/demo/types.ts'],
      removedFiles: [],
      results: { '@svc/gen-typescript': { success: 6 } },
      errors: [],
      parseIssues: [],
      enrichmentWarnings: [],
    })
  })

  it('takes the schema from client.json "source", relative to the app root', async () => {
    const root = await project(['gen-typescript'])
    setClientJson(root, (config) => (config.source = 'petstore.json'))
    writeFileSync(join(root.dir, 'petstore.json'), readFileSync(PETSTORE))
    const run = await root.svc(['generate', 'demo'])
    expect(run.code, run.stderr).toBe(0)
    expect(root.files('generated/demo')).toEqual(['types.ts'])
  })

  it('refuses a missing schema or an unknown project with a recipe error, exit 2', async () => {
    const root = await project(['gen-typescript'])
    const noProject = await root.svc(['generate'])
    expect(noProject.code).toBe(2)
    expect(recipeLines(noProject.stderr).error).toMatch(/needs a schema/)
    const noSchema = await root.svc(['generate', 'demo', '--json'])
    expect(noSchema.code).toBe(2)
    expect(recipeLines(noSchema.stderr).error).toMatch(/needs a schema/)
    expect(parseJsonStdout(noSchema)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
    const unknown = await root.svc(['generate', 'nope', PETSTORE])
    expect(unknown.code).toBe(2)
    expect(recipeLines(unknown.stderr).error).toMatch(/No project 'nope' .*\(projects: demo\)/)
  })

  it('exits 1 on a document it cannot read, and writes nothing', async () => {
    const root = await project(['gen-typescript'])
    writeFileSync(join(root.dir, 'broken.yaml'), 'openapi: 3.0.0\ninfo: [\n')
    const run = await root.svc(['generate', 'demo', 'broken.yaml'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^error: .*broken\.yaml:\d+:\d+: /m)
    expect(existsSync(join(root.dir, 'generated'))).toBe(false)
    expect(existsSync(join(root.dir, '.svc/demo/.settings/manifest.json'))).toBe(false)
  })
})

describe('svc generate: bundles', () => {
  it("strict mode refuses a stale bundle with SPEC 7.6's message naming the generators; otherwise it bundles again", async () => {
    const root = await project(['gen-typescript'])
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    expect((await root.svc(['install', 'gen-zod'])).code).toBe(0)
    const strict = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(strict.code).toBe(2)
    const recipe = recipeLines(strict.stderr)
    expect(recipe.error).toBe('error: bundle.js is out of sync with deno.json — add: gen-zod')
    expect(recipe.usage).toBe('Usage: svc bundle [project]')
    expect(recipe.example).toBe('Example: svc bundle demo')
    expect(parseJsonStdout(strict)).toMatchObject({ type: 'error', exitCode: 2 })
    expect(existsSync(join(root.dir, 'generated'))).toBe(false)
    const noInput = await root.svc(['generate', 'demo', PETSTORE, '--no-input'])
    expect(noInput.code).toBe(2)
    const friendly = await root.svc(['generate', 'demo', PETSTORE])
    expect(friendly.stderr).toContain(
      'Bundling demo again: bundle.js is out of sync with deno.json — add: gen-zod',
    )
    expect(friendly.code).toBe(0)
    expect(root.files('generated/demo')).toEqual(['types.ts', 'zod.ts'])
    expect((await root.svc(['remove', 'gen-zod'])).code).toBe(0)
    const removed = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(recipeLines(removed.stderr).error).toBe(
      'error: bundle.js is out of sync with deno.json — remove: gen-zod',
    )
    // After a bundle, the file gen-zod made last time is removed.
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    const again = parseJsonStdout(await root.svc(['generate', 'demo', PETSTORE, '--json']))
    expect(again.removedFiles).toEqual(['generated/demo/zod.ts'])
    expect(root.files('generated/demo')).toEqual(['types.ts'])
  })

  it('names a generator that changed from imported to cloned, and runs a clone in a folder of any name', async () => {
    const root = await project(['gen-typescript'])
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    expect((await root.svc(['clone', 'demo', '-g', 'gen-typescript'])).code).toBe(0)
    const stale = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(recipeLines(stale.stderr).error).toBe(
      'error: bundle.js is out of sync with deno.json — change: gen-typescript (jsr:@svc/gen-typescript@^0.1.0 → ./gen-typescript/mod.ts)',
    )
    renameSync(join(root.dir, '.svc/demo/gen-typescript'), join(root.dir, '.svc/demo/my-types'))
    const path = join(root.dir, '.svc/demo/deno.json')
    const manifest = JSON.parse(readFileSync(path, 'utf8'))
    manifest.imports['gen-typescript'] = './my-types/mod.ts'
    writeFileSync(path, JSON.stringify(manifest))
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.code, run.stderr).toBe(0)
    expect(root.files('generated/demo')).toEqual(['types.ts'])
    const removed = parseJsonStdout(
      await root.svc(['remove', 'gen-typescript', '--force', '--json']),
    )
    expect(removed.deletedFolders).toEqual(['my-types'])
    expect(existsSync(join(root.dir, '.svc/demo/my-types'))).toBe(false)
  })

  it('builds the stack server with --server: server.ts from deno.json, a minified server.js', async () => {
    const root = await project(['gen-typescript', 'gen-zod'])
    const run = await root.svc(['bundle', 'demo', '--server', '--json'])
    expect(run.code, run.stderr).toBe(0)
    const report = parseJsonStdout(run)
    expect(report).toMatchObject({
      type: 'bundled',
      bundlePath: join(root.dir, '.svc/demo/server.js'),
      generators: ['gen-typescript', 'gen-zod'],
    })
    expect(root.read('.svc/demo/server.ts')).toContain(
      'startStackServer({ generators: [...g0, ...g1], identity: {"name":"@local/demo","version":"0.1.0"} })',
    )
    const server = root.read('.svc/demo/server.js')
    expect(server.split('\n', 1)[0]).toMatch(/^\/\/ svc-bundle \{"generators":\{"gen-typescript"/)
    expect(report.bytes).toBe(Buffer.byteLength(server))
    expect(existsSync(join(root.dir, '.svc/demo/bundle.js'))).toBe(false)
    // Minified: smaller than the worker bundle of the same generators, which is not.
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    expect(Buffer.byteLength(server)).toBeLessThan(
      0.8 * Buffer.byteLength(root.read('.svc/demo/bundle.js')),
    )
  })

  it('records the generators a bundle was built for on its first line', async () => {
    const root = await project(['gen-typescript', 'gen-zod'])
    const run = await root.svc(['bundle', 'demo', '--json'])
    expect(run.code).toBe(0)
    expect(parseJsonStdout(run)).toMatchObject({
      type: 'bundled',
      generators: ['gen-typescript', 'gen-zod'],
    })
    const first = root.read('.svc/demo/bundle.js').split('\n', 1)[0]!
    expect(JSON.parse(first.replace('// svc-bundle ', ''))).toEqual({
      generators: {
        'gen-typescript': 'jsr:@svc/gen-typescript@^0.1.0',
        'gen-zod': 'jsr:@svc/gen-zod@^0.1.0',
      },
      engine: '0.1.0',
      cloned: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
  })

  it("refuses to bundle against an engine the pin does not accept, pointing at doctor's fix", async () => {
    const root = await project(['gen-typescript'])
    const path = join(root.dir, '.svc/demo/deno.json')
    const manifest = JSON.parse(readFileSync(path, 'utf8'))
    manifest.imports['@svc/engine'] = 'jsr:@svc/engine@^9.0.0'
    writeFileSync(path, JSON.stringify(manifest))
    const run = await root.svc(['bundle', 'demo'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('project-core-pin/demo')
    expect(run.stderr).toContain('"@svc/engine": "jsr:@svc/engine@^0.1.0"')
    expect(existsSync(join(root.dir, '.svc/demo/bundle.js'))).toBe(false)
  })
})

describe('svc generate: enrichments (SPEC 7.7) and item errors (SPEC 7.6)', () => {
  it('reports every enrichment warning at its level with a suggestion, and never changes the output', async () => {
    const root = await project(['gen-typescript', 'gen-fetch-client'])
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    setClientJson(
      root,
      (config) => (config.settings.skip = ['/store/inventory', '@svc/gen-typescript']),
    )
    const plain = parseJsonStdout(await root.svc(['generate', 'demo', PETSTORE, '--json']))
    expect(plain.errors).toEqual([])
    const before = root.files('generated/demo').map((file) => root.read(`generated/demo/${file}`))
    setClientJson(root, (config) => {
      config.settings.enrichments = {
        '@svc/gen-fetch-clinet': { '/pet': { post: { main: {} } } },
        '@svc/gen-fetch-client': {
          '/pet/{petId}': { get: { main: { validat: true } } },
          '/pets/{petId}': { get: { main: {} } },
          '/store/inventory': { get: { main: {} } },
        },
        '@svc/gen-typescript': { Pet: { main: {} } },
      }
    })
    const run = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    const report = parseJsonStdout(run)
    const warnings = report.enrichmentWarnings as {
      type: string
      level: string
      path: string[]
      suggestion?: string
    }[]
    const byType = (type: string) => warnings.filter((w) => w.type === type)
    expect(byType('UNKNOWN_GENERATOR_ID')).toEqual([
      expect.objectContaining({
        level: 'warning',
        path: ['@svc/gen-fetch-clinet'],
        suggestion: '@svc/gen-fetch-client',
      }),
    ])
    expect(byType('UNKNOWN_ENRICHMENT_KEY')).toEqual([
      expect.objectContaining({
        level: 'warning',
        path: ['@svc/gen-fetch-client', '/pet/{petId}', 'get', 'main', 'validat'],
        suggestion: 'validate',
      }),
    ])
    expect(byType('UNCONSUMED_ENRICHMENT')).toEqual([
      expect.objectContaining({
        level: 'warning',
        path: ['@svc/gen-fetch-client', '/pets/{petId}', 'get'],
        suggestion: '/pet/{petId}',
      }),
    ])
    expect(byType('SKIPPED_SUBJECT_ENRICHMENT')).toEqual([
      expect.objectContaining({
        level: 'info',
        path: ['@svc/gen-fetch-client', '/store/inventory', 'get'],
      }),
    ])
    expect(byType('SKIPPED_GENERATOR_ENRICHMENT')).toEqual([
      expect.objectContaining({ level: 'info', path: ['@svc/gen-typescript'] }),
    ])
    expect(root.files('generated/demo').map((file) => root.read(`generated/demo/${file}`))).toEqual(
      before,
    )
    expect(run.code).toBe(0)
  })

  it('makes a wrong type, a missing main and a bad variant name item errors; the rest is written', async () => {
    const root = await project(['gen-fetch-client'])
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    setClientJson(root, (config) => {
      config.settings.enrichments = {
        '@svc/gen-fetch-client': {
          '/pet/{petId}': { get: { main: { validate: 'yes' } }, delete: { compact: {} } },
          '/pet': { post: { main: {}, Compact: {} } },
        },
      }
    })
    const run = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(run.code).toBe(1)
    const report = parseJsonStdout(run)
    expect(report.errors).toHaveLength(3)
    expect(report.errors).toEqual(
      expect.arrayContaining([
        {
          generator: '@svc/gen-fetch-client',
          item: 'POST /pet',
          cause: expect.stringMatching(/invalid variant name 'Compact'/),
        },
        {
          generator: '@svc/gen-fetch-client',
          item: 'GET /pet/{petId}',
          cause: expect.stringMatching(/\/pet\/\{petId\} → get → main.*validate/),
        },
        {
          generator: '@svc/gen-fetch-client',
          item: 'DELETE /pet/{petId}',
          cause: expect.stringContaining("must include a 'main' variant"),
        },
      ]),
    )
    const client = root.read('generated/demo/client.ts')
    expect(client).toMatch(/export (?:async )?function findPetsByStatus\(/)
    expect(client).not.toMatch(/export (?:async )?function getPetById\(/)
    expect(typecheckFolder(join(root.dir, 'generated/demo'))).toEqual({ status: 0, output: '' })
  })
})

describe('svc generate: cloned generators', () => {
  it("runs a clone's edits, and reports two generators claiming one place with SPEC 7.6's message", async () => {
    const root = await project(['gen-typescript', 'gen-zod'])
    expect((await root.svc(['clone', 'demo', '-g', 'gen-zod'])).code).toBe(0)
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    expect(root.files('generated/demo')).toEqual(['types.ts', 'zod.ts'])
    const mod = join(root.dir, '.svc/demo/gen-zod/mod.ts')
    // The clone now writes its schemas into types.ts under the types' own names.
    writeFileSync(
      mod,
      readFileSync(mod, 'utf8')
        .replace("toExportPath: () => 'zod.ts'", "toExportPath: () => 'types.ts'")
        .replace(
          /`\$\{toIdentifierName\(subject\.name, 'camel'\)\}Schema\$\{variantSuffix\(variant\)\}`/,
          "toIdentifierName(subject.refName, 'pascal') + variantSuffix(variant)",
        ),
    )
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.stderr).toContain('cloned generator sources changed')
    expect(run.code).toBe(1)
    const manifest = root.json('.svc/demo/.settings/manifest.json')
    expect(manifest.results['@svc/gen-zod']['model Pet']).toEqual({
      status: 'error',
      cause:
        "Registered definition mismatch: 'Pet' in file 'types.ts'. Cached key '@svc/gen-typescript|Pet|main' does not match new key '@svc/gen-zod|Pet|main'",
    })
    // The run had errors, so the last run's zod.ts stays.
    expect(root.files('generated/demo')).toEqual(['types.ts', 'zod.ts'])
    expect(root.read('generated/demo/types.ts')).not.toContain('Schema')
  })

  it('reports a clone that throws on import as exit 1, and one that throws or names badly as item errors', async () => {
    const root = await project(['gen-typescript'])
    expect((await root.svc(['clone', 'demo', '-g', 'gen-typescript'])).code).toBe(0)
    const mod = join(root.dir, '.svc/demo/gen-typescript/mod.ts')
    const original = readFileSync(mod, 'utf8')
    writeFileSync(mod, `${original}\nthrow new Error('clone broke on import')\n`)
    const onImport = await root.svc(['generate', 'demo', PETSTORE])
    expect(onImport.code).toBe(1)
    expect(onImport.stderr).toContain('clone broke on import')
    expect(onImport.stderr).not.toContain('internal error')
    writeFileSync(
      mod,
      original.replace(
        'transform({ context, subject, name, exportPath }) {',
        "transform({ context, subject, name, exportPath }) {\n    if (subject.refName === 'Order') throw new Error('no orders today')\n    if (subject.refName === 'Tag') name = 'my tag'",
      ),
    )
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.code).toBe(1)
    const results = root.json('.svc/demo/.settings/manifest.json').results['@svc/gen-typescript']
    expect(results['model Order']).toEqual({ status: 'error', cause: 'no orders today' })
    expect(results['model Tag']).toEqual({
      status: 'error',
      cause: expect.stringMatching(/my tag/),
    })
    expect(results['model User']).toEqual({ status: 'success' })
  })
})

describe('svc generate: progress', () => {
  it('shows progress per generator on a terminal, and none under --json', async () => {
    const root = await project(['gen-typescript', 'gen-zod'])
    expect((await root.svc(['bundle', 'demo'])).code).toBe(0)
    const run = await runSvcOnTerminal(['generate', 'demo', GITHUB_REST], {
      cwd: root.dir,
      timeoutMs: 120_000,
    })
    expect(run.code, run.output).toBe(0)
    // The spinner draws every 80 ms or so: gen-zod, quick after gen-typescript, may not show.
    const seen = [...run.output.matchAll(/@svc\/gen-typescript: (\d+)\/969/g)].map((m) =>
      Number(m[1]),
    )
    expect(seen.length).toBeGreaterThan(0)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(run.output).toMatch(/^Wrote 2 files/m)
    const json = await root.svc(['generate', 'demo', GITHUB_REST, '--json'])
    expect(json.stderr).not.toMatch(/\/969/)
  }, 180_000)
})

describe('svc generate: writing files', () => {
  it('removes files of the last run only when this run is complete and writes to the same folder', async () => {
    const root = await project(['gen-typescript', 'gen-zod'])
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    writeFileSync(
      join(root.dir, 'broken.json'),
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {},
        components: {
          schemas: {
            A: { type: 'object', properties: { b: { $ref: '#/components/schemas/Gone' } } },
          },
        },
      }),
    )
    // An error-level parse issue: the last run's files stay, though this run makes none of them.
    const failed = await root.svc(['generate', 'demo', 'broken.json', '--json'])
    expect(failed.code).toBe(1)
    expect(parseJsonStdout(failed).removedFiles).toEqual([])
    expect(root.files('generated/demo')).toEqual(['types.ts', 'zod.ts'])
    // Another folder: the files in the old one are left alone, and none of the new one's removed.
    setClientJson(root, (config) => (config.settings.basePath = 'src/api'))
    mkdirSync(join(root.dir, 'src/api'), { recursive: true })
    writeFileSync(join(root.dir, 'src/api/zod.ts'), '// mine')
    writeFileSync(
      join(root.dir, 'tag-only.json'),
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {},
        components: { schemas: { Tag: { type: 'string' } } },
      }),
    )
    expect((await root.svc(['remove', 'gen-zod'])).code).toBe(0)
    const moved = await root.svc(['generate', 'demo', 'tag-only.json', '--no-input'])
    expect(moved.code, moved.stderr).toBe(2)
    const rebuilt = await root.svc(['generate', 'demo', 'tag-only.json'])
    expect(rebuilt.code).toBe(0)
    expect(root.read('src/api/zod.ts')).toBe('// mine')
    expect(root.files('generated/demo')).toEqual(['types.ts', 'zod.ts'])
    expect(root.files('src/api')).toEqual(['types.ts', 'zod.ts'])
  })

  it('refuses a basePath that is the app root, writing nothing', async () => {
    const root = await project(['gen-typescript'])
    setClientJson(root, (config) => (config.settings.basePath = '.'))
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("error: basePath '.' is the app root or above it")
    expect(existsSync(join(root.dir, 'types.ts'))).toBe(false)
  })

  it('writes nothing and keeps the last run when basePath cannot be written', async () => {
    const root = await project(['gen-typescript', 'gen-zod'])
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    const before = {
      types: root.read('generated/demo/types.ts'),
      manifest: root.read('.svc/demo/.settings/manifest.json'),
    }
    // A file where a folder must be: unwritable even for root, who ignores file modes.
    setClientJson(root, (config) => (config.settings.basePath = 'generated/demo/types.ts/inner'))
    const run = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/cannot write .*no file was changed/)
    expect(parseJsonStdout(run)).toMatchObject({ type: 'error', code: 'failed', exitCode: 1 })
    expect(root.read('generated/demo/types.ts')).toBe(before.types)
    expect(root.read('.svc/demo/.settings/manifest.json')).toBe(before.manifest)
    expect(root.files('generated/demo')).toEqual(['types.ts', 'zod.ts'])
  })
})

describe('svc generate: the code cache of bundle.js', () => {
  const CACHE = '.svc/demo/.cache/bundle.js.v8cache'
  const keyOf = (root: AppRoot) => root.read(CACHE).split('\n', 1)[0]
  const inodeOf = (root: AppRoot) => statSync(join(root.dir, CACHE)).ino

  it('is written on the first run, used as it is on the next, and written again when bundle.js changes', async () => {
    const root = await project(['gen-typescript', 'gen-zod'])
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    const first = {
      types: root.read('generated/demo/types.ts'),
      zod: root.read('generated/demo/zod.ts'),
    }
    expect(keyOf(root)).toMatch(/^svc-bundle-cache 2 v\d+\.\d+\.\d+ \S+ \d+$/)
    // A folder that ignores itself: no project's .gitignore has to name it.
    expect(root.read('.svc/demo/.cache/.gitignore')).toMatch(/^\*$/m)
    const inode = inodeOf(root)
    // V8 accepted it: a rejected cache is written again, to a new file renamed into place.
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    expect(inodeOf(root)).toBe(inode)
    expect(root.read('generated/demo/types.ts')).toBe(first.types)
    expect(root.read('generated/demo/zod.ts')).toBe(first.zod)
    // The same length is not enough (V8 checks no more): the cache holds the bundle it was made of.
    const bundle = join(root.dir, '.svc/demo/bundle.js')
    const edited = readFileSync(bundle, 'utf8').replace('"use strict"', "'use strict'")
    writeFileSync(bundle, edited)
    expect(readFileSync(join(root.dir, CACHE)).includes(edited)).toBe(false)
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    expect(inodeOf(root)).not.toBe(inode)
    expect(readFileSync(join(root.dir, CACHE)).includes(edited)).toBe(true)
    expect(root.read('generated/demo/types.ts')).toBe(first.types)
  })

  it('is written again when V8 rejects it, and never changes the output', async () => {
    const root = await project(['gen-typescript'])
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    const types = root.read('generated/demo/types.ts')
    const cache = join(root.dir, CACHE)
    // Its key and bundle are right, so only V8 can tell that the data is not its own.
    const bundle = readFileSync(join(root.dir, '.svc/demo/bundle.js'))
    const garbage = Buffer.from('not V8 code '.repeat(100))
    writeFileSync(cache, Buffer.concat([Buffer.from(`${keyOf(root)}\n`), bundle, garbage]))
    const broken = statSync(cache).size
    expect((await root.svc(['generate', 'demo', PETSTORE])).code).toBe(0)
    expect(statSync(cache).size).not.toBe(broken)
    expect(root.read('generated/demo/types.ts')).toBe(types)
  })

  it("lets a clone's import() load as it did from the evaluated bundle", async () => {
    const root = await project(['gen-typescript'])
    expect((await root.svc(['clone', 'demo', '-g', 'gen-typescript'])).code).toBe(0)
    const mod = join(root.dir, '.svc/demo/gen-typescript/mod.ts')
    // A name esbuild cannot follow stays an import() in the bundle; a failed one ends the worker.
    const load = "await import(['node', 'os'].join(':')).then((os) => os.EOL)"
    writeFileSync(mod, `${readFileSync(mod, 'utf8')}\nvoid (async () => ${load})()\n`)
    const run = await root.svc(['generate', 'demo', PETSTORE])
    expect(run.code, run.stderr).toBe(0)
    expect(root.read('generated/demo/types.ts')).toContain('export type Pet')
  })

  it('generates as ever when the cache cannot be written', async () => {
    const root = await project(['gen-typescript'])
    // A file where the folder must be: unwritable even for root, who ignores file modes.
    writeFileSync(join(root.dir, '.svc/demo/.cache'), 'in the way')
    const run = await root.svc(['generate', 'demo', PETSTORE, '--json'])
    expect(run.code, run.stderr).toBe(0)
    expect(parseJsonStdout(run).files).toEqual(['generated/demo/types.ts'])
    expect(root.read('generated/demo/types.ts')).toContain('export type Pet')
    expect(root.read('.svc/demo/.cache')).toBe('in the way')
  })
})
