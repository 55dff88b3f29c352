import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { WebSession } from '../support/web-session.js'

/**
 * The new-webhook form says what the hub's outbound guard admits (docs/web/webhooks.md): on a
 * local trial (the `npm start` hub) that loopback receivers are allowed and why, and a loopback
 * receiver is accepted; on a strict hub a refused URL's error names the setting that admits it.
 */
describe('the webhook form and the outbound guard', () => {
  let receiver: Receiver
  const hubs: HubProcess[] = []
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    for (const hub of hubs) await hub.dispose()
    await receiver?.close()
  })

  /** A hub with `env` (the default bind), alice signed up on it, and her API `alice/hooks`. */
  async function signedIn(env: NodeJS.ProcessEnv): Promise<WebSession> {
    const hub = await startHub('sqlite', { env: { HOST: '', ...env } })
    hubs.push(hub)
    const alice = new WebSession(hub.url)
    await alice.signUp('alice')
    await alice.createApi('alice', 'hooks')
    return alice
  }

  it('on a local trial: says loopback receivers are allowed, and creates one', async () => {
    const alice = await signedIn({})
    const form = await alice.get('/alice/apis/hooks/webhooks/new')
    expect(form.status).toBe(200)
    expect(form.text).toContain(
      'or on this machine (such as http://localhost:9000/hook): this hub is a local trial, which listens on loopback only, so loopback receivers are allowed.',
    )
    const made = await alice.post('/alice/apis/hooks/webhooks/new', {
      url: `${receiver.origin}/hook`,
      minLevel: 'info',
      active: 'on',
    })
    expect(made.status, made.text).toBe(303)
    expect(made.headers.get('location')).toMatch(/^\/alice\/apis\/hooks\/webhooks\/whk_/)
  })

  it('on a strict hub: the refused loopback URL names SVC_HUB_ALLOW_PRIVATE_NETWORKS', async () => {
    const alice = await signedIn({ SVC_HUB_PUBLIC_URL: 'https://hub.example.com' })
    const form = await alice.get('/alice/apis/hooks/webhooks/new')
    expect(form.text).not.toContain('local trial')
    expect(form.text).toContain('a private one only if the operator admits it with')
    const refused = await alice.post('/alice/apis/hooks/webhooks/new', {
      url: `${receiver.origin}/hook`,
      minLevel: 'info',
      active: 'on',
    })
    expect(refused.status).toBe(422)
    expect(refused.text).toContain(
      'class="field-error">The hub does not send requests to this URL: 127.0.0.1 is loopback; a hub that should reach it sets SVC_HUB_ALLOW_PRIVATE_NETWORKS=127.0.0.1/32 (docs/hub/running.md).<',
    )
    expect(receiver.connections()).toBe(0)
  })
})
