import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const SETTINGS = {
  basePath: 'src/api',
  skip: ['/internal'],
  enrichments: {
    'gen-zod': {
      '/pets': { get: { main: { name: 'listPets' }, 'line-items': { name: 'items' } } },
      Pet: { main: { exportName: 'PetSchema' } },
    },
    _stack: { prefix: 'Api' },
  },
}

for (const kind of await storeKinds()) {
  describe(`projects: config and base files (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const project = (path = '') => `${hub.url}/v1/projects/acme/shop${path}`
    const putConfig = (token: string | undefined, json: unknown, path = '/client-config') =>
      call(project(path), { method: 'PUT', token, json })
    const putBaseFiles = (
      token: string | undefined,
      files: { path: string; content: string }[],
    ) => {
      const form = new FormData()
      for (const file of files) form.append('files', new Blob([file.content]), file.path)
      return call(project('/preview/base-files'), { method: 'PUT', token, body: form })
    }

    beforeAll(async () => {
      hub = await startHub(kind)
      people = await seedPeople(hub)
      const published = await call(`${hub.url}/v1/stacks/acme/web/versions`, {
        method: 'POST',
        token: people.alice,
        body: publishForm({
          version: '1.0.0',
          bundle: 'export {}',
          files: [manifest('@acme/web')],
        }),
      })
      expect(published.status).toBe(201)
      const api = await call(`${hub.url}/v1/apis`, {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug: 'petstore', name: 'Petstore' },
      })
      expect(api.status).toBe(201)
      const created = await call(`${hub.url}/v1/projects`, {
        method: 'POST',
        token: people.alice,
        json: { account: 'acme', slug: 'shop', stack: '@acme/web', api: 'acme/petstore' },
      })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({
        project: { account: 'acme', slug: 'shop' },
        stack: { account: 'acme', slug: 'web' },
        stackVersion: 'latest',
        api: { owner: 'acme', slug: 'petstore' },
      })
    })
    afterAll(() => hub?.dispose())

    it('answers an empty config for a project that was never pushed to', async () => {
      const reply = await call(project('/config'), { token: people.rita })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        project: { account: 'acme', slug: 'shop' },
        config: { settings: {}, enrichments: [] },
        enrichmentCount: 0,
        updatedAt: null,
      })
    })

    it('folds pushed settings into the flat config, ignores source, and unfolds them for pull', async () => {
      const reply = await putConfig(people.walt, {
        source: 'https://example.com/openapi.json',
        settings: SETTINGS,
      })
      expect(reply.status).toBe(200)
      expect(reply.body.enrichmentCount).toBe(4)
      expect(reply.body.config.settings).toEqual({ basePath: 'src/api', skip: ['/internal'] })
      expect(reply.body.config.enrichments).toContainEqual({
        generator: 'gen-zod',
        subject: ['/pets', 'get'],
        variant: 'line-items',
        value: { name: 'items' },
      })
      expect(reply.body.updatedAt).toEqual(expect.any(String))
      expect(JSON.stringify(reply.body)).not.toContain('example.com')

      const read = await call(project('/config'), { token: people.aliceProjects })
      expect(read.body).toEqual(reply.body)
      const pulled = await call(project('/client-config'), { token: people.rita })
      expect(pulled.status).toBe(200)
      expect(pulled.body).toEqual({ project: '@acme/shop', settings: SETTINGS })
    })

    it('replaces the config on every push', async () => {
      const reply = await putConfig(people.alice, { settings: { basePath: 'lib' } })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        enrichmentCount: 0,
        config: { settings: { basePath: 'lib' }, enrichments: [] },
      })
      const pulled = await call(project('/client-config'), { token: people.alice })
      expect(pulled.body.settings).toEqual({ basePath: 'lib' })
    })

    const refusedReads: [string, () => string | undefined, number, string][] = [
      ['no token', () => undefined, 401, 'unauthorized'],
      ['a revoked token', () => people.aliceRevoked, 401, 'unauthorized'],
      ['an expired token', () => people.aliceExpired, 401, 'unauthorized'],
      ['a non-member', () => people.nora, 403, 'forbidden'],
    ]
    for (const [what, token, status, code] of refusedReads) {
      it(`answers ${status} to a config read with ${what}`, async () => {
        const reply = await call(project('/config'), { token: token() })
        expect(reply.status).toBe(status)
        expect(reply.body.code).toBe(code)
      })
    }

    it('answers 404 for a project that does not exist, and for an unknown account', async () => {
      for (const path of ['/v1/projects/acme/nope/config', '/v1/projects/ghost/shop/config']) {
        const reply = await call(`${hub.url}${path}`, { token: people.alice })
        expect(reply.status).toBe(404)
        expect(reply.body.code).toBe('not_found')
      }
      await expectStoreUnchanged(hub, async () => {
        const reply = await call(`${hub.url}/v1/projects/acme/nope/client-config`, {
          method: 'PUT',
          token: people.alice,
          json: { settings: {} },
        })
        expect(reply.status).toBe(404)
        expect(reply.body.message).toMatch(/web app/)
      })
    })

    const refusedPushes: [string, () => string | undefined, () => unknown, number, string][] = [
      ['no token', () => undefined, () => ({ settings: {} }), 401, 'unauthorized'],
      [
        'an expired token',
        () => people.aliceExpired,
        () => ({ settings: {} }),
        401,
        'unauthorized',
      ],
      ['a reader', () => people.rita, () => ({ settings: {} }), 403, 'forbidden'],
      ['a non-member', () => people.nora, () => ({ settings: {} }), 403, 'forbidden'],
      [
        'a token without write:projects',
        () => people.aliceReadOnly,
        () => ({ settings: {} }),
        403,
        'insufficient_scope',
      ],
      [
        'an unknown field',
        () => people.alice,
        () => ({ settings: {}, extra: 1 }),
        422,
        'invalid_request',
      ],
      ['no settings', () => people.alice, () => ({ source: 'x' }), 422, 'invalid_request'],
      [
        'settings that are not an object',
        () => people.alice,
        () => ({ settings: [1] }),
        422,
        'invalid_request',
      ],
      [
        'enrichments that are not an object',
        () => people.alice,
        () => ({ settings: { enrichments: 'x' } }),
        422,
        'invalid_request',
      ],
      [
        'a body over the JSON limit',
        () => people.alice,
        () => ({ settings: { big: 'x'.repeat(1024 * 1024 + 1) } }),
        422,
        'payload_too_large',
      ],
    ]
    for (const [what, token, body, status, code] of refusedPushes) {
      it(`answers ${status} ${code} to a push with ${what}, and changes nothing`, async () => {
        await expectStoreUnchanged(hub, async () => {
          const reply = await putConfig(token(), body())
          expect(reply.status).toBe(status)
          expect(reply.body.code).toBe(code)
        })
      })
    }

    it('answers 400 to malformed JSON and 415 to another content type, and changes nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        const malformed = await call(project('/client-config'), {
          method: 'PUT',
          token: people.alice,
          headers: { 'content-type': 'application/json' },
          body: '{"settings": {',
        })
        expect(malformed.status).toBe(400)
        expect(malformed.body.code).toBe('malformed_request')
        const text = await call(project('/client-config'), {
          method: 'PUT',
          token: people.alice,
          headers: { 'content-type': 'text/plain' },
          body: 'settings',
        })
        expect(text.status).toBe(415)
        expect(text.body.code).toBe('unsupported_media_type')
      })
    })

    it('replaces the stored base files as a set', async () => {
      const first = await putBaseFiles(people.walt, [
        { path: 'src/app.ts', content: 'app' },
        { path: 'README.md', content: '# shop' },
      ])
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ fileCount: 2, totalBytes: 9 })
      const second = await putBaseFiles(people.alice, [{ path: 'src/main.ts', content: 'main' }])
      expect(second.status).toBe(200)
      expect(second.body.files.map((f: { path: string }) => f.path)).toEqual(['src/main.ts'])
      const store = await hub.openStore()
      try {
        const row = await store.projects.find('acme', 'shop')
        const files = await store.projects.baseFiles(row!.id)
        expect(files.map((f) => f.path)).toEqual(['src/main.ts'])
      } finally {
        await store.close()
      }
    })

    const refusedBaseFiles: [string, () => string | undefined, string, number, string][] = [
      ['no token', () => undefined, 'a.ts', 401, 'unauthorized'],
      ['a reader', () => people.rita, 'a.ts', 403, 'forbidden'],
      ['an unsafe path', () => people.alice, '../a.ts', 422, 'unsafe_path'],
    ]
    for (const [what, token, path, status, code] of refusedBaseFiles) {
      it(`answers ${status} ${code} to base files with ${what}, and keeps the stored set`, async () => {
        await expectStoreUnchanged(hub, async () => {
          const reply = await putBaseFiles(token(), [{ path, content: 'x' }])
          expect(reply.status).toBe(status)
          expect(reply.body.code).toBe(code)
        })
      })
    }

    it('refuses a second project with the same slug and bad references, and stores nothing', async () => {
      const create = (json: unknown) =>
        call(`${hub.url}/v1/projects`, { method: 'POST', token: people.alice, json })
      const base = { account: 'acme', slug: 'other', stack: '@acme/web', api: 'acme/petstore' }
      await expectStoreUnchanged(hub, async () => {
        const duplicate = await create({ ...base, slug: 'shop' })
        expect(duplicate.status).toBe(409)
        expect(duplicate.body.code).toBe('already_exists')
        for (const json of [
          { ...base, stack: '@acme/missing' },
          { ...base, stack: 'acme-web' },
          { ...base, stackVersion: '9.9.9' },
          { ...base, stackVersion: 'newest' },
          { ...base, api: 'acme/missing' },
          { ...base, color: 'red' },
          { ...base, slug: 'Not A Slug' },
        ]) {
          const reply = await create(json)
          expect(reply.status, JSON.stringify(json)).toBe(422)
          expect(reply.body.code).toBe('invalid_request')
        }
        const reader = await call(`${hub.url}/v1/projects`, {
          method: 'POST',
          token: people.rita,
          json: base,
        })
        expect(reader.status).toBe(403)
      })
    })

    it('checks the token before it looks at the body', async () => {
      const anonymous = await call(`${hub.url}/v1/projects`, {
        method: 'POST',
        json: { nonsense: true },
      })
      expect(anonymous.status).toBe(401)
      const noScope = await call(`${hub.url}/v1/projects`, {
        method: 'POST',
        token: people.aliceReadOnly,
        json: { nonsense: true },
      })
      expect(noScope.status).toBe(403)
      expect(noScope.body.code).toBe('insufficient_scope')
    })

    it("tells an outsider nothing about another account's stacks and private APIs", async () => {
      await expectStoreUnchanged(hub, async () => {
        const create = (json: object) =>
          call(`${hub.url}/v1/projects`, {
            method: 'POST',
            token: people.nora,
            json: {
              account: 'nora',
              slug: 'mine',
              api: 'acme/petstore',
              stack: '@acme/web',
              ...json,
            },
          })
        for (const stack of ['@acme/web', '@acme/missing']) {
          const reply = await create({ stack })
          expect(reply.status, stack).toBe(403)
          expect(reply.body.code).toBe('forbidden')
        }
      })
    })
  })
}
