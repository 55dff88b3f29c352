import { request } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD } from '../support/browser.js'
import { startHub, type HubProcess } from '../support/hub-process.js'
import { call } from '../support/http.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { expectStoreUnchanged } from '../support/store-snapshot.js'
import { WebSession, type PageAnswer } from '../support/web-session.js'
import { storeKinds } from '../support/databases.js'
import { adminToken } from '../support/fixtures.js'

const HOOK = '/v1/apis/{owner}/{slug}/webhooks/{id}'

/**
 * A browser whose connections come from another loopback address (127.0.0.2): to the hub, a
 * client elsewhere. Just enough of one to sign up and sign in.
 */
class OtherAddress {
  readonly #cookies = new Map<string, string>()
  #csrf = ''

  constructor(
    readonly url: string,
    readonly localAddress = '127.0.0.2',
  ) {}

  async submit(path: string, fields: Record<string, string>): Promise<PageAnswer> {
    await this.#send('GET', path)
    return this.#send('POST', path, new URLSearchParams({ _csrf: this.#csrf, ...fields }))
  }

  #send(method: string, path: string, form?: URLSearchParams): Promise<PageAnswer> {
    const target = new URL(path, this.url)
    const body = form?.toString()
    const headers: Record<string, string> = {
      cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(body === undefined
        ? {}
        : { origin: target.origin, 'content-type': 'application/x-www-form-urlencoded' }),
    }
    return new Promise((resolve, reject) => {
      const req = request(
        target,
        { method, headers, localAddress: this.localAddress },
        (response) => {
          let text = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => (text += chunk))
          response.on('end', () => {
            for (const line of response.headers['set-cookie'] ?? []) {
              const [pair = ''] = line.split(';')
              const at = pair.indexOf('=')
              this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
            }
            this.#csrf = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? this.#csrf
            const answer = new Headers()
            for (const [name, value] of Object.entries(response.headers)) {
              if (typeof value === 'string') answer.set(name, value)
            }
            resolve({ status: response.statusCode ?? 0, headers: answer, text })
          })
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }
}

/**
 * What the web app refuses for pace (docs/web/README.md): a page's action spends the user's
 * rate limit like the same call with a PAT; guessed passwords slow down the (account, address)
 * they come from, never the account from elsewhere; sign-up and password changes have a budget
 * per address. On both stores (the counts live in the hub process, what they guard in the store),
 * and the hub answers /healthz after each.
 */
for (const kind of await storeKinds())
  describe(`web limits (${kind})`, () => {
    let hub: HubProcess
    let receiver: Receiver
    let alice: WebSession
    let pat: string
    let hookPage: string

    beforeAll(async () => {
      receiver = await startReceiver()
      hub = await startHub(kind, {
        env: {
          SVC_HUB_RATE_LIMITS: `POST ${HOOK}/test=2/60,PATCH ${HOOK}=1/60`,
          SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin,
        },
      })
      alice = new WebSession(hub.url)
      await alice.signUp('alice')
      await new WebSession(hub.url).signUp('dave')
      pat = await adminToken(hub, 'alice', 'read,write:apis,admin:webhooks')
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
    afterEach(async () => {
      expect((await call(`${hub.url}/healthz`)).status).toBe(200)
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

    it('slows wrong passwords for an account from one address, and not the account elsewhere', async () => {
      const attacker = new WebSession(hub.url)
      await attacker.get('/signin')
      const statuses: number[] = []
      let refused: PageAnswer | undefined
      // Each wrong password past the free ones doubles the wait, so a refusal comes within a few.
      while (!refused && statuses.length < 15) {
        const answer = await attacker.post('/signin', { handle: 'dave', password: 'guess' })
        statuses.push(answer.status)
        if (answer.status === 429) refused = answer
      }
      expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401])
      expect(refused, `answers: ${statuses.join(', ')}`).toBeDefined()
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused!.text).toContain(
        'Too many failed sign-ins to this account from your address. Try again in',
      )

      // dave from another address, and another account from this one, sign in.
      const elsewhere = await new OtherAddress(hub.url).submit('/signin', {
        handle: 'dave',
        password: PASSWORD,
      })
      expect(elsewhere.status, elsewhere.text).toBe(303)
      await new WebSession(hub.url).signIn('alice')
    })

    it('refuses password changes past the budget of an address with 429 and Retry-After', async () => {
      const erin = new WebSession(hub.url)
      await erin.signUp('erin')
      await erin.get('/settings')
      const wrong = {
        current: 'not-my-password',
        password: 'a-new-phrase-1',
        confirm: 'a-new-phrase-1',
      }
      const statuses: number[] = []
      await expectStoreUnchanged(hub, async () => {
        for (let i = 0; i < 6; i++)
          statuses.push((await erin.post('/settings/password', wrong)).status)
      })
      expect(statuses).toEqual([422, 422, 422, 422, 422, 429])
      const refused = await erin.post('/settings/password', { ...wrong, current: PASSWORD })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused.text).toContain('Too many password changes from your address. Try again in')
    })

    // Last: it spends this address's sign-ups.
    it('refuses sign-ups past the budget of an address with 429 and Retry-After', async () => {
      const web = new WebSession(hub.url)
      await web.get('/signup')
      const form = { handle: 'frank', password: 'short', confirm: 'short' }
      let refused: PageAnswer | undefined
      await expectStoreUnchanged(hub, async () => {
        for (let i = 0; i <= 20 && !refused; i++) {
          const answer = await web.post('/signup', form)
          if (answer.status === 429) refused = answer
          else expect(answer.status).toBe(422)
        }
      })
      expect(refused).toBeDefined()
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(refused!.text).toContain('Too many sign-ups from your address. Try again in')
      const valid = await web.post('/signup', {
        handle: 'frank',
        password: PASSWORD,
        confirm: PASSWORD,
      })
      expect(valid.status).toBe(429)

      const elsewhere = await new OtherAddress(hub.url).submit('/signup', {
        handle: 'frank',
        password: PASSWORD,
        confirm: PASSWORD,
      })
      expect(elsewhere.status, elsewhere.text).toBe(303)
    })
  })
