import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DocumentError } from './input/document-error.js'
import { parseApi } from './parse-api.js'
import { brief } from './test-support.js'

const readFile = (path: string) => readFileSync(path, 'utf8')

async function documentError(promise: Promise<unknown>): Promise<DocumentError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(DocumentError)
  return error as DocumentError
}

describe('reading the input', () => {
  it('detects OpenAPI in JSON and YAML, and GraphQL SDL', async () => {
    const json = await parseApi({
      text: '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}',
    })
    expect(json.source).toEqual({ protocol: 'oas', format: 'json', version: '3.0.3' })
    const yaml = await parseApi({ text: 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\n' })
    expect(yaml.source).toEqual({ protocol: 'oas', format: 'yaml', version: '3.1.0' })
    const sdl = await parseApi({ text: '"""The root"""\ntype Query { hello: String }\n' })
    expect(sdl.source).toEqual({ protocol: 'gql', format: 'graphql', version: 'sdl' })
    expect(sdl.model.operations).toHaveLength(1)
  })

  it('always returns parseIssues, empty when there are none', async () => {
    const { parseIssues } = await parseApi({
      text: 'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\n',
    })
    expect(parseIssues).toEqual([])
  })

  it.each([
    ['an empty document', '   \n', 'empty_document'],
    ['a YAML mapping without openapi or swagger', 'name: x\nitems: [1, 2]\n', 'unknown_protocol'],
    ['plain text', 'hello there, this is not an API', 'unknown_protocol'],
    ['a JSON array', '[1, 2, 3]', 'unknown_protocol'],
    ['a 4.0 document', '{"openapi": "4.0.0"}', 'unsupported_version'],
    ['Swagger 1.2', '{"swagger": "1.2"}', 'unsupported_version'],
  ])('refuses %s with a clear error', async (_, text, code) => {
    const error = await documentError(parseApi({ text }))
    expect(error.code).toBe(code)
    expect(error.message).not.toMatch(/at .*\.js:\d+/)
  })

  it('points at the line and column of a JSON syntax error', async () => {
    const error = await documentError(
      parseApi({ text: '{\n  "openapi": "3.0.0",\n  "info": {,\n}' }),
    )
    expect(error).toMatchObject({ code: 'invalid_syntax', line: 3, column: 12 })
    expect(error.message).toMatch(/^Invalid JSON at line 3, column 12: /)
  })

  it('points at the line and column of a YAML syntax error', async () => {
    const error = await documentError(
      parseApi({ text: 'openapi: 3.0.0\ninfo:\n  title: [unclosed\npaths: {}\n' }),
    )
    expect(error.code).toBe('invalid_syntax')
    expect(error.line).toBeGreaterThanOrEqual(3)
    expect(error.message).toMatch(/^Invalid YAML at line \d+, column \d+: /)
  })

  it('points at the line and column of a GraphQL syntax error', async () => {
    const error = await documentError(parseApi({ text: 'type Query {\n  hello: \n}\n' }))
    expect(error).toMatchObject({ code: 'invalid_syntax', line: 3, column: 1 })
  })

  it('refuses a YAML alias bomb (billion laughs) by its expanded size', async () => {
    const lines = [
      'openapi: 3.0.0',
      'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ]
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(',')}]`,
      )
    const error = await documentError(parseApi({ text: lines.join('\n') + '\n' }))
    expect(error.code).toBe('too_complex')
  })

  it('refuses more than 1,000 aliases, even of a scalar', async () => {
    const aliases = Array.from({ length: 1_001 }, (_, i) => `b${i}: *a`).join('\n')
    const text = `openapi: 3.0.0\na: &a x\n${aliases}\n`
    const error = await documentError(parseApi({ text }))
    expect(error.code).toBe('alias_limit')
  })

  it('refuses a few aliases of a large anchor, naming the limit on expanded nodes', async () => {
    const properties = Array.from({ length: 1_000 }, (_, i) => `        p${i}: { type: string }`)
    const aliases = Array.from({ length: 50 }, (_, i) => `    Copy${i}: *big`)
    const text = [
      'openapi: 3.0.3',
      'info: { title: t, version: "1" }',
      'paths: {}',
      'components:',
      '  schemas:',
      '    Big: &big',
      '      type: object',
      '      properties:',
      ...properties,
      ...aliases,
    ].join('\n')
    const limits = { maxExpandedNodes: 100_000 }
    const error = await documentError(parseApi({ text }, { limits }))
    expect(error.code).toBe('too_complex')
    expect(error.message).toBe(
      'The YAML document has more than 100,000 nodes once its aliases are expanded (the limit on expanded nodes); refusing what looks like an alias bomb.',
    )
    // 51 copies of 4,004 nodes, and the rest: under a limit of 300,000 it is read.
    const parsed = await parseApi({ text }, { limits: { maxExpandedNodes: 300_000 } })
    expect(Object.keys(parsed.model.components.schemas)).toHaveLength(51)
  })

  it('reads 10,000 levels of YAML nesting without a crash', async () => {
    let text = 'openapi: 3.0.0\nx:\n'
    for (let i = 1; i <= 10_000; i++) text += ' '.repeat(i) + 'a:\n'
    const error = await documentError(parseApi({ text }))
    expect(['too_deep', 'invalid_syntax']).toContain(error.code)
  })

  it('reads 10,000 levels of JSON nesting outside schemas without a crash', async () => {
    const text = `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"x-deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}`
    const { parseIssues } = await parseApi({ text })
    expect(parseIssues).toEqual([])
  })

  it('converts 10,000 levels of nesting in a Swagger 2.0 document, or refuses it clearly', async () => {
    const deep =
      '{"type":"object","properties":{"a":'.repeat(10_000) +
      '{"type":"string"}' +
      '}}'.repeat(10_000)
    const text = `{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{},"definitions":{"Deep":${deep}}}`
    const outcome = await parseApi({ text }).then(
      (result) => brief(result.parseIssues),
      (error: unknown) => error,
    )
    if (outcome instanceof Error) expect(outcome).toBeInstanceOf(DocumentError)
    else
      expect(outcome).toEqual([
        { type: 'INVALID_SCHEMA', level: 'error', location: 'components:schemas:Deep' },
      ])
  })

  it('parses a 50 MB document in bounded memory', async () => {
    const paths: string[] = []
    const operation = JSON.stringify({
      get: {
        description: 'x'.repeat(400),
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'string' } } },
              },
            },
          },
        },
      },
    })
    for (let i = 0; paths.length * operation.length < 50_000_000; i++)
      paths.push(`"/r${i}/{id}":${operation}`)
    const text = `{"openapi":"3.0.3","info":{"title":"big","version":"1"},"paths":{${paths.join(',')}}}`
    expect(text.length).toBeGreaterThan(50_000_000)
    const { model, parseIssues } = await parseApi({ text })
    expect(parseIssues).toEqual([])
    expect(model.operations).toHaveLength(paths.length)
    expect(process.memoryUsage().heapUsed).toBeLessThan(2_000_000_000)
  })

  it('refuses a document over the size limit before parsing it', async () => {
    const text = `{"openapi":"3.0.3","x":"${'y'.repeat(2_000)}"}`
    const error = await documentError(parseApi({ text }, { limits: { maxBytes: 1_000 } }))
    expect(error.code).toBe('too_large')
  })
})

describe('Swagger 2.0', () => {
  it('is converted to OpenAPI 3.0 before parsing', async () => {
    const text = JSON.stringify({
      swagger: '2.0',
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pets': {
          get: {
            produces: ['application/json'],
            responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
          },
        },
      },
      definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
    })
    const { model, source, parseIssues } = await parseApi({ text })
    if (model.protocol !== 'oas') throw new Error('expected an OpenAPI model')
    expect(source).toEqual({ protocol: 'oas', format: 'json', version: '2.0' })
    expect(parseIssues).toEqual([])
    expect(model.openapi).toBe('3.0.0')
    expect(model.components.schemas.Pet).toMatchObject({ kind: 'object' })
    expect(model.operations[0]!.responses['200']).toMatchObject({
      content: {
        'application/json': { schema: { kind: 'ref', $ref: '#/components/schemas/Pet' } },
      },
    })
  })
})

describe('Swagger 2.0 issue positions', () => {
  it('point into the 2.0 source while locations follow the converted 3.0 document', async () => {
    const text = [
      'swagger: "2.0"',
      'info: {title: t, version: "1"}',
      'paths:',
      '  /a:',
      '    get:',
      '      responses:',
      '        "200":',
      '          description: ok',
      '          schema: {type: integer, example: x}',
      'definitions:',
      '  B:',
      '    items: {type: string}',
      '',
    ].join('\n')
    const { parseIssues } = await parseApi({ text })
    expect(
      parseIssues.map(({ type, location, line, column }) => ({ type, location, line, column })),
    ).toEqual([
      { type: 'MISSING_ARRAY_TYPE', location: 'components:schemas:B', line: 11, column: 3 },
      {
        type: 'INVALID_EXAMPLE',
        location: 'paths:/a:get:responses:200:content:*/*:schema:example',
        line: 9,
        column: 35,
      },
    ])
  })
})

describe('relative file refs', () => {
  function project(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'svc-refs-'))
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    return dir
  }

  it('follows ./common.yaml#/… refs from a file, hoisting schemas under their own name', async () => {
    const dir = project({
      'openapi.yaml': [
        'openapi: 3.0.3',
        'info: {title: t, version: "1"}',
        'paths:',
        '  /a:',
        '    get:',
        '      parameters:',
        '        - $ref: "./common.yaml#/components/parameters/Limit"',
        '      responses:',
        '        "200":',
        '          description: ok',
        '          content:',
        '            application/json:',
        '              schema: {$ref: "./common.yaml#/components/schemas/Page"}',
        '',
      ].join('\n'),
      'common.yaml': [
        'components:',
        '  parameters:',
        '    Limit: {name: limit, in: query, schema: {type: integer}}',
        '  schemas:',
        '    Page:',
        '      type: object',
        '      properties:',
        '        next: {$ref: "#/components/schemas/Page"}',
        '        items: {type: array, items: {$ref: "./item.yaml"}}',
        '',
      ].join('\n'),
      'item.yaml': 'type: object\nproperties:\n  id: {type: string, nullable: maybe}\n',
    })
    const origin = join(dir, 'openapi.yaml')
    const { model, parseIssues } = await parseApi({ text: readFile(origin), origin }, { readFile })
    if (model.protocol !== 'oas') throw new Error('expected an OpenAPI model')
    expect(Object.keys(model.components.schemas)).toEqual(['Page', 'item'])
    expect(model.components.schemas.Page).toMatchObject({
      properties: {
        next: { kind: 'ref', $ref: '#/components/schemas/Page' },
        items: { items: { kind: 'ref', refName: 'item' } },
      },
    })
    expect(model.operations[0]!.parameters[0]).toMatchObject({ kind: 'parameter', name: 'limit' })
    expect(parseIssues).toEqual([
      expect.objectContaining({
        type: 'INVALID_NULLABLE',
        location: 'components:schemas:item:properties:id:nullable',
        file: join(dir, 'item.yaml'),
        line: 3,
        column: 22,
      }),
    ])
  })

  it('reports a ref to a missing file as an issue on its consumer', async () => {
    const dir = project({
      'openapi.json': JSON.stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {},
        components: {
          schemas: { A: { type: 'object', properties: { b: { $ref: './missing.json#/B' } } } },
        },
      }),
    })
    const origin = join(dir, 'openapi.json')
    const { parseIssues, model } = await parseApi({ text: readFile(origin), origin }, { readFile })
    expect(brief(parseIssues)).toEqual([
      {
        type: 'INVALID_DEPENDENCY_REF',
        level: 'error',
        location: 'components:schemas:A:properties:b',
      },
    ])
    expect(parseIssues[0]!.cause).toBe(
      'Ref "./missing.json#/B" not found: could not read ./missing.json (no such file)',
    )
    expect(model.components.schemas).toEqual({})
  })
})

describe('issue positions', () => {
  it('gives YAML issues the line and column of their key', async () => {
    const text =
      'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    Tags:\n      type: array\n'
    const { parseIssues } = await parseApi({ text })
    expect(parseIssues).toEqual([
      expect.objectContaining({ location: 'components:schemas:Tags', line: 6, column: 5 }),
    ])
  })

  it('gives JSON issues the line and column of their key', async () => {
    const text =
      '{\n  "openapi": "3.0.3",\n  "info": {"title": "t", "version": "1"},\n  "paths": {},\n  "components": {"schemas": {\n    "Age": {"type": "integer", "example": "x"}}}\n}'
    const { parseIssues } = await parseApi({ text })
    expect(parseIssues).toEqual([
      expect.objectContaining({ location: 'components:schemas:Age:example', line: 6, column: 32 }),
    ])
  })

  it('leaves positions out when asked to', async () => {
    const text =
      'openapi: 3.0.3\ninfo: {title: t, version: "1"}\ncomponents: {schemas: {Tags: {type: array}}}\n'
    const { parseIssues } = await parseApi({ text }, { positions: false })
    expect(parseIssues[0]!.line).toBeUndefined()
  })
})
