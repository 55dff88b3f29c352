import { request } from 'node:http'
import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHub, type HubProcess } from './support/hub-process.js'
import { eventually } from './support/poll.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'
import { WebSession } from './support/web-session.js'

/**
 * Who a request counts for behind a reverse proxy (docs/hub/running.md, "Behind a reverse
 * proxy"), on the real `svc-hub serve`: forwarding headers are read only from the peers
 * `SVC_HUB_TRUSTED_PROXIES` names, the failed-credential budget, the rate limits and the log
 * lines count the resolved client, and the web sign-in stays open to real users whatever others
 * tried from the same address. (Whether a request is local to a trial hub: local-trial.e2e.)
 */

type Answer = {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/** GET `path` from the local address `from`, with `headers` (a proxy's, or forged ones). */
function get(
  hub: HubProcess,
  path: string,
  options: { token?: string; headers?: Record<string, string>; from?: string; to?: string } = {},
): Promise<Answer> {
  const headers = {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  }
  return new Promise((resolve, reject) => {
    const url = new URL(path, hub.url)
    if (options.to) url.hostname = options.to
    const req = request(
      url,
      { headers, localAddress: options.from ?? '127.0.0.1', agent: false },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/**
 * The `request` log lines of `hub` whose `X-Request-Id` is one of `ids`, once there is one for
 * each (the hub writes its log without waiting, so the last lines may still be on their way).
 */
function requestLines(hub: HubProcess, ids: readonly string[]): Promise<Record<string, unknown>[]> {
  return eventually(() => {
    const lines = hub
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request' && ids.includes(line.requestId as string))
    return lines.length === ids.length ? lines : undefined
  }, `a request line for each of ${ids.length} requests`)
}

const UNKNOWN_TOKEN = `svc_pat_${'A'.repeat(43)}`

/** Asserts that `answer` is the failed-credential budget's 429. */
function expectCredentialBudgetSpent(answer: Answer) {
  expect(answer.status, answer.text).toBe(429)
  expect(JSON.parse(answer.text)).toMatchObject({
    code: 'rate_limited',
    details: { limit: 60, windowSeconds: 60, budget: 'failed_credentials' },
  })
}

describe('a hub that trusts no proxy (the default)', () => {
  let hub: HubProcess
  beforeAll(async () => {
    hub = await startHub('sqlite')
  })
  afterAll(() => hub?.dispose())

  it('ignores forged forwarding headers: 60 bad tokens each claiming another client spend the socket address', async () => {
    const ids: string[] = []
    await expectStoreUnchanged(hub, async () => {
      for (let i = 1; i <= 60; i++) {
        const forged = {
          'x-forwarded-for': `198.51.100.${i}`,
          forwarded: `for=203.0.113.${i}`,
          'x-real-ip': `192.0.2.${i}`,
          'x-request-id': `forged-${i}`,
        }
        const answer = await get(hub, '/v1/user', { token: UNKNOWN_TOKEN, headers: forged })
        expect({ i, status: answer.status }).toEqual({ i, status: 401 })
        ids.push(`forged-${i}`)
      }
    })
    // A valid token from the same socket address, whatever it claims now, is refused.
    const claims = { 'x-forwarded-for': '198.51.100.200', forwarded: 'for=198.51.100.201' }
    expectCredentialBudgetSpent(
      await get(hub, '/v1/user', { token: hub.adminPat, headers: claims }),
    )
    // The budget is 127.0.0.1's: another socket address is not held back.
    expect((await get(hub, '/v1/user', { token: hub.adminPat, from: '127.0.0.2' })).status).toBe(
      200,
    )
    // Every log line names the socket's address, never a forged one.
    const lines = await requestLines(hub, ids)
    expect(new Set(lines.map((line) => line.clientAddress))).toEqual(new Set(['127.0.0.1']))
  })
})

describe('a hub behind a trusted proxy (SVC_HUB_TRUSTED_PROXIES=127.0.0.1)', () => {
  let hub: HubProcess
  const A = '198.51.100.1'
  const B = '198.51.100.2'
  const via = (client: string, forgedPrefix?: string) => ({
    'x-forwarded-for': forgedPrefix ? `${forgedPrefix}, ${client}` : client,
  })

  beforeAll(async () => {
    hub = await startHub('sqlite', {
      env: {
        SVC_HUB_TRUSTED_PROXIES: '127.0.0.1',
        SVC_HUB_RATE_LIMITS: 'GET /v1/apis=3/60',
      },
    })
  })
  afterAll(() => hub?.dispose())

  it('says whom it trusts when it starts', () => {
    const listening = hub
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'listening')
    expect(listening).toMatchObject({
      trustedProxies: '127.0.0.1',
      clientAddressHeader: 'x-forwarded-for',
    })
  })

  it("counts bad tokens per forwarded client: A's 60 spend A's budget, B and the proxy itself are answered", async () => {
    for (let i = 1; i <= 60; i++) {
      // What A claims left of the address the proxy appended does not make it another client.
      const headers = { ...via(A, `10.9.9.${i}`), 'x-request-id': `client-a-${i}` }
      const answer = await get(hub, '/v1/user', { token: UNKNOWN_TOKEN, headers })
      expect({ i, status: answer.status }).toEqual({ i, status: 401 })
    }
    expectCredentialBudgetSpent(
      await get(hub, '/v1/user', { token: hub.adminPat, headers: via(A) }),
    )
    expect((await get(hub, '/v1/user', { token: hub.adminPat, headers: via(B) })).status).toBe(200)
    expect((await get(hub, '/v1/user', { token: hub.adminPat })).status).toBe(200)
    // An untrusted peer's header is its own claim: 127.0.0.2 claiming to be A is 127.0.0.2.
    const claimed = await get(hub, '/v1/user', {
      token: hub.adminPat,
      headers: via(A),
      from: '127.0.0.2',
    })
    expect(claimed.status).toBe(200)
    const lines = await requestLines(
      hub,
      Array.from({ length: 60 }, (_, i) => `client-a-${i + 1}`),
    )
    expect(new Set(lines.map((line) => line.clientAddress))).toEqual(new Set([A]))
  })

  it('limits anonymous requests per forwarded client', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await get(hub, '/v1/apis', { headers: via('198.51.100.3') })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    expect((await get(hub, '/v1/apis', { headers: via('198.51.100.4') })).status).toBe(200)
  })

  it('100 failed sign-ins to made-up names from one address do not stop a real user signing in from it or elsewhere', async () => {
    await new WebSession(hub.url).signUp('carol')
    // Without a forwarding header the client is the proxy's own address: every user behind
    // a proxy the hub does not trust looks like this.
    const attacker = new WebSession(hub.url)
    await attacker.get('/signin')
    const statuses: number[] = []
    await expectStoreUnchanged(hub, async () => {
      // Four at a time: each costs the hub one scrypt, which runs on libuv's four threads.
      for (let i = 0; i < 100; i += 4) {
        const batch = [i, i + 1, i + 2, i + 3].map((n) =>
          attacker.post('/signin', { handle: `made-up-${n}`, password: 'guess-1234' }),
        )
        statuses.push(...(await Promise.all(batch)).map((answer) => answer.status))
      }
    })
    expect(statuses).toHaveLength(100)
    expect(new Set(statuses)).toEqual(new Set([401]))
    const refused = await attacker.post('/signin', { handle: 'made-up-x', password: 'guess' })
    expect(refused.status).toBe(429)
    expect(refused.text).toContain(
      'Too many failed sign-ins from your address to accounts that do not exist. Try again in',
    )
    // carol, from the same address and through the proxy from another, signs in, and the
    // made-up names stay refused from the attacker's address only.
    await new WebSession(hub.url).signIn('carol')
    await new WebSession(hub.url, via('198.51.100.77')).signIn('carol')
    const elsewhere = new WebSession(hub.url, via('198.51.100.78'))
    await elsewhere.get('/signin')
    expect((await elsewhere.post('/signin', { handle: 'made-up-x', password: 'x' })).status).toBe(
      401,
    )
    // About 105 scrypt hashes (0.35 s each on an idle core): minutes on a loaded machine.
  }, 300_000)
})

/** A non-loopback IPv4 address of this machine, if it has one. */
function otherAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? [])
      if (address.family === 'IPv4' && !address.internal) return address.address
  return undefined
}

describe('a peer that is not a trusted proxy (HOST=0.0.0.0, SVC_HUB_TRUSTED_PROXIES=loopback)', () => {
  let hub: HubProcess
  beforeAll(async () => {
    hub = await startHub('sqlite', {
      env: { HOST: '0.0.0.0', SVC_HUB_TRUSTED_PROXIES: 'loopback' },
    })
  })
  afterAll(() => hub?.dispose())

  it("counts a non-loopback peer as its own address whatever it forwards, and a loopback proxy's client as forwarded", async (context) => {
    const other = otherAddress()
    if (other === undefined) {
      context.skip('this machine has no non-loopback address to connect from')
      return
    }
    const headers = { 'x-forwarded-for': '198.51.100.5', 'x-request-id': 'from-elsewhere' }
    expect((await get(hub, '/v1/user', { headers, from: other, to: other })).status).toBe(401)
    const proxied = { 'x-forwarded-for': '198.51.100.6', 'x-request-id': 'from-the-proxy' }
    expect((await get(hub, '/v1/user', { headers: proxied })).status).toBe(401)
    const lines = await requestLines(hub, ['from-elsewhere', 'from-the-proxy'])
    expect(Object.fromEntries(lines.map((line) => [line.requestId, line.clientAddress]))).toEqual({
      'from-elsewhere': other,
      'from-the-proxy': '198.51.100.6',
    })
  })
})
