import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call } from '../support/http.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { WebSession } from '../support/web-session.js'

const HOOK = '/v1/apis/{owner}/{slug}/webhooks/{id}'

/**
 * What the web app refuses for pace (docs/web/README.md): a page's action spends the user's
 * rate limit like the same call with a PAT. On SQLite only: the counts live in the hub process,
 * not in the store.
 */
describe('web limits (sqlite)', () => {
  let hub: HubProcess
  let receiver: Receiver
  let alice: WebSession
  let pat: string
  let hookPage: string

  beforeAll(async () => {
    receiver = await startReceiver()
    hub = await startHub('sqlite', {
      env: {
        SVC_HUB_RATE_LIMITS: `POST ${HOOK}/test=2/60,PATCH ${HOOK}=1/60`,
        SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin,
      },
    })
    alice = new WebSession(hub.url)
    await alice.signUp('alice')
    const token = await hub.admin([
      'create-token',
      'alice',
      '--scopes',
      'read,write:apis,admin:webhooks',
      '--json',
    ])
    pat = (JSON.parse(token.stdout) as { token: string }).token
    const api = await call(`${hub.url}/v1/apis`, {
      method: 'POST',
      token: pat,
      json: { owner: 'alice', slug: 'shop', name: 'Shop', visibility: 'public' },
    })
    expect(api.status, api.text).toBe(201)
    const made = await alice.submit('/alice/apis/shop/webhooks/new', {
      url: `${receiver.origin}/hook`,
      active: 'on',
    })
    expect(made.status, made.text).toBe(303)
    hookPage = made.headers.get('location')!
  })
  afterAll(async () => {
    await hub?.dispose()
    await receiver?.close()
  })

  it("refuses a page's action once the user spent the route's budget with a PAT", async () => {
    const v1Hook = `${hub.url}/v1/apis/alice/shop/webhooks/${hookPage.split('/').pop()}`
    for (let i = 0; i < 2; i++) {
      expect((await call(`${v1Hook}/test`, { method: 'POST', token: pat })).status).toBe(202)
    }
    await alice.get(hookPage)
    const refused = await expectStoreUnchanged(hub, () => alice.post(`${hookPage}/test`))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.text).toMatch(
      /Too many requests: POST \S+\/test allows 2 per 60 s; try again in \d+ s\./,
    )
    // Reading the page is not an action: it still opens.
    expect((await alice.get(hookPage)).status).toBe(200)
  })

  it("refuses the API's call once the user spent the route's budget on the page", async () => {
    const fields = { url: `${receiver.origin}/hook`, description: 'saved', active: 'on' }
    expect((await alice.submit(hookPage, fields)).status).toBe(303)
    const v1Hook = `${hub.url}/v1/apis/alice/shop/webhooks/${hookPage.split('/').pop()}`
    const viaApi = await call(v1Hook, { method: 'PATCH', token: pat, json: { description: 'x' } })
    expect(viaApi.status).toBe(429)
    expect(viaApi.body.code).toBe('rate_limited')
  })
})
