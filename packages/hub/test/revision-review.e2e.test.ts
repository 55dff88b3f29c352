import { ACCEPTANCE_EVENT, REVISION_EVENT, SIGNATURE_HEADER, verifyWebhook } from '@svc/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { oasJson, oasYaml } from './support/documents.js'
import { seedPeople, seedTokens, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { startReceiver, type Receiver } from './support/receiver.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

/** The hub's document limit in these tests (`SVC_HUB_MAX_DOCUMENT_BYTES`). */
const MAX_DOCUMENT_BYTES = 32 * 1024

const V1 = oasYaml(['get /pets', 'post /pets', 'get /pets/{id}'])
/** V1 without `post /pets`: one breaking change. */
const V2 = oasYaml(['get /pets', 'get /pets/{id}'])
/** V2 with `delete /pets/{id}` added: one info change. */
const V3 = oasYaml(['get /pets', 'get /pets/{id}', 'delete /pets/{id}'])

const changelogOf = (body: Record<string, unknown>) => ({
  summary: body.summary,
  counts: body.counts,
  changes: body.changes,
  ...(body.issues === undefined ? {} : { issues: body.issues }),
})

/**
 * `POST …/diff` (a document against a stored revision, nothing stored), revisions addressed by
 * sequence number, and `…/revisions/{id}/acceptance` (accepting a revision's changes, with its
 * webhook event), on both stores (docs/api/apis.md).
 */
for (const kind of await storeKinds()) {
  describe(`diff against a revision, accept a revision (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let receiver: Receiver
    let hooks: string
    let apiCount = 0
    const v1 = (path: string) => `${hub.url}/v1${path}`

    beforeAll(async () => {
      receiver = await startReceiver()
      hub = await startHub(kind, {
        env: {
          SVC_HUB_RATE_LIMITS: 'off',
          SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin,
          SVC_HUB_MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES),
        },
      })
      people = await seedPeople(hub)
      hooks = (await seedTokens(hub, { hooks: ['alice', 'admin:webhooks,read'] })).hooks
    })
    afterAll(async () => {
      await hub?.dispose()
      await receiver?.close()
    })

    /** A new API of acme with the revisions `documents`, in order. */
    async function newApi(
      documents: readonly string[],
      visibility: 'public' | 'private' = 'public',
    ): Promise<string> {
      const slug = `review-${++apiCount}`
      const created = await call(v1('/apis'), {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug, name: slug, visibility },
      })
      expect(created.status, created.text).toBe(201)
      for (const document of documents) {
        const pushed = await push(`acme/${slug}`, document)
        expect(pushed.status, pushed.text).toBe(201)
      }
      return `acme/${slug}`
    }

    const push = (api: string, body: string, token = people.walt) =>
      call(v1(`/apis/${api}/revisions`), {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/yaml' },
        body,
      })

    const diff = (
      api: string,
      body: string,
      options: { query?: string; token?: string; contentType?: string } = {},
    ) =>
      call(v1(`/apis/${api}/diff${options.query ?? ''}`), {
        method: 'POST',
        token: options.token,
        headers: { 'content-type': options.contentType ?? 'application/yaml' },
        body,
      })

    const accept = (api: string, revision: string, json: unknown, token = people.walt) =>
      call(v1(`/apis/${api}/revisions/${revision}/acceptance`), { method: 'POST', token, json })

    const expectError = (reply: Reply, status: number, code: string) => {
      expect(reply.status, reply.text).toBe(status)
      expect(reply.body.code).toBe(code)
    }

    describe('POST …/diff', () => {
      it('answers the changelog a push of the document would store, against latest, a sequence number or an id; stores nothing', async () => {
        const api = await newApi([V1, V2])
        const hook = await call(v1(`/apis/${api}/webhooks`), {
          method: 'POST',
          token: hooks,
          json: { url: `${receiver.origin}/diff-hook` },
        })
        expect(hook.status, hook.text).toBe(201)
        const list = await call(v1(`/apis/${api}/revisions`), { token: people.walt })
        const [second, first] = list.body.revisions

        const [latest, bySeq, byId, againstFirst] = await expectStoreUnchanged(hub, async () => [
          await diff(api, V3, { token: people.walt }),
          await diff(api, V3, { token: people.walt, query: '?against=2' }),
          await diff(api, V3, { token: people.walt, query: `?against=${second.id}` }),
          await diff(api, V3, { token: people.walt, query: '?against=1' }),
        ])
        for (const reply of [latest, bySeq, byId]) {
          expect(reply.status, reply.text).toBe(200)
          expect(reply.body.against).toEqual(second)
          expect(reply.body.counts).toEqual({ breaking: 0, warning: 0, info: 1 })
        }
        expect(bySeq.body).toEqual(latest.body)
        expect(byId.body).toEqual(latest.body)
        expect(againstFirst.status, againstFirst.text).toBe(200)
        expect(againstFirst.body.against).toEqual(first)
        expect(againstFirst.body.counts).toEqual({ breaking: 1, warning: 0, info: 1 })
        expect(againstFirst.body.changes.map((c: { id: string }) => c.id).sort()).toEqual([
          'endpoint-added',
          'endpoint-removed',
        ])
        expect(receiver.received.filter((r) => r.path === '/diff-hook')).toEqual([])

        // The push of the same document stores exactly that changelog.
        expect((await push(api, V3)).status).toBe(201)
        const changes = await call(v1(`/apis/${api}/revisions/3/changes`), { token: people.walt })
        expect(changes.status, changes.text).toBe(200)
        expect(changelogOf(changes.body)).toEqual(changelogOf(latest.body))
        expect(changes.body.previousRevision.id).toBe(second.id)
      })

      it('takes the envelope and JSON, and GraphQL SDL, as a push does', async () => {
        const api = await newApi([V1])
        const envelope = await diff(api, JSON.stringify({ document: V2, version: '9.9.9' }), {
          token: people.walt,
          contentType: 'application/json',
        })
        expect(envelope.status, envelope.text).toBe(200)
        expect(envelope.body.counts.breaking).toBe(1)
        const json = await diff(api, oasJson(['get /pets', 'post /pets', 'get /pets/{id}']), {
          token: people.walt,
          contentType: 'application/json',
        })
        expect(json.status, json.text).toBe(200)
        expect(json.body.counts).toEqual({ breaking: 0, warning: 0, info: 0 })
        // An SDL against an OpenAPI revision: the protocol changed, as a push would say.
        const sdl = await diff(api, 'type Query {\n  pets: [String]\n}\n', {
          token: people.walt,
          contentType: 'application/graphql',
        })
        expect(sdl.status, sdl.text).toBe(200)
        expect(sdl.body.changes.map((c: { id: string }) => c.id)).toEqual(['api-protocol-changed'])
      })

      it('applies policies given as a comma list or repeated', async () => {
        const api = await newApi([V1])
        const ids = async (query: string) => {
          const reply = await diff(api, V2, { token: people.walt, query })
          expect(reply.status, reply.text).toBe(200)
          return reply.body.changes.map((c: { id: string }) => c.id).sort()
        }
        expect(await ids('')).toEqual(['endpoint-removed'])
        expect(await ids('?policy=version')).toEqual(['api-version-not-bumped', 'endpoint-removed'])
        expect(await ids('?policy=sunset,version')).toEqual([
          'api-version-not-bumped',
          'endpoint-removed',
        ])
        expect(await ids('?policy=sunset&policy=version')).toEqual([
          'api-version-not-bumped',
          'endpoint-removed',
        ])
        expectError(
          await diff(api, V2, { token: people.walt, query: '?policy=semver' }),
          422,
          'invalid_request',
        )
      })

      it('an API without revisions: against null and an empty changelog; the document is still read', async () => {
        const api = await newApi([])
        const reply = await expectStoreUnchanged(hub, () => diff(api, V1, { token: people.walt }))
        expect(reply.status, reply.text).toBe(200)
        expect(reply.body).toEqual({
          against: null,
          profile: 'wire',
          summary: { diff: false, details: {} },
          counts: { breaking: 0, warning: 0, info: 0 },
          changes: [],
        })
        expectError(
          await diff(api, 'hello: world\n', { token: people.walt }),
          422,
          'invalid_document',
        )
        expectError(
          await diff(api, V1, { token: people.walt, query: '?against=1' }),
          404,
          'not_found',
        )
      })

      it('reads as the other reads do: a public API without a token, a private one only for its readers', async () => {
        const open = await newApi([V1])
        const anonymous = await diff(open, V2)
        expect(anonymous.status, anonymous.text).toBe(200)
        expect(anonymous.body.counts.breaking).toBe(1)

        const closed = await newApi([V1], 'private')
        // rita reads acme; a token with `read` only suffices.
        expect((await diff(closed, V2, { token: people.rita })).status).toBe(200)
        expect((await diff(closed, V2, { token: people.aliceReadOnly })).status).toBe(200)
        await expectStoreUnchanged(hub, async () => {
          expectError(await diff(closed, V2), 404, 'not_found')
          expectError(await diff(closed, V2, { token: people.nora }), 404, 'not_found')
          expectError(
            await diff(closed, V2, { token: people.aliceProjects }),
            403,
            'insufficient_scope',
          )
          expectError(await diff(closed, V2, { token: people.aliceRevoked }), 401, 'unauthorized')
        })
      })

      it('refuses an unknown revision, a malformed, unsupported or oversized body; stores nothing and keeps serving', async () => {
        const api = await newApi([V1, V2])
        const token = people.walt
        await expectStoreUnchanged(hub, async () => {
          expectError(await diff(api, V3, { token, query: '?against=9' }), 404, 'not_found')
          expectError(
            await diff(api, V3, { token, query: '?against=rev_0123456789abcdef01234567' }),
            404,
            'not_found',
          )
          expectError(await diff(api, V3, { token, query: '?against=0' }), 422, 'invalid_request')
          expectError(
            await diff(api, V3, { token, query: '?against=first' }),
            422,
            'invalid_request',
          )
          expectError(await diff('acme/nothing-here', V3, { token }), 404, 'not_found')
          expectError(await diff(api, '', { token }), 400, 'malformed_request')
          expectError(
            await diff(api, '{"openapi": ', { token, contentType: 'application/json' }),
            400,
            'malformed_request',
          )
          expectError(
            await diff(api, V3, { token, contentType: 'text/plain' }),
            415,
            'unsupported_media_type',
          )
          expectError(
            await diff(api, JSON.stringify({ document: 42 }), {
              token,
              contentType: 'application/json',
            }),
            422,
            'invalid_request',
          )
          expectError(await diff(api, '- just\n- a list\n', { token }), 422, 'invalid_document')
          const big = `${V3}# ${'x'.repeat(MAX_DOCUMENT_BYTES)}\n`
          expectError(await diff(api, big, { token }), 422, 'payload_too_large')
          // Without a token, a public API's body is read up to 64 KiB.
          expectError(
            await diff(api, `${V3}# ${'x'.repeat(70 * 1024)}\n`),
            422,
            'payload_too_large',
          )
        })
        const after = await diff(api, V3, { token })
        expect(after.status, after.text).toBe(200)
      })
    })

    describe('revisions by sequence number', () => {
      it('serves a revision, its document, changes and issues by sequence number as by id', async () => {
        const api = await newApi([V1, V2])
        const list = await call(v1(`/apis/${api}/revisions`), { token: people.walt })
        const [second, first] = list.body.revisions
        for (const [seq, revision] of [
          ['1', first],
          ['2', second],
        ] as const) {
          const bySeq = await call(v1(`/apis/${api}/revisions/${seq}`))
          expect(bySeq.status, bySeq.text).toBe(200)
          expect(bySeq.body).toEqual(revision)
        }
        const changes = await call(v1(`/apis/${api}/revisions/2/changes`))
        const byId = await call(v1(`/apis/${api}/revisions/${second.id}/changes`))
        expect(changes.body).toEqual(byId.body)
        expect((await call(v1(`/apis/${api}/revisions/1/document`))).text).toBe(V1)
        expect((await call(v1(`/apis/${api}/revisions/2/issues`))).status).toBe(200)
        expectError(await call(v1(`/apis/${api}/revisions/3`)), 404, 'not_found')
        expectError(await call(v1(`/apis/${api}/revisions/01`)), 422, 'invalid_request')
        expectError(await call(v1(`/apis/${api}/revisions/-1`)), 422, 'invalid_request')
      })
    })

    describe('POST …/revisions/{id}/acceptance', () => {
      it('records who accepted a revision, when and why; every record of it carries that; webhooks get an event', async () => {
        const api = await newApi([V1])
        const hook = await call(v1(`/apis/${api}/webhooks`), {
          method: 'POST',
          token: hooks,
          json: { url: `${receiver.origin}/${api}` },
        })
        expect(hook.status, hook.text).toBe(201)
        const received = () => receiver.received.filter((r) => r.path === `/${api}`)
        expect((await push(api, V2)).status).toBe(201)
        await eventuallyCount(received, 1)

        const reason = 'v2 drops POST /pets on purpose: announced in the 2026-11 changelog'
        const reply = await accept(api, '2', { reason })
        expect(reply.status, reply.text).toBe(201)
        const acceptance = { by: 'walt', at: expect.any(String), reason }
        expect(reply.body).toEqual({
          revision: expect.objectContaining({ sequence: 2, acceptance }),
          acceptance,
          counts: { breaking: 1, warning: 0, info: 0 },
          webhookDeliveries: 1,
        })
        expect(Date.parse(reply.body.acceptance.at)).toBeGreaterThan(Date.now() - 60_000)
        const recorded = reply.body.acceptance

        const revision = await call(v1(`/apis/${api}/revisions/2`))
        expect(revision.body.acceptance).toEqual(recorded)
        const list = await call(v1(`/apis/${api}/revisions`))
        expect(list.body.revisions.map((r: { acceptance: unknown }) => r.acceptance)).toEqual([
          recorded,
          null,
        ])
        const changes = await call(v1(`/apis/${api}/revisions/latest/changes`))
        expect(changes.body.revision.acceptance).toEqual(recorded)
        expect(changes.body.previousRevision.acceptance).toBeNull()
        // An unchanged push answers the revision with its acceptance.
        const again = await push(api, V2)
        expect(again.status).toBe(200)
        expect(again.body.revision.acceptance).toEqual(recorded)

        const [, delivered] = await eventuallyCount(received, 2)
        const event = verifyWebhook(
          delivered!.body,
          delivered!.headers[SIGNATURE_HEADER],
          hook.body.secret,
        )
        expect(event.type).toBe(ACCEPTANCE_EVENT)
        expect(event).toMatchObject({
          subject: api,
          time: recorded.at,
          data: {
            revision: { id: revision.body.id, url: revision.body.url },
            previousRevision: { id: list.body.revisions[1].id },
            counts: { breaking: 1, warning: 0, info: 0 },
            acceptance: recorded,
            changesUrl: `${revision.body.url}/changes`,
          },
        })
        expect(
          verifyWebhook(
            received()[0]!.body,
            received()[0]!.headers[SIGNATURE_HEADER],
            hook.body.secret,
          ).type,
        ).toBe(REVISION_EVENT)
      })

      it('refuses a second acceptance with the one that stands (409), also two at once; withdrawing lets it be accepted again', async () => {
        const api = await newApi([V1, V2])
        const first = await accept(api, 'latest', { reason: 'deliberate' })
        expect(first.status, first.text).toBe(201)
        const twice = await expectStoreUnchanged(hub, () =>
          accept(api, '2', { reason: 'another reason' }, people.alice),
        )
        expectError(twice, 409, 'already_accepted')
        expect(twice.body.details.acceptance).toEqual(first.body.acceptance)
        expect(twice.body.message).toContain('by walt')

        const withdrawn = await call(v1(`/apis/${api}/revisions/2/acceptance`), {
          method: 'DELETE',
          token: people.walt,
        })
        expect(withdrawn.status, withdrawn.text).toBe(204)
        expect((await call(v1(`/apis/${api}/revisions/2`))).body.acceptance).toBeNull()
        expectError(
          await call(v1(`/apis/${api}/revisions/2/acceptance`), {
            method: 'DELETE',
            token: people.walt,
          }),
          404,
          'not_found',
        )

        const racing = await Promise.all([
          accept(api, '2', { reason: 'one' }),
          accept(api, '2', { reason: 'two' }, people.alice),
        ])
        expect(racing.map((r) => r.status).sort()).toEqual([201, 409])
        const standing = (await call(v1(`/apis/${api}/revisions/2`))).body.acceptance
        expect(racing.find((r) => r.status === 201)!.body.acceptance).toEqual(standing)
      })

      it('refuses a revision with nothing to accept, bad reasons, bodies and tokens; stores nothing', async () => {
        const api = await newApi([V1, V2, V3], 'private')
        await expectStoreUnchanged(hub, async () => {
          expectError(await accept(api, '1', { reason: 'x' }), 409, 'nothing_to_accept')
          expectError(await accept(api, '3', { reason: 'x' }), 409, 'nothing_to_accept')
          expectError(await accept(api, '4', { reason: 'x' }), 404, 'not_found')
          expectError(await accept(api, 'v2', { reason: 'x' }), 422, 'invalid_request')
          for (const body of [
            {},
            { reason: '' },
            { reason: '   ' },
            { reason: 'x'.repeat(501) },
            { reason: 42 },
            { reason: 'ok', extra: true },
          ]) {
            expectError(await accept(api, '2', body), 422, 'invalid_request')
          }
          expectError(
            await call(v1(`/apis/${api}/revisions/2/acceptance`), {
              method: 'POST',
              token: people.walt,
              headers: { 'content-type': 'application/json' },
              body: '{"reason": ',
            }),
            400,
            'malformed_request',
          )
          expectError(
            await call(v1(`/apis/${api}/revisions/2/acceptance`), {
              method: 'POST',
              token: people.walt,
              headers: { 'content-type': 'text/plain' },
              body: 'deliberate',
            }),
            415,
            'unsupported_media_type',
          )
          expectError(
            await call(v1(`/apis/${api}/revisions/2/acceptance`), {
              method: 'POST',
              token: people.walt,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ reason: 'x'.repeat(2 * 1024 * 1024) }),
            }),
            422,
            'payload_too_large',
          )
          expectError(
            await accept(api, '2', { reason: 'x' }, people.aliceReadOnly),
            403,
            'insufficient_scope',
          )
          expectError(await accept(api, '2', { reason: 'x' }, people.rita), 403, 'forbidden')
          expectError(await accept(api, '2', { reason: 'x' }, people.nora), 404, 'not_found')
          expectError(
            await call(v1(`/apis/${api}/revisions/2/acceptance`), {
              method: 'POST',
              json: { reason: 'x' },
            }),
            401,
            'unauthorized',
          )
          expectError(
            await call(v1(`/apis/${api}/revisions/2/acceptance`), {
              method: 'DELETE',
              token: people.rita,
            }),
            403,
            'forbidden',
          )
        })
        // The reason is kept as given, trimmed.
        const reply = await accept(api, '2', { reason: '  line one\nline two  ' })
        expect(reply.status, reply.text).toBe(201)
        expect(reply.body.acceptance.reason).toBe('line one\nline two')
      })
    })

    /** The requests `list` holds once it holds `count` of them (dispatch is asynchronous). */
    function eventuallyCount<T>(list: () => T[], count: number): Promise<T[]> {
      return eventually(() => {
        const items = list()
        return items.length >= count ? items : undefined
      }, `${count} deliveries`)
    }
  })
}
