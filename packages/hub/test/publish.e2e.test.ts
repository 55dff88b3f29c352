import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm, type UploadFile } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const BUNDLE = 'export default { fetch() { return new Response("ok") } }\n'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

for (const kind of await storeKinds()) {
  describe(`publish a stack version (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const versions = (account: string, slug: string) =>
      `${hub.url}/v1/stacks/${account}/${slug}/versions`
    const publish = (
      account: string,
      slug: string,
      token: string | undefined,
      parts: { version?: string; bundle?: string; files?: UploadFile[] },
    ) => call(versions(account, slug), { method: 'POST', token, body: publishForm(parts) })
    const tree = (name: string, imports: Record<string, string> = {}, extra: UploadFile[] = []) => [
      manifest(name, imports),
      { path: 'src/mod.ts', content: 'export const x = 1\n' },
      ...extra,
    ]

    beforeAll(async () => {
      hub = await startHub(kind)
      people = await seedPeople(hub)
    })
    afterAll(() => hub?.dispose())

    it('stores the version and answers the complete record (201)', async () => {
      const files = tree(
        '@alice/tools',
        { 'gen-zod': 'jsr:@svc/gen-zod@^1', 'gen-mine': './gen-mine/mod.ts' },
        [{ path: 'gen-mine/mod.ts', content: 'export {}\n' }],
      )
      const reply = await publish('alice', 'tools', people.alice, {
        version: '1.0.0',
        bundle: BUNDLE,
        files,
      })
      expect(reply.status).toBe(201)
      const sourceTotalBytes = files.reduce(
        (sum, f) => sum + Buffer.byteLength(f.content as string),
        0,
      )
      expect(reply.body).toMatchObject({
        stack: { account: 'alice', slug: 'tools' },
        version: '1.0.0',
        versionUrl: expect.stringMatching(/\/alice\/stacks\/tools\/versions\/1\.0\.0$/),
        bundleBytes: Buffer.byteLength(BUNDLE),
        bundleSha256: sha256(BUNDLE),
        sourceFileCount: 3,
        sourceTotalBytes,
        manifestPath: 'deno.json',
        composition: [
          { name: 'gen-mine', kind: 'cloned', path: 'gen-mine/mod.ts' },
          { name: 'gen-zod', kind: 'imported', specifier: 'jsr:@svc/gen-zod@^1' },
        ],
        publishedBy: 'alice',
      })
      expect(reply.headers.get('location')).toBe(reply.body.versionUrl)

      const detail = await call(`${versions('alice', 'tools')}/1.0.0`, { token: people.alice })
      expect(detail.status).toBe(200)
      expect(detail.body.files.map((f: { path: string }) => f.path)).toEqual([
        'deno.json',
        'gen-mine/mod.ts',
        'src/mod.ts',
      ])
      const bundle = await call(`${versions('alice', 'tools')}/1.0.0/bundle`, {
        token: people.alice,
      })
      expect(bundle.text).toBe(BUNDLE)
      const file = await call(`${versions('alice', 'tools')}/1.0.0/files/src/mod.ts`, {
        token: people.alice,
      })
      expect(file.text).toBe('export const x = 1\n')
      const stack = await call(`${hub.url}/v1/stacks/alice/tools`, { token: people.alice })
      expect(stack.body).toMatchObject({ latestVersion: '1.0.0', versions: ['1.0.0'] })
    })

    it('lets owners and writers of an organisation publish to it', async () => {
      const owner = await publish('acme', 'billing', people.alice, {
        version: '1.0.0',
        bundle: BUNDLE,
        files: tree('@acme/billing'),
      })
      expect(owner.status).toBe(201)
      const writer = await publish('acme', 'billing', people.walt, {
        version: '1.1.0',
        bundle: BUNDLE,
        files: tree('@acme/billing'),
      })
      expect(writer.status).toBe(201)
      expect(writer.body.publishedBy).toBe('walt')
      const list = await call(versions('acme', 'billing'), { token: people.rita })
      expect(list.body.versions.map((v: { version: string }) => v.version)).toEqual([
        '1.1.0',
        '1.0.0',
      ])
    })

    it('names the newest release as latest, not a newer prerelease', async () => {
      for (const version of ['0.9.0-rc.1', '0.9.0', '0.10.0-beta.1']) {
        const reply = await publish('alice', 'pre', people.alice, {
          version,
          bundle: BUNDLE,
          files: tree('@alice/pre'),
        })
        expect(reply.status).toBe(201)
      }
      const stack = await call(`${hub.url}/v1/stacks/alice/pre`, { token: people.alice })
      expect(stack.body).toMatchObject({
        latestVersion: '0.9.0',
        versions: ['0.10.0-beta.1', '0.9.0', '0.9.0-rc.1'],
      })
    })

    it('checks the token before it reads the upload', async () => {
      const reply = await call(versions('alice', 'tools'), {
        method: 'POST',
        body: 'not multipart',
        headers: { 'content-type': 'text/plain' },
      })
      expect(reply.status).toBe(401)
    })

    it('answers 401 without a valid token and stores nothing', async () => {
      const parts = { version: '9.0.0', bundle: BUNDLE, files: tree('@alice/tools') }
      await expectStoreUnchanged(hub, async () => {
        const tokens: [string | undefined, string][] = [
          [undefined, 'missing'],
          [people.aliceRevoked, 'revoked'],
          [people.aliceExpired, 'expired'],
          ['svc_pat_' + 'x'.repeat(43), 'unknown'],
          ['svc_pat_short', 'malformed'],
        ]
        for (const [token, reason] of tokens) {
          const reply = await publish('alice', 'tools', token, parts)
          expect(reply.status).toBe(401)
          expect(reply.body).toMatchObject({ code: 'unauthorized', details: { reason } })
          expect(reply.body.requestId).toBe(reply.headers.get('x-request-id'))
        }
      })
    })

    it('answers 403 to a caller who is not a writer on the account, and stores nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        const cases: [string, string, string][] = [
          ['acme', '@acme/billing', people.rita],
          ['acme', '@acme/billing', people.nora],
          ['alice', '@alice/tools', people.walt],
        ]
        for (const [account, name, token] of cases) {
          const slug = name.split('/')[1]!
          const reply = await publish(account, slug, token, {
            version: '9.0.0',
            bundle: BUNDLE,
            files: tree(name),
          })
          expect(reply.status).toBe(403)
          expect(reply.body.code).toBe('forbidden')
        }
        const scope = await publish('alice', 'tools', people.aliceProjects, {
          version: '9.0.0',
          bundle: BUNDLE,
          files: tree('@alice/tools'),
        })
        expect(scope.status).toBe(403)
        expect(scope.body).toMatchObject({
          code: 'insufficient_scope',
          details: { required: ['write:releases'] },
        })
      })
    })

    it('answers 404 for an account that does not exist', async () => {
      await expectStoreUnchanged(hub, async () => {
        const reply = await publish('ghost', 'tools', people.alice, {
          version: '1.0.0',
          bundle: BUNDLE,
          files: tree('@ghost/tools'),
        })
        expect(reply.status).toBe(404)
        expect(reply.body.code).toBe('not_found')
      })
    })

    it('answers 409 to a second publish of a version, which stays as it was', async () => {
      await expectStoreUnchanged(hub, async () => {
        const reply = await publish('alice', 'tools', people.alice, {
          version: '1.0.0',
          bundle: 'different bundle',
          files: tree('@alice/tools'),
        })
        expect(reply.status).toBe(409)
        expect(reply.body.code).toBe('version_exists')
      })
      const bundle = await call(`${versions('alice', 'tools')}/1.0.0/bundle`, {
        token: people.alice,
      })
      expect(bundle.text).toBe(BUNDLE)
    })

    it('lets exactly one of several concurrent publishes of one version win', async () => {
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          publish('alice', 'race', people.alice, {
            version: '2.0.0',
            bundle: `bundle ${i}`,
            files: tree('@alice/race'),
          }),
        ),
      )
      const statuses = replies.map((r) => r.status).sort()
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409])
      const winner = replies.find((r) => r.status === 201)!
      const stored = await call(`${versions('alice', 'race')}/2.0.0/bundle`, {
        token: people.alice,
      })
      expect(sha256(stored.text)).toBe(winner.body.bundleSha256)
    })

    const invalid: [string, string, { version?: string; bundle?: string; files?: UploadFile[] }][] =
      [
        ['missing_part', 'no version', { bundle: BUNDLE, files: tree('@alice/tools') }],
        [
          'invalid_version',
          'a version that is not semver',
          { version: 'v1.2', bundle: BUNDLE, files: tree('@alice/tools') },
        ],
        [
          'invalid_version',
          'a partial version',
          { version: '1.2', bundle: BUNDLE, files: tree('@alice/tools') },
        ],
        ['missing_part', 'no bundle', { version: '3.0.0', files: tree('@alice/tools') }],
        [
          'empty_bundle',
          'a 0-byte bundle',
          { version: '3.0.0', bundle: '', files: tree('@alice/tools') },
        ],
        [
          'missing_manifest',
          'no root manifest',
          { version: '3.0.0', bundle: BUNDLE, files: [{ path: 'src/mod.ts', content: '' }] },
        ],
        [
          'invalid_manifest',
          'a root manifest that is not JSON',
          { version: '3.0.0', bundle: BUNDLE, files: [{ path: 'deno.json', content: '{name:' }] },
        ],
        [
          'invalid_manifest',
          'an unscoped name',
          { version: '3.0.0', bundle: BUNDLE, files: [manifest('tools')] },
        ],
        [
          'invalid_manifest',
          'a manifest version that is not semver',
          {
            version: '3.0.0',
            bundle: BUNDLE,
            files: [manifest('@alice/tools', {}, 'v3')],
          },
        ],
        [
          'manifest_name_mismatch',
          'a name that is not the URL',
          { version: '3.0.0', bundle: BUNDLE, files: [manifest('@alice/other')] },
        ],
        [
          'composition_inconsistent',
          'a generator both imported and cloned',
          {
            version: '3.0.0',
            bundle: BUNDLE,
            files: tree('@alice/tools', { 'gen-zod': 'jsr:@svc/gen-zod@^1' }, [
              { path: 'gen-zod/mod.ts', content: '' },
            ]),
          },
        ],
        [
          'composition_inconsistent',
          'a cloned import whose folder is missing',
          {
            version: '3.0.0',
            bundle: BUNDLE,
            files: tree('@alice/tools', { 'gen-mine': './gen-mine/mod.ts' }),
          },
        ],
        [
          'composition_inconsistent',
          'a generator that is neither jsr: nor a ./ path',
          {
            version: '3.0.0',
            bundle: BUNDLE,
            files: tree('@alice/tools', { 'gen-zod': 'npm:gen-zod@1' }),
          },
        ],
        [
          'composition_inconsistent',
          'a gen-* folder that no import names',
          {
            version: '3.0.0',
            bundle: BUNDLE,
            files: tree('@alice/tools', {}, [{ path: 'gen-stray/mod.ts', content: '' }]),
          },
        ],
      ]
    for (const [code, what, parts] of invalid) {
      it(`answers 422 ${code} for ${what}, and stores nothing`, async () => {
        await expectStoreUnchanged(hub, async () => {
          const reply = await publish('alice', 'tools', people.alice, parts)
          expect(reply.status).toBe(422)
          expect(reply.body.code).toBe(code)
          expect(reply.body.message).toMatch(/\.$/)
        })
      })
    }
  })
}
