import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashSecret } from '../src/auth/secrets.js'
import { DEFAULT_RATE_LIMITS } from '../src/ratelimit/table.js'
import { postgresUrl, storeKinds } from './support/databases.js'
import { startHub, type CommandRun, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const REQUEST_ID = /^req_[0-9a-f]{20}$/
const FREE = 'This call is free: no credits were charged.'

/** The default table as `GET /v1/rate-limits` shows it for an organisation without overrides. */
const DEFAULT_RECORDS = DEFAULT_RATE_LIMITS.map((row) => ({
  method: row.method,
  path: row.path,
  max: row.max,
  windowSeconds: row.windowSeconds,
  isCustom: false,
}))

function jsonOf(run: CommandRun): any {
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout)
}

function expectError(reply: Reply, status: number, code: string): void {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
  expect(reply.body).toMatchObject({ code, message: expect.any(String) })
  expect(reply.body.requestId).toBe(reply.headers.get('x-request-id'))
}

for (const kind of await storeKinds()) {
  describe(`GET /v1/rate-limits (${kind})`, () => {
    let hub: HubProcess
    /** API keys: one per organisation, and a revoked one of acme. */
    const keys: Record<'acme' | 'zeta' | 'busy' | 'revoked', string> = {
      acme: '',
      zeta: '',
      busy: '',
      revoked: '',
    }
    const admin = async (...args: string[]) => jsonOf(await hub.admin([...args, '--json']))
    const rateLimits = (query: string) => call(`${hub.url}/v1/rate-limits${query}`)
    const withKey = (key: string, extra = '') =>
      rateLimits(`?apiKey=${encodeURIComponent(key)}${extra}`)

    beforeAll(async () => {
      // Overrides are read on every request, so that one made by `svc-hub admin` shows at once.
      hub = await startHub(kind, { env: { SVC_HUB_RATE_LIMIT_CACHE_SECONDS: '0' } })
      await admin('create-user', 'alice')
      for (const org of ['acme', 'zeta', 'busy']) {
        await admin('create-org', org, '--owner', 'alice')
        keys[org as 'acme' | 'zeta' | 'busy'] = (await admin('create-api-key', org)).key
      }
      keys.revoked = (await admin('create-api-key', 'acme')).key
      const store = await hub.openStore()
      try {
        await store.kysely
          .updateTable('api_keys')
          .set({ revoked_at: new Date().toISOString() })
          .where('key_hash', '=', hashSecret(keys.revoked))
          .execute()
      } finally {
        await store.close()
      }
    })
    afterAll(() => hub?.dispose())

    it('200: the default table, free, a low-credit alert at 0 credits, no warnings', async () => {
      const reply = await expectStoreUnchanged(hub, () => withKey(keys.zeta))
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body).toEqual({
        output: { rateLimits: DEFAULT_RECORDS },
        chargeInfo: {
          method: 'free',
          message: FREE,
          lowCreditAlert: {
            getMoreCreditsUrl: `${hub.url.replace('127.0.0.1', 'localhost')}/zeta/settings/credits`,
            message: expect.stringContaining('0 credits left'),
            availableCredits: 0,
          },
        },
        warnings: null,
        advice: [expect.stringMatching(/^'zeta' has no credits: .* 402 /)],
      })
      const own = reply.body.output.rateLimits.find(
        (r: { path: string }) => r.path === '/v1/rate-limits',
      )
      expect(own).toEqual({
        method: 'GET',
        path: '/v1/rate-limits',
        max: 20,
        windowSeconds: 60,
        isCustom: false,
      })
      // Counted per organisation, against the route's own limit.
      expect(reply.headers.get('ratelimit-policy')).toBe('20;w=60')
    })

    it("the table shows the organisation's overrides, and only for that organisation", async () => {
      await admin('set-rate-limit', 'acme', 'GET', '/v1/user', '--max', '5', '--window', '30')
      await admin(
        'set-rate-limit',
        'acme',
        'POST',
        '/v1/libraries',
        '--max',
        '7',
        '--window',
        '3600',
      )
      const acme = await withKey(keys.acme)
      expect(acme.status, acme.text).toBe(200)
      expect(acme.body.output.rateLimits).toEqual(
        DEFAULT_RECORDS.map((row) =>
          row.method === 'GET' && row.path === '/v1/user'
            ? { ...row, max: 5, windowSeconds: 30, isCustom: true }
            : row.method === 'POST' && row.path === '/v1/libraries'
              ? { ...row, max: 7, windowSeconds: 3600, isCustom: true }
              : row,
        ),
      )
      const zeta = await withKey(keys.zeta)
      expect(zeta.body.output.rateLimits).toEqual(DEFAULT_RECORDS)

      await admin('clear-rate-limit', 'acme', 'GET', '/v1/user')
      const cleared = await withKey(keys.acme)
      const user = cleared.body.output.rateLimits.find(
        (r: { method: string; path: string }) => r.method === 'GET' && r.path === '/v1/user',
      )
      expect(user).toEqual({
        method: 'GET',
        path: '/v1/user',
        max: 600,
        windowSeconds: 60,
        isCustom: false,
      })
    })

    it('lowCreditAlert: present under the threshold, null at or above it', async () => {
      const alertOf = async () => {
        const reply = await withKey(keys.acme)
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body.chargeInfo).toMatchObject({ method: 'free', message: FREE })
        return reply.body.chargeInfo.lowCreditAlert
      }
      expect(await alertOf()).toMatchObject({ availableCredits: 0 })
      expect(await admin('grant-credits', 'acme', '9')).toMatchObject({ balance: 9 })
      expect(await alertOf()).toMatchObject({ availableCredits: 9 }) // default threshold 10
      await admin('grant-credits', 'acme', '1', '--reason', 'top-up')
      expect(await alertOf()).toBeNull() // 10 is not under 10
      await admin('set-credit-threshold', 'acme', '25')
      const alert = await alertOf()
      expect(alert).toEqual({
        getMoreCreditsUrl: expect.stringMatching(
          /^http:\/\/localhost:\d+\/acme\/settings\/credits$/,
        ),
        message:
          "'acme' has 10 credits left, below its low-credit threshold of 25: calls that cost more than the balance are refused with 402.",
        availableCredits: 10,
      })
      expect(() => new URL(alert.getMoreCreditsUrl)).not.toThrow()
      await admin('charge-credits', 'acme', '4')
      expect(await alertOf()).toMatchObject({ availableCredits: 6 })
      await admin('set-credit-threshold', 'acme', '0')
      expect(await alertOf()).toBeNull()
      // The call itself is free: the ledger holds the operator's entries only.
      const store = await hub.openStore()
      try {
        const acme = (await store.accounts.find('acme'))!
        expect((await store.credits.entries(acme.id)).map((e) => [e.kind, e.amount])).toEqual([
          ['grant', 9],
          ['grant', 1],
          ['charge', 4],
        ])
      } finally {
        await store.close()
      }
    })

    it('warnings: one per extraneous query parameter, with its full path', async () => {
      const reply = await withKey(keys.zeta, '&foo=1&verbose=&foo=2&api_key=x')
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.warnings).toEqual([
        { field: 'query.foo', message: expect.stringContaining("'foo'") },
        { field: 'query.verbose', message: expect.stringContaining("'verbose'") },
        { field: 'query.api_key', message: expect.stringContaining("'api_key'") },
      ])
      expect(reply.body.output.rateLimits).toEqual(DEFAULT_RECORDS)
    })

    it('400 missing_api_key without apiKey, or with an empty one', async () => {
      for (const query of ['', '?', '?apiKey=', '?foo=1', '?apikey=' + keys.zeta]) {
        const reply = await rateLimits(query)
        expectError(reply, 400, 'missing_api_key')
        expect(reply.body.requestId).toMatch(REQUEST_ID)
      }
    })

    it('422 invalid_request when apiKey is given twice', async () => {
      const reply = await withKey(keys.zeta, `&apiKey=${keys.zeta}`)
      expectError(reply, 422, 'invalid_request')
      expect(reply.body.details.issues).toEqual([
        { path: 'query.apiKey', message: expect.any(String) },
      ])
    })

    it('401 unauthorized for a key the hub did not make', async () => {
      const unknown = await withKey(`svc_key_${'A'.repeat(43)}`)
      expectError(unknown, 401, 'unauthorized')
      expect(unknown.body.details).toEqual({ reason: 'unknown' })
      for (const bad of ['nope', 'svc_pat_' + 'A'.repeat(43), `svc_key_short`]) {
        const malformed = await withKey(bad)
        expectError(malformed, 401, 'unauthorized')
        expect(malformed.body.details).toEqual({ reason: 'malformed' })
      }
    })

    it('403 api_key_revoked for a revoked key', async () => {
      const reply = await withKey(keys.revoked)
      expectError(reply, 403, 'api_key_revoked')
      expect(reply.body.details).toEqual({ revokedAt: expect.any(String) })
    })

    it('404 for another method or a longer path', async () => {
      const post = await call(`${hub.url}/v1/rate-limits?apiKey=${keys.zeta}`, { method: 'POST' })
      expectError(post, 404, 'not_found')
      expectError(await rateLimits(`/x?apiKey=${keys.zeta}`), 404, 'not_found')
    })

    it('429 after 20 calls in a minute, with advice as the budget runs out', async () => {
      const replies: Reply[] = []
      for (let i = 0; i < 20; i++) replies.push(await withKey(keys.busy))
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200))
      expect(replies.map((r) => Number(r.headers.get('ratelimit-remaining')))).toEqual(
        Array.from({ length: 20 }, (_, i) => 19 - i),
      )
      // Plenty left: only the credits tip; five or fewer left: a tip about the limit too.
      expect(replies[0]!.body.advice).toHaveLength(1)
      for (const reply of replies.slice(14)) {
        expect(reply.body.advice).toContainEqual(
          expect.stringMatching(/^Only \d+ of 20 calls to GET \/v1\/rate-limits are left/),
        )
      }
      const refused = await withKey(keys.busy)
      expectError(refused, 429, 'rate_limited')
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      // Another organisation's count is its own.
      expect((await withKey(keys.zeta)).status).toBe(200)
    })

    it('never 402: the call is free even with no credits at all', async () => {
      const reply = await withKey(keys.zeta)
      expect(reply.status).toBe(200)
      expect(reply.body.chargeInfo.method).toBe('free')
      expect(reply.body.chargeInfo.lowCreditAlert.availableCredits).toBe(0)
    })

    it('the OpenAPI description has the endpoint with its required apiKey', async () => {
      const doc = (await call(`${hub.url}/v1/openapi.json`)).body
      const operation = doc.paths['/v1/rate-limits'].get
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'apiKey', in: 'query', required: true }),
      )
      expect(Object.keys(operation.responses).sort()).toEqual(
        ['200', '400', '401', '402', '403', '404', '422', '429', '500', '503'].sort(),
      )
      expect(doc.components.securitySchemes.apiKeyQuery).toMatchObject({
        in: 'query',
        name: 'apiKey',
      })
      expect(doc.components.schemas.ChargeInfo).toBeDefined()
    })

    it('no API key that was sent appears in the hub’s logs', async () => {
      const output = hub.stdout() + hub.stderr()
      expect(output).toContain('"path":"/v1/rate-limits"')
      for (const key of Object.values(keys)) expect(output).not.toContain(key.slice(8))
    })
  })
}

const postgres = (await storeKinds()).includes('postgres')

describe.runIf(postgres)('GET /v1/rate-limits when the database does not answer (postgres)', () => {
  let hub: HubProcess
  let proxy: TcpProxy
  let key: string

  beforeAll(async () => {
    const target = new URL(postgresUrl())
    proxy = await startProxy(target.hostname, Number(target.port || 5432))
    const viaProxy = new URL(postgresUrl())
    viaProxy.hostname = '127.0.0.1'
    viaProxy.port = String(proxy.port)
    hub = await startHub('postgres', { env: { DATABASE_URL: viaProxy.href } })
    jsonOf(await hub.admin(['create-user', 'alice', '--json']))
    jsonOf(await hub.admin(['create-org', 'acme', '--owner', 'alice', '--json']))
    key = jsonOf(await hub.admin(['create-api-key', 'acme', '--json'])).key
  })
  afterAll(async () => {
    await hub?.dispose()
    proxy?.close()
  })

  it('503 unavailable, and 200 again once it is back', async () => {
    expect((await call(`${hub.url}/v1/rate-limits?apiKey=${key}`)).status).toBe(200)
    proxy.cut()
    const down = await call(`${hub.url}/v1/rate-limits?apiKey=${key}`)
    expectError(down, 503, 'unavailable')
    proxy.restore()
    const back = await call(`${hub.url}/v1/rate-limits?apiKey=${key}`)
    expect(back.status, back.text).toBe(200)
  })
})

type TcpProxy = {
  readonly port: number
  /** Ends every connection and refuses new ones. */
  cut(): void
  /** Accepts connections again. */
  restore(): void
  close(): void
}

/** A TCP proxy to `host:port` that the test can cut off, as a database that goes away. */
async function startProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>()
  let open = true
  const server = net.createServer((client) => {
    if (!open) return client.destroy()
    const upstream = net.connect(port, host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => {})
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      open = false
      for (const socket of sockets) socket.destroy()
    },
    restore: () => {
      open = true
    },
    close: () => {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  }
}
