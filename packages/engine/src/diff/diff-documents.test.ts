import { describe, expect, it } from 'vitest'
import { DocumentError } from '../input/document-error.js'
import { diffDocuments } from './diff-documents.js'

const openapi = (paths: object) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths })
const sdl = 'type Query { me: String }'

describe('diffDocuments', () => {
  it('reports a change of protocol as one breaking change, with every operation moved', async () => {
    const log = await diffDocuments(
      { text: openapi({ '/me': { get: { responses: { '200': { description: 'ok' } } } } }) },
      { text: sdl },
    )
    expect(log.changes.map((change) => [change.id, change.level])).toEqual([
      ['api-protocol-changed', 'breaking'],
    ])
    expect(log.summary.details).toEqual({ operations: { added: 1, deleted: 1, modified: 0 } })
  })

  it('refuses GraphQL SDL nested too deeply to read as a DocumentError, not a crash', async () => {
    const text = 'type Query { a: ' + '['.repeat(20_000) + 'Int' + ']'.repeat(20_000) + ' }'
    const refusal = await diffDocuments({ text }, { text: sdl }).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(DocumentError)
    expect((refusal as DocumentError).code).toBe('too_deep')
  })

  it('diffs schemas nested a thousand deep without overflowing the stack', async () => {
    const nested = (leaf: string) => {
      let schema: object = { type: leaf }
      for (let depth = 0; depth < 1_000; depth++)
        schema = { type: 'object', properties: { child: schema } }
      return openapi({
        '/deep': {
          get: {
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema } } },
            },
          },
        },
      })
    }
    const log = await diffDocuments({ text: nested('string') }, { text: nested('integer') })
    expect(log.counts.breaking + log.counts.warning + log.counts.info).toBe(log.changes.length)
  })

  it('applies the policies it is given, and none by default', async () => {
    const get = { get: { responses: { '200': { description: 'ok' } } } }
    const [before, after] = [
      { text: openapi({ '/a': get, '/b': get }) },
      { text: openapi({ '/a': get }) },
    ]
    const ids = async (options = {}) =>
      (await diffDocuments(before, after, options)).changes.map((change) => change.id)
    expect(await ids()).toEqual(['endpoint-removed'])
    expect(await ids({ policies: new Set(['version'] as const) })).toEqual([
      'endpoint-removed',
      'api-version-not-bumped',
    ])
  })

  it('refuses text that is not an API description', async () => {
    const refusal = await diffDocuments({ text: 'hello: world' }, { text: sdl }).catch(
      (e: unknown) => e,
    )
    expect(refusal).toBeInstanceOf(DocumentError)
  })

  it('never says "no change" when an operation stops parsing as its request body tightens', async () => {
    const operation = (maxLength: number, responses: unknown) => ({
      post: {
        requestBody: {
          content: { 'application/json': { schema: { type: 'string', maxLength } } },
        },
        responses,
      },
    })
    const log = await diffDocuments(
      { text: openapi({ '/pets': operation(100, { '200': { description: 'ok' } }) }) },
      { text: openapi({ '/pets': operation(10, null) }) },
    )
    expect(log.summary.diff).toBe(true)
    expect(log.counts.breaking).toBe(1)
    expect(log.changes.map((change) => [change.id, change.operation])).toEqual([
      ['operation-unparsable', 'POST /pets'],
    ])
    expect(log.issues?.after.map((issue) => issue.location)).toEqual(['paths:/pets:post'])
  })

  it('carries the parse errors across a change of protocol too', async () => {
    const log = await diffDocuments(
      { text: openapi({ '/me': { get: { responses: null } } }) },
      { text: sdl },
    )
    expect(log.changes.map((change) => change.id)).toEqual(['api-protocol-changed'])
    expect(log.issues?.before).toHaveLength(1)
    expect(log.issues?.after).toEqual([])
  })
})
