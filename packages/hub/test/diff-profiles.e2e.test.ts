import { ACCEPTANCE_EVENT, REVISION_EVENT, SIGNATURE_HEADER, verifyWebhook } from '@svc/webhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, seedTokens, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { eventually } from './support/poll.js'
import { startReceiver, type Receiver } from './support/receiver.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

/** A document with one operation named `operationId`. */
const named = (operationId: string) =>
  [
    'openapi: 3.0.3',
    'info: {title: Pets, version: 1.0.0}',
    'paths:',
    '  /pets:',
    '    get:',
    `      operationId: ${operationId}`,
    '      responses:',
    "        '200': {description: ok}",
    '',
  ].join('\n')

/** Two documents that differ only in an operationId: harmless on the wire, not to an SDK. */
const BEFORE = named('listPets')
const AFTER = named('getPets')

/** The rule the sdk profile adds for a renamed operationId (engine, docs/diff-rules.md). */
const SDK_RENAMED = 'sdk-operation-renamed'

const ids = (reply: Reply) => (reply.body.changes as { id: string }[]).map((c) => c.id)

/**
 * Diff profiles (`wire`, `sdk`) on the hub, on both stores (docs/api/apis.md "Diff profiles",
 * docs/webhooks.md): an API's `diffProfile`, the changelog a push stores and answers, `…/diff`
 * and `…/changes` under `profile`, and each webhook's events judged with its own profile.
 */
for (const kind of await storeKinds()) {
  describe(`diff profiles (${kind})`, () => {
    let hub: HubProcess
    let people: People
    let receiver: Receiver
    let hooks: string
    let apiCount = 0
    const v1 = (path: string) => `${hub.url}/v1${path}`

    beforeAll(async () => {
      receiver = await startReceiver()
      hub = await startHub(kind, {
        env: { SVC_HUB_RATE_LIMITS: 'off', SVC_HUB_ALLOW_PRIVATE_NETWORKS: receiver.origin },
      })
      people = await seedPeople(hub)
      hooks = (await seedTokens(hub, { hooks: ['alice', 'admin:webhooks,read'] })).hooks
    })
    afterAll(async () => {
      await hub?.dispose()
      await receiver?.close()
    })

    async function newApi(visibility: 'public' | 'private' = 'public'): Promise<string> {
      const slug = `profiles-${++apiCount}`
      const created = await call(v1('/apis'), {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug, name: slug, visibility },
      })
      expect(created.status, created.text).toBe(201)
      expect(created.body.diffProfile).toBe('wire')
      return `acme/${slug}`
    }

    const push = (api: string, body: string, query = '') =>
      call(v1(`/apis/${api}/revisions${query}`), {
        method: 'POST',
        token: people.walt,
        headers: { 'content-type': 'application/yaml' },
        body,
      })

    const setProfile = (api: string, json: unknown, token: string | undefined = people.walt) =>
      call(v1(`/apis/${api}`), { method: 'PATCH', token, json })

    const changes = (api: string, query = '') =>
      call(v1(`/apis/${api}/revisions/latest/changes${query}`))

    const diff = (api: string, body: string, query = '') =>
      call(v1(`/apis/${api}/diff${query}`), {
        method: 'POST',
        token: people.walt,
        headers: { 'content-type': 'application/yaml' },
        body,
      })

    const expectError = (reply: Reply, status: number, code: string) => {
      expect(reply.status, reply.text).toBe(status)
      expect(reply.body.code).toBe(code)
    }

    it('judges with wire by default: the stored changelog has no sdk rule; ?profile=sdk computes it once and keeps it', async () => {
      const api = await newApi()
      expect((await push(api, BEFORE)).status).toBe(201)
      const pushed = await push(api, AFTER)
      expect(pushed.status, pushed.text).toBe(201)
      expect(pushed.body.profile).toBe('wire')
      expect(pushed.body.revision.profile).toBe('wire')

      const wire = await changes(api)
      expect(wire.status, wire.text).toBe(200)
      expect(wire.body.profile).toBe('wire')
      expect(ids(wire)).toContain('operation-id-changed')
      expect(ids(wire)).not.toContain(SDK_RENAMED)
      expect(await changes(api, '?profile=wire')).toMatchObject({ body: wire.body })

      const sdk = await changes(api, '?profile=sdk')
      expect(sdk.status, sdk.text).toBe(200)
      expect(sdk.body.profile).toBe('sdk')
      expect(ids(sdk)).toContain(SDK_RENAMED)
      expect(sdk.body.counts.breaking).toBeGreaterThan(wire.body.counts.breaking)
      // The revision itself is as it was pushed; the sdk changelog is kept beside it.
      expect(sdk.body.revision).toEqual(wire.body.revision)
      const again = await expectStoreUnchanged(hub, () => changes(api, '?profile=sdk'))
      expect(again.body).toEqual(sdk.body)
    })

    it("an API's diffProfile: set by a writer, shown on the API, used for the changelogs of later pushes", async () => {
      const api = await newApi()
      expect((await push(api, BEFORE)).status).toBe(201)
      const set = await setProfile(api, { diffProfile: 'sdk' })
      expect(set.status, set.text).toBe(200)
      expect(set.body.diffProfile).toBe('sdk')
      expect((await call(v1(`/apis/${api}`))).body.diffProfile).toBe('sdk')
      const listed = await call(v1('/apis?owner=acme&limit=100'))
      const record = listed.body.apis.find((a: { slug: string }) => `acme/${a.slug}` === api)
      expect(record.diffProfile).toBe('sdk')

      const pushed = await push(api, AFTER)
      expect(pushed.status, pushed.text).toBe(201)
      expect(pushed.body.profile).toBe('sdk')
      expect(pushed.body.revision.profile).toBe('sdk')
      const stored = await changes(api)
      expect(stored.body.profile).toBe('sdk')
      expect(ids(stored)).toContain(SDK_RENAMED)
      expect(stored.body.counts).toEqual(pushed.body.counts)
      expect(stored.body.revision.changeCounts).toEqual(pushed.body.counts)
      expect(ids(await changes(api, '?profile=wire'))).not.toContain(SDK_RENAMED)

      // Back to wire: the next revision is wire's; the one before keeps its sdk changelog.
      expect((await setProfile(api, { diffProfile: 'wire' })).body.diffProfile).toBe('wire')
      expect((await push(api, named('listAllPets'))).body.revision.profile).toBe('wire')
      expect(ids(await changes(api))).not.toContain(SDK_RENAMED)
      const second = await call(v1(`/apis/${api}/revisions/2/changes`))
      expect(second.body.profile).toBe('sdk')
      expect(ids(second)).toContain(SDK_RENAMED)
      // A PATCH without fields changes nothing and answers the API.
      expect((await setProfile(api, {})).body.diffProfile).toBe('wire')
    })

    it('the push gate judges with ?profile=, else the API’s; the revision keeps the API’s changelog', async () => {
      const api = await newApi()
      expect((await push(api, BEFORE)).status).toBe(201)
      const pushed = await push(api, AFTER, '?profile=sdk')
      expect(pushed.status, pushed.text).toBe(201)
      expect(pushed.body.profile).toBe('sdk')
      expect(pushed.body.revision.profile).toBe('wire')
      const sdk = await changes(api, '?profile=sdk')
      expect(pushed.body.counts).toEqual(sdk.body.counts)
      expect(pushed.body.counts.breaking).toBeGreaterThan(0)
      expect((await changes(api)).body.counts).toEqual(pushed.body.revision.changeCounts)
      expect(ids(await changes(api))).not.toContain(SDK_RENAMED)

      // The same bytes again (a CI job run again) are judged again under the profile asked for.
      const again = await push(api, AFTER, '?profile=sdk')
      expect(again.status, again.text).toBe(200)
      expect(again.body).toMatchObject({ created: false, profile: 'sdk', counts: sdk.body.counts })
      const wire = await push(api, AFTER)
      expect(wire.body).toMatchObject({ created: false, profile: 'wire' })
      expect(wire.body.counts).toEqual(pushed.body.revision.changeCounts)
    })

    it('POST …/diff judges with ?profile=, else the API’s diffProfile', async () => {
      const api = await newApi()
      expect((await push(api, BEFORE)).status).toBe(201)
      const byDefault = await diff(api, AFTER)
      expect(byDefault.status, byDefault.text).toBe(200)
      expect(byDefault.body.profile).toBe('wire')
      expect(ids(byDefault)).not.toContain(SDK_RENAMED)
      const sdk = await diff(api, AFTER, '?profile=sdk')
      expect(sdk.body.profile).toBe('sdk')
      expect(ids(sdk)).toContain(SDK_RENAMED)
      expect(ids(await diff(api, AFTER, '?profile=wire'))).toEqual(ids(byDefault))

      expect((await setProfile(api, { diffProfile: 'sdk' })).status).toBe(200)
      const followed = await diff(api, AFTER)
      expect(followed.body.profile).toBe('sdk')
      expect(ids(followed)).toEqual(ids(sdk))
      expect(ids(await diff(api, AFTER, '?profile=wire'))).toEqual(ids(byDefault))
    })

    it('refuses a profile that is not wire or sdk (422 invalid_request), storing nothing', async () => {
      const api = await newApi()
      expect((await push(api, BEFORE)).status).toBe(201)
      const hook = await call(v1(`/apis/${api}/webhooks`), {
        method: 'POST',
        token: hooks,
        json: { url: `${receiver.origin}/refused` },
      })
      expect(hook.status, hook.text).toBe(201)
      await expectStoreUnchanged(hub, async () => {
        for (const value of ['grpc', 'SDK', '', 'wire,sdk']) {
          const q = `?profile=${encodeURIComponent(value)}`
          expectError(await setProfile(api, { diffProfile: value }), 422, 'invalid_request')
          expectError(await push(api, AFTER, q), 422, 'invalid_request')
          expectError(await diff(api, AFTER, q), 422, 'invalid_request')
          expectError(await changes(api, q), 422, 'invalid_request')
          for (const [method, path] of [
            ['POST', `/apis/${api}/webhooks`],
            ['PATCH', `/apis/${api}/webhooks/${hook.body.id}`],
          ] as const) {
            const reply = await call(v1(path), {
              method,
              token: hooks,
              json: { url: `${receiver.origin}/refused`, profile: value },
            })
            expectError(reply, 422, 'invalid_request')
            expect(reply.body.details.issues[0].path).toBe('json.profile')
          }
        }
        expectError(await setProfile(api, { diffProfile: null }), 422, 'invalid_request')
        expectError(await setProfile(api, { name: 'x' }), 422, 'invalid_request')
      })
      expect((await call(v1(`/apis/${api}`))).body.diffProfile).toBe('wire')
    })

    it('lets only writers with write:apis change the setting', async () => {
      const api = await newApi('private')
      await expectStoreUnchanged(hub, async () => {
        const anonymous = call(v1(`/apis/${api}`), {
          method: 'PATCH',
          json: { diffProfile: 'sdk' },
        })
        expectError(await anonymous, 401, 'unauthorized')
        expectError(await setProfile(api, { diffProfile: 'sdk' }, people.rita), 403, 'forbidden')
        expectError(await setProfile(api, { diffProfile: 'sdk' }, people.nora), 404, 'not_found')
        expectError(
          await setProfile(api, { diffProfile: 'sdk' }, people.aliceReadOnly),
          403,
          'insufficient_scope',
        )
      })
      const read = await call(v1(`/apis/${api}`), { token: people.rita })
      expect(read.body.diffProfile).toBe('wire')
    })

    it("sends each webhook the changelog of its own profile; a webhook without one follows the API's", async () => {
      const api = await newApi()
      const hook = async (path: string, json: Record<string, unknown>) => {
        const created = await call(v1(`/apis/${api}/webhooks`), {
          method: 'POST',
          token: hooks,
          json: { url: `${receiver.origin}/${api}/${path}`, ...json },
        })
        expect(created.status, created.text).toBe(201)
        return created.body as { id: string; secret: string; profile: string | null }
      }
      const follows = await hook('follows', { minLevel: 'info' })
      const wireBreaking = await hook('wire-breaking', { minLevel: 'breaking', profile: 'wire' })
      const sdkBreaking = await hook('sdk-breaking', { minLevel: 'breaking', profile: 'sdk' })
      expect([follows.profile, wireBreaking.profile, sdkBreaking.profile]).toEqual([
        null,
        'wire',
        'sdk',
      ])
      const listed = await call(v1(`/apis/${api}/webhooks`), { token: hooks })
      expect(listed.body.webhooks.map((w: { profile: unknown }) => w.profile)).toEqual([
        null,
        'wire',
        'sdk',
      ])
      const to = (path: string) => () =>
        receiver.received.filter((r) => r.path === `/${api}/${path}`)

      expect((await push(api, BEFORE)).status).toBe(201)
      const pushed = await push(api, AFTER)
      expect(pushed.status, pushed.text).toBe(201)
      // Two events: wire's (to the webhook that follows the API) and sdk's.
      expect(pushed.body.webhookDeliveries).toBe(2)
      const [sdkEvent] = await eventuallyCount(to('sdk-breaking'), 1)
      const [wireEvent] = await eventuallyCount(to('follows'), 1)
      const sdkChanges = await changes(api, '?profile=sdk')
      const wireChanges = await changes(api)
      const revisionUrl = wireChanges.body.revision.url
      const sdk = verifyWebhook(
        sdkEvent!.body,
        sdkEvent!.headers[SIGNATURE_HEADER],
        sdkBreaking.secret,
      )
      expect(sdk.type).toBe(REVISION_EVENT)
      expect(sdk.data).toMatchObject({
        profile: 'sdk',
        summary: sdkChanges.body.summary,
        counts: sdkChanges.body.counts,
        changesUrl: `${revisionUrl}/changes?profile=sdk`,
      })
      const wire = verifyWebhook(
        wireEvent!.body,
        wireEvent!.headers[SIGNATURE_HEADER],
        follows.secret,
      )
      expect(wire.data).toMatchObject({
        profile: 'wire',
        summary: wireChanges.body.summary,
        counts: wireChanges.body.counts,
        changesUrl: `${revisionUrl}/changes`,
      })
      expect(sdk.id).not.toBe(wire.id)
      // Wire has no breaking change here: the wire webhook asking for breaking ones got nothing.
      expect(wireChanges.body.counts.breaking).toBe(0)
      expect(to('wire-breaking')()).toEqual([])

      // The API set to sdk: the webhook that follows it now gets sdk's events.
      expect((await setProfile(api, { diffProfile: 'sdk' })).status).toBe(200)
      const patched = await call(v1(`/apis/${api}/webhooks/${sdkBreaking.id}`), {
        method: 'PATCH',
        token: hooks,
        json: { profile: null },
      })
      expect(patched.status, patched.text).toBe(200)
      expect(patched.body.profile).toBeNull()
      const third = await push(api, named('listAllPets'))
      expect(third.body.revision.profile).toBe('sdk')
      const [, followed] = await eventuallyCount(to('follows'), 2)
      const event = verifyWebhook(
        followed!.body,
        followed!.headers[SIGNATURE_HEADER],
        follows.secret,
      )
      expect(event.data).toMatchObject({
        profile: 'sdk',
        counts: third.body.counts,
        changesUrl: `${third.body.revision.url}/changes`,
      })
      await eventuallyCount(to('sdk-breaking'), 2)
      expect(to('wire-breaking')()).toEqual([])
    })

    it("an acceptance event carries the counts of each webhook's profile, diffed first when the push did not", async () => {
      const api = await newApi()
      const hook = async (path: string, json: Record<string, unknown>) => {
        const created = await call(v1(`/apis/${api}/webhooks`), {
          method: 'POST',
          token: hooks,
          json: { url: `${receiver.origin}/${api}/${path}`, ...json },
        })
        expect(created.status, created.text).toBe(201)
        return created.body as { id: string; secret: string }
      }
      const to = (path: string) => () =>
        receiver.received.filter((r) => r.path === `/${api}/${path}`)
      const follows = await hook('follows', { minLevel: 'info' })
      expect((await push(api, BEFORE)).status).toBe(201)
      expect((await push(api, AFTER)).status).toBe(201)
      await eventuallyCount(to('follows'), 1)
      // Set up after the push: the revision was never diffed under sdk.
      const sdkHook = await hook('sdk', { minLevel: 'breaking', profile: 'sdk' })

      const accepted = await call(v1(`/apis/${api}/revisions/latest/acceptance`), {
        method: 'POST',
        token: people.walt,
        json: { reason: 'the SDK is regenerated with the new names' },
      })
      expect(accepted.status, accepted.text).toBe(201)
      expect(accepted.body.webhookDeliveries).toBe(2)
      const sdkChanges = await changes(api, '?profile=sdk')
      const [sdkEvent] = await eventuallyCount(to('sdk'), 1)
      const sdk = verifyWebhook(sdkEvent!.body, sdkEvent!.headers[SIGNATURE_HEADER], sdkHook.secret)
      expect(sdk.type).toBe(ACCEPTANCE_EVENT)
      expect(sdk.data).toMatchObject({
        profile: 'sdk',
        counts: sdkChanges.body.counts,
        changesUrl: `${sdkChanges.body.revision.url}/changes?profile=sdk`,
      })
      expect(sdkChanges.body.counts.breaking).toBeGreaterThan(0)
      const [, wireEvent] = await eventuallyCount(to('follows'), 2)
      const wire = verifyWebhook(
        wireEvent!.body,
        wireEvent!.headers[SIGNATURE_HEADER],
        follows.secret,
      )
      expect(wire.type).toBe(ACCEPTANCE_EVENT)
      expect(wire.data).toMatchObject({
        profile: 'wire',
        counts: (await changes(api)).body.counts,
      })
    })

    it('publishes the profile parameters and fields in /v1/openapi.json', async () => {
      const { body } = await call(v1('/openapi.json'))
      const API = '/v1/apis/{owner}/{slug}'
      const queryOf = (path: string, method: string) =>
        (body.paths[path][method].parameters as { in: string; name: string; schema: unknown }[])
          .filter((p) => p.in === 'query')
          .find((p) => p.name === 'profile')
      for (const [path, method] of [
        [`${API}/revisions`, 'post'],
        [`${API}/diff`, 'post'],
        [`${API}/revisions/{id}/changes`, 'get'],
      ]) {
        const parameter = queryOf(path!, method!)
        expect(JSON.stringify(parameter?.schema), `${method} ${path}`).toContain(
          '"$ref":"#/components/schemas/DiffProfile"',
        )
      }
      const schemas = body.components.schemas
      expect(schemas.DiffProfile.enum).toEqual(['wire', 'sdk'])
      expect(body.paths[API].patch.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/UpdateApi',
      })
      expect(Object.keys(schemas.UpdateApi.properties)).toEqual(['diffProfile'])
      expect(schemas.Api.required).toContain('diffProfile')
      for (const name of ['Revision', 'PushResult', 'RevisionChanges', 'RevisionDiff', 'Webhook'])
        expect(schemas[name].properties, name).toHaveProperty('profile')
      for (const name of ['CreateWebhook', 'UpdateWebhook'])
        expect(schemas[name].properties, name).toHaveProperty('profile')
      for (const name of ['RevisionEventData', 'AcceptanceEventData'])
        expect(schemas[name].required, name).toContain('profile')
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
