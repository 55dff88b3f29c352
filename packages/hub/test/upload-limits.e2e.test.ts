import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from './support/databases.js'
import { seedPeople, type People } from './support/fixtures.js'
import { startHub, type HubProcess } from './support/hub-process.js'
import { call, manifest, publishForm, streamBody, type UploadFile } from './support/http.js'
import { expectStoreUnchanged } from './support/store-snapshot.js'

const BUNDLE = 'export {}\n'

/** A multipart body written by hand, so that tests can send what no form library would. */
function rawMultipart(
  parts: { name: string; filename?: string; encodedFilename?: string; content: string }[],
  boundary = 'XyZ',
) {
  const body = parts
    .map(
      (p) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"` +
        (p.filename === undefined ? '' : `; filename="${p.filename}"`) +
        (p.encodedFilename === undefined ? '' : `; filename*=utf-8''${p.encodedFilename}`) +
        `\r\n\r\n${p.content}\r\n`,
    )
    .join('')
  return {
    body: `${body}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

for (const kind of await storeKinds()) {
  describe(`publish uploads that are malformed, hostile or too large (${kind})`, () => {
    let hub: HubProcess
    let people: People
    const url = () => `${hub.url}/v1/stacks/alice/tools/versions`
    const send = (body: string | Buffer | FormData, contentType?: string) =>
      call(url(), {
        method: 'POST',
        token: people.alice,
        body,
        ...(contentType ? { headers: { 'content-type': contentType } } : {}),
      })
    const good = (): { name: string; filename?: string; content: string }[] => [
      { name: 'version', content: '1.0.0' },
      { name: 'bundle', filename: 'server.js', content: BUNDLE },
      { name: 'files', filename: 'deno.json', content: JSON.stringify({ name: '@alice/tools' }) },
    ]

    beforeAll(async () => {
      hub = await startHub(kind, {
        env: {
          SVC_HUB_MAX_BUNDLE_BYTES: String(64 * 1024),
          SVC_HUB_MAX_FILE_BYTES: '1000',
          SVC_HUB_MAX_SOURCE_BYTES: '3000',
          SVC_HUB_MAX_FILES: '5',
          // More publishes than the limiter's 30 a minute: this file is about what a body holds.
          SVC_HUB_RATE_LIMITS: 'off',
        },
      })
      people = await seedPeople(hub)
    })
    afterAll(() => hub?.dispose())

    it('accepts the parts in any order', async () => {
      const parts = good().reverse()
      const { body, contentType } = rawMultipart(parts)
      const reply = await send(body, contentType)
      expect(reply.status).toBe(201)
      expect(reply.body).toMatchObject({ version: '1.0.0', sourceFileCount: 1 })
    })

    const refused: [number, string, string, () => { body: string; contentType: string }][] = [
      [
        400,
        'malformed_request',
        'a body that is not multipart at all',
        () => ({ body: 'hello', contentType: 'multipart/form-data; boundary=XyZ' }),
      ],
      [
        400,
        'malformed_request',
        'a multipart content type without a boundary',
        () => ({
          body: rawMultipart(good()).body,
          contentType: 'multipart/form-data; charset=utf-8',
        }),
      ],
      [
        400,
        'malformed_request',
        'a body cut off in the middle of a part',
        () => {
          const { body, contentType } = rawMultipart(good())
          return { body: body.slice(0, body.length - 40), contentType }
        },
      ],
      [
        415,
        'unsupported_media_type',
        'a JSON body',
        () => ({ body: '{"version":"1.0.0"}', contentType: 'application/json' }),
      ],
      [
        422,
        'duplicate_part',
        'the version part twice',
        () => rawMultipart([{ name: 'version', content: '2.0.0' }, ...good()]),
      ],
      [
        422,
        'duplicate_part',
        'the bundle part twice',
        () => rawMultipart([...good(), { name: 'bundle', filename: 'server.js', content: 'x' }]),
      ],
      [
        422,
        'invalid_request',
        'an unknown part',
        () => rawMultipart([...good(), { name: 'extra', content: 'x' }]),
      ],
      [
        422,
        'invalid_request',
        'a files part without a file name',
        () => rawMultipart([...good(), { name: 'files', content: 'x' }]),
      ],
      [
        422,
        'payload_too_large',
        'a version longer than a text field may be',
        () => rawMultipart([{ name: 'version', content: '1'.repeat(2000) }, ...good().slice(1)]),
      ],
    ]
    for (const [status, code, what, make] of refused) {
      it(`answers ${status} ${code} to ${what}, and stores nothing`, async () => {
        await expectStoreUnchanged(hub, async () => {
          const { body, contentType } = make()
          const reply = await send(body, contentType)
          expect(reply.status).toBe(status)
          expect(reply.body.code).toBe(code)
        })
      })
    }

    const unsafe: [string, string][] = [
      ['../escape.ts', 'parent segment'],
      ['src/../../escape.ts', 'parent segment'],
      ['/etc/passwd', 'absolute'],
      ['C:/Windows/x', 'absolute'],
      ['src\\mod.ts', 'backslash'],
      ['src/mod\u0001.ts', 'control character'],
      ['invoice\u202Eexe.pdf', 'format character'],
      ['notes\u2028.md', 'format character'],
      ['\u2024\u2024/escape.ts', 'lookalike dots'],
      ['src/\uff0e\uff0e/x.ts', 'lookalike dots'],
      ['./', 'empty'],
    ]
    for (const [path, reason] of unsafe) {
      it(`refuses the file name ${JSON.stringify(path)} (${reason}) with 422 unsafe_path`, async () => {
        await expectStoreUnchanged(hub, async () => {
          const { body, contentType } = rawMultipart([
            ...good(),
            { name: 'files', encodedFilename: encodeURIComponent(path), content: 'x' },
          ])
          const reply = await send(body, contentType)
          expect(reply.status).toBe(422)
          expect(reply.body).toMatchObject({ code: 'unsafe_path', details: { reason } })
        })
      })
    }

    it('refuses a NUL in a file name: 400 in a raw header, 422 unsafe_path when percent-encoded', async () => {
      await expectStoreUnchanged(hub, async () => {
        const raw = rawMultipart([
          ...good(),
          { name: 'files', filename: 'src/mod\u0000.ts', content: 'x' },
        ])
        const rawReply = await send(raw.body, raw.contentType)
        expect(rawReply.status).toBe(400)
        expect(rawReply.body.code).toBe('malformed_request')
        const encoded = rawMultipart([
          ...good(),
          { name: 'files', encodedFilename: 'src%2Fmod%00.ts', content: 'x' },
        ])
        const encodedReply = await send(encoded.body, encoded.contentType)
        expect(encodedReply.status).toBe(422)
        expect(encodedReply.body).toMatchObject({
          code: 'unsafe_path',
          details: { reason: 'control character' },
        })
      })
    })

    it('refuses a file that is in the upload twice, also when spelled differently', async () => {
      await expectStoreUnchanged(hub, async () => {
        for (const second of ['src/a.ts', './src/a.ts', 'src//a.ts']) {
          const { body, contentType } = rawMultipart([
            ...good(),
            { name: 'files', filename: 'src/a.ts', content: '1' },
            { name: 'files', filename: second, content: '2' },
          ])
          const reply = await send(body, contentType)
          expect(reply.status).toBe(422)
          expect(reply.body).toMatchObject({
            code: 'duplicate_path',
            details: { path: 'src/a.ts' },
          })
        }
      })
    })

    it('stores one spelling of a Unicode name: NFC, so two spellings are one file', async () => {
      await expectStoreUnchanged(hub, async () => {
        const { body, contentType } = rawMultipart([
          ...good(),
          { name: 'files', encodedFilename: encodeURIComponent('caf\u00e9.ts'), content: '1' },
          { name: 'files', encodedFilename: encodeURIComponent('cafe\u0301.ts'), content: '2' },
        ])
        const reply = await send(body, contentType)
        expect(reply.status).toBe(422)
        expect(reply.body).toMatchObject({
          code: 'duplicate_path',
          details: { path: 'caf\u00e9.ts' },
        })
      })
    })

    const tooLarge: [string, () => FormData][] = [
      [
        'a bundle over its limit',
        () =>
          publishForm({
            version: '3.0.0',
            bundle: 'x'.repeat(64 * 1024 + 1),
            files: [manifest('@alice/tools')],
          }),
      ],
      [
        'a source file over its limit',
        () =>
          publishForm({
            version: '3.0.0',
            bundle: BUNDLE,
            files: [manifest('@alice/tools'), { path: 'big.ts', content: 'x'.repeat(1001) }],
          }),
      ],
      [
        'source files over their total',
        () =>
          publishForm({
            version: '3.0.0',
            bundle: BUNDLE,
            files: [
              manifest('@alice/tools'),
              ...Array.from({ length: 4 }, (_, i): UploadFile => ({
                path: `f${i}.ts`,
                content: 'x'.repeat(900),
              })),
            ],
          }),
      ],
      [
        'more files than allowed',
        () =>
          publishForm({
            version: '3.0.0',
            bundle: BUNDLE,
            files: [
              manifest('@alice/tools'),
              ...Array.from({ length: 5 }, (_, i): UploadFile => ({
                path: `f${i}.ts`,
                content: 'x',
              })),
            ],
          }),
      ],
    ]
    for (const [what, form] of tooLarge) {
      it(`answers 422 payload_too_large to ${what}, and stores nothing`, async () => {
        await expectStoreUnchanged(hub, async () => {
          const reply = await send(form())
          expect(reply.status).toBe(422)
          expect(reply.body.code).toBe('payload_too_large')
          expect(reply.body.details.limit).toEqual(expect.any(Number))
        })
      })
    }

    it('refuses a 200 MB upload while it streams, with bounded memory', async () => {
      const rss = async () => {
        const metrics = await call(`${hub.url}/metrics`)
        return Number(/^process_resident_memory_bytes (\d+)/m.exec(metrics.text)?.[1])
      }
      const before = await rss()
      await expectStoreUnchanged(hub, async () => {
        for (const declareLength of [true, false]) {
          const result = await streamUpload(
            `${url()}`,
            people.alice,
            200 * 1024 * 1024,
            declareLength,
          )
          expect(result.status).toBe(422)
          expect(JSON.parse(result.body).code).toBe('payload_too_large')
          // Refused long before the end: at most the limits plus what was in flight.
          expect(result.bytesSent).toBeLessThan(64 * 1024 * 1024)
        }
      })
      expect(await rss()).toBeLessThan(before + 100 * 1024 * 1024)
    })
  })
}

/** A multipart upload whose bundle part is `size` bytes, streamed as {@link streamBody} does. */
function streamUpload(url: string, token: string, size: number, declareLength: boolean) {
  const boundary = 'BigBoundary'
  return streamBody(url, {
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    size,
    declareLength,
    head: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n9.9.9\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="bundle"; filename="server.js"\r\n\r\n`,
    ),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
  })
}
