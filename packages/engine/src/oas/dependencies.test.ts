import { describe, expect, it } from 'vitest'
import { resolveRef } from '../refs/resolve-ref.js'
import { brief, parseOasDoc } from '../test-support.js'

const ref = (name: string, bucket = 'schemas') => ({ $ref: `#/components/${bucket}/${name}` })

describe('INVALID_DEPENDENCY_REF (error): the consumer of an unusable target is pruned, one hop only', () => {
  it('prunes Post (→ broken User) but not Comment (→ Post), which then fails at generate time', async () => {
    const { parseIssues, model } = await parseOasDoc({
      components: {
        schemas: {
          User: { type: 'strin' },
          Post: { type: 'object', properties: { author: ref('User') } },
          Comment: { type: 'object', properties: { post: ref('Post') } },
        },
      },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:User' },
      {
        type: 'INVALID_DEPENDENCY_REF',
        level: 'error',
        location: 'components:schemas:Post:properties:author',
      },
    ])
    expect(parseIssues[1]!.message).toMatch(
      /^Ref "#\/components\/schemas\/User" is invalid: .*; dropped components:schemas:Post\.$/,
    )
    expect(Object.keys(model.components.schemas)).toEqual(['Comment'])
    expect(() => resolveRef(model, '#/components/schemas/Post', 'schemas')).toThrow(
      'Ref "#/components/schemas/Post" not found',
    )
  })

  it('prunes an operation that uses a broken schema, and only that operation', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/users': {
          get: { responses: { '200': { description: 'ok' } } },
          post: {
            requestBody: { content: { 'application/json': { schema: ref('User') } } },
            responses: { '201': { description: 'ok' } },
          },
        },
      },
      components: { schemas: { User: { oneOf: [] } } },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:User' },
      {
        type: 'INVALID_DEPENDENCY_REF',
        level: 'error',
        location: 'paths:/users:post:requestBody:content:application/json:schema',
      },
    ])
    expect(model.operations.map((op) => `${op.method} ${op.path}`)).toEqual(['get /users'])
  })

  it('drops only the response entry whose schema is unusable', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/users': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: ref('User') } },
              },
              '404': { description: 'missing' },
            },
          },
        },
      },
      components: { schemas: { User: { anyOf: [] } } },
    })
    expect(brief(parseIssues)[1]).toEqual({
      type: 'INVALID_DEPENDENCY_REF',
      level: 'error',
      location: 'paths:/users:get:responses:200:content:application/json:schema',
    })
    expect(Object.keys(model.operations[0]!.responses)).toEqual(['404'])
  })

  it('fires with Ref "<$ref>" not found for a target that does not exist', async () => {
    const { parseIssues, model } = await parseOasDoc({
      components: { schemas: { Post: { type: 'object', properties: { author: ref('Nobody') } } } },
    })
    expect(brief(parseIssues)).toEqual([
      {
        type: 'INVALID_DEPENDENCY_REF',
        level: 'error',
        location: 'components:schemas:Post:properties:author',
      },
    ])
    expect(parseIssues[0]!.message).toBe(
      'Ref "#/components/schemas/Nobody" not found; dropped components:schemas:Post.',
    )
    expect(parseIssues[0]!.cause).toBe('Ref "#/components/schemas/Nobody" not found')
    expect(model.components.schemas).toEqual({})
  })

  it('fires with a type mismatch when a ref points into the wrong bucket', async () => {
    const { parseIssues } = await parseOasDoc({
      components: {
        parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } },
        schemas: { Page: { type: 'object', properties: { limit: ref('Limit', 'parameters') } } },
      },
    })
    expect(parseIssues.map((i) => i.cause)).toEqual([
      'Ref type mismatch for "#/components/parameters/Limit". Expected "schema" but got "parameter"',
    ])
  })

  it('fires with Max lookups reached on a cycle of refs, in bounded time', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: ref('A') } } },
            },
          },
        },
      },
      components: { schemas: { A: ref('B'), B: ref('A') } },
    })
    expect(brief(parseIssues).map((i) => i.location)).toEqual([
      'components:schemas:A',
      'components:schemas:B',
      'paths:/a:get:responses:200:content:application/json:schema',
    ])
    for (const issue of parseIssues) expect(issue.cause).toMatch(/^Max lookups reached following/)
    expect(model.components.schemas).toEqual({})
    expect(model.operations[0]!.responses).toEqual({})
  })

  it('follows a chain of 10 lookups but not 11', async () => {
    const chain = (refs: number) => {
      const entries: Record<string, unknown> = { Target: { type: 'string' } }
      for (let i = 0; i < refs; i++) entries[`S${i}`] = ref(i === refs - 1 ? 'Target' : `S${i + 1}`)
      entries.User = { type: 'object', properties: { name: ref('S0') } }
      return parseOasDoc({ components: { schemas: entries } })
    }
    expect((await chain(9)).parseIssues).toEqual([])
    const tooLong = await chain(10)
    expect(brief(tooLong.parseIssues)).toContainEqual({
      type: 'INVALID_DEPENDENCY_REF',
      level: 'error',
      location: 'components:schemas:User:properties:name',
    })
    expect(tooLong.model.components.schemas.User).toBeUndefined()
  })

  it('cascades a broken reusable parameter to the operations that use it (INVALID_PARAMETER)', async () => {
    const { parseIssues, model } = await parseOasDoc({
      paths: {
        '/a': {
          get: {
            parameters: [ref('Limit', 'parameters')],
            responses: { '200': { description: 'ok' } },
          },
        },
        '/b': { get: { responses: { '200': { description: 'ok' } } } },
      },
      components: { parameters: { Limit: { in: 'query', schema: { type: 'integer' } } } },
    })
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_PARAMETER', level: 'error', location: 'components:parameters:Limit' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'paths:/a:get:parameters:0' },
    ])
    expect(parseIssues[0]!.message).toBe('Parameter needs a "name", got nothing.')
    expect(model.operations.map((op) => op.path)).toEqual(['/b'])
    expect(model.components.parameters).toEqual({})
  })

  it('reports each unusable ref once per unit, at the first place it is written', async () => {
    const { parseIssues } = await parseOasDoc({
      components: {
        schemas: { Pair: { type: 'object', properties: { a: ref('Gone'), b: ref('Gone') } } },
      },
    })
    expect(brief(parseIssues).map((i) => i.location)).toEqual([
      'components:schemas:Pair:properties:a',
    ])
  })

  it('says why a ref to another file was not followed', async () => {
    const { parseIssues } = await parseOasDoc({
      components: {
        schemas: {
          A: { $ref: './common.yaml#/Error' },
          B: { $ref: 'https://example.com/x.json#/X' },
        },
      },
    })
    expect(parseIssues.map((i) => i.cause)).toEqual([
      'Ref "./common.yaml#/Error" not found: references to other files are followed only when the input is a file',
      'Ref "https://example.com/x.json#/X" not found: remote references are not fetched',
    ])
  })
})
