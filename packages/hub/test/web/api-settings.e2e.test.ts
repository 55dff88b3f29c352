import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminToken } from '../support/fixtures.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call } from '../support/http.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { signUpPeople, type WebSession } from '../support/web-session.js'

const SLUG = 'profiled'

/**
 * An API's settings page and a webhook's diff profile in the web app (docs/web/apis.md#settings,
 * docs/web/webhooks.md): writers see and change them through PATCH, readers find no page, and a
 * refused value writes nothing.
 */
// The pages reach the store only through the /v1 routes, whose own tests run on both stores.
describe.each(['sqlite'] as const)('API settings pages (%s)', (kind) => {
  let hub: HubProcess
  let receiver: Receiver
  let alice: WebSession
  let rita: WebSession
  let pat: string
  const api = `/acme/apis/${SLUG}`

  beforeAll(async () => {
    receiver = await startReceiver()
    hub = await startHub(kind, { env: { SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin } })
    ;({ alice, rita } = await signUpPeople(hub))
    pat = await adminToken(hub, 'alice', 'read,write:apis,admin:webhooks')
    const created = await alice.submit('/apis/new', {
      owner: 'acme',
      slug: SLUG,
      name: 'Profiled',
      visibility: 'private',
      sourceUrl: '',
    })
    expect(created.status, created.text).toBe(303)
  })
  afterAll(async () => {
    await hub?.dispose()
    await receiver?.close()
  })

  const record = async () =>
    (await call(`${hub.url}/v1/apis/acme/${SLUG}`, { token: pat })).body as { diffProfile: string }

  it('shows the diff profile on the API page and changes it on the settings page', async () => {
    const overview = await alice.get(api)
    expect(overview.text).toContain(`href="${api}/settings">Settings<`)
    expect(overview.text).toMatch(/data-testid="diff-profile"><a href="[^"]+\/settings">wire</)
    const form = await alice.get(`${api}/settings`)
    expect(form.status).toBe(200)
    expect(form.text).toMatch(/<select id="f-diffProfile" name="diffProfile"/)
    expect(form.text).toContain('<option value="wire" selected="">')

    const saved = await alice.submit(`${api}/settings`, { diffProfile: 'sdk' })
    expect(saved.status, saved.text).toBe(303)
    expect(saved.headers.get('location')).toBe(`${api}/settings`)
    expect((await record()).diffProfile).toBe('sdk')
    expect((await alice.get(`${api}/settings`)).text).toContain('<option value="sdk" selected="">')
    expect((await alice.get(api)).text).toMatch(/data-testid="diff-profile"><a [^>]+>sdk</)

    await alice.get(`${api}/settings`)
    await expectStoreUnchanged(hub, async () => {
      const refused = await alice.post(`${api}/settings`, { diffProfile: 'grpc' })
      expect(refused.status).toBe(422)
      expect(refused.text).toContain('class="field-error">must be `wire` or `sdk`<')
    })
    expect((await record()).diffProfile).toBe('sdk')
  })

  it('a reader finds no settings page and changes nothing', async () => {
    const page = await rita.get(api)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain(`${api}/settings`)
    expect(page.text).toMatch(/data-testid="diff-profile">(wire|sdk)</)
    expect((await rita.get(`${api}/settings`)).status).toBe(404)
    const before = (await record()).diffProfile
    await expectStoreUnchanged(hub, async () => {
      const post = await rita.post(`${api}/settings`, { diffProfile: 'wire' })
      expect(post.status).toBe(404)
    })
    expect((await record()).diffProfile).toBe(before)
  })

  it("the webhook form sets a profile, or the API's, and shows it", async () => {
    const form = await alice.get(`${api}/webhooks/new`)
    expect(form.text).toMatch(/<select id="f-profile" name="profile"/)
    expect(form.text).toContain('<option value="api" selected="">')
    const made = await alice.submit(`${api}/webhooks/new`, {
      url: `${receiver.origin}/sdk`,
      minLevel: 'breaking',
      profile: 'sdk',
      active: 'on',
    })
    expect(made.status, made.text).toBe(303)
    const hook = made.headers.get('location')!
    const id = /whk_[0-9a-f]{24}$/.exec(hook)![0]
    const webhook = async () =>
      (await call(`${hub.url}/v1/apis/acme/${SLUG}/webhooks/${id}`, { token: pat })).body
    expect(await webhook()).toMatchObject({ profile: 'sdk' })
    const page = await alice.get(hook)
    expect(page.text).toContain('data-testid="profile">sdk<')
    expect(page.text).toContain('<option value="sdk" selected="">')
    expect((await alice.get(`${api}/webhooks`)).text).toContain('<td>breaking</td><td>sdk</td>')

    const follows = await alice.post(hook, {
      url: `${receiver.origin}/sdk`,
      minLevel: 'breaking',
      profile: 'api',
      active: 'on',
    })
    expect(follows.status, follows.text).toBe(303)
    expect(await webhook()).toMatchObject({ profile: null })
    expect((await alice.get(hook)).text).toContain('data-testid="profile"><span class="muted">')

    await alice.get(hook)
    await expectStoreUnchanged(hub, async () => {
      const refused = await alice.post(hook, {
        url: `${receiver.origin}/sdk`,
        profile: 'grpc',
        active: 'on',
      })
      expect(refused.status).toBe(422)
      expect(refused.text).toContain('class="field-error">must be `wire` or `sdk`<')
    })
    expect(await webhook()).toMatchObject({ profile: null })
  })
})
