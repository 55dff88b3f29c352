import { describe, expect, it } from 'vitest'
import type { ParseIssue } from '../issues/index.js'
import { parseApi } from '../parse-api.js'
import type { Changelog } from './changelog.js'
import { diffDocuments, diffParsed } from './diff-documents.js'
import { PARSE_FAILURE_RULES } from './parse-failure-rules.js'

type Doc = Record<string, unknown>

const ok = { responses: { '200': { description: 'ok' } } }
const broken = { responses: null }
const body = (type: string) => ({
  requestBody: { content: { 'application/json': { schema: { type } } } },
})
const oas = (paths: Doc, extra: Doc = {}) =>
  JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, ...extra })
const hooks = (webhooks: Doc) => oas({}, { webhooks })
const schemas = (components: Doc) => oas({}, { components: { schemas: components } })

const diff = (before: string, after: string) => diffDocuments({ text: before }, { text: after })
const hits = (log: Changelog) =>
  log.changes.map((change) => [change.id, change.level, change.location])

/** Each rule of the catalogue, with the minimal pair that fires it and where it lands. */
const PAIRS: Record<string, { before: string; after: string; location: string }> = {
  'operation-unparsable': {
    before: oas({ '/a': { get: ok } }),
    after: oas({ '/a': { get: broken } }),
    location: '/paths/~1a/get',
  },
  'operation-was-unparsable': {
    before: oas({ '/a': { get: broken } }),
    after: oas({ '/a': { get: ok } }),
    location: '/paths/~1a/get',
  },
  'operation-still-unparsable': {
    before: oas({ '/a': { get: broken } }),
    after: oas({ '/a': { get: broken } }),
    location: '/paths/~1a/get',
  },
  'operation-added-unparsable': {
    before: oas({}),
    after: oas({ '/a': { get: broken } }),
    location: '/paths/~1a/get',
  },
  'webhook-unparsable': {
    before: hooks({ ping: { post: ok } }),
    after: hooks({ ping: { post: { ...ok, requestBody: 5 } } }),
    location: '/webhooks/ping/post',
  },
  'webhook-was-unparsable': {
    before: hooks({ ping: { post: { ...ok, requestBody: 5 } } }),
    after: hooks({ ping: { post: ok } }),
    location: '/webhooks/ping/post',
  },
  'webhook-still-unparsable': {
    before: hooks({ ping: { post: { ...ok, requestBody: 5 } } }),
    after: hooks({ ping: { post: { ...ok, requestBody: 5 } } }),
    location: '/webhooks/ping/post',
  },
  'webhook-added-unparsable': {
    before: hooks({}),
    after: hooks({ ping: { post: { ...ok, requestBody: 5 } } }),
    location: '/webhooks/ping/post',
  },
  'component-unparsable': {
    before: schemas({ Pet: { type: 'string' } }),
    after: schemas({ Pet: { type: 'strin' } }),
    location: '/components/schemas/Pet',
  },
  'component-was-unparsable': {
    before: schemas({ Pet: { type: 'strin' } }),
    after: schemas({ Pet: { type: 'string' } }),
    location: '/components/schemas/Pet',
  },
  'component-still-unparsable': {
    before: schemas({ Pet: { type: 'strin' } }),
    after: schemas({ Pet: { type: 'strin' } }),
    location: '/components/schemas/Pet',
  },
  'component-added-unparsable': {
    before: schemas({}),
    after: schemas({ Pet: { type: 'strin' } }),
    location: '/components/schemas/Pet',
  },
  'definition-unparsable': {
    before: 'type Query { a: String }',
    after: 'type Query { a: String a: Int }',
    location: 'Query',
  },
  'definition-was-unparsable': {
    before: 'type Query { a: String a: Int }',
    after: 'type Query { a: String }',
    location: 'Query',
  },
  'definition-still-unparsable': {
    before: 'type Query { a: String a: Int }',
    after: 'type Query { a: String a: Int }',
    location: 'Query',
  },
  'definition-added-unparsable': {
    before: 'type Query { a: String }',
    after: 'type Query { a: String } extend type Ghost { b: Int }',
    location: 'Ghost',
  },
}

describe('items that fail to parse', () => {
  for (const [id, pair] of Object.entries(PAIRS)) {
    const rule = PARSE_FAILURE_RULES[id as keyof typeof PARSE_FAILURE_RULES]
    it(`${id}: ${rule.level}, never "no change"`, async () => {
      const log = await diff(pair.before, pair.after)
      expect(hits(log)).toEqual([[id, rule.level, pair.location]])
      expect(log.summary.diff).toBe(true)
      expect(log.counts[rule.level]).toBe(1)
    })
  }

  it('reports the operation the parse dropped, not its removal or addition', async () => {
    const removed = await diff(oas({ '/a': { get: ok } }), oas({ '/a': { get: broken } }))
    expect(removed.changes.map((change) => change.id)).not.toContain('endpoint-removed')
    expect(removed.changes[0]).toMatchObject({
      operation: 'GET /a',
      message: 'Operation GET /a no longer parses: "responses" must be an object, got null.',
    })
    expect(removed.summary.details).toEqual({
      operations: { added: 0, deleted: 0, modified: 1 },
    })
    const added = await diff(oas({ '/a': { get: broken } }), oas({ '/a': { get: ok } }))
    expect(added.changes.map((change) => change.id)).toEqual(['operation-was-unparsable'])
  })

  it('judges an operation broken on both sides as breaking when its text changed', async () => {
    const log = await diff(
      oas({ '/a': { post: { ...broken, ...body('string') } } }),
      oas({ '/a': { post: { ...broken, ...body('integer') } } }),
    )
    expect(hits(log)).toEqual([['operation-unparsable', 'breaking', '/paths/~1a/post']])
    expect(log.changes[0]!.message).toMatch(/^Operation POST \/a changed and still does not parse/)
  })

  it('takes key order and formatting as no change of a broken operation', async () => {
    const yaml =
      'openapi: 3.1.0\ninfo: {version: "1", title: t}\npaths:\n  /a:\n    get:\n      responses: null\n'
    const log = await diff(oas({ '/a': { get: broken } }), yaml)
    expect(hits(log)).toEqual([['operation-still-unparsable', 'warning', '/paths/~1a/get']])
  })

  it('keeps judging the operations that parse beside one that does not', async () => {
    const log = await diff(
      oas({ '/a': { get: ok }, '/b': { get: ok } }),
      oas({ '/a': { get: broken } }),
    )
    expect(hits(log)).toEqual([
      ['operation-unparsable', 'breaking', '/paths/~1a/get'],
      ['endpoint-removed', 'breaking', '/paths/~1b/get'],
    ])
  })

  it('reports an added operation that does not parse as a warning, and a removed one as removed', async () => {
    const added = await diff(oas({}), oas({ '/a': { get: broken } }))
    expect(hits(added)).toEqual([['operation-added-unparsable', 'warning', '/paths/~1a/get']])
    expect(added.changes[0]!.message).toContain('was added but does not parse')
    expect(added.summary.details).toEqual({ operations: { added: 1, deleted: 0, modified: 0 } })
    const removed = await diff(oas({ '/a': { get: broken } }), oas({}))
    expect(hits(removed)).toEqual([['endpoint-removed', 'breaking', '/paths/~1a/get']])
    expect(removed.changes[0]!.message).toContain('could not be parsed in the old document')
  })

  it('fails every method of a path item that no longer parses', async () => {
    const log = await diff(oas({ '/a': { get: ok, post: ok } }), oas({ '/a': 5 }))
    expect(hits(log)).toEqual([
      ['operation-unparsable', 'breaking', '/paths/~1a/get'],
      ['operation-unparsable', 'breaking', '/paths/~1a/post'],
    ])
  })

  it('names a path item that parses on neither side by its path', async () => {
    const log = await diff(oas({ '/a': 5 }), oas({ '/a': 6 }))
    expect(hits(log)).toEqual([['operation-unparsable', 'breaking', '/paths/~1a']])
    expect(log.changes[0]!.message).toMatch(/^Path \/a changed and still does not parse/)
  })

  it('reports an operation whose response ref no longer resolves, with the component', async () => {
    const using = (type: string) =>
      oas(
        {
          '/a': {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/P' } } },
                },
              },
            },
          },
        },
        { components: { schemas: { P: { type } } } },
      )
    const log = await diff(using('string'), using('strin'))
    expect(hits(log)).toEqual([
      ['component-unparsable', 'breaking', '/components/schemas/P'],
      ['operation-unparsable', 'breaking', '/paths/~1a/get'],
    ])
  })

  it('reports an operation that keeps an unsatisfiable allOf inline, and only the component when it is there', async () => {
    const id = (type: string) => ({ type: 'object', properties: { id: { type } } })
    const clash = { allOf: [id('string'), id('integer')] }
    const post = (schema: unknown) => ({
      post: { ...ok, requestBody: { content: { 'application/json': { schema } } } },
    })
    const inline = await diff(oas({ '/a': post(id('string')) }), oas({ '/a': post(clash) }))
    expect(hits(inline)).toEqual([['operation-unparsable', 'breaking', '/paths/~1a/post']])
    // The component is `never` now, not dropped: its users are no longer pruned, so they compare.
    const using = (user: unknown) =>
      oas(
        { '/a': post({ $ref: '#/components/schemas/User' }) },
        {
          components: { schemas: { User: user } },
        },
      )
    const shared = await diff(using(id('string')), using(clash))
    expect(hits(shared)).toEqual([['component-unparsable', 'breaking', '/components/schemas/User']])
  })

  it('reports a security scheme that no longer parses, not its removal', async () => {
    const scheme = (securitySchemes: Doc) => oas({}, { components: { securitySchemes } })
    const log = await diff(
      scheme({ key: { type: 'apiKey', name: 'k', in: 'header' } }),
      scheme({ key: { type: 'magic' } }),
    )
    expect(hits(log)).toEqual([
      ['component-unparsable', 'breaking', '/components/securitySchemes/key'],
    ])
  })

  it('carries both sides’ error-level issues, and only those', async () => {
    const log = await diff(
      oas({ '/a': { get: broken } }),
      oas({
        '/a': { get: { ...ok, parameters: [{ name: 'q', in: 'query', schema: { items: {} } }] } },
      }),
    )
    expect(log.issues?.before.map((issue) => [issue.type, issue.location])).toEqual([
      ['INVALID_OPERATION', 'paths:/a:get'],
    ])
    // The new side has a warning (an array type inferred) and no error.
    expect(log.issues?.after).toEqual([])
  })

  it('leaves `issues` out when neither side has an error', async () => {
    const log = await diff(oas({ '/a': { get: ok } }), oas({ '/b': { get: ok } }))
    expect(log).not.toHaveProperty('issues')
    const same = await diff('type Query { a: String }', 'type Query { a: String }')
    expect(same).not.toHaveProperty('issues')
  })
})

describe('issues not tied to an operation, webhook or component', () => {
  const issue: ParseIssue = {
    protocol: 'oas',
    type: 'INVALID_DEPENDENCY_REF',
    level: 'error',
    message: 'Ref "#/x" not found.',
    location: 'x-extra:thing',
  }
  const side = async (text: string, extra: readonly ParseIssue[]) => {
    const parsed = await parseApi({ text })
    return { parsed: { ...parsed, parseIssues: [...parsed.parseIssues, ...extra] }, text }
  }
  const doc = (thing: unknown) => oas({ '/a': { get: ok } }, { 'x-extra': { thing } })

  it('document-unparsable: in the new document only, breaking', async () => {
    const log = await diffParsed(await side(doc(1), []), await side(doc(1), [issue]))
    expect(hits(log)).toEqual([['document-unparsable', 'breaking', '/x-extra/thing']])
    expect(log.issues).toEqual({ before: [], after: [issue] })
  })

  it('document-was-unparsable: in the old document only, warning', async () => {
    const log = await diffParsed(await side(doc(1), [issue]), await side(doc(1), []))
    expect(hits(log)).toEqual([['document-was-unparsable', 'warning', '/x-extra/thing']])
  })

  it('document-still-unparsable: in both, same text, warning; changed text, breaking', async () => {
    const same = await diffParsed(await side(doc(1), [issue]), await side(doc(1), [issue]))
    expect(hits(same)).toEqual([['document-still-unparsable', 'warning', '/x-extra/thing']])
    const changed = await diffParsed(await side(doc(1), [issue]), await side(doc(2), [issue]))
    expect(hits(changed)).toEqual([['document-unparsable', 'breaking', '/x-extra/thing']])
  })

  it('reports an issue without a location at the document', async () => {
    const bare = { ...issue, location: '' }
    const log = await diffParsed(await side(doc(1), []), await side(doc(1), [bare]))
    expect(hits(log)).toEqual([['document-unparsable', 'breaking', '']])
    expect(log.changes[0]!.message).toMatch(/^The document no longer parses/)
  })
})

describe('GraphQL schemas that fail to parse', () => {
  const query = 'type Query { me: User }'

  it.each([
    ['a type defined twice', `${query} type User { id: ID } type User { name: String }`, 'User'],
    ['a field of an unknown type', 'type Query { me: Nobody }', 'Query'],
    [
      'an extension with a field of an unknown type',
      `${query} type User { id: ID } extend type Query { x: Ghost }`,
      'Query',
    ],
    [
      'an interface not implemented',
      `${query} interface Node { id: ID } type User implements Node { name: String }`,
      'User',
    ],
    ['an input type as a field type', `${query} input User { id: ID }`, 'Query'],
  ])('reports %s, which the SDL diff alone took for no change', async (_, after, name) => {
    const before = `${query} type User { id: ID }`
    const log = await diff(before, after)
    expect(log.changes.map((change) => [change.id, change.location])).toContainEqual([
      'definition-unparsable',
      name,
    ])
    expect(log.counts.breaking).toBeGreaterThan(0)
    expect(log.issues?.after.length).toBeGreaterThan(0)
  })

  it('keeps the SDL diff of a definition that fails beside the failure', async () => {
    const log = await diff('type Query { a: String b: Int }', 'type Query { a: String a: Int }')
    expect(log.changes.map((change) => change.id).sort()).toEqual([
      'definition-unparsable',
      'field-removed',
    ])
  })

  it('reports the same through diffParsed, as the hub calls it', async () => {
    const side = async (text: string) => ({ parsed: await parseApi({ text }), text })
    const log = await diffParsed(
      await side('type Query { a: String }'),
      await side('type Query { a: String a: Int }'),
    )
    expect(hits(log)).toEqual([['definition-unparsable', 'breaking', 'Query']])
    expect(log.issues?.after.map((issue) => issue.type)).toEqual(['INVALID_TYPE_DEFINITION'])
  })
})
