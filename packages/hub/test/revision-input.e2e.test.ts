import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { oasYaml } from './support/documents.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const LIMIT = 64 * 1024
const YAML = 'application/yaml'
const JSON_TYPE = 'application/json'

type Push = {
  api?: string
  token?: (people: People) => string | undefined
  headers?: Record<string, string>
  body?: string | Uint8Array
  contentType?: string | undefined
  query?: string
}

for (const kind of await storeKinds()) {
  describe(`push refusals: who, what and how much (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const push = (p: Push) => {
      const headers = new Headers(p.headers)
      const contentType = 'contentType' in p ? p.contentType : YAML
      if (contentType !== undefined) headers.set('content-type', contentType)
      const body = p.body ?? oasYaml(['get /refused'])
      return call(`${hub.url}/v1/apis/${p.api ?? 'acme/private'}/revisions${p.query ?? ''}`, {
        method: 'POST',
        token: p.token ? p.token(people) : people.alice,
        headers,
        // A Buffer, so that fetch adds no Content-Type of its own.
        body: typeof body === 'string' ? Buffer.from(body) : body,
      })
    }
    const envelope = (value: unknown): Push => ({
      body: JSON.stringify(value),
      contentType: JSON_TYPE,
    })

    beforeAll(async () => {
      hub = await startHub(kind, {
        // These tests push more often per minute than the default rate limits allow.
        env: { SVC_HUB_MAX_DOCUMENT_BYTES: String(LIMIT), SVC_HUB_RATE_LIMITS: 'off' },
      })
      people = await seedPeople(hub)
      for (const visibility of ['private', 'public']) {
        const created = await call(`${hub.url}/v1/apis`, {
          method: 'POST',
          token: people.alice,
          json: { owner: 'acme', slug: visibility, name: visibility, visibility },
        })
        expect(created.status).toBe(201)
        const first = await push({ api: `acme/${visibility}`, body: oasYaml(['get /pets']) })
        expect(first.status, first.text).toBe(201)
      }
    })
    afterAll(() => hub?.dispose())

    it('accepts a document just under SVC_HUB_MAX_DOCUMENT_BYTES', async () => {
      const operations = Array.from({ length: 800 }, (_, i) => `get /items/${i}`)
      let document = oasYaml(operations)
      while (Buffer.byteLength(document) > LIMIT) {
        operations.pop()
        document = oasYaml(operations)
      }
      expect(Buffer.byteLength(document)).toBeGreaterThan(LIMIT - 1024)
      const reply = await push({ api: 'acme/public', body: document })
      expect(reply.status, reply.text).toBe(201)
    })

    const refused: [string, Push, number, string, Record<string, unknown>?][] = [
      ['no token', { token: () => undefined }, 401, 'unauthorized', { reason: 'missing' }],
      [
        'an unknown token',
        { token: () => `svc_pat_${'x'.repeat(43)}` },
        401,
        'unauthorized',
        { reason: 'unknown' },
      ],
      [
        'a revoked token',
        { token: (p) => p.aliceRevoked },
        401,
        'unauthorized',
        { reason: 'revoked' },
      ],
      [
        'an expired token',
        { token: (p) => p.aliceExpired },
        401,
        'unauthorized',
        { reason: 'expired' },
      ],
      [
        'a Basic credential',
        { token: () => undefined, headers: { authorization: 'Basic YWxpY2U6cHc=' } },
        401,
        'unauthorized',
        { reason: 'malformed' },
      ],
      [
        'a read-only token',
        { token: (p) => p.aliceReadOnly },
        403,
        'insufficient_scope',
        { required: ['write:apis'] },
      ],
      ['a write:projects token', { token: (p) => p.aliceProjects }, 403, 'insufficient_scope'],
      [
        'a reader, on a private API',
        { token: (p) => p.rita },
        403,
        'forbidden',
        { access: 'write' },
      ],
      ['a reader, on a public API', { token: (p) => p.rita, api: 'acme/public' }, 403, 'forbidden'],
      ['an outsider, on a private API', { token: (p) => p.nora }, 404, 'not_found'],
      [
        'an outsider, on a public API',
        { token: (p) => p.nora, api: 'acme/public' },
        403,
        'forbidden',
      ],
      ['an API that does not exist', { api: 'acme/missing' }, 404, 'not_found'],
      ['an owner that does not exist', { api: 'ghost/private' }, 404, 'not_found'],
      ['an owner in capitals', { api: 'ACME/private' }, 422, 'invalid_request'],
      ['a slug starting with a dot', { api: 'acme/.hidden' }, 422, 'invalid_request'],
      ['an encoded slash in the slug', { api: 'acme/a%2F..%2Fb' }, 422, 'invalid_request'],
      ['a slug of 65 characters', { api: `acme/${'a'.repeat(65)}` }, 422, 'invalid_request'],
      ['Content-Type text/plain', { contentType: 'text/plain' }, 415, 'unsupported_media_type'],
      ['no Content-Type', { contentType: undefined }, 415, 'unsupported_media_type'],
      [
        'a charset other than UTF-8',
        { contentType: 'application/yaml; charset=iso-8859-1' },
        415,
        'unsupported_media_type',
      ],
      [
        'multipart',
        { contentType: 'multipart/form-data; boundary=x' },
        415,
        'unsupported_media_type',
      ],
      ['an empty body', { body: '' }, 400, 'malformed_request'],
      ['an empty JSON body', { body: '', contentType: JSON_TYPE }, 400, 'malformed_request'],
      [
        'malformed JSON',
        { body: '{"document": "openapi: 3.0.0"', contentType: JSON_TYPE },
        400,
        'malformed_request',
      ],
      [
        'an envelope with an unknown key',
        envelope({ document: 'x', extra: 1 }),
        422,
        'invalid_request',
      ],
      [
        'an envelope whose document is not text',
        envelope({ document: 42 }),
        422,
        'invalid_request',
      ],
      [
        'an envelope whose version is not text',
        envelope({ document: oasYaml([]), version: 2 }),
        422,
        'invalid_request',
      ],
      [
        'an envelope with an empty version',
        envelope({ document: oasYaml([]), version: '' }),
        422,
        'invalid_request',
      ],
      [
        'an envelope with a version of 101 characters',
        envelope({ document: oasYaml([]), version: 'v'.repeat(101) }),
        422,
        'invalid_request',
      ],
      [
        'an envelope with publishedAt that is not a date-time',
        envelope({ document: oasYaml([]), publishedAt: 'yesterday' }),
        422,
        'invalid_request',
        { issues: [{ path: 'json.publishedAt', message: 'must be an ISO 8601 date-time' }] },
      ],
      [
        'an envelope with a date but no time',
        envelope({ document: oasYaml([]), publishedAt: '2026-11-21' }),
        422,
        'invalid_request',
      ],
      [
        'an envelope and labels in the query',
        { ...envelope({ document: oasYaml([]) }), query: '?version=1.0.0' },
        422,
        'invalid_request',
      ],
      [
        'a publishedAt query that is not a date-time',
        { query: '?publishedAt=now' },
        422,
        'invalid_request',
      ],
      [
        'a version query of 101 characters',
        { query: `?version=${'v'.repeat(101)}` },
        422,
        'invalid_request',
      ],
      [
        'a raw body over the limit',
        { body: oasYaml([]) + `# ${'x'.repeat(LIMIT)}\n` },
        422,
        'payload_too_large',
        { limit: LIMIT },
      ],
      [
        'an envelope over the limit',
        envelope({ document: oasYaml([]) + `# ${'x'.repeat(LIMIT)}\n` }),
        422,
        'payload_too_large',
        { limit: LIMIT },
      ],
      [
        'YAML that is not an API description',
        { body: 'hello: world\n' },
        422,
        'invalid_document',
        { reason: 'unknown_protocol' },
      ],
      ['a JSON array', { body: '[1, 2, 3]', contentType: JSON_TYPE }, 422, 'invalid_document'],
      [
        'a JSON document that is not an API description',
        { body: '{"name": "not an api"}', contentType: JSON_TYPE },
        422,
        'invalid_document',
        { reason: 'unknown_protocol' },
      ],
      [
        'broken YAML',
        { body: 'openapi: 3.0.3\npaths: {a: [\n' },
        422,
        'invalid_document',
        { reason: 'invalid_syntax', line: expect.any(Number), column: expect.any(Number) },
      ],
      [
        'an OpenAPI version the engine does not read',
        { body: 'openapi: 4.0.0\ninfo: {title: x, version: "1"}\npaths: {}\n' },
        422,
        'invalid_document',
        { reason: 'unsupported_version' },
      ],
      [
        'bytes that are not UTF-8',
        {
          body: Uint8Array.from([
            ...Buffer.from('openapi: 3.0.3\ninfo:\n  title: '),
            0xff,
            0xfe,
            0x0a,
          ]),
        },
        422,
        'invalid_document',
        { reason: 'invalid_encoding' },
      ],
      [
        'a body of blanks only',
        { body: ' \n\n  \n' },
        422,
        'invalid_document',
        { reason: 'empty_document' },
      ],
      [
        'an envelope with an empty document',
        envelope({ document: '' }),
        422,
        'invalid_document',
        { reason: 'empty_document' },
      ],
      [
        'YAML sent as GraphQL',
        { body: oasYaml(['get /other']), contentType: 'application/graphql' },
        422,
        'invalid_document',
      ],
      [
        'GraphQL sent as JSON',
        { body: 'type Query { pets: Int }', contentType: JSON_TYPE },
        400,
        'malformed_request',
      ],
    ]
    for (const [what, request, status, code, details] of refused) {
      it(`answers ${status} ${code} to ${what}, and stores nothing`, async () => {
        await expectStoreUnchanged(hub, async () => {
          const reply = await push(request)
          expect(reply.status, reply.text).toBe(status)
          expect(reply.body.code).toBe(code)
          expect(reply.body.message).toMatch(/[.!?]$/)
          if (details) expect(reply.body.details).toMatchObject(details)
        })
      })
    }

    it('refuses a chunked body over the limit while it streams, and stores nothing', async () => {
      await expectStoreUnchanged(hub, async () => {
        const chunk = new TextEncoder().encode(`# ${'x'.repeat(8 * 1024)}\n`)
        let sent = 0
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent > 64 * LIMIT) return controller.close()
            sent += chunk.byteLength
            controller.enqueue(chunk)
          },
        })
        const reply = await call(`${hub.url}/v1/apis/acme/private/revisions`, {
          method: 'POST',
          token: people.alice,
          headers: { 'content-type': YAML },
          body: stream,
          duplex: 'half',
        })
        expect(reply.status).toBe(422)
        expect(reply.body).toMatchObject({ code: 'payload_too_large', details: { limit: LIMIT } })
      })
    })

    it('checks who is pushing before it reads the document', async () => {
      const reply = await push({ token: (p) => p.nora, contentType: 'text/plain', body: 'x' })
      expect(reply.status).toBe(404)
      const scope = await push({ token: (p) => p.aliceReadOnly, contentType: 'text/plain' })
      expect(scope.status).toBe(403)
    })

    it('stores a document with parse issues: they are counted, not refused', async () => {
      const document = [
        'openapi: 3.0.3',
        "info: {title: x, version: '1'}",
        'paths:',
        '  /pets:',
        '    get:',
        '      responses:',
        "        '200':",
        '          description: ok',
        '          content:',
        '            application/json:',
        "              schema: {$ref: '#/components/schemas/Missing'}",
        '',
      ].join('\n')
      const reply = await push({ api: 'acme/public', body: document })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.revision.parseIssues.error).toBeGreaterThanOrEqual(1)
    })
  })
}
