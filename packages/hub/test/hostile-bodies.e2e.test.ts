import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, streamBody } from './support/http.js'
import { rawRequest, type Framing } from './support/raw-http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'
import { seedUploadTargets, type UploadTargets } from './support/upload-targets.js'
import { WebSession } from './support/web-session.js'

/** The body that ended the hub: a `files` part that stops without its closing boundary. */
const CUT_PART = Buffer.from(
  '--B\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nxx',
)
const MULTIPART = 'multipart/form-data; boundary=B'
const ENDED: Framing = { kind: 'chunked', cuts: [20, 50], ending: '0\r\n\r\n' }

/**
 * Bodies that once ended or swelled the hub: each is answered with its documented error (or, for
 * a client that leaves, with nothing), the store is unchanged, and the hub goes on answering.
 * The support's exit check fails any test during which the hub process ends.
 */
for (const kind of await storeKinds()) {
  describe(`hostile request bodies (${kind})`, () => {
    let hub: HubProcess
    let targets: UploadTargets
    const healthy = async () => expect((await call(`${hub.url}/healthz`)).status).toBe(200)

    beforeAll(async () => {
      hub = await startHub(kind)
      targets = await seedUploadTargets(hub)
    })
    afterAll(() => hub?.dispose())

    it('a refusal given before the body is read closes its connection: a pooled client loses nothing', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      const send = (
        path: string,
        method: string,
        headers: http.OutgoingHttpHeaders,
        body?: Buffer,
      ) =>
        new Promise<{ status?: number; connection?: string }>((resolve, reject) => {
          const request = http.request(`${hub.url}${path}`, { method, agent, headers }, (res) => {
            res.resume()
            res.on('end', () =>
              resolve({ status: res.statusCode, connection: res.headers.connection }),
            )
          })
          request.on('error', reject)
          request.end(body)
        })
      const body = Buffer.alloc(4 * 1024 * 1024, 'a')
      const refused = await send(
        targets.publish,
        'POST',
        {
          authorization: 'Bearer svc_pat_not_a_token',
          'content-type': MULTIPART,
          'content-length': body.length,
        },
        body,
      )
      expect(refused).toEqual({ status: 401, connection: 'close' })
      expect((await send('/healthz', 'GET', {})).status).toBe(200)
      agent.destroy()
    })

    for (const route of ['publish', 'baseFiles'] as const) {
      for (const framing of [{ kind: 'length' } as const, ENDED]) {
        it(`${route}: a file part cut off before its boundary (${framing.kind}) is 400 malformed_request`, async () => {
          await expectStoreUnchanged(hub, async () => {
            const answer = await rawRequest(hub.url, {
              method: route === 'publish' ? 'POST' : 'PUT',
              path: targets[route],
              headers: { authorization: `Bearer ${targets.pat}`, 'content-type': MULTIPART },
              body: CUT_PART,
              framing,
            })
            expect(answer.status).toBe(400)
            expect(answer.status && JSON.parse(answer.body)).toMatchObject({
              code: 'malformed_request',
              message: expect.stringContaining('Unexpected end of form'),
            })
          })
          await healthy()
        })
      }
    }

    it('a client that leaves in the middle of any body does not end the hub', async () => {
      const bearer = { authorization: `Bearer ${targets.pat}` }
      const page = await targets.session.get(targets.uploadPage)
      expect(page.status).toBe(200)
      await expectStoreUnchanged(hub, async () => {
        const cases = [
          ['POST', targets.publish, { ...bearer, 'content-type': MULTIPART }, CUT_PART],
          ['PUT', targets.baseFiles, { ...bearer, 'content-type': MULTIPART }, CUT_PART],
          ['POST', targets.revisions, { ...bearer, 'content-type': 'application/json' }, '{"op'],
          ['PUT', targets.clientConfig, { ...bearer, 'content-type': 'application/json' }, '{'],
          [
            'POST',
            targets.uploadPage,
            {
              cookie: `svc_session=${targets.session.cookie('svc_session')}`,
              origin: hub.url,
              'content-type': MULTIPART,
            },
            `--B\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${targets.session.csrf}\r\n${CUT_PART}`,
          ],
        ] as const
        for (const [method, path, headers, body] of cases) {
          const answer = await rawRequest(hub.url, {
            method,
            path,
            headers,
            body: Buffer.from(body),
            framing: { kind: 'gone', declared: 1024 * 1024 },
          })
          expect(answer.status).toBeUndefined()
          await healthy()
        }
      })
    })

    it('an upload page form that is no valid multipart body is 400, not 500', async () => {
      await targets.session.get(targets.uploadPage)
      await expectStoreUnchanged(hub, async () => {
        const answer = await rawRequest(hub.url, {
          method: 'POST',
          path: targets.uploadPage,
          headers: {
            cookie: `svc_session=${targets.session.cookie('svc_session')}`,
            origin: hub.url,
            'content-type': MULTIPART,
          },
          body: Buffer.from(
            `--B\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${targets.session.csrf}\r\n${CUT_PART}`,
          ),
          framing: { kind: 'length' },
        })
        expect(answer.status).toBe(400)
        expect(answer.status && answer.body).toContain('Unreadable form')
      })
      await healthy()
    })

    it('a JSON body over the limit is refused before the client has sent it, and the connection ends', async () => {
      await expectStoreUnchanged(hub, async () => {
        for (const declareLength of [true, false]) {
          const answer = await streamBody(`${hub.url}/v1/apis`, {
            headers: { authorization: `Bearer ${targets.pat}`, 'content-type': 'application/json' },
            head: Buffer.from('{"description":"'),
            size: 64 * MiB,
            declareLength,
          })
          expect({ declareLength, status: answer.status }).toEqual({ declareLength, status: 422 })
          expect(JSON.parse(answer.body)).toMatchObject({
            code: 'payload_too_large',
            details: { limit: 1024 * 1024 },
          })
          expect(answer.headers.connection).toBe('close')
          // Answered long before the end, and before 16 MiB (what the hub once read and dropped
          // first): past the limit it reads no more. The rest of the margin is socket buffers.
          expect(answer.bytesSent).toBeLessThan(12 * MiB)
        }
      })
      await healthy()
    })

    it('bodies of callers who may not send them are refused unread: 3 × 30 MiB at once add < 50 MB', async () => {
      const stranger = new WebSession(hub.url)
      await stranger.signUp('stranger')
      const origin = { origin: hub.url }
      const refused: { path: string; headers: Record<string, string>; status: number }[] = [
        // Signed out, on the upload page: sent to sign in.
        { path: '/nobody/apis/x/revisions/new', headers: origin, status: 303 },
        { path: targets.uploadPage, headers: origin, status: 303 },
        // Signed out, any other form: only a small one is read.
        { path: '/signin', headers: origin, status: 413 },
        // Signed in, but not allowed to write where the upload goes.
        {
          path: targets.uploadPage,
          headers: { ...origin, cookie: `svc_session=${stranger.cookie('svc_session')}` },
          status: 404,
        },
        // From another site.
        {
          path: targets.uploadPage,
          headers: {
            origin: 'https://evil.example',
            cookie: `svc_session=${targets.session.cookie('svc_session')}`,
          },
          status: 403,
        },
        // The API without a token, and with one that may not write there.
        { path: targets.revisions, headers: {}, status: 401 },
        {
          path: '/v1/apis/stranger/nothing/revisions',
          headers: { authorization: `Bearer ${targets.pat}` },
          status: 404,
        },
      ]
      await expectStoreUnchanged(hub, async () => {
        for (const declareLength of [true, false]) {
          const before = await residentBytes(hub.url)
          let peak = before
          const sampling = setInterval(() => {
            void residentBytes(hub.url).then((bytes) => (peak = Math.max(peak, bytes)))
          }, 50)
          try {
            for (const target of refused) {
              const answers = await Promise.all(
                [1, 2, 3].map(() =>
                  streamBody(`${hub.url}${target.path}`, {
                    headers: {
                      ...target.headers,
                      'content-type': 'multipart/form-data; boundary=B',
                    },
                    size: 30 * MiB,
                    declareLength,
                  }),
                ),
              )
              for (const answer of answers) {
                expect({ path: target.path, status: answer.status }).toEqual({
                  path: target.path,
                  status: target.status,
                })
              }
            }
          } finally {
            clearInterval(sampling)
          }
          peak = Math.max(peak, await residentBytes(hub.url))
          expect(peak - before).toBeLessThan(50 * 1000 * 1000)
        }
      })
      await healthy()
    })
  })
}

const MiB = 1024 * 1024

async function residentBytes(origin: string): Promise<number> {
  const metrics = await call(`${origin}/metrics`)
  return Number(/^process_resident_memory_bytes (\d+)/m.exec(metrics.text)?.[1])
}
