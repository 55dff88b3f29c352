import { describe, expect, it } from 'vitest'
import { requestFrame, type RunRequest } from './request-frame.js'

/** The frame's head and its body as one string. */
async function frame(request: RunRequest) {
  const [head, ...body] = await requestFrame(4321, request)
  return { head: JSON.parse(head!.toString('utf8')), body: Buffer.concat(body) }
}

describe('requestFrame', () => {
  it('sends the bytes of JSON.stringify(request), however long the document', async () => {
    // Over two slices of a million characters, with quotes, escapes, non-ASCII and emoji
    // (a surrogate pair) at every slice boundary the repetition brings.
    const unit = 'paths:\n  "/pets": { summary: "Café ☕ \\ \t 😀" }\n'
    for (const schema of [
      '',
      'openapi: 3.1.0',
      unit.repeat(60_000),
      `${'x'.repeat(1024 * 1024 - 1)}😀`,
    ]) {
      const request: RunRequest = {
        schema,
        protocol: 'oas',
        clientSettings: { enrichments: { 'gen-zod': { Pet: { note: 'é' } } } },
      }
      const { head, body } = await frame(request)
      const expected = Buffer.from(JSON.stringify(request))
      expect(Buffer.compare(body, expected)).toBe(0)
      expect(head).toEqual({ port: 4321, bytes: expected.byteLength })
    }
  })

  it('keeps a lone surrogate as JSON.stringify escapes it', async () => {
    const request: RunRequest = { schema: 'a\ud800b', protocol: 'gql', clientSettings: {} }
    expect((await frame(request)).body.toString('utf8')).toBe(JSON.stringify(request))
  })
})
