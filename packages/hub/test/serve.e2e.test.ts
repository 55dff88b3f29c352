import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseApi } from '@svc/engine'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCOPES } from '../src/auth/scopes.js'
import { newSchemaName, postgresUrl, storeKinds, type StoreKind } from './support/databases.js'
import { afterTokenChange } from './support/token-notice.js'
import { HUB_BIN, runNode, startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm } from './support/http.js'

const PAT = /svc_pat_[A-Za-z0-9_-]{43}/g
const GENERATED_ID = /^req_[0-9a-f]{20}$/
/** Log lines of the hub's life rather than of a request. */
const LIFECYCLE = new Set([
  'store ready',
  'listening',
  'outbound guard',
  'shutting down: finishing in-flight requests',
  'stopped',
])
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'])

type LogLine = { msg: string; requestId?: string; [key: string]: unknown }

function logLines(hub: HubProcess): LogLine[] {
  return hub
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine)
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The value of `svc_hub_http_requests_total{labels}` in a Prometheus text page, 0 when absent. */
function requestCount(metrics: string, labels: string): number {
  const prefix = `svc_hub_http_requests_total{${labels}} `
  const line = metrics.split('\n').find((l) => l.startsWith(prefix))
  return line ? Number(line.slice(prefix.length)) : 0
}

const randomPat = () => `svc_pat_${randomBytes(32).toString('base64url')}`

for (const kind of await storeKinds()) {
  describe(`svc-hub serve (${kind})`, () => {
    describe('first start and restart', () => {
      const hubs: HubProcess[] = []
      afterAll(async () => {
        for (const hub of hubs) await hub.dispose()
      })

      it('prints the admin PAT once on an empty store; a restart prints none and the PAT still works', async () => {
        const first = await startHub(kind)
        hubs.push(first)
        expect(first.adminPat).toMatch(/^svc_pat_/)
        expect(first.stderr()).toContain('first start')
        expect(new Set(first.stderr().match(PAT))).toEqual(new Set([first.adminPat]))
        // The token is kept out of the JSON log on stdout.
        expect(first.stdout()).not.toContain('svc_pat_')

        // PORT=0 and no SVC_HUB_PUBLIC_URL: the public URL names the port really bound.
        const port = new URL(first.url).port
        expect(first.stderr()).toContain(`http://localhost:${port}/v1/user`)
        const described = await call(`${first.url}/v1/openapi.json`)
        expect(described.body.servers).toEqual([{ url: `http://localhost:${port}` }])

        const me = await call(`${first.url}/v1/user`, { token: first.adminPat })
        expect(me.status).toBe(200)
        expect(me.body).toEqual({
          id: expect.stringMatching(/^usr_/),
          handle: 'admin',
          kind: 'user',
          organizations: [],
          token: { id: expect.stringMatching(/^tok_/), scopes: expect.any(Array), expiresAt: null },
        })
        expect([...me.body.token.scopes].sort()).toEqual([...SCOPES].sort())

        expect(await first.stop()).toBe(0)
        const second = await startHub(kind, { reuse: first })
        hubs.push(second)
        expect(second.adminPat).toBe('')
        expect(second.stderr()).not.toContain('svc_pat_')
        expect(second.stderr()).not.toContain('first start')

        const again = await call(`${second.url}/v1/user`, { token: first.adminPat })
        expect(again.status).toBe(200)
        expect(again.body).toEqual(me.body)

        const store = await second.openStore()
        try {
          const accounts = await store.kysely.selectFrom('accounts').select('handle').execute()
          const tokens = await store.kysely.selectFrom('tokens').select('id').execute()
          expect(accounts).toEqual([{ handle: 'admin' }])
          expect(tokens).toEqual([{ id: me.body.token.id }])
        } finally {
          await store.close()
        }
      })
    })

    describe('a running hub', () => {
      let hub: HubProcess
      beforeAll(async () => {
        hub = await startHub(kind)
      })
      afterAll(() => hub?.dispose())

      it('answers /healthz and /readyz with 200 and no token', async () => {
        const health = await call(`${hub.url}/healthz`)
        expect(health.status).toBe(200)
        // The hub's version: the CLI it serves at /downloads/svc-cli.tgz is the same one.
        const { version } = JSON.parse(
          readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
        ) as { version: string }
        expect(health.body).toEqual({ status: 'ok', version })
        const ready = await call(`${hub.url}/readyz`)
        expect(ready.status).toBe(200)
        expect(ready.body).toEqual({ status: 'ready' })
        // Outside /v1 a bad credential is not even looked at.
        const withBadToken = await call(`${hub.url}/healthz`, { token: 'nope' })
        expect(withBadToken.status).toBe(200)
      })

      it('serves Prometheus metrics that count requests by route pattern, not raw path', async () => {
        const before = (await call(`${hub.url}/metrics`)).text
        const route = 'method="GET",route="/v1/stacks/:account/:slug",status="404"'
        const unmatched = 'method="GET",route="unmatched",status="404"'
        const page = 'method="GET",route="page",status="404"'
        const metricsRoute = 'method="GET",route="/metrics",status="200"'
        for (const slug of ['metric-one', 'metric-two', 'metric-three']) {
          const reply = await call(`${hub.url}/v1/stacks/admin/${slug}`, { token: hub.adminPat })
          expect(reply.status).toBe(404)
        }
        for (const path of ['/no-such-path-1', '/v1/no-such-path-2']) {
          expect((await call(`${hub.url}${path}`)).status).toBe(404)
        }

        const reply = await call(`${hub.url}/metrics`)
        expect(reply.status).toBe(200)
        expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
        const after = reply.text
        expect(after).toContain('# TYPE svc_hub_http_requests_total counter')
        expect(after).toContain('# TYPE svc_hub_http_request_duration_seconds histogram')
        expect(requestCount(after, route) - requestCount(before, route)).toBe(3)
        expect(requestCount(after, unmatched) - requestCount(before, unmatched)).toBe(1)
        // Every path outside /v1 is a page of the web app: one label for all of them.
        expect(requestCount(after, page) - requestCount(before, page)).toBe(1)
        expect(requestCount(after, metricsRoute) - requestCount(before, metricsRoute)).toBe(1)
        expect(after).toMatch(
          /^svc_hub_http_request_duration_seconds_count\{method="GET",route="\/v1\/stacks\/:account\/:slug"\} \d+$/m,
        )
        // No raw path becomes a label value.
        for (const raw of ['metric-one', 'metric-two', 'no-such-path', '/v1/stacks/admin']) {
          expect(after).not.toContain(raw)
        }
        // prom-client's default process metrics are there too.
        expect(after).toContain('process_cpu_user_seconds_total')
      })

      it('gives every response an X-Request-Id, echoes a safe incoming one and stamps it on the log', async () => {
        const replies = await Promise.all([
          call(`${hub.url}/healthz`),
          call(`${hub.url}/readyz`),
          call(`${hub.url}/metrics`),
          call(`${hub.url}/v1/openapi.json`),
          call(`${hub.url}/v1/user`, { token: hub.adminPat }),
          call(`${hub.url}/v1/user`),
          call(`${hub.url}/nothing-here`),
          call(`${hub.url}/v1/user`, { method: 'DELETE', token: hub.adminPat }),
        ])
        const generated = replies.map((reply) => reply.headers.get('x-request-id'))
        for (const id of generated) expect(id).toMatch(GENERATED_ID)
        expect(new Set(generated).size).toBe(generated.length)

        const safe = `client.id_1:2-${randomBytes(4).toString('hex')}`
        const echoed = await call(`${hub.url}/v1/user`, { headers: { 'x-request-id': safe } })
        expect(echoed.status).toBe(401)
        expect(echoed.headers.get('x-request-id')).toBe(safe)
        expect(echoed.body.requestId).toBe(safe)
        const echoedOk = await call(`${hub.url}/healthz`, { headers: { 'x-request-id': safe } })
        expect(echoedOk.headers.get('x-request-id')).toBe(safe)

        for (const unsafe of ['has space', 'a/b', 'x'.repeat(129), '']) {
          const reply = await call(`${hub.url}/v1/nowhere`, { headers: { 'x-request-id': unsafe } })
          const id = reply.headers.get('x-request-id')
          expect(id).toMatch(GENERATED_ID)
          expect(reply.body.requestId).toBe(id)
        }

        const ids = [...generated, safe] as string[]
        const lines = await until('the request log lines', () => {
          const lines = logLines(hub)
          const logged = new Set(lines.filter((l) => l.msg === 'request').map((l) => l.requestId))
          return ids.every((id) => logged.has(id)) ? lines : undefined
        })
        for (const line of lines) {
          if (LIFECYCLE.has(line.msg)) continue
          expect(line, `log line ${JSON.stringify(line)}`).toHaveProperty('requestId')
          expect(typeof line.requestId).toBe('string')
        }
        const safeLines = lines.filter((l) => l.requestId === safe)
        expect(safeLines.map((l) => [l.msg, l.path, l.status])).toEqual([
          ['request', '/v1/user', 401],
          ['request', '/healthz', 200],
        ])
        expect(hub.stdout()).not.toContain('has space')
      })

      it('says X-Content-Type-Options: nosniff on every answer: downloads, JSON, errors, probes, pages', async () => {
        const published = await call(`${hub.url}/v1/stacks/admin/sniff/versions`, {
          method: 'POST',
          token: hub.adminPat,
          body: publishForm({
            version: '1.0.0',
            // A bundle a browser would take for a page if it guessed the type from the bytes.
            bundle: '<html><script>alert(1)</script>',
            files: [manifest('@admin/sniff')],
          }),
        })
        expect(published.status).toBe(201)
        const replies = await Promise.all([
          call(`${hub.url}/v1/stacks/admin/sniff/versions/1.0.0/bundle`, { token: hub.adminPat }),
          call(`${hub.url}/v1/stacks/admin/sniff/versions/1.0.0/files/deno.json`, {
            token: hub.adminPat,
          }),
          call(`${hub.url}/v1/user`, { token: hub.adminPat }),
          call(`${hub.url}/v1/user`),
          call(`${hub.url}/v1/nowhere`),
          call(`${hub.url}/v1/openapi.json`),
          call(`${hub.url}/healthz`),
          call(`${hub.url}/metrics`),
          call(`${hub.url}/signin`),
        ])
        expect(replies[0].text).toBe('<html><script>alert(1)</script>')
        for (const reply of replies) {
          expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
        }
      })

      it("answers an unknown /v1 route with the 404 not_found envelope, any other path with the web app's 404 page", async () => {
        for (const path of ['/nope', '/v2/user']) {
          const reply = await call(`${hub.url}${path}`, { token: hub.adminPat })
          expect(reply.status, path).toBe(404)
          expect(reply.headers.get('content-type')).toMatch(/^text\/html/)
          expect(reply.text).toContain('<h1>Not found</h1>')
        }
        for (const [method, path, token] of [
          ['GET', '/v1/nope/deeper', hub.adminPat],
          ['POST', '/v1/user', hub.adminPat],
          ['GET', '/v1', undefined],
        ] as const) {
          const reply = await call(`${hub.url}${path}`, { method, token })
          expect(reply.status, `${method} ${path}`).toBe(404)
          expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
          expect(reply.body).toEqual({
            code: 'not_found',
            message: expect.stringContaining(path),
            requestId: reply.headers.get('x-request-id'),
          })
        }
      })

      it('describes /v1 as an OpenAPI 3.1 document with no error-level issue and ApiError errors', async () => {
        const reply = await call(`${hub.url}/v1/openapi.json`)
        expect(reply.status).toBe(200)
        const document = reply.body
        expect(document.openapi).toBe('3.1.0')

        const { parseIssues, source } = await parseApi({
          text: reply.text,
          origin: `${hub.url}/v1/openapi.json`,
        })
        expect(source.version).toBe('3.1.0')
        expect(parseIssues.filter((issue) => issue.level === 'error')).toEqual([])

        const apiError = document.components.schemas.ApiError
        expect(apiError.type).toBe('object')
        expect([...apiError.required].sort()).toEqual(['code', 'message', 'requestId'])
        expect(apiError.properties.code.enum).toContain('unauthorized')

        const operations = Object.entries(document.paths as Record<string, any>).flatMap(
          ([path, item]) =>
            Object.entries(item as Record<string, any>)
              .filter(([method]) => HTTP_METHODS.has(method))
              .map(([method, operation]) => ({ name: `${method} ${path}`, path, operation })),
        )
        expect(operations.map((o) => o.name)).toContain('get /v1/user')
        expect(operations.length).toBeGreaterThan(5)
        for (const { name, path, operation } of operations) {
          // Besides /v1, only the CLI's download, which needs no token.
          expect(path, name).toMatch(/^\/(v1|downloads)\//)
          const errors = Object.entries(operation.responses as Record<string, any>).filter(
            ([status]) => status === 'default' || Number(status) >= 400,
          )
          expect(errors.length, `${name} declares error responses`).toBeGreaterThan(0)
          // A secured operation documents 401, or the envelope as its `default` (the libraries).
          if (operation.security?.length)
            expect(Object.keys(operation.responses), name).toEqual(
              expect.arrayContaining([expect.stringMatching(/^(401|default)$/)]),
            )
          for (const [status, response] of errors) {
            expect(response.content, `${name} ${status}`).toEqual({
              'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
            })
          }
        }
      })

      describe('authentication on GET /v1/user', () => {
        const expectUnauthorized = async (
          reason: string,
          headers: Record<string, string> = {},
        ): Promise<void> => {
          const reply = await call(`${hub.url}/v1/user`, { headers })
          expect(reply.status, `${reason}: ${reply.text}`).toBe(401)
          expect(reply.body).toEqual({
            code: 'unauthorized',
            message: expect.any(String),
            details: { reason },
            requestId: reply.headers.get('x-request-id'),
          })
          expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="svc-hub"')
        }
        const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
        const expectRefusedSoon = async (reason: string, token: string): Promise<void> => {
          await afterTokenChange(kind, () => call(`${hub.url}/v1/user`, { headers: bearer(token) }))
          await expectUnauthorized(reason, bearer(token))
        }

        it('refuses a request without a token (missing)', async () => {
          await expectUnauthorized('missing')
        })

        it('refuses a header that is not Bearer <PAT> (malformed)', async () => {
          for (const header of [
            'Basic x',
            'Bearer nope',
            'Bearer',
            `Bearer ${hub.adminPat} extra`,
            `Token ${hub.adminPat}`,
            `Bearer ${hub.adminPat.slice(0, -1)}`,
            `Bearer svc_key_${randomBytes(32).toString('base64url')}`,
          ]) {
            await expectUnauthorized('malformed', { authorization: header })
          }
        })

        it('accepts the scheme word in any case', async () => {
          const reply = await call(`${hub.url}/v1/user`, {
            headers: { authorization: `bearer ${hub.adminPat}` },
          })
          expect(reply.status).toBe(200)
        })

        it('refuses a well-formed PAT that does not exist (unknown)', async () => {
          await expectUnauthorized('unknown', bearer(randomPat()))
        })

        it('refuses a revoked PAT (revoked)', async () => {
          const created = await hub.admin(['create-token', 'admin', '--scopes', 'read', '--json'])
          expect(created.code, created.stderr).toBe(0)
          const { id, token } = JSON.parse(created.stdout) as { id: string; token: string }
          expect((await call(`${hub.url}/v1/user`, { token })).status).toBe(200)

          const revoked = await hub.admin(['revoke-token', id])
          expect(revoked.code, revoked.stderr).toBe(0)
          await expectRefusedSoon('revoked', token)
        })

        it('refuses an expired PAT (expired)', async () => {
          const created = await hub.admin([
            'create-token',
            'admin',
            '--scopes',
            'read',
            '--expires',
            '1',
            '--json',
          ])
          expect(created.code, created.stderr).toBe(0)
          const { id, token } = JSON.parse(created.stdout) as { id: string; token: string }
          expect((await call(`${hub.url}/v1/user`, { token })).status).toBe(200)

          const store = await hub.openStore()
          try {
            const past = new Date(Date.now() - 60_000).toISOString()
            const updated = await store.kysely
              .updateTable('tokens')
              .set({ expires_at: past })
              .where('id', '=', id)
              .executeTakeFirst()
            expect(Number(updated.numUpdatedRows)).toBe(1)
          } finally {
            await store.close()
          }
          await expectRefusedSoon('expired', token)
        })

        it('refuses a bad credential on /v1/openapi.json too, but not a missing one', async () => {
          expect((await call(`${hub.url}/v1/openapi.json`)).status).toBe(200)
          const reply = await call(`${hub.url}/v1/openapi.json`, { token: randomPat() })
          expect(reply.status).toBe(401)
          expect(reply.body.details).toEqual({ reason: 'unknown' })
        })
      })
    })

    it('finishes a slow request in flight on SIGTERM, refuses new connections and exits 0', async () => {
      const hub = await startHub(kind)
      try {
        const boundary = `svc-test-${randomBytes(8).toString('hex')}`
        const part = (name: string, content: string, filename?: string) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
          `${filename ? `; filename="${filename}"` : ''}\r\n\r\n${content}\r\n`
        // The body is sent in two halves: the second only once the hub is shutting down.
        const head =
          part('version', '1.0.0') +
          `--${boundary}\r\nContent-Disposition: form-data; name="bundle"; filename="server.js"\r\n\r\n` +
          'export default { fetch() { return new Response("ok") } }\n'
        const tail =
          '// the rest of the bundle\n\r\n' +
          part('files', JSON.stringify({ name: '@admin/slow', imports: {} }), 'deno.json') +
          `--${boundary}--\r\n`

        // A keep-alive agent: the shutdown must not wait for the idle connection to time out.
        const agent = new http.Agent({ keepAlive: true })
        let continued!: () => void
        const serverHasRequest = new Promise<void>((resolve) => (continued = resolve))
        const request = http.request(`${hub.url}/v1/stacks/admin/slow/versions`, {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${hub.adminPat}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': Buffer.byteLength(head) + Buffer.byteLength(tail),
            // The hub answers `100 Continue` once it has the request: then it is surely in flight.
            expect: '100-continue',
          },
        })
        request.on('continue', () => continued())
        const response = new Promise<{
          status: number
          headers: http.IncomingHttpHeaders
          body: string
        }>((resolve, reject) => {
          request.on('error', reject)
          request.on('response', (res) => {
            let body = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => (body += chunk))
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
            res.on('error', reject)
          })
        })
        request.flushHeaders()
        await serverHasRequest
        request.write(head)
        await new Promise((resolve) => setTimeout(resolve, 100))

        const exited = hub.stop()
        await until('the shutdown log line', () =>
          logLines(hub).some((l) => l.msg.startsWith('shutting down')) ? true : undefined,
        )
        // The listening socket is closed: a new connection is refused.
        await expect(fetch(`${hub.url}/healthz`)).rejects.toThrow()

        request.end(tail)
        const answer = await response
        const answeredAt = Date.now()
        expect(answer.status, answer.body).toBe(201)
        expect(JSON.parse(answer.body)).toMatchObject({
          stack: { account: 'admin', slug: 'slow' },
          version: '1.0.0',
        })
        expect(answer.headers.connection).toBe('close')

        expect(await exited).toBe(0)
        // Well before the 5 s keep-alive timeout of an idle connection.
        expect(Date.now() - answeredAt).toBeLessThan(4000)
        agent.destroy()

        const messages = logLines(hub).map((l) => l.msg)
        const shutdown = messages.findIndex((m) => m.startsWith('shutting down'))
        const answered = logLines(hub).findIndex(
          (l) => l.msg === 'request' && l.path === '/v1/stacks/admin/slow/versions',
        )
        expect(shutdown).toBeGreaterThan(-1)
        expect(answered).toBeGreaterThan(shutdown)
        expect(messages.at(-1)).toBe('stopped')
        expect(messages).not.toContain(
          'in-flight requests did not finish in time; closing their connections',
        )

        const store = await hub.openStore()
        try {
          const versions = await store.kysely
            .selectFrom('stack_versions')
            .select('version')
            .execute()
          expect(versions).toEqual([{ version: '1.0.0' }])
        } finally {
          await store.close()
        }
      } finally {
        await hub.dispose()
      }
    })

    it('keep-alive clients sending through SIGTERM get complete answers, or a refused connection before a request is written; exit 0', async () => {
      const hub = await startHub(kind)
      const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS })
      try {
        // What a clean close means for an HTTP/1.1 client: every request written is answered in
        // full (the last on each connection with `Connection: close`); after that, a new
        // connection is refused, before anything was written. Never a reset or a connection
        // closed on a request already sent (`ECONNRESET`, `socket hang up`).
        const outcomes: string[] = []
        let answered = 0
        let stopping = false
        const client = async () => {
          for (;;) {
            const outcome = await get(agent, `${hub.url}/healthz`)
            if (outcome !== 'ok' || stopping) outcomes.push(outcome)
            if (outcome !== 'ok') return
            answered++
          }
        }
        const clients = Array.from({ length: CLIENTS }, client)
        await until('requests flowing', () => (answered > 200 ? true : undefined))
        stopping = true
        const exited = hub.stop()
        await Promise.all(clients)
        expect(await exited).toBe(0)
        expect(new Set(outcomes)).toEqual(new Set(['ok', 'ECONNREFUSED']))
        expect(outcomes.filter((o) => o === 'ECONNREFUSED')).toHaveLength(CLIENTS)
      } finally {
        agent.destroy()
        await hub.dispose()
      }
    })

    describe('invalid configuration', () => {
      let dataDir: string
      let schema: string
      beforeAll(() => {
        dataDir = mkdtempSync(join(tmpdir(), 'svc-hub-config-'))
        schema = newSchemaName()
      })
      afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

      const serve = (env: NodeJS.ProcessEnv) => {
        const base: NodeJS.ProcessEnv = {
          ...process.env,
          NO_COLOR: '1',
          PORT: '0',
          HOST: '127.0.0.1',
          SVC_HUB_DATA: dataDir,
          ...storeEnv(kind, schema),
        }
        if (kind === 'sqlite') delete base.DATABASE_URL
        return runNode([HUB_BIN, 'serve'], { ...base, ...env })
      }

      it.each([
        [{ PORT: 'abc' }, "error: PORT must be a non-negative integer, got 'abc'"],
        [{ PORT: '-1' }, "error: PORT must be a non-negative integer, got '-1'"],
        [{ PORT: '70000' }, "error: PORT must be from 0 to 65535, got '70000'"],
        [
          { DATABASE_URL: 'mysql://x' },
          'error: DATABASE_URL must be a postgres:// or postgresql:// URL',
        ],
        [
          { SVC_HUB_PUBLIC_URL: 'hub.example.com' },
          "error: SVC_HUB_PUBLIC_URL must be an absolute URL, got 'hub.example.com'",
        ],
        [
          { SVC_HUB_MAX_FILES: '1.5' },
          "error: SVC_HUB_MAX_FILES must be a non-negative integer, got '1.5'",
        ],
        [
          { SVC_HUB_SIGNUP: 'maybe' },
          "error: SVC_HUB_SIGNUP must be 'open' or 'closed', got 'maybe'",
        ],
      ])(
        '%o stops the hub before it opens anything: exit 1 and one error line',
        async (env, line) => {
          const run = await serve(env)
          expect(run.code, run.stderr).toBe(1)
          expect(run.stderr).toBe(`${line}\n`)
          expect(run.stdout).toBe('')
          expect(readdirSync(dataDir)).toEqual([])
          if (kind === 'postgres') expect(await schemaExists(schema)).toBe(false)
        },
      )

      if (kind === 'postgres') {
        it('refuses a schema name that is not [a-z_][a-z0-9_]*', async () => {
          const run = await serve({ SVC_HUB_DATABASE_SCHEMA: 'Bad-Schema' })
          expect(run.code, run.stderr).toBe(1)
          expect(run.stderr).toBe(
            "error: database schema 'Bad-Schema' must match [a-z_][a-z0-9_]*\n",
          )
        })
      }
    })
  })
}

function storeEnv(kind: StoreKind, schema: string): NodeJS.ProcessEnv {
  return kind === 'postgres' ? { DATABASE_URL: postgresUrl(), SVC_HUB_DATABASE_SCHEMA: schema } : {}
}

async function schemaExists(schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl() })
  await client.connect()
  try {
    const { rows } = await client.query(
      'select 1 from information_schema.schemata where schema_name = $1',
      [schema],
    )
    return rows.length > 0
  } finally {
    await client.end()
  }
}

/** Connections of the keep-alive test: each sends its next request as soon as it is answered. */
const CLIENTS = 16

/**
 * GET `url` on `agent`: `ok` for a complete 200, else what went wrong (`ECONNREFUSED`, a status,
 * `ECONNRESET`, `socket hang up` …).
 */
function get(agent: http.Agent, url: string): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () =>
        resolve(response.statusCode === 200 && body !== '' ? 'ok' : `${response.statusCode}`),
      )
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    })
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}
