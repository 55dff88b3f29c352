import { spawn } from 'node:child_process'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD } from '../support/browser.js'
import { storeKinds } from '../support/databases.js'
import { adminToken } from '../support/fixtures.js'
import { HUB_BIN, startHub, type CommandRun, type HubProcess } from '../support/hub-process.js'
import { call } from '../support/http.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { WebSession, type PageAnswer } from '../support/web-session.js'

const PAT = /svc_pat_[A-Za-z0-9_-]{43}/
const API_KEY = /svc_key_[A-Za-z0-9_-]{43}/
const SIGNING_SECRET = /whsec_[A-Za-z0-9_-]{43}/
const ORG_PAGES = ['', '/members', '/api-keys', '/credits', '/rate-limits', '/usage']

/** `svc-hub admin <args>` with `input` on its stdin. */
function adminWithInput(hub: HubProcess, args: string[], input: string): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_BIN, 'admin', ...args], { env: hub.env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input)
  })
}

function secretOf(page: PageAnswer, pattern: RegExp): string {
  const found = pattern.exec(page.text)?.[0]
  if (!found) throw new Error(`no secret on the page:\n${page.text}`)
  return found
}

describe.each(await storeKinds())('web settings (%s)', (kind) => {
  let hub: HubProcess
  let owner: WebSession
  let writer: WebSession
  let stranger: WebSession

  beforeAll(async () => {
    hub = await startHub(kind)
    owner = new WebSession(hub.url)
    await owner.signUp('alice')
    writer = new WebSession(hub.url)
    await writer.signUp('bob')
    stranger = new WebSession(hub.url)
    await stranger.signUp('carol')
    const made = await owner.submit('/orgs/new', { handle: 'acme' })
    expect(made.status, made.text).toBe(303)
    expect(made.headers.get('location')).toBe('/acme/settings')
    const added = await owner.submit('/acme/settings/members', { handle: 'bob', role: 'writer' })
    expect(added.status, added.text).toBe(303)
  })
  afterAll(() => hub?.dispose())

  it('sends signed-out visitors to sign in, from every page and form', async () => {
    const web = new WebSession(hub.url)
    const pages = [
      '/settings',
      '/settings/tokens',
      '/settings/usage',
      '/orgs/new',
      ...ORG_PAGES.map((p) => `/acme/settings${p}`),
    ]
    for (const path of pages) {
      const answer = await web.get(path)
      expect(answer.status, path).toBe(303)
      expect(answer.headers.get('location'), path).toBe(`/signin?next=${encodeURIComponent(path)}`)
    }
    await web.get('/signin')
    await expectStoreUnchanged(hub, async () => {
      for (const [path, fields] of [
        ['/settings/tokens', { note: 'x', scopes: 'read', days: '' }],
        ['/orgs/new', { handle: 'sneaky' }],
        ['/acme/settings/api-keys', {}],
        ['/acme/settings/members', { handle: 'carol', role: 'owner' }],
        [
          '/settings/password',
          { current: PASSWORD, password: 'x'.repeat(12), confirm: 'x'.repeat(12) },
        ],
      ] as const) {
        const answer = await web.post(path, fields)
        expect(answer.status, path).toBe(303)
        expect(answer.headers.get('location'), path).toMatch(/^\/signin/)
      }
    })
  })

  it("shows an organisation's settings to its members only: others get 404", async () => {
    for (const path of ORG_PAGES) {
      expect((await owner.get(`/acme/settings${path}`)).status, path).toBe(200)
      expect((await writer.get(`/acme/settings${path}`)).status, path).toBe(200)
      const hidden = await stranger.get(`/acme/settings${path}`)
      expect(hidden.status, path).toBe(404)
      expect(hidden.text).not.toContain('acme')
      // A user's handle and an unknown one look the same.
      expect((await stranger.get(`/alice/settings${path}`)).status, path).toBe(404)
      expect((await stranger.get(`/nobody/settings${path}`)).status, path).toBe(404)
    }
    const overview = await writer.get('/acme/settings')
    expect(overview.text).toContain('2 members')
    expect(overview.text).toMatch(/your role: <span class="badge info">writer</)
    await stranger.get('/settings')
    await expectStoreUnchanged(hub, async () => {
      for (const [path, fields] of [
        ['/acme/settings/members', { handle: 'carol', role: 'owner' }],
        ['/acme/settings/api-keys', {}],
        ['/acme/settings/credits/threshold', { threshold: '5' }],
        ['/acme/settings/rate-limits', { route: 'GET /v1/user', max: '5', window: '60' }],
        ['/acme/settings/members/alice/remove', {}],
      ] as const) {
        expect((await stranger.post(path, fields)).status, path).toBe(404)
      }
    })
  })

  it('lets a writer see the members but change nothing (403), and hides the forms', async () => {
    const members = await writer.get('/acme/settings/members')
    expect(members.text).toContain('data-member="alice"')
    expect(members.text).toContain('data-member="bob"')
    expect(members.text).not.toContain('Add a member')
    expect(members.text).toContain('data-testid="owners-only"')
    expect((await writer.get('/acme/settings/api-keys')).text).not.toContain('Make an API key')
    await expectStoreUnchanged(hub, async () => {
      for (const [path, fields] of [
        ['/acme/settings/members', { handle: 'carol', role: 'reader' }],
        ['/acme/settings/members/bob/role', { role: 'owner' }],
        ['/acme/settings/members/alice/remove', {}],
        ['/acme/settings/api-keys', {}],
        ['/acme/settings/credits/threshold', { threshold: '5' }],
        ['/acme/settings/rate-limits', { route: 'GET /v1/user', max: '5', window: '60' }],
      ] as const) {
        const answer = await writer.post(path, fields)
        expect(answer.status, path).toBe(403)
        expect(answer.text, path).toContain('Only owners of acme can change its settings')
      }
    })
  })

  it('refuses a form without its CSRF token or from another site (403), changing nothing', async () => {
    await owner.get('/acme/settings/api-keys')
    await expectStoreUnchanged(hub, async () => {
      expect((await owner.post('/acme/settings/api-keys', { _csrf: '' })).status).toBe(403)
      expect((await owner.post('/acme/settings/api-keys', { _csrf: 'x'.repeat(43) })).status).toBe(
        403,
      )
      const forged = await owner.post(
        '/acme/settings/members',
        { handle: 'carol', role: 'owner' },
        { origin: 'http://evil.example' },
      )
      expect(forged.status).toBe(403)
      expect((await owner.post('/settings/sessions/end-others', { _csrf: '' })).status).toBe(403)
    })
  })

  it('makes an organisation, refusing bad, reserved and taken handles', async () => {
    await expectStoreUnchanged(hub, async () => {
      for (const [handle, message] of [
        ['Bad_Name', 'Use 1–39 lowercase letters'],
        ['settings', 'is reserved by the hub'],
        ['bob', 'is taken by a user or an organisation'],
        ['acme', 'is taken by a user or an organisation'],
      ]) {
        const answer = await owner.submit('/orgs/new', { handle: handle! })
        expect(answer.status, handle).toBe(422)
        expect(answer.text, handle).toContain(message)
      }
    })
    const answer = await writer.submit('/orgs/new', { handle: 'bobco' })
    expect(answer.status).toBe(303)
    const settings = await writer.get('/settings')
    expect(settings.text).toContain('href="/bobco/settings"')
    expect(settings.text).toContain('href="/acme/settings"')
    const store = await hub.openStore()
    try {
      const org = await store.accounts.find('bobco')
      const bob = await store.accounts.find('bob')
      expect(await store.accounts.roleOf(org!.id, bob!.id)).toBe('owner')
    } finally {
      await store.close()
    }
  })

  it('makes a PAT with the chosen scopes, shows it once, and revokes it', async () => {
    await owner.get('/settings/tokens')
    const made = await owner.post('/settings/tokens', [
      ['note', 'CI publish'],
      ['scopes', 'read'],
      ['scopes', 'write:apis'],
      ['days', '30'],
    ])
    expect(made.status, made.text).toBe(303)
    expect(made.headers.get('location')).toBe('/settings/tokens')
    const shown = await owner.get('/settings/tokens')
    const pat = secretOf(shown, PAT)
    expect(shown.text).toContain('CI publish')
    expect((await owner.get('/settings/tokens')).text).not.toMatch(PAT)

    const me = await call(`${hub.url}/v1/user`, { token: pat })
    expect(me.status).toBe(200)
    expect(me.body.handle).toBe('alice')
    expect(me.body.token.scopes).toEqual(['read', 'write:apis'])
    const days = (Date.parse(me.body.token.expiresAt) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29)
    expect(days).toBeLessThanOrEqual(30)
    const id: string = me.body.token.id
    expect(shown.text).toContain(`data-token="${id}"`)

    // Someone else's token is not found, and stays valid.
    await writer.get('/settings/tokens')
    await expectStoreUnchanged(hub, async () => {
      expect((await writer.post(`/settings/tokens/${id}/revoke`)).status).toBe(404)
      expect(
        (await writer.post('/settings/tokens/tok_000000000000000000000000/revoke')).status,
      ).toBe(404)
    })
    expect((await writer.get('/settings/tokens')).text).not.toContain(id)
    expect((await call(`${hub.url}/v1/user`, { token: pat })).status).toBe(200)

    const revoked = await owner.post(`/settings/tokens/${id}/revoke`)
    expect(revoked.status).toBe(303)
    const after = await call(`${hub.url}/v1/user`, { token: pat })
    expect(after.status).toBe(401)
    expect((await owner.get('/settings/tokens')).text).toMatch(/class="badge failed">revoked</)
  })

  it('refuses a PAT form without scopes or with a bad expiry (422), making nothing', async () => {
    await owner.get('/settings/tokens')
    await expectStoreUnchanged(hub, async () => {
      const none = await owner.post('/settings/tokens', [
        ['note', 'x'],
        ['days', ''],
      ])
      expect(none.status).toBe(422)
      expect(none.text).toContain('Choose at least one scope.')
      const unknown = await owner.post('/settings/tokens', [['scopes', 'root']])
      expect(unknown.status).toBe(422)
      for (const days of ['0', '3651', '1.5', 'soon']) {
        const bad = await owner.post('/settings/tokens', [
          ['scopes', 'read'],
          ['days', days],
        ])
        expect(bad.status, days).toBe(422)
        expect(bad.text, days).toContain('whole number of days from 1 to 3650')
      }
    })
  })

  it('makes an organisation API key that GET /v1/rate-limits takes, and revokes it', async () => {
    const made = await owner.submit('/acme/settings/api-keys', {})
    expect(made.status, made.text).toBe(303)
    const shown = await owner.get('/acme/settings/api-keys')
    const key = secretOf(shown, API_KEY)
    expect((await owner.get('/acme/settings/api-keys')).text).not.toMatch(API_KEY)
    const id = /data-key="(key_[0-9a-f]{24})"/.exec(shown.text)![1]!
    expect(shown.text).toMatch(/<td>alice<\/td>/)

    const limits = await call(`${hub.url}/v1/rate-limits?apiKey=${key}`)
    expect(limits.status).toBe(200)
    expect(limits.body.output.rateLimits.length).toBeGreaterThan(10)

    // Another organisation's owner cannot revoke it, even naming it under their own org.
    await writer.get('/bobco/settings/api-keys')
    await expectStoreUnchanged(hub, async () => {
      expect((await writer.post(`/bobco/settings/api-keys/${id}/revoke`)).status).toBe(404)
    })
    expect((await owner.post(`/acme/settings/api-keys/${id}/revoke`)).status).toBe(303)
    const refused = await call(`${hub.url}/v1/rate-limits?apiKey=${key}`)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('api_key_revoked')
  })

  it('keeps no new secret in the sessions table: each shows once, on a page not stored', async () => {
    const store = await hub.openStore()
    const sessionsTable = async () =>
      JSON.stringify((await sql`select * from sessions`.execute(store.kysely)).rows)
    /** Posts a form that makes a secret; the next page shows it, and the table never holds it. */
    async function make(path: string, fields: Parameters<WebSession['post']>[1], secret: RegExp) {
      await owner.get(path)
      const made = await owner.post(path, fields)
      expect(made.status, made.text).toBe(303)
      const atRest = await sessionsTable()
      const location = made.headers.get('location')!
      const shown = await owner.get(location)
      expect(shown.status).toBe(200)
      expect(shown.headers.get('cache-control')).toBe('no-store')
      const value = secretOf(shown, secret)
      expect(atRest).not.toContain(value)
      expect(await sessionsTable()).not.toContain(value)
      const again = await owner.get(location)
      expect(again.text).not.toMatch(secret)
      expect(again.headers.get('cache-control')).not.toBe('no-store')
      return { value, location }
    }
    try {
      const scopes = ['read', 'write:apis', 'admin:webhooks'].map((s) => ['scopes', s] as const)
      const pat = await make('/settings/tokens', scopes, PAT)
      await make('/acme/settings/api-keys', {}, API_KEY)
      const api = await call(`${hub.url}/v1/apis`, {
        method: 'POST',
        token: pat.value,
        json: { owner: 'acme', slug: 'vault', name: 'Vault', visibility: 'private' },
      })
      expect(api.status, api.text).toBe(201)
      const hook = await make(
        '/acme/apis/vault/webhooks/new',
        { url: 'https://hooks.example.com/svc', active: 'on' },
        SIGNING_SECRET,
      )
      await make(`${hook.location}/rotate`, {}, SIGNING_SECRET)

      // The store alone cannot show it: a page without the browser's key says so, and no more.
      await owner.get('/settings/tokens')
      const made = await owner.post('/settings/tokens', [['scopes', 'read']])
      const keyless = await fetch(new URL(made.headers.get('location')!, hub.url), {
        headers: { cookie: `svc_session=${owner.cookie('svc_session')}` },
      })
      const text = await keyless.text()
      expect(text).toContain('cannot be shown here')
      expect(text).not.toMatch(PAT)
    } finally {
      await store.close()
    }
  })

  it('changes roles and removes members, but never the last owner', async () => {
    await owner.get('/acme/settings/members')
    await expectStoreUnchanged(hub, async () => {
      for (const [path, fields] of [
        ['/acme/settings/members/alice/role', { role: 'writer' }],
        ['/acme/settings/members/alice/remove', {}],
      ] as const) {
        const answer = await owner.post(path, fields)
        expect(answer.status, path).toBe(422)
        expect(answer.text, path).toContain('alice is the only owner of acme')
      }
      const badRole = await owner.post('/acme/settings/members/bob/role', { role: 'boss' })
      expect(badRole.status).toBe(422)
      expect(
        (await owner.post('/acme/settings/members/carol/role', { role: 'owner' })).status,
      ).toBe(404)
      expect((await owner.post('/acme/settings/members/carol/remove')).status).toBe(404)
      const unknown = await owner.post('/acme/settings/members', {
        handle: 'nobody',
        role: 'reader',
      })
      expect(unknown.status).toBe(422)
      expect(unknown.text).toContain('There is no user')
      const twice = await owner.post('/acme/settings/members', { handle: 'bob', role: 'reader' })
      expect(twice.status).toBe(422)
      expect(twice.text).toContain('bob is already a member')
    })
    expect(
      (await owner.post('/acme/settings/members', { handle: 'carol', role: 'reader' })).status,
    ).toBe(303)
    expect((await stranger.get('/acme/settings')).status).toBe(200)
    expect((await owner.post('/acme/settings/members/carol/remove')).status).toBe(303)
    expect((await stranger.get('/acme/settings')).status).toBe(404)
    expect((await owner.post('/acme/settings/members/bob/role', { role: 'reader' })).status).toBe(
      303,
    )
    expect((await owner.get('/acme/settings/members')).text).toMatch(
      /data-member="bob"[\s\S]*?<option value="reader" selected/,
    )
    expect((await owner.post('/acme/settings/members/bob/role', { role: 'writer' })).status).toBe(
      303,
    )
  })

  it('shows the credits ledger; owners set the low-credit threshold', async () => {
    const granted = await hub.admin(['grant-credits', 'acme', '50', '--reason', 'trial'])
    expect(granted.code, granted.stderr).toBe(0)
    const page = await writer.get('/acme/settings/credits')
    expect(page.status).toBe(200)
    expect(page.text).toMatch(/data-testid="balance"><strong>50</)
    expect(page.text).toContain('trial')
    expect(page.text).toContain('svc-hub admin grant-credits acme')
    expect(page.text).not.toContain('Set threshold')

    await owner.get('/acme/settings/credits')
    await expectStoreUnchanged(hub, async () => {
      for (const value of ['-1', 'ten', '1000000001', '']) {
        const bad = await owner.post('/acme/settings/credits/threshold', { threshold: value })
        expect(bad.status, value).toBe(422)
      }
    })
    expect(
      (await owner.post('/acme/settings/credits/threshold', { threshold: '100' })).status,
    ).toBe(303)
    const low = await owner.get('/acme/settings/credits')
    expect(low.text).toContain('below 100')
    expect(low.text).toContain('class="badge warning">low<')

    // The low-credit alert's getMoreCreditsUrl is this page.
    const made = await hub.admin(['create-api-key', 'acme', '--json'])
    const { key } = JSON.parse(made.stdout) as { key: string }
    const limits = await call(`${hub.url}/v1/rate-limits?apiKey=${key}`)
    const url = new URL(limits.body.chargeInfo.lowCreditAlert.getMoreCreditsUrl as string)
    expect(url.pathname).toBe('/acme/settings/credits')
    const linked = await writer.get(url.pathname)
    expect(linked.status).toBe(200)
    expect(linked.text).toMatch(/data-testid="balance"><strong>50</)
  })

  it('shows the storage an account uses against its quotas, its own on /settings/usage', async () => {
    const token = await adminToken(hub, 'alice', 'write:apis')
    const api = await call(`${hub.url}/v1/apis`, {
      method: 'POST',
      token,
      json: { owner: 'acme', slug: 'pets', name: 'Pets' },
    })
    expect(api.status, api.text).toBe(201)
    const pushed = await call(`${hub.url}/v1/apis/acme/pets/revisions`, {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/yaml' },
      body: 'openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n',
    })
    expect(pushed.status, pushed.text).toBe(201)
    const set = await hub.admin(['set-quota', 'acme', 'revisions', '5'])
    expect(set.code, set.stderr).toBe(0)
    const page = await writer.get('/acme/settings/usage')
    expect(page.status).toBe(200)
    expect(page.text).toMatch(
      /<tr data-quota="revisions"><td>API revisions<\/td><td>1<\/td><td>5<\/td><td>20 %<\/td>/,
    )
    expect(page.text).toContain('own limit')
    expect(page.text).toMatch(
      /<tr data-quota="runArtifactBytes"><td>Run artifact bytes<\/td><td>0 B<\/td><td>2\.00 GiB<\/td>/,
    )
    const own = await stranger.get('/settings/usage')
    expect(own.status).toBe(200)
    expect(own.text).toContain('What carol stores on this hub')
    expect(own.text).toMatch(
      /<tr data-quota="revisions"><td>API revisions<\/td><td>0<\/td><td>10,000<\/td>/,
    )
  })

  it('sets and clears a rate-limit override through the API', async () => {
    await owner.get('/acme/settings/rate-limits')
    const set = await owner.post('/acme/settings/rate-limits', {
      route: 'GET /v1/user',
      max: '5',
      window: '30',
    })
    expect(set.status, set.text).toBe(303)
    const page = await writer.get('/acme/settings/rate-limits')
    expect(page.text).toMatch(/data-route="GET \/v1\/user" class="custom">[\s\S]*?<td>5<\/td>/)

    const store = await hub.openStore()
    try {
      const org = await store.accounts.find('acme')
      expect(await store.rateLimits.list(org!.id)).toEqual([
        { method: 'GET', path: '/v1/user', max: 5, windowSeconds: 30 },
      ])
    } finally {
      await store.close()
    }

    await owner.get('/acme/settings/rate-limits')
    await expectStoreUnchanged(hub, async () => {
      const bad = await owner.post('/acme/settings/rate-limits', {
        route: 'GET /v1/user',
        max: '0',
        window: '30',
      })
      expect(bad.status).toBe(422)
      expect(bad.text).toContain('Not saved')
      const route = await owner.post('/acme/settings/rate-limits', {
        route: 'GET /v1/nothing',
        max: '5',
        window: '30',
      })
      expect(route.status).toBe(422)
    })

    const cleared = await owner.post('/acme/settings/rate-limits/clear', {
      method: 'GET',
      path: '/v1/user',
    })
    expect(cleared.status, cleared.text).toBe(303)
    expect((await owner.get('/acme/settings/rate-limits')).text).not.toContain('class="custom"')
  })

  it('changes the password and signs out the other sessions', async () => {
    const here = new WebSession(hub.url)
    await here.signUp('dave')
    const there = new WebSession(hub.url)
    await there.signIn('dave')
    expect((await here.get('/settings')).text).toContain('also signed in on 1 other')

    await expectStoreUnchanged(hub, async () => {
      const wrong = await here.post('/settings/password', {
        current: 'not-my-password',
        password: 'a-new-secret-phrase',
        confirm: 'a-new-secret-phrase',
      })
      expect(wrong.status).toBe(422)
      expect(wrong.text).toContain('This is not your current password.')
      const differ = await here.post('/settings/password', {
        current: PASSWORD,
        password: 'a-new-secret-phrase',
        confirm: 'another-phrase-here',
      })
      expect(differ.status).toBe(422)
      const weak = await here.post('/settings/password', {
        current: PASSWORD,
        password: 'short',
        confirm: 'short',
      })
      expect(weak.status).toBe(422)
    })
    const changed = await here.post('/settings/password', {
      current: PASSWORD,
      password: 'a-new-secret-phrase',
      confirm: 'a-new-secret-phrase',
    })
    expect(changed.status).toBe(303)
    expect((await here.get('/settings')).text).toContain('Signed out 1 other session.')
    const out = await there.get('/settings')
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toMatch(/^\/signin/)

    await expect(new WebSession(hub.url).signIn('dave')).rejects.toThrow(/401/)
    await new WebSession(hub.url).signIn('dave', 'a-new-secret-phrase')
  })

  it('signs out everywhere else', async () => {
    const here = new WebSession(hub.url)
    await here.signUp('erin')
    const there = new WebSession(hub.url)
    await there.signIn('erin')
    await here.get('/settings')
    expect((await here.post('/settings/sessions/end-others')).status).toBe(303)
    expect((await here.get('/settings')).text).toContain('Signed out 1 other session.')
    const out = await there.get('/settings')
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toMatch(/^\/signin/)
    expect((await here.get('/settings')).text).toContain('You are signed in only here.')
  })

  it('svc-hub admin set-password lets the bootstrap admin sign in', async () => {
    const empty = await adminWithInput(hub, ['set-password', 'admin'], '')
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain('error: no password')
    const weak = await adminWithInput(hub, ['set-password', 'admin'], 'short\n')
    expect(weak.code).toBe(1)
    expect(weak.stderr).toContain('error: the password is refused: use at least 10 characters')
    const withHandle = await adminWithInput(hub, ['set-password', 'admin'], 'my-admin-password\n')
    expect(withHandle.code).toBe(1)
    expect(withHandle.stderr).toBe(
      'error: the password is refused: the password must not contain your handle\n',
    )
    const org = await adminWithInput(hub, ['set-password', 'acme'], 'a-long-password\n')
    expect(org.code).toBe(1)
    expect(org.stderr).toContain("'acme' is an organisation")
    await expect(new WebSession(hub.url).signIn('admin', 'operator-phrase-1')).rejects.toThrow(
      /401/,
    )

    const set = await adminWithInput(hub, ['set-password', 'admin'], 'operator-phrase-1\n')
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout).toBe('set the password of admin; ended 0 sessions\n')
    const web = new WebSession(hub.url)
    await web.signIn('admin', 'operator-phrase-1')
    expect((await web.get('/settings')).text).toContain('data-testid="viewer">admin<')

    const json = await adminWithInput(
      hub,
      ['set-password', 'admin', '--json'],
      'operator-phrase-2\r\n',
    )
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ user: 'admin', sessionsEnded: 1 })
    expect((await web.get('/settings')).status).toBe(303)
    await new WebSession(hub.url).signIn('admin', 'operator-phrase-2')
  })
})
