import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from '../support/databases.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { PASSWORD } from '../support/browser.js'
import { WebSession } from '../support/web-session.js'

/**
 * Sign up, sign in and sign out over plain HTTP: sessions, CSRF and the refusals
 * (docs/web/README.md). How guesses and sign-ups are paced is in limits.e2e.test.ts.
 */
describe.each(await storeKinds())('web sign-in (%s)', (kind) => {
  let hub: HubProcess

  beforeAll(async () => {
    hub = await startHub(kind)
    await new WebSession(hub.url).signUp('alice')
  })
  afterAll(() => hub?.dispose())

  it('signs up, keeps the session in an HttpOnly SameSite cookie, and signs out', async () => {
    const web = new WebSession(hub.url)
    await web.get('/signup')
    const answer = await web.post('/signup', {
      handle: 'bob',
      password: PASSWORD,
      confirm: PASSWORD,
    })
    expect(answer.status).toBe(303)
    expect(answer.headers.get('location')).toBe('/')
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Lax/)
    expect(cookie).not.toMatch(/; Secure/)

    const home = await web.get('/')
    expect(home.text).toContain('Welcome to svc hub, bob.')
    expect(home.text).toContain('data-testid="viewer">bob<')
    // The notice is shown once.
    expect((await web.get('/')).text).not.toContain('Welcome to svc hub, bob.')

    const token = web.cookie('svc_session')!
    expect((await web.post('/signout')).status).toBe(303)
    expect(web.cookie('svc_session')).toBeUndefined()
    // The old cookie is dead on the server too.
    const replay = await fetch(`${hub.url}/`, { headers: { cookie: `svc_session=${token}` } })
    expect(await replay.text()).not.toContain('data-testid="viewer"')
  })

  it('signs in and goes back to the page that asked, never to another site', async () => {
    for (const [next, to] of [
      ['/apis', '/apis'],
      ['//evil.example/x', '/'],
      ['https://evil.example/', '/'],
      ['/\\evil.example', '/'],
    ] as const) {
      const web = new WebSession(hub.url)
      await web.get(`/signin?next=${encodeURIComponent(next)}`)
      const answer = await web.post('/signin', { handle: 'alice', password: PASSWORD, next })
      expect(answer.status, next).toBe(303)
      expect(answer.headers.get('location'), next).toBe(to)
    }
  })

  it('a new sign-in gets a new session token, never the one the browser came with', async () => {
    const web = new WebSession(hub.url)
    await web.signIn('alice')
    const first = web.cookie('svc_session')
    // Signed in, /signin sends the browser on; a form from any page of this session signs in anew.
    expect((await web.get('/signin')).status).toBe(303)
    await web.get('/')
    expect((await web.post('/signin', { handle: 'alice', password: PASSWORD })).status).toBe(303)
    expect(web.cookie('svc_session')).not.toBe(first)
    const stale = await fetch(`${hub.url}/`, { headers: { cookie: `svc_session=${first}` } })
    expect(await stale.text()).not.toContain('data-testid="viewer"')
  })

  it('refuses a wrong password or an unknown handle alike, and writes nothing', async () => {
    const web = new WebSession(hub.url)
    await web.get('/signin')
    await expectStoreUnchanged(hub, async () => {
      for (const [handle, password] of [
        ['alice', 'not-the-password'],
        ['nobody', PASSWORD],
        ['', ''],
      ]) {
        const answer = await web.post('/signin', { handle: handle!, password: password! })
        expect(answer.status).toBe(401)
        expect(answer.text).toContain('Incorrect handle or password.')
        expect(web.cookie('svc_session')).toBeUndefined()
      }
    })
  })

  it('refuses sign-up forms that break the rules, and writes nothing', async () => {
    const web = new WebSession(hub.url)
    await web.get('/signup')
    const cases: [Record<string, string>, string][] = [
      [{ handle: 'alice', password: PASSWORD, confirm: PASSWORD }, 'is taken'],
      [{ handle: 'Bad_Name', password: PASSWORD, confirm: PASSWORD }, 'lowercase letters'],
      [{ handle: 'settings', password: PASSWORD, confirm: PASSWORD }, 'is reserved'],
      [{ handle: 'carol', password: 'short', confirm: 'short' }, 'at least 10 characters'],
      [{ handle: 'carol', password: 'carol-is-me-1', confirm: 'carol-is-me-1' }, 'handle'],
      [{ handle: 'carol', password: PASSWORD, confirm: `${PASSWORD}x` }, 'differ'],
      [{ handle: 'carol', password: 'x'.repeat(257), confirm: 'x'.repeat(257) }, 'at most 256'],
    ]
    await expectStoreUnchanged(hub, async () => {
      for (const [fields, message] of cases) {
        const answer = await web.post('/signup', fields)
        expect(answer.status, JSON.stringify(fields)).toBe(422)
        expect(answer.text, JSON.stringify(fields)).toContain(message)
      }
    })
  })

  it('refuses a form without the CSRF token, with another token, or from another site', async () => {
    const web = new WebSession(hub.url)
    await web.signIn('alice')
    const other = new WebSession(hub.url)
    await other.signIn('alice')
    const fields = { handle: 'mallory', password: PASSWORD, confirm: PASSWORD }
    const outsider = new WebSession(hub.url)
    await outsider.get('/signup')
    await expectStoreUnchanged(hub, async () => {
      for (const [session, extra, origin] of [
        [outsider, { _csrf: '' }, undefined],
        [outsider, { _csrf: 'x'.repeat(43) }, undefined],
        [outsider, {}, 'https://evil.example'],
        [outsider, {}, 'null'],
        [web, { _csrf: other.csrf }, undefined],
      ] as const) {
        const answer = await session.post('/signup', { ...fields, ...extra }, { origin })
        expect(answer.status).toBe(403)
      }
      // Signing out is a form too: a forged one leaves the session alive.
      expect((await web.post('/signout', { _csrf: other.csrf })).status).toBe(403)
    })
    expect((await web.get('/')).text).toContain('data-testid="viewer">alice<')
  })

  it('answers other bodies than forms with 415 and oversized forms with 413', async () => {
    const web = new WebSession(hub.url)
    await web.get('/signin')
    await expectStoreUnchanged(hub, async () => {
      const json = await fetch(`${hub.url}/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      expect(json.status).toBe(415)
      const big = await web.post('/signin', { handle: 'a'.repeat(300 * 1024), password: 'x' })
      expect(big.status).toBe(413)
    })
  })

  it('serves pages with a strict content security policy and no script', async () => {
    const answer = await new WebSession(hub.url).get('/signin')
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/)
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(answer.text).not.toMatch(/<script/i)
    const css = /href="(\/assets\/app\.[0-9a-f]{12}\.css)"/.exec(answer.text)![1]!
    const sheet = await fetch(`${hub.url}${css}`)
    expect(sheet.headers.get('content-type')).toMatch(/^text\/css/)
    expect(sheet.headers.get('cache-control')).toContain('immutable')
  })

  it('answers unknown pages with the HTML 404 and unknown /v1 paths with the JSON one', async () => {
    const page = await fetch(`${hub.url}/no/such/page`)
    expect(page.status).toBe(404)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const api = await fetch(`${hub.url}/v1/no/such/route`)
    expect(api.status).toBe(404)
    expect(((await api.json()) as { code: string }).code).toBe('not_found')
  })
})

describe('web sign-up when the hub closes it, behind https', () => {
  let hub: HubProcess
  beforeAll(async () => {
    hub = await startHub('sqlite', {
      env: { SVC_HUB_SIGNUP: 'closed', SVC_HUB_PUBLIC_URL: 'https://hub.example.com' },
    })
  })
  afterAll(() => hub?.dispose())

  it('shows that sign-up is closed and refuses the form', async () => {
    const web = new WebSession(hub.url)
    const form = await web.get('/signup')
    expect(form.text).toContain('Sign-up is closed')
    // Behind https the cookies are Secure.
    expect(form.headers.getSetCookie().find((c) => c.startsWith('svc_csrf='))).toMatch(/; Secure/)
    await expectStoreUnchanged(hub, async () => {
      const answer = await web.post('/signup', {
        handle: 'eve',
        password: PASSWORD,
        confirm: PASSWORD,
      })
      expect(answer.status).toBe(403)
    })
  })
})
