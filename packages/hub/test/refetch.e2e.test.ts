import { createHash } from 'node:crypto'
import { REVISION_EVENT, SIGNATURE_HEADER, verifyWebhook } from '@svc/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { graphqlSdl, oasJson, oasYaml } from './support/documents.js'
import { seedPeople, seedTokens, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { startReceiver, type Answer, type Received, type Receiver } from './support/receiver.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
/** The document limit of the hub under test (`SVC_HUB_MAX_DOCUMENT_BYTES`). */
const MAX_DOCUMENT_BYTES = 16 * 1024

/** A JSON OpenAPI document of exactly `bytes` bytes (its description pads it). */
function documentOfSize(bytes: number): string {
  const empty = JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Padded', version: '1.0.0', description: '' },
    paths: {},
  })
  return empty.replace('"description":""', `"description":"${'x'.repeat(bytes - empty.length)}"`)
}

/**
 * `POST /v1/apis/{owner}/{slug}/refetch` (docs/api/apis.md#refetch-the-source) against the
 * real `svc-hub serve`, with sources served by a loopback receiver that the hub's allow-list
 * admits (`SVC_HUB_ALLOW_PRIVATE_NETWORKS` = its exact origin).
 */
describe.each(await storeKinds())('refetch of an API source (%s)', (kind) => {
  let hub: HubProcess
  let people: People
  let tokens: Record<'aliceHooks', string>
  /** Serves the sources (and takes webhook events) by path. */
  let source: Receiver
  /** Not admitted by the allow-list: nothing may ever connect to it. */
  let outsider: Receiver
  /** An admitted origin where nothing listens any more. */
  let deadOrigin: string

  /** How each path of `source` answers its n-th request (from 0); 404 when not set. */
  const served = new Map<string, (n: number) => Answer>()
  const seen = new Map<string, number>()
  const answer = (request: Received): Answer => {
    const n = seen.get(request.path) ?? 0
    seen.set(request.path, n + 1)
    return served.get(request.path)?.(n) ?? { status: 404, body: 'no such document' }
  }
  const serve = (path: string, body: string, contentType?: string) => {
    const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {}
    served.set(path, () => ({ status: 200, headers, body }))
  }
  const requestsAt = (path: string) => source.received.filter((r) => r.path === path)

  const v1 = (path: string) => `${hub.url}/v1${path}`
  let apiCount = 0
  /** A new API of acme whose sourceUrl is a path of `source` (or none with `path: null`). */
  async function newApi(
    options: { visibility?: 'public' | 'private'; path?: string | null } = {},
  ): Promise<{ api: string; path: string }> {
    const slug = `source-${++apiCount}`
    const path = options.path === undefined ? `/docs/${slug}` : (options.path ?? '')
    const reply = await call(v1('/apis'), {
      method: 'POST',
      token: people.alice,
      json: {
        owner: 'acme',
        slug,
        name: slug,
        visibility: options.visibility ?? 'private',
        ...(options.path === null ? {} : { sourceUrl: `${source.origin}${path}` }),
      },
    })
    expect(reply.status, reply.text).toBe(201)
    return { api: `acme/${slug}`, path }
  }
  const refetchAs = (api: string, token: string | undefined) =>
    call(v1(`/apis/${api}/refetch`), { method: 'POST', token })
  const refetch = (api: string) => refetchAs(api, people.walt)
  const revisions = async (api: string) => {
    const reply = await call(v1(`/apis/${api}/revisions`), { token: people.alice })
    expect(reply.status, reply.text).toBe(200)
    return reply.body.revisions as { id: string; origin: string }[]
  }
  const expectError = (reply: Reply, status: number, code: string, what = '') => {
    expect(reply.status, `${what} ${reply.text}`).toBe(status)
    expect(reply.body?.code, `${what} ${reply.text}`).toBe(code)
  }

  beforeAll(async () => {
    source = await startReceiver(answer)
    outsider = await startReceiver()
    const dead = await startReceiver()
    deadOrigin = dead.origin
    await dead.close()
    hub = await startHub(kind, {
      env: {
        // These tests send more requests per minute than the default rate limits allow.
        SVC_HUB_RATE_LIMITS: 'off',
        SVC_HUB_ALLOW_PRIVATE_NETWORKS: `${source.origin},${deadOrigin}`,
        SVC_HUB_MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES),
        // A public origin: not a local trial, so loopback targets are the guard's to refuse.
        SVC_HUB_PUBLIC_URL: 'https://hub.example.com',
      },
    })
    people = await seedPeople(hub)
    tokens = await seedTokens(hub, { aliceHooks: ['alice', 'admin:webhooks'] })
  })
  afterAll(async () => {
    await hub?.dispose()
    await Promise.all([source?.close(), outsider?.close()])
  })

  it('the first refetch makes a revision of origin refetch (201); the same document again makes none (200)', async () => {
    const { api, path } = await newApi()
    const document = oasJson(['get /pets'])
    serve(path, document, 'application/json')
    const reply = await refetch(api)
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body).toEqual({
      created: true,
      revision: expect.objectContaining({
        sequence: 1,
        origin: 'refetch',
        contentHash: sha256(document),
        format: 'json',
        protocol: 'oas',
        mediaType: 'application/json',
        size: Buffer.byteLength(document),
        version: null,
        publishedAt: null,
        previousRevisionId: null,
        createdBy: 'walt',
      }),
      previousRevision: null,
      profile: 'wire',
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      webhookDeliveries: 0,
    })
    expect(reply.headers.get('location')).toBe(reply.body.revision.url)
    const [request] = requestsAt(path)
    expect(request).toMatchObject({ method: 'GET', body: '' })
    expect(request!.headers['user-agent']).toBe('Svc-Hub/1 (refetch)')
    expect(request!.headers.accept).toContain('application/json')
    expect(request!.headers.authorization).toBeUndefined()
    const stored = await call(v1(`/apis/${api}/revisions/latest/document`), {
      token: people.alice,
    })
    expect(stored.text).toBe(document)

    const again = await expectStoreUnchanged(hub, () => refetch(api))
    expect(again.status, again.text).toBe(200)
    expect(again.body).toEqual({ ...reply.body, created: false })
    expect(again.headers.get('location')).toBeNull()
    expect(requestsAt(path)).toHaveLength(2)
    expect((await revisions(api)).map((r) => r.origin)).toEqual(['refetch'])
  })

  it('a changed document makes a revision with its diff, as a push would, and the active webhooks get a revision event', async () => {
    const { api, path } = await newApi()
    const hookPath = `/hooks${path}`
    const hook = await call(v1(`/apis/${api}/webhooks`), {
      method: 'POST',
      token: tokens.aliceHooks,
      json: { url: `${source.origin}${hookPath}` },
    })
    expect(hook.status, hook.text).toBe(201)
    served.set(hookPath, () => ({ status: 204 }))

    const before = oasYaml(['get /pets', 'delete /pets/{id}'])
    const after = oasYaml(['get /pets', 'post /pets'])
    serve(path, before, 'application/yaml')
    const first = await refetch(api)
    expect(first.status, first.text).toBe(201)
    expect(first.body.webhookDeliveries).toBe(0)
    serve(path, after, 'application/yaml')
    const second = await refetch(api)
    expect(second.status, second.text).toBe(201)
    expect(second.body).toMatchObject({
      created: true,
      revision: {
        sequence: 2,
        origin: 'refetch',
        contentHash: sha256(after),
        previousRevisionId: first.body.revision.id,
      },
      previousRevision: { id: first.body.revision.id },
      summary: { diff: true, details: { operations: { added: 1, deleted: 1, modified: 0 } } },
      counts: { breaking: 1 },
      webhookDeliveries: 1,
    })

    // The same two documents pushed to another API: the same changelog.
    const pushed = await newApi({ path: null })
    for (const document of [before, after]) {
      const reply = await call(v1(`/apis/${pushed.api}/revisions`), {
        method: 'POST',
        token: people.walt,
        headers: { 'content-type': 'application/yaml' },
        body: document,
      })
      expect(reply.status, reply.text).toBe(201)
      if (document === after) {
        expect(reply.body.summary).toEqual(second.body.summary)
        expect(reply.body.counts).toEqual(second.body.counts)
      }
    }

    const [delivered] = await eventually(() => {
      const got = requestsAt(hookPath)
      return got.length > 0 ? got : undefined
    }, 'the revision event')
    const event = verifyWebhook(
      delivered!.body,
      delivered!.headers[SIGNATURE_HEADER],
      hook.body.secret,
    )
    expect(event.type).toBe(REVISION_EVENT)
    expect(event.subject).toBe(api)
    expect(event.data).toMatchObject({
      revision: { id: second.body.revision.id, contentHash: sha256(after) },
      previousRevision: { id: first.body.revision.id },
      summary: second.body.summary,
      counts: second.body.counts,
      changesUrl: `${second.body.revision.url}/changes`,
    })
    const changes = await call(v1(`/apis/${api}/revisions/${second.body.revision.id}/changes`), {
      token: people.alice,
    })
    expect(changes.status).toBe(200)
    expect(changes.body.summary).toEqual(second.body.summary)
  })

  it('reads a document served as text/plain, octet-stream or without a type by its content', async () => {
    const cases: [string, string | undefined, Record<string, unknown>][] = [
      [
        oasYaml(['get /pets']),
        'text/plain; charset=utf-8',
        { protocol: 'oas', format: 'yaml', mediaType: 'application/yaml' },
      ],
      [
        graphqlSdl(['pets']),
        'application/octet-stream',
        { protocol: 'gql', format: 'graphql', mediaType: 'application/graphql' },
      ],
      [
        oasJson(['get /pets']),
        undefined,
        { protocol: 'oas', format: 'json', mediaType: 'application/json' },
      ],
      [
        oasYaml(['get /pets']),
        'application/x-yaml',
        { protocol: 'oas', format: 'yaml', mediaType: 'application/x-yaml' },
      ],
    ]
    for (const [document, contentType, expected] of cases) {
      const { api, path } = await newApi()
      serve(path, document, contentType)
      const reply = await refetch(api)
      expect(reply.status, `${contentType} ${reply.text}`).toBe(201)
      expect(reply.body.revision).toMatchObject({ ...expected, contentHash: sha256(document) })
      const stored = await call(v1(`/apis/${api}/revisions/latest/document`), {
        token: people.alice,
      })
      expect(stored.text).toBe(document)
    }
  })

  it('a source that answers an error or cannot be reached is 502 source_unreachable; no revision is made', async () => {
    const { api, path } = await newApi()
    const answers: [Answer, Record<string, unknown>][] = [
      [
        { status: 404, body: 'gone' },
        { reason: 'status', status: 404 },
      ],
      [{ status: 500 }, { reason: 'status', status: 500 }],
      [{ status: 401 }, { reason: 'status', status: 401 }],
      [{ status: 304 }, { reason: 'status', status: 304 }],
    ]
    await expectStoreUnchanged(hub, async () => {
      for (const [reply, details] of answers) {
        served.set(path, () => reply)
        const refused = await refetch(api)
        expectError(refused, 502, 'source_unreachable', JSON.stringify(reply))
        expect(refused.body.details).toEqual({ ...details, url: `${source.origin}${path}` })
      }
    })
    expect(requestsAt(path)).toHaveLength(answers.length)

    // An admitted origin where nothing listens.
    const slug = `source-${++apiCount}`
    const created = await call(v1('/apis'), {
      method: 'POST',
      token: people.alice,
      json: { owner: 'acme', slug, name: slug, sourceUrl: `${deadOrigin}/openapi.json` },
    })
    expect(created.status, created.text).toBe(201)
    const unreachable = { api: `acme/${slug}` }
    await expectStoreUnchanged(hub, async () => {
      const reply = await refetch(unreachable.api)
      expectError(reply, 502, 'source_unreachable')
      expect(reply.body.details).toMatchObject({ reason: 'network' })
    })
    expect(await revisions(api)).toEqual([])
    expect(await revisions(unreachable.api)).toEqual([])
  })

  it('a body that is not an API description is 422 invalid_document; no revision is made', async () => {
    const { api, path } = await newApi()
    const bodies: [string, string, string][] = [
      ['', 'application/json', 'empty_document'],
      ['  \n', 'text/plain', 'empty_document'],
      ['<html><body>Sign in</body></html>', 'text/html', ''],
      ['{"openapi": ', 'application/json', 'invalid_syntax'],
      ['{"swagger": "1.2", "paths": {}}', 'application/json', 'unsupported_version'],
      ['Just a sentence, no API.', 'text/plain', ''],
    ]
    await expectStoreUnchanged(hub, async () => {
      for (const [body, contentType, reason] of bodies) {
        serve(path, body, contentType)
        const reply = await refetch(api)
        expectError(reply, 422, 'invalid_document', body)
        if (reason) expect(reply.body.details.reason).toBe(reason)
      }
    })
    expect(await revisions(api)).toEqual([])
  })

  it('follows redirects (301, 302, 303, 307, 308) within the allow-list, at most 5', async () => {
    const { api, path } = await newApi()
    // sourceUrl → /1 → /2 → /3 → /4 → /final: five redirects, one of each kind.
    const hops: [string, number, string][] = [
      [path, 301, `${path}/1`],
      [`${path}/1`, 302, `${path}/2`],
      [`${path}/2`, 303, `${source.origin}${path}/3`],
      [`${path}/3`, 307, `${path}/4`],
      [`${path}/4`, 308, `${path}/final`],
    ]
    for (const [from, status, location] of hops) {
      served.set(from, () => ({ status, headers: { location } }))
    }
    const document = oasYaml(['get /pets'])
    serve(`${path}/final`, document, 'application/yaml')
    const reply = await refetch(api)
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.revision.contentHash).toBe(sha256(document))
    for (const [from] of hops) expect(requestsAt(from), from).toHaveLength(1)
    expect(requestsAt(`${path}/final`)).toHaveLength(1)

    // Six redirects are one too many: sourceUrl → /0 → /1 … → /final.
    served.set(path, () => ({ status: 302, headers: { location: `${path}/0` } }))
    served.set(`${path}/0`, () => ({ status: 302, headers: { location: `${path}/1` } }))
    await expectStoreUnchanged(hub, async () => {
      const refused = await refetch(api)
      expectError(refused, 422, 'url_refused')
      expect(refused.body.details).toEqual({ reason: 'too_many_redirects', field: 'sourceUrl' })
    })
    // The sixth redirect was not followed.
    expect(requestsAt(`${path}/final`)).toHaveLength(1)
  })

  it('a redirect to an address the guard refuses is 422 url_refused, and that address is never connected to', async () => {
    const { api, path } = await newApi()
    const targets: [string, string][] = [
      [`${outsider.origin}/openapi.json`, 'private_address'],
      ['http://169.254.169.254/latest/meta-data', 'private_address'],
      ['http://[::1]/openapi.json', 'private_address'],
      ['http://10.0.0.1/openapi.json', 'private_address'],
      [`http://localhost:${new URL(source.origin).port}/openapi.json`, 'reserved_hostname'],
      ['http://metadata.google.internal/', 'reserved_hostname'],
      ['http://2130706433/', 'private_address'],
      ['file:///etc/passwd', 'unsupported_scheme'],
      ['http://user:pass@example.com/', 'invalid_url'],
    ]
    await expectStoreUnchanged(hub, async () => {
      for (const [location, reason] of targets) {
        served.set(path, () => ({ status: 302, headers: { location } }))
        const reply = await refetch(api)
        expectError(reply, 422, 'url_refused', location)
        expect(reply.body.details, location).toEqual({ reason, field: 'sourceUrl' })
      }
    })
    expect(outsider.connections()).toBe(0)
    expect(requestsAt(path)).toHaveLength(targets.length)
    expect(await revisions(api)).toEqual([])
  })

  it('a body over the document limit is 502 source_unreachable (too_large); one of exactly the limit is taken', async () => {
    const { api, path } = await newApi()
    const over = documentOfSize(MAX_DOCUMENT_BYTES + 1)
    expect(Buffer.byteLength(over)).toBe(MAX_DOCUMENT_BYTES + 1)
    await expectStoreUnchanged(hub, async () => {
      for (const headers of [
        { 'content-type': 'application/json' } as Record<string, string>,
        // No Content-Length: the limit holds while reading.
        { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      ]) {
        served.set(path, () => ({ status: 200, headers, body: over }))
        const reply = await refetch(api)
        expectError(reply, 502, 'source_unreachable', JSON.stringify(headers))
        expect(reply.body.details).toEqual({ reason: 'too_large', maxBytes: MAX_DOCUMENT_BYTES })
      }
    })
    const exact = documentOfSize(MAX_DOCUMENT_BYTES)
    serve(path, exact, 'application/json')
    const taken = await refetch(api)
    expect(taken.status, taken.text).toBe(201)
    expect(taken.body.revision.size).toBe(MAX_DOCUMENT_BYTES)
  })

  it('an API without a sourceUrl is 409 no_source_url', async () => {
    const { api } = await newApi({ path: null })
    await expectStoreUnchanged(hub, async () => {
      expectError(await refetch(api), 409, 'no_source_url')
    })
  })

  it('needs write:apis and write access, answering as a push would', async () => {
    const secret = await newApi()
    const open = await newApi({ visibility: 'public' })
    for (const { path } of [secret, open]) serve(path, oasYaml(['get /pets']), 'application/yaml')
    const push = (api: string, token: string | undefined) =>
      call(v1(`/apis/${api}/revisions`), {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/yaml' },
        body: oasYaml(['get /pets']),
      })
    const cases: [string, string, string | undefined, number, string][] = [
      ['no token', secret.api, undefined, 401, 'unauthorized'],
      ['a revoked token', secret.api, people.aliceRevoked, 401, 'unauthorized'],
      ['a read token', secret.api, people.aliceReadOnly, 403, 'insufficient_scope'],
      ['a write:projects token', secret.api, people.aliceProjects, 403, 'insufficient_scope'],
      ['an admin:webhooks token', secret.api, tokens.aliceHooks, 403, 'insufficient_scope'],
      ['a reader of acme', secret.api, people.rita, 403, 'forbidden'],
      ['a stranger, private API', secret.api, people.nora, 404, 'not_found'],
      ['a reader of acme, public API', open.api, people.rita, 403, 'forbidden'],
      ['a stranger, public API', open.api, people.nora, 403, 'forbidden'],
      ['an unknown API', 'acme/ghost', people.alice, 404, 'not_found'],
      ['an unknown owner', 'ghost/api', people.alice, 404, 'not_found'],
      ['a malformed owner', 'Acme!/api', people.alice, 422, 'invalid_request'],
      ['a malformed slug', 'acme/-api', people.alice, 422, 'invalid_request'],
    ]
    await expectStoreUnchanged(hub, async () => {
      for (const [what, api, token, status, code] of cases) {
        const reply = await refetchAs(api, token)
        expectError(reply, status, code, what)
        if (code === 'insufficient_scope')
          expect(reply.body.details.required).toEqual(['write:apis'])
        const pushed = await push(api, token)
        expect([pushed.status, pushed.body.code], `push: ${what}`).toEqual([status, code])
      }
    })
    expect(requestsAt(secret.path)).toEqual([])
    expect(requestsAt(open.path)).toEqual([])
    // A writer of acme may.
    expect((await refetchAs(secret.api, people.walt)).status).toBe(201)
  })
})

describe.each(await storeKinds())('refetch without the allow-list (%s)', (kind) => {
  let lonely: Receiver
  let admitted: HubProcess
  let strict: HubProcess
  beforeAll(async () => {
    lonely = await startReceiver(() => ({
      status: 200,
      headers: { 'content-type': 'application/yaml' },
      body: oasYaml(['get /pets']),
    }))
  })
  afterAll(async () => {
    await strict?.dispose()
    await admitted?.dispose()
    await lonely?.close()
  })

  it('refuses a loopback sourceUrl with 422 url_refused and connects to nothing', async () => {
    // An API whose loopback sourceUrl a hub admitted once; then the hub runs without the list.
    admitted = await startHub(kind, { env: { SVC_HUB_ALLOW_PRIVATE_NETWORKS: lonely.origin } })
    const token = admitted.adminPat
    const sourceUrl = `${lonely.origin}/openapi.yaml`
    const created = await call(`${admitted.url}/v1/apis`, {
      method: 'POST',
      token,
      json: { owner: 'admin', slug: 'lonely', name: 'Lonely', sourceUrl },
    })
    expect(created.status, created.text).toBe(201)
    await admitted.stop()
    strict = await startHub(kind, {
      reuse: admitted,
      env: { SVC_HUB_ALLOW_PRIVATE_NETWORKS: '', SVC_HUB_PUBLIC_URL: 'https://hub.example.com' },
    })

    await expectStoreUnchanged(strict, async () => {
      const reply = await call(`${strict.url}/v1/apis/admin/lonely/refetch`, {
        method: 'POST',
        token,
      })
      expect(reply.status, reply.text).toBe(422)
      expect(reply.body).toMatchObject({
        code: 'url_refused',
        details: { reason: 'private_address', field: 'sourceUrl' },
      })
      // Nor is a new API given that sourceUrl.
      const again = await call(`${strict.url}/v1/apis`, {
        method: 'POST',
        token,
        json: { owner: 'admin', slug: 'lonely-2', name: 'Lonely', sourceUrl },
      })
      expect(again.status, again.text).toBe(422)
      expect(again.body).toMatchObject({
        code: 'url_refused',
        details: { reason: 'private_address' },
      })
    })
    expect(lonely.connections()).toBe(0)
  })
})
