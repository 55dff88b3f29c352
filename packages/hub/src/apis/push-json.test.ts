import { describe, expect, it } from 'vitest'
import { readPushJson } from './push-json.js'

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

describe('readPushJson', () => {
  it('tells a raw document from an envelope', () => {
    expect(readPushJson(json({ openapi: '3.1.0', document: 'x' }))).toEqual({ kind: 'raw' })
    expect(readPushJson(json({ swagger: '2.0', document: 'x' }))).toEqual({ kind: 'raw' })
    expect(readPushJson(json(['document']))).toEqual({ kind: 'raw' })
    expect(readPushJson(json({ info: {} }))).toEqual({ kind: 'raw' })
  })

  it("answers an envelope's document as UTF-8, with its labels", () => {
    const read = readPushJson(
      json({
        document: 'openapi: 3.1.0 # Café',
        version: '1.2',
        publishedAt: '2026-12-07T10:00:00Z',
      }),
    )
    expect(read).toEqual({
      kind: 'envelope',
      bytes: new TextEncoder().encode('openapi: 3.1.0 # Café'),
      version: '1.2',
      publishedAt: '2026-12-07T10:00:00Z',
    })
    expect(readPushJson(json({ document: 'x' }))).toMatchObject({
      version: null,
      publishedAt: null,
    })
  })

  it('answers the document itself too when its UTF-8 would not decode back to it', () => {
    for (const document of ['\ufeffopenapi: 3.1.0', 'title: \ud800 alone']) {
      expect(readPushJson(json({ document }))).toMatchObject({ kind: 'envelope', text: document })
    }
  })

  it('says why a body is not JSON, in the words of JSON.parse', () => {
    let reason = ''
    try {
      JSON.parse('{"document": ')
    } catch (error) {
      reason = (error as Error).message
    }
    expect(readPushJson(new TextEncoder().encode('{"document": '))).toEqual({
      kind: 'malformed',
      reason,
    })
  })

  it('lists each way an envelope breaks its schema, at its json path', () => {
    expect(readPushJson(json({ document: 7, version: '', extra: true }))).toEqual({
      kind: 'invalid',
      issues: expect.arrayContaining([
        expect.objectContaining({ path: 'json.document' }),
        expect.objectContaining({ path: 'json.version' }),
        expect.objectContaining({ path: 'json' }),
      ]),
    })
  })
})
