import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot } from './support/app-root.js'
import { createHome, oneJson, startTestHub, type Home, type TestHub } from './support/hub.js'
import { expectFailureStdout, recipeLines, runSvc, type RunOptions } from './support/run-svc.js'

let t: TestHub
let h: Home

beforeAll(async () => {
  t = await startTestHub()
  h = createHome()
  await t.createProject('acme', 'billing-web')
  await t.createProject('acme', 'admin-ui')
  await t.createProject('alice', 'scratch')
})
afterAll(async () => {
  await t?.dispose()
  h?.dispose()
})

/** `svc <args>` with alice's token and the test hub from the environment, unless overridden. */
const svc = (args: readonly string[], options: RunOptions = {}) =>
  runSvc(args, {
    ...options,
    env: { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url, ...options.env },
  })

describe('svc projects list', () => {
  it("lists the projects of the token's user and its organisations, by account and slug", async () => {
    const run = await svc(['projects', 'list'])
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`3 projects on ${t.url}`)
    expect(lines.slice(1).map((line) => line.trim().split(/\s+/)[0])).toEqual([
      '@acme/admin-ui',
      '@acme/billing-web',
      '@alice/scratch',
    ])
    expect(lines[2]).toMatch(
      /@acme\/billing-web\s+stack @acme\/billing-web-stack@latest\s+api acme\/billing-web-api\s+config never pushed/,
    )
  })

  it('--owner narrows to one account; --json prints one object', async () => {
    const json = oneJson(await svc(['projects', 'list', '--owner', 'acme', '--json']))
    expect(json.type).toBe('projects')
    expect(json.origin).toBe(t.url)
    expect(json.projects.map((p: { project: { slug: string } }) => p.project)).toEqual([
      { account: 'acme', slug: 'admin-ui' },
      { account: 'acme', slug: 'billing-web' },
    ])
    const nora = await svc(['projects', 'list'], { env: { SVC_HUB_TOKEN: t.people.nora } })
    expect(nora.stdout).toContain(`No projects on ${t.url} that the token can read.`)
  })

  it('refuses a wrong token, a token without read, an unknown account, a malformed one', async () => {
    const wrong = await svc(['projects', 'list', '--json'], { env: { SVC_HUB_TOKEN: 'svc_pat_x' } })
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('run svc login again or pass --token')
    expectFailureStdout(wrong, ['--json'])

    const scope = await svc(['projects', 'list'], {
      env: { SVC_HUB_TOKEN: (await tokenWith('write:apis')) ?? '' },
    })
    expect(scope.code).toBe(1)
    expect(scope.stderr).toContain('the token needs the scope read or write:projects')

    const unknown = await svc(['projects', 'list', '--owner', 'nobody'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain(`there is no account 'nobody' on ${t.url}`)

    const malformed = await svc(['projects', 'list', '--owner', 'Not A Handle'])
    expect(malformed.code).toBe(2)
    expect(recipeLines(malformed.stderr).error).toBe(
      "error: --owner 'Not A Handle' is not an account handle.",
    )
    const none = await svc(['projects', 'list'], { env: { SVC_HUB_TOKEN: undefined } })
    expect(none.code).toBe(2)
    expect(recipeLines(none.stderr).discover).toBe('Discover: svc login --help')
  })

  it('svc push and svc pull name it on their Discover line', async () => {
    const root = createAppRoot()
    expect((await root.svc(['init', 'demo'])).code).toBe(0)
    for (const command of ['push', 'pull']) {
      const run = await root.svc([command, 'demo', '--no-input'], {
        env: { ...h.env, SVC_HUB_TOKEN: t.people.alice, SVC_API_ORIGIN: t.url },
      })
      expect(run.code).toBe(2)
      expect(recipeLines(run.stderr).discover).toMatch(/^Discover: svc projects list\b/)
    }
  })
})

async function tokenWith(scopes: string): Promise<string | undefined> {
  const run = await t.hub.admin(['create-token', 'alice', '--scopes', scopes, '--json'])
  return run.code === 0 ? (JSON.parse(run.stdout) as { token: string }).token : undefined
}
