import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHome, startTestHub, type Home, type TestHub } from './support/hub.js'
import { REPO_ROOT, runCommand, type SvcRun } from './support/run-svc.js'

/*
 * The one line of docs/install.md, as a new user runs it: plain npm installs the CLI from the
 * hub's /downloads/svc-cli.tgz into an empty folder outside this workspace, and the installed
 * `svc` works there on its own: check, api push against the hub, and init, install, generate,
 * bundle and clone, which resolve the engine, the generators and the stack server it carries.
 */

const CLI_DIR = join(REPO_ROOT, 'packages/cli')
const { version } = JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8')) as {
  version: string
}
const TARBALL = join(REPO_ROOT, 'packages/hub/downloads', `svc-cli-${version}.tgz`)

const DOCUMENT = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: the pets
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
  /owners:
    get:
      operationId: listOwners
      responses:
        "200":
          description: ok
components:
  schemas:
    Pet:
      type: object
      required: [id]
      properties:
        id: {type: integer}
        name: {type: string}
`
/** The document without /owners: a breaking change. */
const NARROWED = DOCUMENT.replace(/ {2}\/owners:[\s\S]*?(?=components:)/, '')

let t: TestHub
let h: Home
let folder: string
let npmInstall: SvcRun

beforeAll(async () => {
  assertPacked()
  t = await startTestHub()
  h = createHome()
  // Under the system's temporary folder: no node_modules, package.json or .npmrc of this
  // workspace above it.
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'svc-install-')))
  npmInstall = await runCommand(
    'npm',
    ['i', '--no-audit', '--no-fund', '--prefer-offline', `${t.url}/downloads/svc-cli.tgz`],
    { cwd: folder, env: npmEnv(), timeoutMs: 170_000 },
  )
}, 180_000)

afterAll(async () => {
  await t?.dispose()
  h?.dispose()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

/** The installed `svc`, in the folder, with the test's HOME (no login) and `env` over it. */
const svc = (args: readonly string[], env: Record<string, string | undefined> = {}) =>
  runCommand(join(folder, 'node_modules/.bin/svc'), args, {
    cwd: folder,
    env: { ...process.env, NO_COLOR: '1', ...h.env, ...env },
    timeoutMs: 60_000,
  })

describe('npm i <hub>/downloads/svc-cli.tgz in an empty folder', () => {
  it('installs @svc/cli with plain npm', () => {
    expect(npmInstall.code, npmInstall.stderr).toBe(0)
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(manifest.dependencies).toEqual({ '@svc/cli': `${t.url}/downloads/svc-cli.tgz` })
    const installed = JSON.parse(
      readFileSync(join(folder, 'node_modules/@svc/cli/package.json'), 'utf8'),
    ) as { name: string; version: string }
    expect(installed).toMatchObject({ name: '@svc/cli', version })
  })

  it('holds no link and no path into this workspace', () => {
    const links: string[] = []
    const mentions: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isSymbolicLink()) {
          links.push(relative(folder, path))
          // npm's .bin links are the only ones, and they point into the folder.
          expect(relative(folder, dirname(path)), path).toMatch(/(^|\/)\.bin$/)
          const target = realpathSync(path)
          expect(target.startsWith(`${folder}${sep}`), `${path} → ${readlinkSync(path)}`).toBe(true)
        } else if (entry.isDirectory()) walk(path)
        else if (
          path.includes(`${sep}@svc${sep}`) ||
          entry.name === 'package-lock.json' ||
          entry.name === 'package.json'
        ) {
          if (namesWorkspace(readFileSync(path, 'utf8'))) mentions.push(relative(folder, path))
        }
      }
    }
    walk(folder)
    expect(mentions).toEqual([])
    expect(links).toContain(join('node_modules', '.bin', 'svc'))
    // The workspace packages the CLI bundles into projects are real folders of the package.
    for (const name of ['engine', 'gen-zod', 'stack-server']) {
      const path = join(folder, 'node_modules/@svc/cli/node_modules/@svc', name)
      expect(lstatSync(path).isDirectory(), name).toBe(true)
      expect(existsSync(join(path, 'src', 'index.test.ts'))).toBe(false)
    }
    expect(lstatSync(join(folder, 'node_modules/@svc/cli/dist')).isDirectory()).toBe(true)
  })

  it('svc --version prints the version; a hub of the same version adds nothing', async () => {
    const run = await svc(['--version'], { SVC_API_ORIGIN: t.url })
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('svc --help names the docs in the svc repository, not a path of this machine', async () => {
    const run = await svc(['check', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Docs: docs/commands/check.md in the svc repository')
    expect(run.stdout).not.toContain(folder)
    expect(namesWorkspace(run.stdout)).toBe(false)
  })

  it('svc check reads a document', async () => {
    writeFileSync(join(folder, 'openapi.yaml'), DOCUMENT)
    writeFileSync(join(folder, 'narrowed.yaml'), NARROWED)
    const run = await svc(['check', 'openapi.yaml'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('OpenAPI 3.0.3 (YAML)')
  })

  it('svc api push stores revisions on the hub and gates a breaking change', async () => {
    const env = { SVC_API_ORIGIN: t.url, SVC_HUB_TOKEN: t.people.alice }
    const created = await svc(['api', 'create', 'acme/installed-pets', '--name', 'Pets'], env)
    expect(created.code, created.stderr).toBe(0)
    const first = await svc(['api', 'push', 'acme/installed-pets', 'openapi.yaml', '--json'], env)
    expect(first.code, first.stderr).toBe(0)
    const breaking = await svc(
      ['api', 'push', 'acme/installed-pets', 'narrowed.yaml', '--fail-on', 'breaking'],
      env,
    )
    expect(breaking.code, breaking.stderr).toBe(1)
    expect(breaking.stdout).toContain('/owners')
    const revisions = await t.get('/v1/apis/acme/installed-pets/revisions')
    expect(revisions.body.revisions).toHaveLength(2)
  })

  it('svc api diff compares with the hub and stores nothing; svc api accept lets the gate pass', async () => {
    const env = { SVC_API_ORIGIN: t.url, SVC_HUB_TOKEN: t.people.alice }
    // The branch's document against the latest revision (the narrowed one): no change.
    const same = await svc(['api', 'diff', 'acme/installed-pets', 'narrowed.yaml'], env)
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toContain('No changes.')
    // Against revision 1: the removal of /owners, which fails the gate.
    const against = await svc(
      ['api', 'diff', 'acme/installed-pets', 'narrowed.yaml', '--against', '1'],
      { ...env },
    )
    expect(against.stdout).toContain('/owners')
    const gated = await svc(
      [
        'api',
        'diff',
        'acme/installed-pets',
        'narrowed.yaml',
        '--against',
        '1',
        '--fail-on',
        'breaking',
      ],
      env,
    )
    expect(gated.code).toBe(1)
    expect((await t.get('/v1/apis/acme/installed-pets/revisions')).body.revisions).toHaveLength(2)

    // The stored breaking revision fails a re-run of the same push until it is accepted.
    const push = ['api', 'push', 'acme/installed-pets', 'narrowed.yaml', '--fail-on', 'breaking']
    expect((await svc(push, env)).code).toBe(1)
    const accept = await svc(
      ['api', 'accept', 'acme/installed-pets', '2', '--reason', 'Owners moved to their own API.'],
      env,
    )
    expect(accept.code, accept.stderr).toBe(0)
    const rerun = await svc(push, env)
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(rerun.stdout).toContain('Owners moved to their own API.')
  })

  it('svc init, install, generate, bundle --server and clone work from the package', async () => {
    const init = await svc(['init', 'demo', '--name', '@acme/demo'])
    expect(init.code, init.stderr).toBe(0)
    const install = await svc(['install', 'gen-typescript', 'gen-zod', 'gen-fetch-client'])
    expect(install.code, install.stderr).toBe(0)
    const generate = await svc(['generate', 'demo', 'openapi.yaml', '--no-input'])
    expect(generate.code, generate.stderr).toBe(0)
    const types = readFileSync(join(folder, 'generated/demo/types.ts'), 'utf8')
    expect(types).toContain('Pet')
    expect(existsSync(join(folder, 'generated/demo/zod.ts'))).toBe(true)
    expect(existsSync(join(folder, 'generated/demo/client.ts'))).toBe(true)

    const server = await svc(['bundle', 'demo', '--server'])
    expect(server.code, server.stderr).toBe(0)
    expect(namesWorkspace(readFileSync(join(folder, '.svc/demo/server.js'), 'utf8'))).toBe(false)

    const clone = await svc(['clone', 'demo', '-g', 'gen-zod'])
    expect(clone.code, clone.stderr).toBe(0)
    expect(readdirSync(join(folder, '.svc/demo/gen-zod')).some((f) => f.includes('.test.'))).toBe(
      false,
    )
    const bundled = await svc(['bundle', 'demo'])
    expect(bundled.code, bundled.stderr).toBe(0)
    const again = await svc(['generate', 'demo', 'openapi.yaml', '--no-input'])
    expect(again.code, again.stderr).toBe(0)
  })
})

/** Whether `text` names a folder of this workspace (its root alone, like /src/, could be anything). */
function namesWorkspace(text: string): boolean {
  return ['packages', 'node_modules'].some((name) => text.includes(join(REPO_ROOT, name) + sep))
}

/**
 * The tarball the hub serves is the one of the CLI built now: `npm run build` packs it after the
 * bundle (scripts/pack-cli.js), and the staged bundle is the current one.
 */
function assertPacked(): void {
  const stage = join(CLI_DIR, 'release/stage/dist')
  const problem = !existsSync(TARBALL)
    ? `${relative(REPO_ROOT, TARBALL)} is missing`
    : readdirSync(join(CLI_DIR, 'dist'))
        .filter((name) => name.startsWith('svc-bundle') && name.endsWith('.js'))
        .find(
          (name) =>
            !existsSync(join(stage, name)) ||
            !readFileSync(join(stage, name)).equals(readFileSync(join(CLI_DIR, 'dist', name))),
        )
  if (problem)
    throw new Error(`the CLI's tarball is not current (${problem}); run npm run build first.`)
}

/**
 * npm's environment without what `npm test` exported about this workspace (`npm_config_local_prefix`,
 * `npm_package_*` …), which would install into it; its cache, registry and proxy settings stay.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const keep =
    /^npm_config_(cache|registry|userconfig|proxy|https_proxy|noproxy|cafile|strict_ssl)$/i
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env))
    if (!/^npm_/i.test(name) || keep.test(name)) env[name] = value
  delete env.INIT_CWD
  return env
}
