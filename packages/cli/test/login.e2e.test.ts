import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppRoot } from './support/app-root.js'
import {
  closedOrigin,
  createHome,
  htmlErrorServer,
  oneJson,
  silentServer,
  startTestHub,
  type Home,
  type TestHub,
} from './support/hub.js'
import { recipeLines, runSvc, runSvcOnTerminal, type RunOptions } from './support/run-svc.js'

const DEFAULT_ORIGIN = 'http://localhost:8080'

let t: TestHub
const homes: Home[] = []
const home = () => {
  const created = createHome()
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

const svc = (h: Home, args: readonly string[], options: RunOptions = {}) =>
  runSvc(args, { ...options, env: { ...h.env, ...options.env } })

const mode = (path: string) => statSync(path).mode & 0o777
const stored = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown

describe('svc login', () => {
  it('--token: checks the token with GET /v1/user and stores {host, token} with mode 0600', async () => {
    const h = home()
    const checks = await t.requests({ method: 'GET', path: '/v1/user' })
    const run = await svc(h, [
      'login',
      '--origin',
      `${t.url}/`,
      '--token',
      t.people.alice,
      '--json',
    ])
    expect(run.code).toBe(0)
    expect(oneJson(run)).toEqual({
      type: 'logged-in',
      origin: t.url,
      user: 'alice',
      loginFile: h.loginFile,
    })
    expect(await t.requests({ method: 'GET', path: '/v1/user' })).toBe(checks + 1)
    expect(stored(h.loginFile)).toEqual({ host: t.url, token: t.people.alice })
    expect(mode(h.loginFile)).toBe(0o600)
    expect(mode(join(h.dir, '.config', 'svc'))).toBe(0o700)
  })

  it('--with-token: reads the token from stdin; the origin from $SVC_API_ORIGIN; text output', async () => {
    const h = home()
    const run = await svc(h, ['login', '--with-token'], {
      stdin: `${t.people.walt}\n`,
      env: { SVC_API_ORIGIN: t.url },
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`Logged in to ${t.url} as walt (saved in ${h.loginFile}).\n`)
    expect(stored(h.loginFile)).toEqual({ host: t.url, token: t.people.walt })
    expect(mode(h.loginFile)).toBe(0o600)
  })

  it('stores the login under $XDG_CONFIG_HOME/svc/ when it is set', async () => {
    const h = home()
    const xdg = join(h.dir, 'xdg')
    mkdirSync(xdg)
    const run = await svc(h, ['login', '--origin', t.url, '--token', t.people.rita, '--json'], {
      env: { XDG_CONFIG_HOME: xdg },
    })
    expect(run.code).toBe(0)
    const path = join(xdg, 'svc', 'login.json')
    expect(oneJson(run).loginFile).toBe(path)
    expect(stored(path)).toEqual({ host: t.url, token: t.people.rita })
    expect(mode(path)).toBe(0o600)
    expect(existsSync(h.loginFile)).toBe(false)
  })

  it('a token the hub refuses (401) stores nothing, says where to make one, and exits 1', async () => {
    const h = home()
    for (const [token, why] of [
      [
        'svc_pat_not-a-real-token',
        'HTTP 401: the token starts with svc_pat_ but has 16 characters after svc_pat_ where a personal access token has 43: was it copied whole?',
      ],
      [t.people.aliceRevoked, 'HTTP 401 unauthorized: The personal access token has been revoked.'],
    ]) {
      const run = await svc(h, ['login', '--origin', t.url, '--token', token!])
      expect(run.code).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr).toBe(
        `error: the hub at ${t.url} refused the token (${why}); make one at ${t.url}/settings/tokens; nothing was stored\n`,
      )
    }
    const json = await svc(h, ['login', '--origin', t.url, '--with-token', '--json'], {
      stdin: 'svc_pat_nope',
    })
    expect(json.code).toBe(1)
    expect(oneJson(json)).toMatchObject({ type: 'error', code: 'failed', exitCode: 1 })
    expect(existsSync(h.loginFile)).toBe(false)
    expect(existsSync(join(h.dir, '.config'))).toBe(false)
  })

  it('without a token and without a terminal: exit 2 with a recipe error, nothing stored', async () => {
    const h = home()
    for (const args of [
      ['login', '--origin', t.url, '--no-input'],
      ['login', '--origin', t.url],
      ['login', '--origin', t.url, '--json'],
    ]) {
      const run = await svc(h, args)
      expect(run.code, args.join(' ')).toBe(2)
      const recipe = recipeLines(run.stderr)
      expect(recipe.error).toMatch(/needs a token: --token <pat>, or --with-token/)
      expect(recipe.usage).toMatch(/^Usage: svc login /)
      expect(recipe.example).toMatch(/^Example: .*svc login .*--with-token/)
      expect(recipe.discover).toBe(
        `Discover: ${t.url}/settings/tokens in the web app, or svc-hub admin create-token <user>`,
      )
      if (args.includes('--json'))
        expect(oneJson(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
      else expect(run.stdout).toBe('')
    }
    const empty = await svc(h, ['login', '--origin', t.url, '--with-token'], { stdin: '\n' })
    expect(empty.code).toBe(2)
    expect(recipeLines(empty.stderr).error).toBe('error: The token is empty.')
    const both = await svc(h, ['login', '--token', 'x', '--with-token'])
    expect(both.code).toBe(2)
    expect(recipeLines(both.stderr).error).toMatch(/not both/)
    expect(existsSync(h.loginFile)).toBe(false)
  })

  it('--help says where to make a token and which scope each command needs', async () => {
    const run = await runSvc(['login', '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("Make a token in the hub's web app at <origin>/settings/tokens")
    const table = run.stdout
      .split('\n')
      .filter((line) => /^ {2}svc /.test(line))
      .map((line) => line.trim().split(/ {2,}/))
    expect(table).toEqual(
      expect.arrayContaining([
        ['svc login', 'any scope'],
        ['svc whoami', 'any scope'],
        ['svc publish', 'write:releases'],
        ['svc push', 'write:projects'],
        ['svc pull', 'read or write:projects'],
        ['svc doctor', 'any scope'],
        ['svc api push', 'write:apis'],
        ['svc api webhooks …', 'admin:webhooks'],
        ['svc projects list', 'read or write:projects'],
      ]),
    )
  })

  it('on a terminal without a token it asks for it, hidden, then stores it', async () => {
    const h = home()
    const run = await runSvcOnTerminal(['login', '--origin', t.url], {
      cwd: h.dir,
      env: h.env,
      answer: { after: 'Personal access token', keys: `${t.people.walt}\r` },
    })
    expect(run.timedOut, run.output).toBe(false)
    expect(run.answered, run.output).toBe(true)
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain(`Logged in to ${t.url} as walt (saved in ${h.loginFile}).`)
    expect(run.output).not.toContain(t.people.walt)
    const where = run.output.indexOf(`Make a token at ${t.url}/settings/tokens;`)
    expect(where, run.output).toBeGreaterThanOrEqual(0)
    expect(where).toBeLessThan(run.output.indexOf('Personal access token'))
    expect(stored(h.loginFile)).toEqual({ host: t.url, token: t.people.walt })
    expect(mode(h.loginFile)).toBe(0o600)
  })

  it('cannot reach the hub, or the hub is not JSON: exit 1 with the reason, no stack trace', async () => {
    const h = home()
    const closed = await closedOrigin()
    const down = await svc(h, ['login', '--origin', closed, '--token', t.people.alice])
    expect(down.code).toBe(1)
    expect(down.stderr).toMatch(
      new RegExp(`^error: cannot check the token: cannot reach the hub at ${closed} \\(`),
    )
    expect(down.stderr).toMatch(/nothing was stored\n$/)
    const html = await htmlErrorServer()
    try {
      const run = await svc(h, ['login', '--origin', html.origin, '--token', 'x', '--json'])
      expect(run.code).toBe(1)
      expect(oneJson(run).message).toMatch(/answered HTTP 500 with a body that is not JSON/)
      expect(run.stderr).not.toMatch(/\n\s+at /)
    } finally {
      await html.close()
    }
    expect(existsSync(h.loginFile)).toBe(false)
  })

  it('a server that answers GET /v1/user with another shape: exit 1 naming the request, field and origin', async () => {
    const h = home()
    // Not an svc hub: a foreign server whose 200 answer has no `handle` or `token`.
    const foreign = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ login: 'alice', id: 7 }))
    })
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
    try {
      const run = await svc(h, ['login', '--origin', origin, '--token', 'x'])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(
        `error: cannot check the token: the hub at ${origin} answered GET /v1/user with a body svc cannot read: \`id\`: `,
      )
      expect(run.stderr).toMatch(/`handle`: [^\n]*expected string/)
      expect(run.stderr).not.toMatch(/\n\s+at /)
    } finally {
      await new Promise<void>((resolve) => foreign.close(() => resolve()))
    }
    expect(existsSync(h.loginFile)).toBe(false)
  })
})

describe('svc logout', () => {
  it('removes the login file; again it is a no-op with exit 0', async () => {
    const h = home()
    expect((await svc(h, ['login', '--origin', t.url, '--token', t.people.alice])).code).toBe(0)
    expect(existsSync(h.loginFile)).toBe(true)
    const first = await svc(h, ['logout', '--json'])
    expect(first.code).toBe(0)
    expect(oneJson(first)).toEqual({ type: 'logged-out', removed: true, loginFile: h.loginFile })
    expect(existsSync(h.loginFile)).toBe(false)
    const again = await svc(h, ['logout', '--json'])
    expect(again.code).toBe(0)
    expect(oneJson(again)).toEqual({ type: 'logged-out', removed: false, loginFile: h.loginFile })
    const text = await svc(h, ['logout'])
    expect(text.code).toBe(0)
    expect(text.stdout).toBe(`Not logged in: there is no ${h.loginFile}.\n`)
    // After logout, nothing is left to resolve a token from.
    const whoami = await svc(h, ['whoami'])
    expect(whoami.code).toBe(2)
    expect(recipeLines(whoami.stderr).error).toMatch(/Not logged in/)
  })

  it('text output names the removed file', async () => {
    const h = home()
    h.writeLogin({ host: t.url, token: t.people.alice })
    const run = await svc(h, ['logout'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`Logged out: removed ${h.loginFile}.\n`)
    expect(existsSync(h.loginFile)).toBe(false)
  })
})

describe('svc whoami', () => {
  it('names the user and the origin, and where each came from (text and --json)', async () => {
    const h = home()
    expect((await svc(h, ['login', '--origin', t.url, '--token', t.people.alice])).code).toBe(0)
    const text = await svc(h, ['whoami'])
    expect(text.code).toBe(0)
    expect(text.stdout).toBe(
      `alice on ${t.url} (token from the login file, origin from the login file)\n`,
    )
    const json = await svc(h, ['whoami', '--json'])
    expect(json.code).toBe(0)
    expect(oneJson(json)).toEqual({
      type: 'whoami',
      user: 'alice',
      origin: t.url,
      tokenFrom: 'login',
      originFrom: 'login',
    })
  })

  it('without any token: exit 2 with a recipe error', async () => {
    const h = home()
    const run = await svc(h, ['whoami', '--json'])
    expect(run.code).toBe(2)
    expect(recipeLines(run.stderr).error).toBe(
      'error: Not logged in: no --token, no $SVC_HUB_TOKEN and no stored login.',
    )
    expect(oneJson(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
  })

  it('a token the hub refuses: exit 1 naming 401', async () => {
    const h = home()
    const run = await svc(h, ['whoami', '--origin', t.url, '--token', t.people.aliceExpired])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^error: the hub refused the token \(the hub answered HTTP 401 unauthorized: .*\); run svc login again or pass --token\n$/,
    )
  })

  it('a hub that never answers: exit 1 after the 15 s timeout of the check', async () => {
    const h = home()
    const silent = await silentServer()
    try {
      const run = await svc(h, ['whoami', '--origin', silent.origin, '--token', 'x', '--json'], {
        timeoutMs: 40_000,
      })
      expect(run.code).toBe(1)
      expect(oneJson(run).message).toBe(
        `the hub at ${silent.origin} did not answer within 15 s; is the hub running, and are --origin, $SVC_API_ORIGIN or the login right?`,
      )
      expect(silent.connections()).toBeGreaterThan(0)
    } finally {
      await silent.close()
    }
  }, 45_000)
})

describe('token and origin resolution (SPEC 4.9, 5.2)', () => {
  it('the token: --token beats $SVC_HUB_TOKEN beats the login file', async () => {
    const h = home()
    h.writeLogin({ host: t.url, token: t.people.alice })
    const env = { SVC_API_ORIGIN: t.url, SVC_HUB_TOKEN: t.people.walt }
    const fromEnv = await svc(h, ['whoami', '--json'], { env })
    expect(oneJson(fromEnv)).toEqual({
      type: 'whoami',
      user: 'walt',
      origin: t.url,
      tokenFrom: 'env',
      originFrom: 'env',
    })
    const fromFlag = await svc(h, ['whoami', '--json', '--token', t.people.rita], { env })
    expect(oneJson(fromFlag)).toMatchObject({ user: 'rita', tokenFrom: 'flag' })
    const fromLogin = await svc(h, ['whoami', '--json'])
    expect(oneJson(fromLogin)).toMatchObject({ user: 'alice', tokenFrom: 'login' })
  })

  it('the origin: --origin beats $SVC_API_ORIGIN beats the stored host', async () => {
    const h = home()
    const closed = await closedOrigin()
    h.writeLogin({ host: closed, token: t.people.alice })
    const fromEnv = await svc(h, ['whoami', '--json'], { env: { SVC_API_ORIGIN: t.url } })
    expect(fromEnv.code).toBe(0)
    expect(oneJson(fromEnv)).toEqual({
      type: 'whoami',
      user: 'alice',
      origin: t.url,
      tokenFrom: 'login',
      originFrom: 'env',
    })
    const fromFlag = await svc(h, ['whoami', '--json', '--origin', t.url], {
      env: { SVC_API_ORIGIN: closed },
    })
    expect(fromFlag.code).toBe(0)
    expect(oneJson(fromFlag)).toMatchObject({ origin: t.url, originFrom: 'flag' })
    // Nothing else: the stored host, which is closed.
    const fromLogin = await svc(h, ['whoami', '--json'])
    expect(fromLogin.code).toBe(1)
    expect(oneJson(fromLogin).message).toMatch(`cannot reach the hub at ${closed}`)
  })

  it('the stored host is used only with the stored token: otherwise the default origin', async () => {
    const h = home()
    h.writeLogin({ host: t.url, token: t.people.alice })
    const cases: [string, string[], Record<string, string>][] = [
      ['$SVC_HUB_TOKEN', ['whoami', '--json'], { SVC_HUB_TOKEN: t.people.alice }],
      ['--token', ['whoami', '--json', '--token', t.people.alice], {}],
    ]
    for (const [name, args, env] of cases) {
      const before = await t.requests()
      const run = await svc(h, args, { env })
      expect(run.code, name).toBe(1)
      expect(oneJson(run).message, name).toMatch(`cannot reach the hub at ${DEFAULT_ORIGIN} (`)
      // The token was never sent to the host the login file names.
      expect(await t.requests(), name).toBe(before)
    }
  })

  it('an origin that is not http(s) is a recipe error (exit 2), whichever source gave it', async () => {
    const h = home()
    const cases: [string[], Record<string, string>, string][] = [
      [['whoami', '--token', 'x', '--origin', 'hub.example.com'], {}, '--origin'],
      [['whoami', '--token', 'x'], { SVC_API_ORIGIN: 'ftp://hub.example.com' }, '$SVC_API_ORIGIN'],
      [['login', '--token', 'x', '--origin', 'hub.example.com'], {}, ''],
    ]
    for (const [args, env, source] of cases) {
      const run = await svc(h, args, { env })
      expect(run.code, args.join(' ')).toBe(2)
      expect(recipeLines(run.stderr).error).toMatch(/is not an http\(s\) origin/)
      expect(run.stderr).toContain(source)
    }
    expect(existsSync(h.loginFile)).toBe(false)
  })

  it('with nothing but a token in the environment, the default origin', async () => {
    const h = home()
    const run = await svc(h, ['whoami'], { env: { SVC_HUB_TOKEN: 'svc_pat_x' } })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(`error: cannot reach the hub at ${DEFAULT_ORIGIN} (`)
  })
})

describe('svc login needs no app root', () => {
  it('works from an empty folder', async () => {
    const h = home()
    const root = createAppRoot()
    const run = await runSvc(['login', '--origin', t.url, '--token', t.people.nora], {
      cwd: root.dir,
      env: h.env,
    })
    expect(run.code).toBe(0)
    expect(stored(h.loginFile)).toEqual({ host: t.url, token: t.people.nora })
  })
})
