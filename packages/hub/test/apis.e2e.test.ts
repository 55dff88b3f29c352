import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { oasYaml } from './support/documents.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

for (const kind of await storeKinds()) {
  describe(`APIs: create, read, list, visibility (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const v1 = (path: string) => `${hub.url}/v1${path}`
    const create = (token: string, json: object) =>
      call(v1('/apis'), { method: 'POST', token, json })
    /** Every read endpoint of one API, relative to /v1. */
    const reads = (api: string) => [
      `/apis/${api}`,
      `/apis/${api}/revisions`,
      `/apis/${api}/revisions/latest`,
      `/apis/${api}/revisions/latest/document`,
      `/apis/${api}/revisions/latest/changes`,
    ]
    const listed = async (token: string | undefined, query = '') => {
      const reply = await call(v1(`/apis${query}`), { token })
      expect(reply.status, reply.text).toBe(200)
      return (reply.body.apis as { owner: string; slug: string }[]).map(
        (api) => `${api.owner}/${api.slug}`,
      )
    }

    beforeAll(async () => {
      hub = await startHub(kind)
      people = await seedPeople(hub)
      const apis: [string, string, string, 'public' | 'private'][] = [
        [people.alice, 'acme', 'open', 'public'],
        [people.alice, 'acme', 'secret', 'private'],
        [people.alice, 'alice', 'mine', 'private'],
        [people.nora, 'nora', 'hers', 'private'],
        [people.nora, 'nora', 'shared', 'public'],
      ]
      for (const [token, owner, slug, visibility] of apis) {
        const reply = await create(token, { owner, slug, name: slug, visibility })
        expect(reply.status, reply.text).toBe(201)
      }
      for (const api of ['acme/open', 'acme/secret']) {
        const pushed = await call(v1(`/apis/${api}/revisions`), {
          method: 'POST',
          token: people.alice,
          headers: { 'content-type': 'application/yaml' },
          body: oasYaml(['get /pets']),
        })
        expect(pushed.status, pushed.text).toBe(201)
      }
    })
    afterAll(() => hub?.dispose())

    it('creates an API and answers its record; reading it answers the same', async () => {
      const reply = await create(people.walt, {
        owner: 'acme',
        slug: 'billing',
        name: 'Billing API',
        visibility: 'public',
        sourceUrl: 'https://example.com/openapi.yaml',
      })
      expect(reply.status).toBe(201)
      expect(reply.body).toEqual({
        id: expect.stringMatching(/^api_[0-9a-f]{24}$/),
        owner: 'acme',
        slug: 'billing',
        name: 'Billing API',
        visibility: 'public',
        sourceUrl: 'https://example.com/openapi.yaml',
        url: `${hub.url.replace('127.0.0.1', 'localhost')}/acme/apis/billing`,
        createdAt: expect.any(String),
        diffProfile: 'wire',
      })
      const read = await call(v1('/apis/acme/billing'))
      expect(read.status).toBe(200)
      expect(read.body).toEqual(reply.body)
      const defaulted = await create(people.alice, { owner: 'alice', slug: 'quiet', name: 'Q' })
      expect(defaulted.body.visibility).toBe('private')
    })

    it('refuses to create an API for an account the caller cannot write, or twice', async () => {
      await expectStoreUnchanged(hub, async () => {
        const cases: [string, object, number, string][] = [
          [people.rita, { owner: 'acme', slug: 'x', name: 'x' }, 403, 'forbidden'],
          [people.nora, { owner: 'acme', slug: 'x', name: 'x' }, 403, 'forbidden'],
          [
            people.aliceReadOnly,
            { owner: 'acme', slug: 'x', name: 'x' },
            403,
            'insufficient_scope',
          ],
          [people.alice, { owner: 'ghost', slug: 'x', name: 'x' }, 404, 'not_found'],
          [people.alice, { owner: 'acme', slug: 'open', name: 'again' }, 409, 'already_exists'],
          [people.alice, { owner: 'acme', slug: 'x', name: 'x', extra: 1 }, 422, 'invalid_request'],
          [people.alice, { owner: 'acme', slug: 'X Y', name: 'x' }, 422, 'invalid_request'],
          [people.alice, { owner: 'acme', slug: 'x', name: 'a\u0000b' }, 422, 'invalid_request'],
          [people.alice, { owner: 'acme', slug: 'x', name: 'a\ud800b' }, 422, 'invalid_request'],
          ...[
            // Not loopback: this hub is a local trial, whose guard admits loopback sources.
            'http://192.168.1.7:8080/openapi.json',
            'http://169.254.169.254/latest/meta-data',
            'https://registry.internal/openapi.yaml',
            'http://[::ffff:10.0.0.1]/openapi.json',
          ].map((sourceUrl): [string, object, number, string] => [
            people.alice,
            { owner: 'acme', slug: 'x', name: 'x', sourceUrl },
            422,
            'url_refused',
          ]),
        ]
        for (const [token, json, status, code] of cases) {
          const reply = await create(token, json)
          expect(reply.status, JSON.stringify(json)).toBe(status)
          expect(reply.body.code).toBe(code)
        }
      })
    })

    it('serves a public API, its revisions, document and changes to anyone, without a token too', async () => {
      for (const token of [undefined, people.nora, people.rita, people.aliceProjects]) {
        for (const path of reads('acme/open')) {
          const reply = await call(v1(path), { token })
          expect(reply.status, `${path} ${token ? 'with' : 'without'} a token`).toBe(200)
        }
      }
    })

    it('answers 404 for a private API to anyone who cannot read it, as for one that does not exist', async () => {
      for (const token of [undefined, people.nora]) {
        for (const path of reads('acme/secret')) {
          const hidden = await call(v1(path), { token })
          const missing = await call(v1(path.replace('secret', 'missing')), { token })
          expect(hidden.status, path).toBe(404)
          expect(hidden.body.code).toBe('not_found')
          expect(hidden.body.message).toBe(missing.body.message.replace('missing', 'secret'))
          expect(hidden.body.message).not.toMatch(/private/i)
        }
      }
      // alice's own private API: not for walt, who is alice's colleague in acme only.
      expect((await call(v1('/apis/alice/mine'), { token: people.walt })).status).toBe(404)
    })

    it('serves a private API to members of its organisation, readers included', async () => {
      for (const token of [people.alice, people.walt, people.rita, people.aliceReadOnly]) {
        for (const path of reads('acme/secret')) {
          const reply = await call(v1(path), { token })
          expect(reply.status, path).toBe(200)
        }
      }
      const own = await call(v1('/apis/nora/hers'), { token: people.nora })
      expect(own.status).toBe(200)
    })

    it('asks a member whose token has neither read nor write:apis for such a token', async () => {
      const reply = await call(v1('/apis/acme/secret'), { token: people.aliceProjects })
      expect(reply.status).toBe(403)
      expect(reply.body).toMatchObject({
        code: 'insufficient_scope',
        details: { required: ['read', 'write:apis'] },
      })
    })

    it('refuses a bad token even where no token is needed', async () => {
      for (const token of [people.aliceRevoked, people.aliceExpired, 'svc_pat_' + 'x'.repeat(43)]) {
        for (const path of ['/apis', '/apis/acme/open', '/apis/acme/open/revisions']) {
          const reply = await call(v1(path), { token })
          expect(reply.status, path).toBe(401)
          expect(reply.body.code).toBe('unauthorized')
        }
      }
    })

    it('lists the APIs the caller can read: every public one and the private ones it may see', async () => {
      const publicOnes = ['acme/billing', 'acme/open', 'nora/shared']
      const sorted = async (token: string | undefined, query?: string) =>
        (await listed(token, query)).sort()
      expect(await sorted(undefined)).toEqual(publicOnes)
      expect(await sorted(people.rita)).toEqual([...publicOnes, 'acme/secret'].sort())
      expect(await sorted(people.nora)).toEqual([...publicOnes, 'nora/hers'].sort())
      expect(await sorted(people.alice)).toEqual(
        [...publicOnes, 'acme/secret', 'alice/mine', 'alice/quiet'].sort(),
      )
      // A token without read or write:apis sees what anyone sees.
      expect(await sorted(people.aliceProjects)).toEqual(publicOnes)
      expect(await sorted(people.rita, '?owner=acme')).toEqual([
        'acme/billing',
        'acme/open',
        'acme/secret',
      ])
      expect(await sorted(undefined, '?owner=alice')).toEqual([])
      expect(await sorted(people.nora, '?owner=acme')).toEqual(['acme/billing', 'acme/open'])
    })

    it('pages the list with nextCursor, oldest first, each API once', async () => {
      const all = await listed(people.alice, '?limit=100')
      const paged: string[] = []
      let cursor: string | null = null
      do {
        const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
        const reply = await call(v1(`/apis${query}`), { token: people.alice })
        expect(reply.status).toBe(200)
        expect(reply.body.apis.length).toBeLessThanOrEqual(2)
        paged.push(
          ...reply.body.apis.map((a: { owner: string; slug: string }) => `${a.owner}/${a.slug}`),
        )
        cursor = reply.body.nextCursor
      } while (cursor)
      expect(paged).toEqual(all)
      expect(all.indexOf('acme/open')).toBeLessThan(all.indexOf('nora/shared'))
    })

    it('refuses a bad list query with 422, an unknown owner with 404', async () => {
      for (const query of [
        '?limit=0',
        '?limit=101',
        '?limit=ten',
        '?cursor=nonsense',
        '?owner=Not_A_Handle',
      ]) {
        const reply = await call(v1(`/apis${query}`), { token: people.alice })
        expect(reply.status, query).toBe(422)
        expect(reply.body.code).toBe('invalid_request')
      }
      const unknown = await call(v1('/apis?owner=ghost'))
      expect(unknown.status).toBe(404)
    })

    it('answers 422 for names in the path that break their rules, before looking anything up', async () => {
      for (const path of [
        '/apis/ACME/open',
        '/apis/acme/-open',
        '/apis/a..b/open',
        '/apis/acme/open/revisions/..%2F..%2Fetc',
      ]) {
        const reply = await call(v1(path), { token: people.alice })
        expect(reply.status, path).toBe(422)
        expect(reply.body.code).toBe('invalid_request')
      }
    })
  })
}
