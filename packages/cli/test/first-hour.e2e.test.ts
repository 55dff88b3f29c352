import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot, type AppRoot } from './support/app-root.js'
import {
  closedOrigin,
  createHome,
  failed,
  oneJson,
  startTestHub,
  type Home,
  type TestHub,
} from './support/hub.js'
import type { RunOptions } from './support/run-svc.js'

/**
 * A first hour with the real `svc` bin and a real hub: `svc init` names the stack after the
 * logged-in user, and `svc publish` refuses an account that cannot be the user's (the `@local`
 * placeholder above all) before it bundles anything, saying what to write instead.
 */

let t: TestHub
const homes: Home[] = []
const home = (login?: { host: string; token: string }) => {
  const created = createHome()
  if (login) created.writeLogin(login)
  homes.push(created)
  return created
}

beforeAll(async () => {
  t = await startTestHub()
})
afterAll(async () => {
  await t?.dispose()
  for (const h of homes) h.dispose()
})

const svc = (root: AppRoot, args: readonly string[], h: Home, options: RunOptions = {}) =>
  root.svc(args, { ...options, env: { ...h.env, ...options.env } })

describe('svc init names the stack after the login', () => {
  it('logged in as alice: @alice/<project>, in deno.json and the answer', async () => {
    const root = createAppRoot()
    const h = home({ host: t.url, token: t.people.alice })
    const run = await svc(root, ['init', 'demo', '--json'], h)
    expect(run.code, run.stderr).toBe(0)
    expect(oneJson(run)).toMatchObject({ name: '@alice/demo', nameFrom: 'login' })
    expect(oneJson(run)).not.toHaveProperty('note')
    expect(root.json('.svc/demo/deno.json').name).toBe('@alice/demo')

    const text = await svc(root, ['init', 'other'], h)
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('Created .svc/other (@alice/other)')
    expect(text.stderr).toBe('')
  })

  it('--name still wins over the login', async () => {
    const root = createAppRoot()
    const h = home({ host: t.url, token: t.people.alice })
    const run = await svc(root, ['init', 'demo', '--name', '@acme/demo', '--json'], h)
    expect(oneJson(run)).toMatchObject({ name: '@acme/demo', nameFrom: 'flag' })
  })

  it('without a login: @local/<project>, and says what to do before publishing', async () => {
    const root = createAppRoot()
    const run = await svc(root, ['init', 'demo'], home())
    expect(run.code).toBe(0)
    expect(root.json('.svc/demo/deno.json').name).toBe('@local/demo')
    expect(run.stderr).toBe(
      'note: not logged in, so the stack is @local/demo, a placeholder no hub has: run svc login, then set "name": "@<your handle>/demo" in .svc/demo/deno.json before svc publish (or give svc init --name).\n',
    )
  })

  it('a login whose hub does not answer: init still works, with @local and why', async () => {
    const root = createAppRoot()
    const closed = await closedOrigin()
    const run = await svc(root, ['init', 'demo', '--json'], home({ host: closed, token: 'x' }))
    expect(run.code, run.stderr).toBe(0)
    const answer = oneJson(run)
    expect(answer).toMatchObject({ name: '@local/demo', nameFrom: 'placeholder' })
    expect(answer.note).toContain(`could not learn your handle from ${closed} (cannot reach`)
    expect(answer.note).toContain('"name": "@<your handle>/demo" in .svc/demo/deno.json')
  })
})

describe('svc publish checks the account before bundling', () => {
  /** An app root whose project `demo` publishes to `name`. */
  async function project(name: string) {
    const root = createAppRoot()
    expect((await svc(root, ['init', 'demo', '--name', name], home())).code).toBe(0)
    return root
  }
  const bundled = (root: AppRoot) => existsSync(join(root.dir, '.svc/demo/server.js'))

  it('@local with a login: refused at stage identity, naming the real user; nothing bundled or sent', async () => {
    const root = await project('@local/demo')
    const h = home({ host: t.url, token: t.people.alice })
    const posts = await t.requests({ method: 'POST' })
    const text = await svc(root, ['publish', 'demo'], h)
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toBe(
      `Publishing demo failed at stage identity:\n  @local/demo is the placeholder svc init writes without a login: set "name": "@alice/demo" in .svc/demo/deno.json (or an organisation's: @acme/demo)\n`,
    )
    failed(await svc(root, ['publish', 'demo', '--json'], h), 'identity', '"@alice/demo"')
    expect(bundled(root)).toBe(false)
    expect(await t.requests({ method: 'POST' })).toBe(posts)
  })

  it('@local when the hub does not answer: refused all the same, with the generic fix', async () => {
    const root = await project('@local/demo')
    const closed = await closedOrigin()
    const reason = failed(
      await svc(root, ['publish', 'demo', '--json', '--token', 'x', '--origin', closed], home()),
      'identity',
      "no hub has the account 'local'",
    )
    expect(reason).toContain('"name": "@<your handle>/demo" in .svc/demo/deno.json')
    expect(reason).toContain('svc whoami')
    expect(bundled(root)).toBe(false)
  })

  it("an account that is neither the user nor one of their organisations: refused, with the user's own", async () => {
    const root = await project('@acme/guarded')
    // nora is not a member of acme.
    const reason = failed(
      await svc(
        root,
        ['publish', 'demo', '--json', '--token', t.people.nora, '--origin', t.url],
        home(),
      ),
      'identity',
      `'acme' is neither you (nora on ${t.url}) nor one of your organisations`,
    )
    expect(reason).toContain('set "name": "@nora/guarded" in .svc/demo/deno.json')
    expect(bundled(root)).toBe(false)
    expect((await t.get('/v1/stacks/acme/guarded')).status).toBe(404)
  })

  it('the first hour: login, init without --name, publish — published under the user', async () => {
    const root = createAppRoot()
    const h = home({ host: t.url, token: t.people.walt })
    expect((await svc(root, ['init', 'demo'], h)).code).toBe(0)
    const run = await svc(root, ['publish', 'demo', '--json'], h)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(oneJson(run)).toMatchObject({
      type: 'published',
      stack: { account: 'walt', slug: 'demo' },
      version: '0.1.0',
    })
  })
})
