import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oasYaml } from '../support/documents.js'
import { adminToken } from '../support/fixtures.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call } from '../support/http.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { signUpPeople, type WebSession } from '../support/web-session.js'

const API = '/acme/apis/accepting'

/**
 * The acceptance of a revision's changes in the web app (docs/web/apis.md): the revision page
 * shows it, a user who can write the API accepts or withdraws it with a plain form (no
 * JavaScript), and a refused form writes nothing.
 */
// The pages reach the store only through the /v1 routes, whose own tests run on both stores.
describe('accepting a revision in the web app', () => {
  let hub: HubProcess
  let alice: WebSession
  let rita: WebSession
  let anonymous: WebSession

  beforeAll(async () => {
    hub = await startHub('sqlite')
    ;({ alice, rita, anonymous } = await signUpPeople(hub))
    await alice.createApi('acme', 'accepting')
    const pat = await adminToken(hub, 'alice', 'write:apis')
    for (const operations of [['get /pets', 'post /pets'], ['get /pets']]) {
      const pushed = await call(`${hub.url}/v1/apis/acme/accepting/revisions`, {
        method: 'POST',
        token: pat,
        headers: { 'content-type': 'application/yaml' },
        body: oasYaml(operations),
      })
      expect(pushed.status, pushed.text).toBe(201)
    }
  })
  afterAll(() => hub?.dispose())

  it('offers the form to a writer only, for a revision with breaking changes or warnings', async () => {
    const page = await alice.get(`${API}/revisions/2`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('data-testid="accept-form"')
    expect(page.text).toMatch(/<form method="post" action="[^"]*\/revisions\/rev_\w+\/acceptance"/)
    expect(page.text).toMatch(/<textarea id="f-reason" name="reason" maxlength="500"/)
    // rita reads acme but cannot write its APIs; the first revision has nothing to accept.
    expect((await rita.get(`${API}/revisions/2`)).text).not.toContain('accept-form')
    expect((await alice.get(`${API}/revisions/1`)).text).not.toContain('accept-form')
  })

  it('refuses an empty reason, a missing CSRF token and a reader; nothing is written', async () => {
    await alice.get(`${API}/revisions/2`)
    await expectStoreUnchanged(hub, async () => {
      const empty = await alice.post(`${API}/revisions/2/acceptance`, { reason: '   ' })
      expect(empty.status).toBe(422)
      expect(empty.text).toContain('Say why the changes are deliberate.')
      const long = await alice.post(`${API}/revisions/2/acceptance`, { reason: 'x'.repeat(501) })
      expect(long.status).toBe(422)
      expect(long.text).toContain('500')
      const forged = await alice.post(`${API}/revisions/2/acceptance`, {
        reason: 'deliberate',
        _csrf: '',
      })
      expect(forged.status).toBe(403)
      await rita.get(`${API}/revisions/2`)
      // Refused by the API (403), shown as every page the viewer may not use: not found.
      const reader = await rita.post(`${API}/revisions/2/acceptance`, { reason: 'deliberate' })
      expect(reader.status).toBe(404)
      await anonymous.get('/signin')
      const signedOut = await anonymous.post(`${API}/revisions/2/acceptance`, {
        reason: 'deliberate',
      })
      expect(signedOut.status).toBe(303)
      expect(signedOut.headers.get('location')).toMatch(/^\/signin/)
    })
  })

  it('accepts with a reason; the revision, its changes and the list show who, when and why; it can be withdrawn', async () => {
    const accepted = await alice.submit(
      `${API}/revisions/2/acceptance`,
      { reason: 'POST /pets is gone on purpose (see the 2.0 notes)' },
      `${API}/revisions/2`,
    )
    expect(accepted.status, accepted.text).toBe(303)
    const location = accepted.headers.get('location')!
    expect(location).toMatch(/\/acme\/apis\/accepting\/revisions\/rev_\w+$/)
    const page = await alice.get(location)
    expect(page.text).toContain('Accepted the changes of revision #2 (1 breaking change')
    expect(page.text).toContain('data-testid="acceptance"')
    expect(page.text).toMatch(/Accepted by <strong>alice<\/strong>/)
    expect(page.text).toContain('POST /pets is gone on purpose (see the 2.0 notes)')
    expect(page.text).not.toContain('accept-form')
    expect(page.text).toContain('Withdraw the acceptance')

    // A reader sees the acceptance, without the button.
    const read = await rita.get(`${API}/revisions/2`)
    expect(read.text).toContain('data-testid="acceptance"')
    expect(read.text).not.toContain('Withdraw the acceptance')
    const changes = await rita.get(`${API}/revisions/2/changes`)
    expect(changes.text).toContain('data-testid="changes-acceptance"')
    expect(changes.text).toContain('POST /pets is gone on purpose')
    expect((await rita.get(`${API}/revisions`)).text).toContain('accepted by alice')

    // Accepting again, from a page opened before: refused, the standing acceptance shown.
    const twice = await alice.post(`${API}/revisions/2/acceptance`, { reason: 'again' })
    expect(twice.status).toBe(409)
    expect(twice.text).toContain('were accepted already, by alice')

    const withdrawn = await alice.submit(
      `${API}/revisions/2/acceptance/withdraw`,
      {},
      `${API}/revisions/2`,
    )
    expect(withdrawn.status, withdrawn.text).toBe(303)
    const after = await alice.get(withdrawn.headers.get('location')!)
    expect(after.text).toContain('The acceptance was withdrawn')
    expect(after.text).toContain('data-testid="accept-form"')
  })
})
