import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashSecret } from '../src/auth/secrets.js'
import { requestHash } from '../src/libraries/idempotency.js'
import { storeKinds } from './support/databases.js'
import { seedPeople, seedTokens, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const PROFILE = {
  id: 'docs-default',
  version: '2.1.0',
  required_capabilities: ['ocr', 'embeddings'],
  enrichment_schema: { type: 'object', properties: { summary: { type: 'string' } } },
  segmentation_policy: { strategy: 'heading', max_tokens: 800, overlap: 0.1 },
  metadata_schema: { required: ['source'], nested: { deep: [1, { two: null }] } },
}
const BODY = { name: 'Handbook', ingestion_profile: PROFILE }

for (const kind of await storeKinds()) {
  describe(`libraries: create with Idempotency-Key, read, list (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let tokens: Record<'alice' | 'walt' | 'rita' | 'nora' | 'aliceApis', string>
    /** API keys: acme's, zeta's (another organisation), and one of acme's that is revoked. */
    let keys: { acme: string; zeta: string; revoked: string }
    let orgIds: Record<'acme' | 'zeta', string>
    const v1 = (path: string) => `${hub.url}/v1${path}`

    function create(
      token: string | undefined,
      json: unknown,
      options: { key?: string | undefined; org?: string; headers?: Record<string, string> } = {},
    ): Promise<Reply> {
      const headers: Record<string, string> = { ...options.headers }
      if (options.key !== undefined) headers['idempotency-key'] = options.key
      const query = options.org ? `?org=${options.org}` : ''
      return call(v1(`/libraries${query}`), { method: 'POST', token, json, headers })
    }

    async function libraryCount(): Promise<number> {
      const store = await hub.openStore()
      try {
        return (await store.kysely.selectFrom('libraries').select('id').execute()).length
      } finally {
        await store.close()
      }
    }

    async function adminJson(args: string[]): Promise<any> {
      const run = await hub.admin([...args, '--json'])
      expect(run.code, run.stderr).toBe(0)
      return JSON.parse(run.stdout)
    }

    beforeAll(async () => {
      // More requests than POST /v1/libraries allows a minute; the limiter has its own tests.
      hub = await startHub(kind, { env: { SVC_HUB_RATE_LIMITS: 'off' } })
      people = await seedPeople(hub)
      tokens = await seedTokens(hub, {
        alice: ['alice', 'write:libraries,read'],
        walt: ['walt', 'write:libraries'],
        rita: ['rita', 'write:libraries,read'],
        nora: ['nora', 'write:libraries,read'],
        aliceApis: ['alice', 'write:apis'],
      })
      const zeta = await adminJson(['create-org', 'zeta', '--owner', 'nora'])
      await adminJson(['create-org', 'beta', '--owner', 'alice'])
      // A library costs a credit; the 402 test uses 'broke', which has none.
      for (const org of ['acme', 'zeta', 'beta']) await adminJson(['grant-credits', org, '1000'])
      await adminJson(['create-org', 'broke', '--owner', 'alice'])
      const acmeKey = await adminJson(['create-api-key', 'acme'])
      const zetaKey = await adminJson(['create-api-key', 'zeta'])
      const revoked = await adminJson(['create-api-key', 'acme'])
      keys = { acme: acmeKey.key, zeta: zetaKey.key, revoked: revoked.key }
      const store = await hub.openStore()
      try {
        await store.kysely
          .updateTable('api_keys')
          .set({ revoked_at: new Date().toISOString() })
          .where('key_hash', '=', hashSecret(revoked.key))
          .execute()
        orgIds = { acme: (await store.accounts.find('acme'))!.id, zeta: zeta.id }
      } finally {
        await store.close()
      }
    })
    afterAll(() => hub?.dispose())

    it('charges a credit per library, never again on a replay, and is 402 without credits', async () => {
      const balance = async (org: string) => {
        const store = await hub.openStore()
        try {
          return await store.credits.balance((await store.accounts.find(org))!.id)
        } finally {
          await store.close()
        }
      }
      const before = await balance('acme')
      const key = randomUUID()
      expect((await create(keys.acme, BODY, { key })).status).toBe(201)
      expect((await create(keys.acme, BODY, { key })).status).toBe(201)
      expect(await balance('acme')).toBe(before - 1)
      const count = await libraryCount()
      const brokeKey = randomUUID()
      const refused = await create(tokens.alice, BODY, { key: brokeKey, org: 'broke' })
      expect(refused.status, refused.text).toBe(402)
      expect(refused.body).toMatchObject({
        code: 'insufficient_credits',
        details: { availableCredits: 0, creditsNeeded: 1 },
      })
      expect(await libraryCount()).toBe(count)
      // The key was freed with the rollback: after a top-up the same request goes through.
      await adminJson(['grant-credits', 'broke', '1'])
      expect((await create(tokens.alice, BODY, { key: brokeKey, org: 'broke' })).status).toBe(201)
    })

    it('creates a library with an API key: 201 with every field of LibraryResponse', async () => {
      const reply = await create(keys.acme, BODY, { key: randomUUID() })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
      expect(reply.headers.get('idempotent-replayed')).toBeNull()
      expect(reply.body).toEqual({
        request_id: reply.headers.get('x-request-id'),
        execution: {
          location: 'cloud',
          capability_id: 'libraries.create',
          capability_version: '1',
        },
        usage: { billable: true, quantity: 1, unit: 'library', credits: 1 },
        warnings: [],
        data: {
          id: expect.stringMatching(/^lib_[0-9a-f]{24}$/),
          workspace_id: orgIds.acme,
          name: 'Handbook',
          ingestion_profile: PROFILE,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          updated_at: reply.body.data.created_at,
        },
      })
      expect(reply.body.request_id).toMatch(/^req_/)

      const read = await call(v1(`/libraries/${reply.body.data.id}`), { token: keys.acme })
      expect(read.status, read.text).toBe(200)
      expect(read.body).toEqual(reply.body.data)
      const byMember = await call(v1(`/libraries/${reply.body.data.id}`), { token: tokens.rita })
      expect(byMember.body).toEqual(reply.body.data)
    })

    it('the same key and body again replays the first answer, byte for byte, and makes nothing', async () => {
      const key = randomUUID()
      const first = await create(keys.acme, BODY, { key })
      expect(first.status).toBe(201)
      const count = await libraryCount()

      // The same body with its keys in another order is the same request.
      const reordered = {
        ingestion_profile: Object.fromEntries(Object.entries(PROFILE).reverse()),
        name: 'Handbook',
      }
      for (const body of [BODY, reordered]) {
        const again = await create(keys.acme, body, { key })
        expect(again.status).toBe(201)
        expect(again.text).toBe(first.text)
        expect(again.headers.get('idempotent-replayed')).toBe('true')
        expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
      }
      expect(await libraryCount()).toBe(count)
    })

    it('the same key with another body is 422 idempotency_conflict, and nothing is stored', async () => {
      const key = randomUUID()
      const first = await create(keys.acme, BODY, { key })
      expect(first.status).toBe(201)
      await expectStoreUnchanged(hub, async () => {
        const other = { ...BODY, name: 'Another' }
        const reply = await create(keys.acme, other, { key })
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({
          code: 'idempotency_conflict',
          message: expect.stringContaining('different request'),
          details: { idempotencyKey: key },
          requestId: reply.headers.get('x-request-id'),
        })
      })
      expect((await create(keys.acme, BODY, { key })).text).toBe(first.text)
    })

    it('ten identical requests at once with one key make exactly one library; a retry after 409 gets the replay', async () => {
      const key = randomUUID()
      const before = await libraryCount()
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => create(keys.acme, BODY, { key })),
      )
      expect(await libraryCount()).toBe(before + 1)

      const created = replies.filter((r) => r.status === 201)
      const inFlight = replies.filter((r) => r.status === 409)
      expect(created.length + inFlight.length, replies.map((r) => r.text).join('\n')).toBe(10)
      expect(created.length).toBeGreaterThanOrEqual(1)
      const first = created[0]!
      for (const reply of created) expect(reply.text).toBe(first.text)
      expect(created.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1)
      for (const reply of inFlight) {
        expect(reply.body.code).toBe('idempotency_in_flight')
        expect(reply.headers.get('retry-after')).toBe('1')
      }
      const retry = await create(keys.acme, BODY, { key })
      expect(retry.status).toBe(201)
      expect(retry.text).toBe(first.text)
    })

    it('a key still in flight is 409 with Retry-After; a claim older than its lease is taken over', async () => {
      const inFlightKey = randomUUID()
      const staleKey = randomUUID()
      const hash = requestHash({ operation: 'POST /v1/libraries', org: orgIds.acme, body: BODY })
      const store = await hub.openStore()
      try {
        const row = (key: string, claimedAgoMs: number) => {
          const claimedAt = new Date(Date.now() - claimedAgoMs).toISOString()
          return {
            scope: `org:${orgIds.acme}`,
            key,
            request_hash: hash,
            state: 'in_flight' as const,
            claim_token: 'a-request-that-died',
            claimed_at: claimedAt,
            response_status: null,
            response_body: null,
            created_at: claimedAt,
            expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          }
        }
        await store.kysely
          .insertInto('idempotency_keys')
          .values([row(inFlightKey, 0), row(staleKey, 5 * 60_000)])
          .execute()
      } finally {
        await store.close()
      }

      await expectStoreUnchanged(hub, async () => {
        const busy = await create(keys.acme, BODY, { key: inFlightKey })
        expect(busy.status).toBe(409)
        expect(busy.body.code).toBe('idempotency_in_flight')
        expect(busy.headers.get('retry-after')).toBe('1')
        const different = await create(keys.acme, { ...BODY, name: 'x' }, { key: inFlightKey })
        expect(different.status).toBe(422)
        expect(different.body.code).toBe('idempotency_conflict')
      })

      const before = await libraryCount()
      const taken = await create(keys.acme, BODY, { key: staleKey })
      expect(taken.status, taken.text).toBe(201)
      expect(await libraryCount()).toBe(before + 1)
      expect((await create(keys.acme, BODY, { key: staleKey })).text).toBe(taken.text)
    })

    it('a key older than 24 hours may be used again, for any body; expired keys are swept', async () => {
      const key = randomUUID()
      const sweptKey = randomUUID()
      const store = await hub.openStore()
      try {
        const old = (k: string) => ({
          scope: `org:${orgIds.acme}`,
          key: k,
          request_hash: 'the hash of another body',
          state: 'done' as const,
          claim_token: 'old',
          claimed_at: '2020-01-01T00:00:00.000Z',
          response_status: 201,
          response_body: '{"old":true}',
          created_at: '2020-01-01T00:00:00.000Z',
          expires_at: '2020-01-02T00:00:00.000Z',
        })
        await store.kysely
          .insertInto('idempotency_keys')
          .values([old(key), old(sweptKey)])
          .execute()
        const reply = await create(keys.acme, BODY, { key })
        expect(reply.status, reply.text).toBe(201)
        expect(reply.body.data.name).toBe('Handbook')
        const rows = await store.kysely
          .selectFrom('idempotency_keys')
          .select('key')
          .where('key', 'in', [key, sweptKey])
          .execute()
        expect(rows).toEqual([{ key }])
      } finally {
        await store.close()
      }
    })

    it('without an Idempotency-Key, or with an unusable one, is 400 and stores nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        for (const key of [undefined, '', 'has space', 'x'.repeat(256), 'é']) {
          const reply = await create(keys.acme, BODY, { key })
          expect(reply.status, JSON.stringify(key)).toBe(400)
          expect(reply.body.code).toBe('idempotency_key_required')
        }
        // Before the body is looked at: a bad body without a key is still 400.
        const reply = await create(tokens.alice, { nope: 1 }, { org: 'acme' })
        expect(reply.status).toBe(400)
      })
    })

    it('malformed, invalid and oversized bodies are 4xx and store nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        const post = (body: string, contentType = 'application/json') =>
          call(v1('/libraries'), {
            method: 'POST',
            token: keys.acme,
            headers: { 'idempotency-key': randomUUID(), 'content-type': contentType },
            body,
          })
        const malformed = await post('{"name": "x", ')
        expect(malformed.status).toBe(400)
        expect(malformed.body.code).toBe('malformed_request')

        const text = await post(JSON.stringify(BODY), 'text/plain')
        expect(text.status).toBe(415)
        expect(text.body.code).toBe('unsupported_media_type')

        const huge = JSON.stringify({ ...BODY, name: 'x'.repeat(1024 * 1024 + 1) })
        const oversized = await post(huge)
        expect(oversized.status).toBe(422)
        expect(oversized.body).toMatchObject({
          code: 'payload_too_large',
          details: { limit: 1024 * 1024 },
        })

        let deep: unknown = 'leaf'
        for (let i = 0; i < 40; i++) deep = { d: deep }
        const { required_capabilities: _, ...withoutCapabilities } = PROFILE
        const invalid: [unknown, string][] = [
          [{ ingestion_profile: PROFILE }, 'json.name'],
          [{ ...BODY, name: '' }, 'json.name'],
          [{ ...BODY, name: 'a\u0000b' }, 'json.name'],
          [{ ...BODY, extra: true }, 'json'],
          [{ name: 'x' }, 'json.ingestion_profile'],
          [
            { ...BODY, ingestion_profile: withoutCapabilities },
            'json.ingestion_profile.required_capabilities',
          ],
          [
            { ...BODY, ingestion_profile: { ...PROFILE, required_capabilities: 'ocr' } },
            'json.ingestion_profile.required_capabilities',
          ],
          [
            { ...BODY, ingestion_profile: { ...PROFILE, metadata_schema: [] } },
            'json.ingestion_profile.metadata_schema',
          ],
          [
            { ...BODY, ingestion_profile: { ...PROFILE, enrichment_schema: deep } },
            'json.ingestion_profile.enrichment_schema',
          ],
          [{ ...BODY, ingestion_profile: { ...PROFILE, extra: 1 } }, 'json.ingestion_profile'],
          [[BODY], 'json'],
        ]
        for (const [body, path] of invalid) {
          const reply = await post(JSON.stringify(body))
          expect(reply.status, JSON.stringify(body).slice(0, 200)).toBe(422)
          expect(reply.body.code).toBe('invalid_request')
          const paths = reply.body.details.issues.map((i: { path: string }) => i.path)
          expect(paths, reply.text).toContain(path)
        }
      })
    })

    it('no credential, the wrong scope, a bad or revoked key, or no write access: 401, 403 or 422, and nothing stored', async () => {
      await expectStoreUnchanged(hub, async () => {
        const cases: [string | undefined, string | undefined, number, string, string?][] = [
          [undefined, 'acme', 401, 'unauthorized', 'missing'],
          [keys.revoked, undefined, 403, 'api_key_revoked'],
          [`svc_key_${'A'.repeat(43)}`, undefined, 401, 'unauthorized', 'unknown'],
          ['svc_key_short', undefined, 401, 'unauthorized', 'malformed'],
          [people.alice, 'acme', 403, 'insufficient_scope'],
          [tokens.aliceApis, 'acme', 403, 'insufficient_scope'],
          [tokens.rita, 'acme', 403, 'forbidden'],
          [tokens.nora, 'acme', 403, 'forbidden'],
          [keys.acme, 'zeta', 403, 'forbidden'],
          [tokens.alice, undefined, 422, 'invalid_request'],
          [tokens.alice, 'alice', 422, 'invalid_request'],
          [tokens.alice, 'ghost', 404, 'not_found'],
        ]
        for (const [token, org, status, code, reason] of cases) {
          const reply = await create(token, BODY, { key: randomUUID(), ...(org ? { org } : {}) })
          expect(reply.status, `${token?.slice(0, 12)} ${org}: ${reply.text}`).toBe(status)
          expect(reply.body.code).toBe(code)
          if (reason) expect(reply.body.details.reason).toBe(reason)
        }
        const missing = await create(undefined, BODY, { key: randomUUID() })
        expect(missing.body.message).toMatch(/personal access token or an organisation API key/)
        expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="svc-hub"')
        // An API key is a credential on the library endpoints only.
        const elsewhere = await call(v1('/user'), { token: keys.acme })
        expect(elsewhere.status).toBe(401)
        expect(elsewhere.body.details.reason).toBe('malformed')
        for (const path of ['/libraries', `/libraries/lib_${'0'.repeat(24)}`]) {
          expect((await call(v1(path))).status).toBe(401)
          expect((await call(v1(path), { token: keys.revoked })).status).toBe(403)
          expect((await call(v1(path), { token: tokens.aliceApis })).status).toBe(403)
        }
      })
    })

    it('a writer creates with a PAT in the organisation it names; keys are per caller', async () => {
      const key = randomUUID()
      const byWalt = await create(tokens.walt, BODY, { key, org: 'acme' })
      expect(byWalt.status, byWalt.text).toBe(201)
      expect(byWalt.body.data.workspace_id).toBe(orgIds.acme)
      // The same key of another caller is another key: alice and acme's API key make their own.
      const byAlice = await create(tokens.alice, BODY, { key, org: 'acme' })
      const byKey = await create(keys.acme, BODY, { key, org: 'acme' })
      const ids = [byWalt, byAlice, byKey].map((r) => r.body.data.id)
      expect(new Set(ids).size).toBe(3)
      // The organisation is part of the request: alice's key for another one is a conflict.
      const elsewhere = await create(tokens.alice, BODY, { key, org: 'beta' })
      expect(elsewhere.status).toBe(422)
      expect(elsewhere.body.code).toBe('idempotency_conflict')
      const nora = await create(tokens.nora, BODY, { key, org: 'zeta' })
      expect(nora.status).toBe(201)
      expect(nora.body.data.workspace_id).toBe(orgIds.zeta)
    })

    it("reads and lists: another organisation's library is 404, lists are per organisation and paginate", async () => {
      const zetaLib = await create(keys.zeta, { ...BODY, name: 'Zeta' }, { key: randomUUID() })
      expect(zetaLib.status).toBe(201)
      const acmeLib = await create(keys.acme, { ...BODY, name: 'Acme' }, { key: randomUUID() })
      const zetaId: string = zetaLib.body.data.id
      const acmeId: string = acmeLib.body.data.id

      for (const [token, id] of [
        [keys.acme, zetaId],
        [keys.zeta, acmeId],
        [tokens.nora, acmeId],
        [tokens.alice, zetaId],
        [keys.acme, `lib_${'0'.repeat(24)}`],
      ] as const) {
        const reply = await call(v1(`/libraries/${id}`), { token })
        expect(reply.status).toBe(404)
        expect(reply.body.code).toBe('not_found')
      }
      expect((await call(v1('/libraries/nope'), { token: keys.acme })).status).toBe(422)
      expect((await call(v1(`/libraries/${zetaId}`), { token: tokens.nora })).body.name).toBe(
        'Zeta',
      )

      const all = async (token: string, query = '') => {
        const seen: { id: string; workspace_id: string }[] = []
        let cursor: string | null = null
        do {
          const page = `limit=2${cursor ? `&cursor=${cursor}` : ''}${query}`
          const reply: Reply = await call(v1(`/libraries?${page}`), { token })
          expect(reply.status, reply.text).toBe(200)
          expect(reply.body.libraries.length).toBeLessThanOrEqual(2)
          seen.push(...reply.body.libraries)
          cursor = reply.body.nextCursor
        } while (cursor)
        return seen
      }
      const store = await hub.openStore()
      const stored = await store.kysely
        .selectFrom('libraries')
        .select(['id', 'org_id'])
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      await store.close()
      const idsOf = (org: string) => stored.filter((r) => r.org_id === org).map((r) => r.id)

      const acmeList = await all(keys.acme)
      expect(acmeList.map((l) => l.id)).toEqual(idsOf(orgIds.acme))
      expect(acmeList.length).toBeGreaterThan(2)
      expect((await all(tokens.rita, '&org=acme')).map((l) => l.id)).toEqual(idsOf(orgIds.acme))
      expect((await all(tokens.nora)).map((l) => l.id)).toEqual(idsOf(orgIds.zeta))
      expect((await all(tokens.rita)).map((l) => l.id)).toEqual(idsOf(orgIds.acme))

      const refused = await call(v1('/libraries?org=acme'), { token: tokens.nora })
      expect(refused.status).toBe(403)
      expect((await call(v1('/libraries?org=zeta'), { token: keys.acme })).status).toBe(403)
      const badCursor = await call(v1('/libraries?cursor=nope'), { token: keys.acme })
      expect(badCursor.status).toBe(422)
    })

    it('the OpenAPI description has the three routes, the header, and the envelope as default', async () => {
      const doc = (await call(v1('/openapi.json'))).body
      const create = doc.paths['/v1/libraries'].post
      expect(Object.keys(create.responses).sort()).toEqual(['201', 'default'])
      expect(create.responses.default.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ApiError',
      })
      expect(create.responses['201'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/LibraryResponse',
      })
      expect(create.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }),
      )
      expect(create.security).toEqual([{ bearerAuth: [] }, { orgApiKey: [] }])
      expect(doc.components.securitySchemes.orgApiKey).toMatchObject({ scheme: 'bearer' })
      expect(doc.paths['/v1/libraries'].get.responses.default).toBeDefined()
      expect(doc.paths['/v1/libraries/{id}'].get.responses.default).toBeDefined()
      expect(doc.components.schemas.Library.required).toEqual(
        expect.arrayContaining(['id', 'name', 'ingestion_profile', 'created_at', 'updated_at']),
      )
    })
  })
}
