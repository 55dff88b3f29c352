import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const API_ROUTE = '/v1/apis/{owner}/{slug}'

/** The RateLimit-* headers of a reply, as numbers (NaN when one is missing). */
function limitsOf(reply: Reply) {
  const header = (name: string) => Number(reply.headers.get(name) ?? NaN)
  return {
    limit: header('ratelimit-limit'),
    remaining: header('ratelimit-remaining'),
    reset: header('ratelimit-reset'),
  }
}

/** Asserts that the reply carries the three headers, with a sensible value each. */
function expectLimitHeaders(reply: Reply, limit: number) {
  const got = limitsOf(reply)
  expect(got.limit, reply.text).toBe(limit)
  expect(got.remaining).toBeGreaterThanOrEqual(0)
  expect(got.remaining).toBeLessThan(limit)
  expect(got.reset).toBeGreaterThanOrEqual(1)
  expect(got.reset).toBeLessThanOrEqual(60)
}

/** GET `path` with `token` (if any) over a connection from the local address `from`. */
function fromAddress(
  hub: HubProcess,
  path: string,
  token: string | undefined,
  from = '127.0.0.1',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${hub.url}${path}`, {
      localAddress: from,
      agent: false,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    })
    request.on('error', reject)
    request.on('response', (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
      )
    })
  })
}

for (const kind of await storeKinds()) {
  describe(`rate limits (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const v1 = (path: string) => `${hub.url}/v1${path}`
    const readApi = (token: string) => call(v1('/apis/acme/billing'), { token })
    const putOverrides = (token: string | undefined, json: unknown, org = 'acme') =>
      call(v1(`/orgs/${org}/rate-limits`), { method: 'PUT', token, json })

    beforeAll(async () => {
      hub = await startHub(kind, {
        env: {
          // Cheap routes made small, so that a test reaches their limit in a few requests.
          SVC_HUB_RATE_LIMITS: 'GET /v1/user=20/60,POST /v1/apis=3/60',
          // Overrides made by `svc-hub admin` (another process) apply within a second.
          SVC_HUB_RATE_LIMIT_CACHE_SECONDS: '1',
        },
      })
      people = await seedPeople(hub)
      const created = await call(v1('/apis'), {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug: 'billing', name: 'Billing', visibility: 'public' },
      })
      expect(created.status, created.text).toBe(201)
    })
    afterAll(() => hub?.dispose())

    it('the 21st call in a minute to a 20-per-minute route is 429 with Retry-After and the RateLimit headers', async () => {
      for (let i = 1; i <= 20; i++) {
        const reply = await call(v1('/user'), { token: people.nora })
        expect(reply.status, reply.text).toBe(200)
        expect(limitsOf(reply)).toMatchObject({ limit: 20, remaining: 20 - i })
        expect(reply.headers.get('retry-after')).toBeNull()
      }
      const refused = await call(v1('/user'), { token: people.nora })
      expect(refused.status).toBe(429)
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(limitsOf(refused)).toEqual({ limit: 20, remaining: 0, reset: retryAfter })
      expect(refused.headers.get('ratelimit-policy')).toBe('20;w=60')
      expect(refused.body).toEqual({
        code: 'rate_limited',
        message: expect.stringContaining('GET /v1/user allows 20 per 60 s'),
        details: { method: 'GET', path: '/v1/user', limit: 20, windowSeconds: 60, retryAfter },
        requestId: refused.headers.get('x-request-id'),
      })
      // Another user has a budget of their own.
      expect((await call(v1('/user'), { token: people.rita })).status).toBe(200)
    })

    it('a refused request is not handled: nothing is stored', async () => {
      const create = (slug: string) =>
        call(v1('/apis'), {
          method: 'POST',
          token: people.nora,
          json: { owner: 'nora', slug, name: slug },
        })
      for (const slug of ['one', 'two', 'three']) expect((await create(slug)).status).toBe(201)
      const refused = await expectStoreUnchanged(hub, () => create('four'))
      expect(refused.status).toBe(429)
      expect(refused.body.code).toBe('rate_limited')
      expect((await call(v1('/apis/nora/four'), { token: people.nora })).status).toBe(404)
    })

    it('every answer of a /v1 route carries the RateLimit headers; a path no route has does not', async () => {
      const cases: [string, () => Promise<Reply>, number, number][] = [
        ['200', () => call(v1('/user'), { token: hub.adminPat }), 200, 20],
        ['200 anonymous', () => call(v1('/apis')), 200, 600],
        ['200 document', () => call(v1('/openapi.json')), 200, 60],
        ['401 no token', () => call(v1('/user')), 401, 20],
        ['404 no such API', () => call(v1('/apis/acme/nope'), { token: people.alice }), 404, 600],
        [
          '404 no such stack',
          () => call(v1('/stacks/acme/nope'), { token: people.alice }),
          404,
          600,
        ],
        [
          '403 reader writes',
          () =>
            call(v1('/apis/acme/billing/webhooks'), {
              method: 'POST',
              token: people.rita,
              json: { url: 'https://example.com/hook' },
            }),
          403,
          120,
        ],
        [
          '400 malformed JSON',
          () =>
            call(v1('/projects'), {
              method: 'POST',
              token: people.alice,
              headers: { 'content-type': 'application/json' },
              body: '{',
            }),
          400,
          120,
        ],
        [
          '422 invalid body',
          () => call(v1('/projects'), { method: 'POST', token: people.alice, json: {} }),
          422,
          120,
        ],
      ]
      for (const [name, send, status, limit] of cases) {
        const reply = await send()
        expect(reply.status, `${name}: ${reply.text}`).toBe(status)
        expectLimitHeaders(reply, limit)
      }
      for (const [method, path] of [
        ['GET', '/nope'],
        ['DELETE', '/user'],
        ['GET', '/apis/acme/billing/nope'],
      ] as const) {
        const reply = await call(v1(path), { method, token: people.walt })
        expect(reply.status).toBe(404)
        expect(reply.headers.get('ratelimit-limit')).toBeNull()
        expect(reply.headers.get('ratelimit-remaining')).toBeNull()
      }
      // Those 404s were not counted against GET /v1/apis/{owner}/{slug}.
      expect(limitsOf(await readApi(people.walt))).toMatchObject({ limit: 600, remaining: 599 })
    })

    it('an override set with `svc-hub admin set-rate-limit` takes effect without a restart; clear-rate-limit ends it', async () => {
      expect(limitsOf(await readApi(people.walt)).limit).toBe(600)
      const set = await hub.admin([
        'set-rate-limit',
        'acme',
        'get',
        API_ROUTE,
        '--max',
        '5',
        '--window',
        '60',
        '--json',
      ])
      expect(set.code, set.stderr).toBe(0)
      expect(JSON.parse(set.stdout)).toEqual({
        org: 'acme',
        method: 'GET',
        path: API_ROUTE,
        max: 5,
        windowSeconds: 60,
      })

      // Within the hub's override cache time (1 s here), without a restart.
      const first = await eventually(async () => {
        const reply = await readApi(people.walt)
        return limitsOf(reply).limit === 5 ? reply : undefined
      }, 'the override to apply')
      expect(limitsOf(first).remaining).toBe(4)
      const statuses = [first.status]
      for (let i = 0; i < 5; i++) statuses.push((await readApi(people.walt)).status)
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
      // Only for the organisation: not on another account's path, not for a non-member.
      expect(limitsOf(await call(v1('/apis/nora/one'), { token: people.walt })).limit).toBe(600)
      expect(limitsOf(await readApi(people.nora)).limit).toBe(600)

      const cleared = await hub.admin(['clear-rate-limit', 'acme', 'GET', API_ROUTE])
      expect(cleared.code, cleared.stderr).toBe(0)
      expect(cleared.stdout).toBe(
        `acme: GET ${API_ROUTE} is back to the default, 600 requests per 60 s\n`,
      )
      await eventually(
        async () => ((await readApi(people.walt)).status === 200 ? true : undefined),
        'the default to apply again',
      )
      const again = await hub.admin(['clear-rate-limit', 'acme', 'GET', API_ROUTE])
      expect(again).toMatchObject({ code: 1 })
      expect(again.stderr).toBe(`error: acme has no rate limit override for GET ${API_ROUTE}\n`)
    })

    it('svc-hub admin set-rate-limit refuses bad input and stores nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        const cases: [string[], string][] = [
          [['nope', 'GET', API_ROUTE], "there is no organisation 'nope'"],
          [['alice', 'GET', API_ROUTE], "'alice' is a user, not an organisation"],
          [['acme', 'GET', '/v1/apis/acme/billing'], 'is not a route of the rate-limit table'],
          [['acme', 'PUT', API_ROUTE], 'is not a route of the rate-limit table'],
          [['acme', 'GET', API_ROUTE, '--max=-5'], '--max must be a whole number from 1'],
          [['acme', 'GET', API_ROUTE, '--max=0'], '--max must be a whole number from 1'],
          [['acme', 'GET', API_ROUTE, '--max=many'], '--max must be a whole number from 1'],
          [['acme', 'GET', API_ROUTE, '--window=0'], '--window must be a whole number'],
        ]
        for (const [args, message] of cases) {
          const options = ['--max=5', '--window=60'].filter(
            (o) => !args.some((a) => a.startsWith(o.split('=')[0]!)),
          )
          const run = await hub.admin(['set-rate-limit', ...args, ...options])
          expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1)
          expect(run.stderr).toContain(message)
          expect(run.stdout).toBe('')
        }
      })
    })

    it('an owner sets overrides with PUT /v1/orgs/{org}/rate-limits: they apply at once; DELETE removes one', async () => {
      const overrides = [
        { method: 'POST', path: '/v1/apis/{owner}/{slug}/revisions', max: 9, windowSeconds: 3600 },
        { method: 'GET', path: API_ROUTE, max: 3, windowSeconds: 60 },
      ]
      const put = await putOverrides(people.alice, overrides)
      expect(put.status, put.text).toBe(200)
      expectLimitHeaders(put, 30)
      const sorted = [overrides[1], overrides[0]]
      expect(put.body).toEqual(sorted)
      expect((await call(v1('/orgs/acme/rate-limits'), { token: people.alice })).body).toEqual(
        sorted,
      )

      // The hub that stored it applies it from the next request.
      const statuses = []
      for (let i = 0; i < 4; i++) {
        const reply = await readApi(people.rita)
        expect(limitsOf(reply).limit).toBe(3)
        statuses.push(reply.status)
      }
      expect(statuses).toEqual([200, 200, 200, 429])

      const removed = await call(
        v1(`/orgs/acme/rate-limits?method=GET&path=${encodeURIComponent(API_ROUTE)}`),
        { method: 'DELETE', token: people.alice },
      )
      expect(removed.status, removed.text).toBe(204)
      expect(limitsOf(await readApi(people.rita)).limit).toBe(600)
      expect((await call(v1('/orgs/acme/rate-limits'), { token: people.alice })).body).toEqual([
        overrides[0],
      ])
      const again = await call(
        v1(`/orgs/acme/rate-limits?method=GET&path=${encodeURIComponent(API_ROUTE)}`),
        { method: 'DELETE', token: people.alice },
      )
      expect(again.status).toBe(404)

      const cleared = await putOverrides(people.alice, [])
      expect(cleared.status).toBe(200)
      expect(cleared.body).toEqual([])
    })

    it('a non-owner gets 403 and changes nothing', async () => {
      const overrides = [{ method: 'GET', path: API_ROUTE, max: 1, windowSeconds: 60 }]
      await expectStoreUnchanged(hub, async () => {
        for (const [token, role] of [
          [people.walt, 'writer'],
          [people.rita, 'reader'],
          [people.nora, null],
        ] as const) {
          for (const reply of [
            await putOverrides(token, overrides),
            await call(v1('/orgs/acme/rate-limits'), { token }),
            await call(v1(`/orgs/acme/rate-limits?method=GET&path=/v1/user`), {
              method: 'DELETE',
              token,
            }),
          ]) {
            expect(reply.status, reply.text).toBe(403)
            expect(reply.body).toMatchObject({
              code: 'forbidden',
              message: expect.stringContaining(
                role ? `your role in 'acme' is ${role}` : 'not a member',
              ),
              details: { account: 'acme', access: 'owner' },
            })
          }
        }
      })
      expect(limitsOf(await readApi(people.walt)).limit).toBe(600)
    })

    it('bad input is refused with the documented 4xx, and nothing is stored', async () => {
      const valid = { method: 'GET', path: API_ROUTE, max: 10, windowSeconds: 60 }
      await expectStoreUnchanged(hub, async () => {
        const malformed = await call(v1('/orgs/acme/rate-limits'), {
          method: 'PUT',
          token: people.alice,
          headers: { 'content-type': 'application/json' },
          body: '[{"method":',
        })
        expect(malformed.status).toBe(400)
        expect(malformed.body.code).toBe('malformed_request')

        const invalid: [unknown, string][] = [
          [{ overrides: [valid] }, 'json'],
          [[{ ...valid, max: -5 }], 'json.0.max'],
          [[{ ...valid, max: 0 }], 'json.0.max'],
          [[{ ...valid, max: 2.5 }], 'json.0.max'],
          [[{ ...valid, windowSeconds: 0 }], 'json.0.windowSeconds'],
          [[{ ...valid, windowSeconds: 86_401 }], 'json.0.windowSeconds'],
          [[{ ...valid, max: '10' }], 'json.0.max'],
          [[valid, { ...valid, method: 'get' }], 'json.1.method'],
          [[{ ...valid, path: '/v1/apis/acme/billing' }], 'json.0.path'],
          [[{ ...valid, method: 'DELETE' }], 'json.0.path'],
          [[valid, { ...valid, max: 20 }], 'json.1'],
          [[{ ...valid, extra: true }], 'json.0'],
          [[{ method: 'GET', path: API_ROUTE }], 'json.0.max'],
        ]
        for (const [body, path] of invalid) {
          const reply = await putOverrides(people.alice, body)
          expect(reply.status, JSON.stringify(body)).toBe(422)
          expect(reply.body.code).toBe('invalid_request')
          expect(
            (reply.body.details.issues as { path: string }[]).map((i) => i.path),
            JSON.stringify(body),
          ).toContain(path)
        }

        for (const org of ['nope', 'alice']) {
          const reply = await putOverrides(people.alice, [valid], org)
          expect(reply.status).toBe(404)
          expect(reply.body).toMatchObject({
            code: 'not_found',
            message: `No organisation is named '${org}'.`,
          })
        }
        const badHandle = await putOverrides(people.alice, [valid], 'Not_A_Handle')
        expect(badHandle.status).toBe(422)

        const text = await call(v1('/orgs/acme/rate-limits'), {
          method: 'PUT',
          token: people.alice,
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify([valid]),
        })
        expect(text.status).toBe(415)

        const anonymous = await putOverrides(undefined, [valid])
        expect(anonymous.status).toBe(401)
        expectLimitHeaders(anonymous, 30)

        const badQuery = await call(v1('/orgs/acme/rate-limits?method=FETCH&path=/v1/user'), {
          method: 'DELETE',
          token: people.alice,
        })
        expect(badQuery.status).toBe(422)
      })
    })
  })

  describe(`failed credentials (${kind})`, () => {
    let hub: HubProcess
    beforeAll(async () => {
      hub = await startHub(kind)
    })
    afterAll(() => hub?.dispose())

    it('61 bad tokens in a minute from one address: the 61st is 429, and so is a good token from there; another address is not held back', async () => {
      const unknown = `svc_pat_${'A'.repeat(43)}`
      const user = (token: string, from = '127.0.0.1') => fromAddress(hub, '/v1/user', token, from)
      await expectStoreUnchanged(hub, async () => {
        for (let i = 1; i <= 60; i++) {
          const token = i % 3 === 0 ? 'not-a-token' : unknown
          const reply = await user(token)
          expect({ i, status: reply.status }).toEqual({ i, status: 401 })
        }
        for (const token of [unknown, hub.adminPat]) {
          const refused = await user(token)
          expect(refused.status).toBe(429)
          const retryAfter = Number(refused.headers['retry-after'])
          expect(retryAfter).toBeGreaterThanOrEqual(1)
          expect(retryAfter).toBeLessThanOrEqual(60)
          expect(JSON.parse(refused.text)).toMatchObject({
            code: 'rate_limited',
            details: { limit: 60, windowSeconds: 60, retryAfter, budget: 'failed_credentials' },
          })
        }
      })
      // The budget is the address's: a request without a credential is counted on its route,
      // and a client at another address is not held back.
      expect((await fromAddress(hub, '/v1/apis', undefined)).status).toBe(200)
      expect((await user(hub.adminPat, '127.0.0.2')).status).toBe(200)
      expect((await call(`${hub.url}/healthz`)).status).toBe(200)
    })
  })
}
