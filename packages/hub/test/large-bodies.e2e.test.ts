import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { oasDocument } from './support/documents.js'
import { seedPeople } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm } from './support/http.js'
import { eventually } from './support/poll.js'
import { fakeServerJs } from './support/stack-bundles.js'

/**
 * Bodies of several MiB are read off the event loop (docs/hub/running.md#large-bodies-are-read-off-the-event-loop):
 * hashed and decoded as they arrive, parsed in a worker thread, written and read back a few MiB
 * per statement. What is stored and answered is byte for byte what a single pass gives.
 */
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

/** An OpenAPI document of about `bytes` bytes, with characters of 1 to 4 bytes throughout. */
function largeDocument(bytes: number, title: string): string {
  const operations = Array.from({ length: 400 }, (_, i) => `get /items/${i}`)
  const document = oasDocument(operations, title) as { paths: Record<string, any> }
  const note = 'Größe ☕ 😀 "quoted" \\ line\n'.repeat(Math.ceil(bytes / 400 / 36))
  for (const item of Object.values(document.paths)) item.get.description = note
  return JSON.stringify(document)
}

/** Three artifacts of 4 MB each, new text in each run. */
const ARTIFACT_BUNDLE = fakeServerJs(`
  const artifacts = {}
  for (let i = 0; i < 3; i++) {
    artifacts['big/part-' + i + '.ts'] = ('// ' + i + ' é ☕ 😀\\n').repeat(4_000_000 / 20)
  }
  return { artifacts, manifest: { parseIssues: [] } }
`)
const EXPECTED_ARTIFACT = (i: number) => `// ${i} é ☕ 😀\n`.repeat(4_000_000 / 20)

for (const kind of await storeKinds()) {
  describe(`large bodies (${kind})`, () => {
    let hub: HubProcess
    let alice: string
    const v1 = (path: string, init: RequestInit & { json?: unknown } = {}) =>
      call(`${hub.url}/v1${path}`, { ...init, token: alice })

    beforeAll(async () => {
      hub = await startHub(kind)
      alice = (await seedPeople(hub)).alice
      const api = await v1('/apis', {
        method: 'POST',
        json: { owner: 'acme', slug: 'big', name: 'Big' },
      })
      expect(api.status, api.text).toBe(201)
    }, 60_000)
    afterAll(async () => {
      await hub?.dispose()
    })

    it('a push of 6 MB, raw and as an envelope, stores the same bytes under the same hash', async () => {
      const text = largeDocument(6_000_000, 'Big')
      const bytes = Buffer.from(text)
      expect(bytes.byteLength).toBeGreaterThan(5 * 1024 * 1024)
      const pushed = await v1('/apis/acme/big/revisions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bytes,
      })
      expect(pushed.status, pushed.text).toBe(201)
      expect(pushed.body.revision.contentHash).toBe(sha256(bytes))
      const stored = await call(pushed.body.revision.documentUrl, { token: alice })
      expect(Buffer.compare(Buffer.from(stored.text), bytes)).toBe(0)

      // The same document in an envelope: its UTF-8 is the same bytes, so nothing new.
      const again = await v1('/apis/acme/big/revisions', {
        method: 'POST',
        json: { document: text, version: '2.0.0' },
      })
      expect(again.status, again.text).toBe(200)
      expect(again.body.revision.id).toBe(pushed.body.revision.id)

      // Another one in an envelope: a new revision of exactly its UTF-8.
      const other = largeDocument(6_000_000, 'Bigger')
      const enveloped = await v1('/apis/acme/big/revisions', {
        method: 'POST',
        json: { document: other, version: '3.0.0' },
      })
      expect(enveloped.status, enveloped.text).toBe(201)
      expect(enveloped.body.revision).toMatchObject({
        contentHash: sha256(other),
        version: '3.0.0',
        size: Buffer.byteLength(other),
      })
      const download = await call(enveloped.body.revision.documentUrl, { token: alice })
      expect(download.text === other).toBe(true)
    }, 120_000)

    it('a run answering 12 MB keeps every byte and hash of its artifacts', async () => {
      const steps: [string, RequestInit & { json?: unknown }][] = [
        [
          '/stacks/acme/web/versions',
          {
            method: 'POST',
            body: publishForm({
              version: '1.0.0',
              bundle: ARTIFACT_BUNDLE,
              files: [manifest('@acme/web')],
            }),
          },
        ],
        [
          '/projects',
          {
            method: 'POST',
            json: { account: 'acme', slug: 'shop', stack: '@acme/web', api: 'acme/big' },
          },
        ],
        ['/projects/acme/shop/deployments', { method: 'POST', json: { stackVersion: '1.0.0' } }],
      ]
      for (const [path, init] of steps) {
        const reply = await v1(path, init)
        expect(reply.status, `${path}: ${reply.text}`).toBe(201)
      }
      const started = await v1('/projects/acme/shop/runs', { method: 'POST', json: {} })
      expect(started.status, started.text).toBe(202)
      const ended = await eventually(
        async () => {
          const reply = await v1(`/projects/acme/shop/runs/${started.body.id}`)
          return reply.body?.status === 'running' ? undefined : reply.body
        },
        'the run ends',
        90_000,
      )
      expect(ended.status, `${ended.error}\n${ended.log}`).toBe('succeeded')
      const artifacts = ended.artifacts as {
        path: string
        size: number
        sha256: string
        url: string
      }[]
      expect(artifacts.map((a) => a.path).sort()).toEqual([0, 1, 2].map((i) => `big/part-${i}.ts`))
      for (const artifact of artifacts) {
        const expected = EXPECTED_ARTIFACT(Number(/(\d)\.ts$/.exec(artifact.path)![1]))
        expect(artifact).toMatchObject({
          size: Buffer.byteLength(expected),
          sha256: sha256(expected),
        })
        const download = await call(artifact.url, { token: alice })
        expect(download.text === expected).toBe(true)
      }
    }, 120_000)
  })
}
