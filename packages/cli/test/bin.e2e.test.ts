import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot, PETSTORE } from './support/app-root.js'
import { createHome, startTestHub, type Home, type TestHub } from './support/hub.js'
import { assertBuilt, runSvcProcess, type SvcRun } from './support/run-svc.js'

/*
 * Every other test runs commands in process through run(argv, io). These run the real bin, one
 * per command, in order, so that bin → main → the process's streams, cwd, environment and exit
 * code stay covered for each.
 */

const CLEAN = `openapi: 3.0.3
info: {title: Clean, version: "1"}
paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
  /owners:
    get:
      responses:
        "200":
          description: ok
`
const NARROWED = CLEAN.slice(0, CLEAN.indexOf('  /owners:'))

let t: TestHub
let h: Home
const root = createAppRoot()

beforeAll(async () => {
  assertBuilt()
  writeFileSync(join(root.dir, 'v1.yaml'), CLEAN)
  writeFileSync(join(root.dir, 'v2.yaml'), NARROWED)
  t = await startTestHub()
  h = createHome()
  await t.createProject('acme', 'smoke')
})
afterAll(async () => {
  await t?.dispose()
  h?.dispose()
})

const svc = (args: readonly string[], stdin?: string) =>
  runSvcProcess(args, {
    cwd: root.dir,
    env: h.env,
    timeoutMs: 180_000,
    ...(stdin === undefined ? {} : { stdin }),
  })

function ok(run: SvcRun): string {
  expect(run.code, run.stderr).toBe(0)
  return run.stdout
}

describe('the svc bin, one command at a time', () => {
  it('check', async () => {
    expect(ok(await svc(['check', 'v1.yaml']))).toBe('v1.yaml: OpenAPI 3.0.3 (YAML)\n✓ no issues\n')
  })

  it('to-v3-json', async () => {
    const document = JSON.parse(ok(await svc(['to-v3-json', '-'], CLEAN))) as { paths: object }
    expect(Object.keys(document.paths)).toEqual(['/pets', '/owners'])
  })

  it('diff: exit 1 on a breaking change with --fail-on', async () => {
    const run = await svc(['diff', 'v1.yaml', 'v2.yaml', '--fail-on', 'breaking'])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('GET /owners')
    expect(run.stderr).toBe('error: --fail-on breaking: 1 breaking change.\n')
  })

  it('init', async () => {
    expect(ok(await svc(['init', 'demo', '--name', '@acme/bin-smoke']))).toBe(
      'Created .svc/demo (@acme/bin-smoke); generated files will go to generated/demo.\n' +
        'Next: svc install gen-typescript gen-zod --project demo\n',
    )
  })

  it('install', async () => {
    expect(ok(await svc(['install', 'gen-typescript']))).toBe(
      'Installed gen-typescript (jsr:@svc/gen-typescript@^0.1.0) in demo\n',
    )
  })

  it('clone', async () => {
    expect(ok(await svc(['clone', 'demo', '-g', 'gen-zod']))).toMatch(
      /^Cloned @svc\/gen-zod into \.svc\/demo\/gen-zod \(\d+ files\)\.\n/,
    )
  })

  it('remove: exit 2 without --force for a clone', async () => {
    const run = await svc(['remove', 'gen-zod'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^error: gen-zod is cloned in demo: .*needs --force\.\nUsage: /)
  })

  it('bundle', async () => {
    expect(ok(await svc(['bundle', 'demo', '--json']))).toMatch(/"type": "bundled"/)
  })

  it('generate (the bundle runs in a worker thread)', async () => {
    expect(ok(await svc(['generate', 'demo', PETSTORE]))).toMatch(
      /^@svc\/gen-typescript: \d+ success\n(.*\n)*Wrote \d+ files? \(\d+ lines\) to generated\/demo in \d+ ms\.\n$/,
    )
  })

  it('doctor', async () => {
    expect(ok(await svc(['doctor']))).toMatch(/^ok {4}node-version/)
  })

  it('login, reading the token from stdin', async () => {
    expect(ok(await svc(['login', '--origin', t.url, '--with-token'], t.people.alice))).toBe(
      `Logged in to ${t.url} as alice (saved in ${h.loginFile}).\n`,
    )
  })

  it('whoami', async () => {
    expect(ok(await svc(['whoami']))).toBe(
      `alice on ${t.url} (token from the login file, origin from the login file)\n`,
    )
  })

  it('publish', async () => {
    expect(ok(await svc(['publish', 'demo']))).toMatch(
      /^Published demo as acme\/bin-smoke@0\.1\.0\n {2}bundle {3}\.svc\/demo\/server\.js\n/,
    )
  })

  it('push', async () => {
    expect(ok(await svc(['push', 'demo', '--project', '@acme/smoke']))).toMatch(
      /^Pushed demo to acme\/smoke\n {2}origin {7}http/,
    )
  })

  it('pull', async () => {
    expect(ok(await svc(['pull', 'demo']))).toBe('demo already matches @acme/smoke.\n')
  })

  it('logout', async () => {
    expect(ok(await svc(['logout']))).toBe(`Logged out: removed ${h.loginFile}.\n`)
  })
})
