import { createHash } from 'node:crypto'
import { diffDocuments } from '@svc/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { graphqlSdl, oasDocument, oasJson, oasYaml } from './support/documents.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, type Reply } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

for (const kind of await storeKinds()) {
  describe(`push and read revisions (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const v1 = (path: string) => `${hub.url}/v1${path}`
    let apiCount = 0
    /** A new public API of acme, so that each test starts a series of its own. */
    const newApi = async (visibility: 'public' | 'private' = 'public') => {
      const slug = `api-${++apiCount}`
      const reply = await call(v1('/apis'), {
        method: 'POST',
        token: people.alice,
        json: { owner: 'acme', slug, name: slug, visibility },
      })
      expect(reply.status, reply.text).toBe(201)
      return `acme/${slug}`
    }
    const push = (
      api: string,
      body: string,
      contentType: string,
      query = '',
      token: string = people.walt,
    ) =>
      call(v1(`/apis/${api}/revisions${query}`), {
        method: 'POST',
        token,
        headers: { 'content-type': contentType },
        body,
      })
    const pushed = (reply: Reply, status = 201) => {
      expect(reply.status, reply.text).toBe(status)
      return reply.body
    }

    beforeAll(async () => {
      // These tests push more often per minute than the default rate limits allow.
      hub = await startHub(kind, { env: { SVC_HUB_RATE_LIMITS: 'off' } })
      people = await seedPeople(hub)
    })
    afterAll(() => hub?.dispose())

    it('stores a raw YAML push as the first revision: no previous, an empty changelog', async () => {
      const api = await newApi()
      const yaml = oasYaml(['get /pets'])
      const reply = await push(
        api,
        yaml,
        'application/yaml',
        '?version=1.0.0&publishedAt=2026-11-20T10:00:00Z',
      )
      const body = pushed(reply)
      expect(body).toEqual({
        created: true,
        revision: {
          id: expect.stringMatching(/^rev_[0-9a-f]{24}$/),
          sequence: 1,
          contentHash: sha256(yaml),
          version: '1.0.0',
          publishedAt: '2026-11-20T10:00:00Z',
          retrievedAt: expect.any(String),
          url: expect.stringMatching(
            new RegExp(`/${api.replace('/', '/apis/')}/revisions/rev_[0-9a-f]{24}$`),
          ),
          documentUrl: expect.stringMatching(
            /\/v1\/apis\/acme\/api-\d+\/revisions\/rev_\w+\/document$/,
          ),
          protocol: 'oas',
          format: 'yaml',
          mediaType: 'application/yaml',
          specVersion: '3.0.3',
          size: Buffer.byteLength(yaml),
          origin: 'push',
          previousRevisionId: null,
          createdBy: 'walt',
          parseIssues: { error: 0, warning: 0, debug: expect.any(Number) },
          changeCounts: { breaking: 0, warning: 0, info: 0 },
          profile: 'wire',
          acceptance: null,
        },
        previousRevision: null,
        profile: 'wire',
        summary: { diff: false, details: {} },
        counts: { breaking: 0, warning: 0, info: 0 },
        webhookDeliveries: 0,
      })
      expect(reply.headers.get('location')).toBe(body.revision.url)
      expect(Date.parse(body.revision.retrievedAt)).toBeGreaterThan(Date.now() - 60_000)
      expect(body.revision.url.endsWith(`/revisions/${body.revision.id}`)).toBe(true)
    })

    it('stores raw JSON, raw GraphQL SDL and envelope pushes, and serves each document back byte for byte', async () => {
      const cases: [string, string, string, Record<string, unknown>][] = [
        [
          oasJson(['get /pets']),
          'application/json',
          'application/json',
          { format: 'json', protocol: 'oas' },
        ],
        [oasYaml(['get /pets']), 'application/x-yaml', 'application/x-yaml', { format: 'yaml' }],
        [oasYaml(['get /pets']), 'text/yaml; charset=utf-8', 'text/yaml', { format: 'yaml' }],
        [
          graphqlSdl(['pets']),
          'application/graphql',
          'application/graphql',
          { protocol: 'gql', format: 'graphql', specVersion: 'sdl' },
        ],
      ]
      for (const [document, contentType, servedAs, expected] of cases) {
        const api = await newApi()
        const body = pushed(await push(api, document, contentType))
        expect(body.revision).toMatchObject({
          ...expected,
          mediaType: servedAs,
          contentHash: sha256(document),
        })
        const served = await call(
          body.revision.documentUrl.replace(/^http:\/\/localhost:\d+/, hub.url),
        )
        expect(served.status).toBe(200)
        expect(served.headers.get('content-type')).toBe(servedAs)
        expect(served.text).toBe(document)
        expect(served.headers.get('etag')).toBe(`"${sha256(document)}"`)
      }
    })

    it('takes the JSON envelope {document, version?, publishedAt?} for every kind of document', async () => {
      const documents: [string, string, string][] = [
        [oasYaml(['get /pets']), 'yaml', 'application/yaml'],
        [oasJson(['get /pets']), 'json', 'application/json'],
        [graphqlSdl(['pets']), 'graphql', 'application/graphql'],
      ]
      for (const [document, format, mediaType] of documents) {
        const api = await newApi()
        const body = pushed(
          await call(v1(`/apis/${api}/revisions`), {
            method: 'POST',
            token: people.alice,
            json: { document, version: 'v7', publishedAt: '2026-11-21T08:30:00.000+01:00' },
          }),
        )
        expect(body.revision).toMatchObject({
          format,
          mediaType,
          version: 'v7',
          publishedAt: '2026-11-21T08:30:00.000+01:00',
          contentHash: sha256(document),
          size: Buffer.byteLength(document),
          createdBy: 'alice',
        })
        const served = await call(v1(`/apis/${api}/revisions/${body.revision.id}/document`))
        expect(served.text).toBe(document)
        expect(served.headers.get('content-type')).toBe(mediaType)
      }
    })

    it('reads a raw JSON OpenAPI document that has a `document` key as a document, not an envelope', async () => {
      const api = await newApi()
      const raw = JSON.stringify({ ...oasDocument(['get /pets']), document: 'not an envelope' })
      const body = pushed(await push(api, raw, 'application/json'))
      expect(body.revision.contentHash).toBe(sha256(raw))
    })

    it('makes no revision for a byte-identical document: 200, created false, the latest revision', async () => {
      const api = await newApi()
      const first = pushed(await push(api, oasYaml(['get /pets']), 'application/yaml'))
      const second = pushed(
        await push(api, oasYaml(['get /pets', 'post /pets']), 'application/yaml'),
      )
      const again = await expectStoreUnchanged(hub, () =>
        push(api, oasYaml(['get /pets', 'post /pets']), 'application/yaml', '?version=other-label'),
      )
      expect(pushed(again, 200)).toEqual({ ...second, created: false })
      // Also through the envelope, and by a reader of the stored bytes of an older revision.
      const envelope = await expectStoreUnchanged(hub, () =>
        call(v1(`/apis/${api}/revisions`), {
          method: 'POST',
          token: people.alice,
          json: { document: oasYaml(['get /pets', 'post /pets']) },
        }),
      )
      expect(pushed(envelope, 200).revision.id).toBe(second.revision.id)
      // Identical to an older revision, not the latest: a new revision.
      const back = pushed(await push(api, oasYaml(['get /pets']), 'application/yaml'))
      expect(back.revision).toMatchObject({ sequence: 3, contentHash: first.revision.contentHash })
    })

    it('diffs against the previous latest: an added operation is info, a removed one breaking', async () => {
      const api = await newApi()
      const v1Doc = oasYaml(['get /pets'])
      const v2Doc = oasYaml(['get /pets', 'post /pets'])
      const v3Doc = oasYaml(['post /pets'])
      const first = pushed(await push(api, v1Doc, 'application/yaml'))
      const added = pushed(await push(api, v2Doc, 'application/yaml'))
      expect(added.previousRevision).toEqual(first.revision)
      expect(added.revision.previousRevisionId).toBe(first.revision.id)
      expect(added.summary.diff).toBe(true)
      expect(added.summary.details.operations).toEqual({ added: 1, deleted: 0, modified: 0 })
      expect(added.counts.info).toBeGreaterThanOrEqual(1)
      expect(added.counts.breaking).toBe(0)

      const removed = pushed(await push(api, v3Doc, 'application/yaml'))
      expect(removed.summary.details.operations).toMatchObject({ deleted: 1 })
      expect(removed.counts.breaking).toBeGreaterThanOrEqual(1)
      // Each revision carries its changelog's counts, in the list too.
      expect(removed.revision.changeCounts).toEqual(removed.counts)
      const listed = await call(v1(`/apis/${api}/revisions`))
      expect(listed.body.revisions.map((r: { changeCounts: unknown }) => r.changeCounts)).toEqual([
        removed.counts,
        added.counts,
        { breaking: 0, warning: 0, info: 0 },
      ])

      const changes = await call(v1(`/apis/${api}/revisions/${removed.revision.id}/changes`))
      expect(changes.status).toBe(200)
      expect(changes.body.revision).toEqual(removed.revision)
      expect(changes.body.previousRevision).toEqual(added.revision)
      expect(changes.body.changes.some((c: { level: string }) => c.level === 'breaking')).toBe(true)
    })

    it('serves as changes exactly the changelog the engine makes for the two documents', async () => {
      const api = await newApi()
      const pairs: [string, string, string][] = [
        [
          oasYaml(['get /pets', 'get /pets/{id}']),
          oasJson(['get /pets', 'delete /pets/{id}', 'put /owners']),
          'application/json',
        ],
        [graphqlSdl(['pets', 'owners']), graphqlSdl(['pets', 'vets']), 'application/graphql'],
      ]
      for (const [before, after, contentType] of pairs) {
        await push(
          api,
          before,
          before.startsWith('type') ? 'application/graphql' : 'application/yaml',
        )
        const body = pushed(await push(api, after, contentType))
        const expected = await diffDocuments({ text: before }, { text: after })
        const changes = await call(v1(`/apis/${api}/revisions/latest/changes`))
        expect(changes.status).toBe(200)
        expect(changes.headers.get('content-type')).toMatch(/^application\/json/)
        expect({
          summary: changes.body.summary,
          counts: changes.body.counts,
          changes: changes.body.changes,
        }).toEqual(JSON.parse(JSON.stringify(expected)))
        expect(body.summary).toEqual(changes.body.summary)
        expect(body.counts).toEqual(changes.body.counts)
        expect(expected.changes.length).toBeGreaterThan(0)
      }
    })

    it('compares any two revisions with `against`, older or newer, as the engine does, storing nothing', async () => {
      const api = await newApi()
      const docs = [
        oasYaml(['get /pets', 'get /pets/{id}']),
        oasYaml(['get /pets', 'get /pets/{id}', 'post /pets']),
        oasYaml(['get /pets']),
      ]
      const made: { id: string }[] = []
      for (const doc of docs) made.push(pushed(await push(api, doc, 'application/yaml')).revision)
      const changes = (id: string, against: string) =>
        call(v1(`/apis/${api}/revisions/${id}/changes?against=${against}`))
      const skipped = await expectStoreUnchanged(hub, () => changes(made[2]!.id, '1'))
      expect(skipped.status, skipped.text).toBe(200)
      expect(skipped.body.revision).toEqual(made[2])
      expect(skipped.body.previousRevision).toEqual(made[0])
      const expected = await diffDocuments({ text: docs[0]! }, { text: docs[2]! })
      expect({
        summary: skipped.body.summary,
        counts: skipped.body.counts,
        changes: skipped.body.changes,
      }).toEqual(JSON.parse(JSON.stringify(expected)))
      expect(skipped.body.changes).toContainEqual(
        expect.objectContaining({ id: 'endpoint-removed', path: 'GET /pets/{id}' }),
      )
      // Backwards: what going from the latest back to the first would change.
      const back = await changes(made[0]!.id, 'latest')
      expect(back.body.previousRevision).toEqual(made[2])
      expect(back.body.changes.map((c: { id: string }) => c.id)).toEqual(['endpoint-added'])
      // Against the revision before: the stored changelog.
      const stored = await changes(made[2]!.id, made[1]!.id)
      const plain = await call(v1(`/apis/${api}/revisions/${made[2]!.id}/changes`))
      expect(stored.body).toEqual(plain.body)
      expect((await changes(made[2]!.id, '9')).status).toBe(404)
      expect((await changes(made[2]!.id, 'nope')).status).toBe(422)
      // The description declares both.
      const { paths, components } = (await call(v1('/openapi.json'))).body
      const route = paths['/v1/apis/{owner}/{slug}/revisions/{id}/changes'].get
      expect(route.parameters.map((p: { name: string }) => p.name)).toContain('against')
      expect(Object.keys(route.responses)).toContain('429')
      expect(components.schemas.Change.properties.path.type).toBe('string')
    })

    it('orders by push, not by version label: a lower label pushed later is the latest, diffed against the one before', async () => {
      const api = await newApi()
      const two = pushed(
        await push(api, oasYaml(['get /pets', 'post /pets']), 'application/yaml', '?version=2.0.0'),
      )
      const older = pushed(
        await push(api, oasYaml(['get /pets']), 'application/yaml', '?version=1.5.0'),
      )
      expect(older.revision).toMatchObject({ version: '1.5.0', sequence: 2 })
      expect(older.previousRevision).toMatchObject({ id: two.revision.id, version: '2.0.0' })
      expect(older.counts.breaking).toBeGreaterThanOrEqual(1)
      const latest = await call(v1(`/apis/${api}/revisions/latest`))
      expect(latest.body).toEqual(older.revision)
    })

    it('lists revisions newest first, in pages, and reads each one by id', async () => {
      const api = await newApi()
      const made = []
      for (let i = 1; i <= 5; i++) {
        const ops = Array.from({ length: i }, (_, n) => `get /r${n}`)
        made.push(
          pushed(await push(api, oasYaml(ops), 'application/yaml', `?version=${i}`)).revision,
        )
      }
      const all = await call(v1(`/apis/${api}/revisions`))
      expect(all.body).toEqual({ revisions: [...made].reverse(), nextCursor: null })

      const seen = []
      let cursor: string | null = null
      do {
        const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2'
        const page = await call(v1(`/apis/${api}/revisions${query}`))
        expect(page.status).toBe(200)
        seen.push(...page.body.revisions)
        cursor = page.body.nextCursor
      } while (cursor)
      expect(seen.map((r: { sequence: number }) => r.sequence)).toEqual([5, 4, 3, 2, 1])

      for (const revision of made) {
        const one = await call(v1(`/apis/${api}/revisions/${revision.id}`))
        expect(one.body).toEqual(revision)
      }
      const first = await call(v1(`/apis/${api}/revisions/${made[0]!.id}/changes`))
      expect(first.body).toMatchObject({
        previousRevision: null,
        summary: { diff: false, details: {} },
        counts: { breaking: 0, warning: 0, info: 0 },
        changes: [],
      })
    })

    it("lists a revision's parse issues, errors first, by level and a page at a time", async () => {
      const api = await newApi()
      const yaml = [
        'openapi: 3.0.3',
        "info: {title: t, version: '1'}",
        'paths:',
        '  /pets:',
        '    post:',
        '      responses: null',
        'components:',
        '  schemas:',
        '    Loose:',
        '      properties:',
        '        a: {type: string, example: 5}',
        '        b: {format: email}',
        '        c: {type: array}',
        '',
      ].join('\n')
      const { revision } = pushed(await push(api, yaml, 'application/yaml'))
      expect(revision.parseIssues).toEqual({ error: 1, warning: 3, debug: 1 })
      const issues = (query = '') =>
        call(v1(`/apis/${api}/revisions/${revision.id}/issues${query}`))

      const all = await issues()
      expect(all.status, all.text).toBe(200)
      expect(all.body.counts).toEqual(revision.parseIssues)
      expect(all.body.nextCursor).toBeNull()
      expect(all.body.issues.map((i: { level: string }) => i.level)).toEqual([
        'error',
        'warning',
        'warning',
        'warning',
        'debug',
      ])
      expect(all.body.issues[0]).toEqual({
        protocol: 'oas',
        type: 'INVALID_OPERATION',
        level: 'error',
        message: '"responses" must be an object, got null.',
        cause: '"responses" must be an object, got null',
        location: 'paths:/pets:post',
        line: 5,
        column: 5,
      })
      // Within a level, in the order of the document.
      expect(all.body.issues.slice(1, 4).map((i: { location: string }) => i.location)).toEqual([
        'components:schemas:Loose:properties:a:example',
        'components:schemas:Loose:properties:b',
        'components:schemas:Loose:properties:c',
      ])

      const warnings = await issues('?level=warning&limit=2')
      expect(warnings.body.counts).toEqual(revision.parseIssues)
      expect(warnings.body.issues).toEqual(all.body.issues.slice(1, 3))
      const rest = await issues(`?level=warning&limit=2&cursor=${warnings.body.nextCursor}`)
      expect(rest.body).toMatchObject({ issues: all.body.issues.slice(3, 4), nextCursor: null })

      // `latest` too.
      expect((await call(v1(`/apis/${api}/revisions/latest/issues`))).body).toEqual(all.body)

      for (const query of ['?level=info', '?cursor=bm9wZQ', '?limit=0']) {
        const refused = await issues(query)
        expect(refused.status, query).toBe(422)
        expect(refused.body.code).toBe('invalid_request')
      }
      const missing = await call(v1(`/apis/${api}/revisions/rev_000000000000000000000000/issues`))
      expect(missing.status).toBe(404)

      // A revision stored before the hub kept its issues gets them found again, then kept.
      const store = await hub.sharedStore()
      await store.kysely
        .updateTable('revisions')
        .set({ parse_issues: null })
        .where('id', '=', revision.id)
        .execute()
      expect(await store.apis.parseIssues(revision.id)).toBeNull()
      expect((await issues()).body).toEqual(all.body)
      expect(JSON.parse((await store.apis.parseIssues(revision.id))!)).toHaveLength(5)

      const openapi = await call(v1('/openapi.json'))
      const operation = openapi.body.paths['/v1/apis/{owner}/{slug}/revisions/{id}/issues'].get
      expect(operation.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/RevisionIssueList',
      })
      expect(openapi.body.components.schemas.RevisionIssue.properties.level.enum).toEqual([
        'error',
        'warning',
        'debug',
      ])
    })

    it('answers 404 for an API without revisions, an unknown revision, and a revision of another API', async () => {
      const api = await newApi()
      const other = await newApi()
      const theirs = pushed(await push(other, oasYaml(['get /x']), 'application/yaml'))
      expect((await call(v1(`/apis/${api}/revisions`))).body).toEqual({
        revisions: [],
        nextCursor: null,
      })
      for (const path of [
        `/apis/${api}/revisions/latest`,
        `/apis/${api}/revisions/latest/changes`,
        `/apis/${api}/revisions/rev_000000000000000000000000`,
        `/apis/${api}/revisions/${theirs.revision.id}/document`,
      ]) {
        const reply = await call(v1(path))
        expect(reply.status, path).toBe(404)
        expect(reply.body.code).toBe('not_found')
      }
    })

    it('lets concurrent pushes of different documents all land, in one unbroken series', async () => {
      const api = await newApi()
      const replies = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          push(api, oasYaml([`get /race${i}`]), 'application/yaml'),
        ),
      )
      expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201, 201])
      const series = (await call(v1(`/apis/${api}/revisions`))).body.revisions.reverse()
      expect(series.map((r: { sequence: number }) => r.sequence)).toEqual([1, 2, 3, 4, 5])
      series.forEach((revision: { previousRevisionId: string | null }, i: number) => {
        expect(revision.previousRevisionId).toBe(i === 0 ? null : series[i - 1].id)
      })
      // Each one's changes are against the one before it in the series.
      for (const revision of series.slice(1)) {
        const changes = await call(v1(`/apis/${api}/revisions/${revision.id}/changes`))
        expect(changes.body.previousRevision.id).toBe(revision.previousRevisionId)
        expect(changes.body.summary.details.operations).toEqual({
          added: 1,
          deleted: 1,
          modified: 0,
        })
      }
    })

    it('lets concurrent pushes of the same document make one revision', async () => {
      const api = await newApi()
      const replies = await Promise.all(
        Array.from({ length: 4 }, () => push(api, oasYaml(['get /same']), 'application/yaml')),
      )
      expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 201])
      expect(new Set(replies.map((r) => r.body.revision.id)).size).toBe(1)
    })
  })
}
