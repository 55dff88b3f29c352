import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureDir, parseJsonStdout, recipeLines, runSvc } from './support/run-svc.js'

const SWAGGER = `swagger: "2.0"
info: {title: Pets, version: "1.0.0"}
host: api.example.com
basePath: /v1
schemes: [https]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      produces: [application/json]
      parameters:
        - {name: id, in: path, required: true, type: string}
      responses:
        "200":
          description: a pet
          schema: {$ref: "#/definitions/Pet"}
definitions:
  Pet:
    type: object
    properties:
      name: {type: string}
`

const OPENAPI_30 = `openapi: 3.0.3
info: {title: Thirty, version: "2"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "./schemas.yaml#/Thing"}
`

const SCHEMAS = `Thing:
  type: object
  properties:
    id: {type: integer}
`

const OPENAPI_31 = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'ThirtyOne', version: '3' },
  webhooks: { ping: { post: { responses: { '200': { description: 'ok' } } } } },
})

const DEPTH = 200_000

let fixtures: ReturnType<typeof fixtureDir>
let dir: string
const toV3 = (args: readonly string[], options: { stdin?: string } = {}) =>
  runSvc(['to-v3-json', ...args], { cwd: dir, ...options })

beforeAll(() => {
  fixtures = fixtureDir({
    'swagger.yaml': SWAGGER,
    'openapi30.yaml': OPENAPI_30,
    'schemas.yaml': SCHEMAS,
    'openapi31.json': OPENAPI_31,
    'schema.graphql': 'type Query {\n  hello: String\n}\n',
    'bad.yaml': 'openapi: 3.0.3\ninfo:\n  title: "x\n',
    // JSON.parse reads this; a recursive JSON.stringify overflows the stack on it.
    'deep.json': `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-deep":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`,
  })
  dir = fixtures.dir
  mkdirSync(join(dir, 'out'))
})
afterAll(() => fixtures?.dispose())

describe('svc to-v3-json: missing or invalid input (exit 2)', () => {
  it('no input: a recipe error with all four lines', async () => {
    const run = await toV3([])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    const recipe = recipeLines(run.stderr)
    expect(recipe.error).toMatch(/needs an OpenAPI document/)
    expect(recipe.usage).toBe('Usage: svc to-v3-json <file|url|-> [-o out.json]')
    expect(recipe.example).toMatch(/^Example: svc to-v3-json \S+/)
    expect(recipe.discover).toMatch(/^Discover: \S+/)
  })

  it('a file that does not exist', async () => {
    const run = await toV3(['nope.yaml', '-o', 'out/never.json'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(recipeLines(run.stderr).error).toBe('error: No such file: nope.yaml')
  })

  it('an unknown option', async () => {
    const run = await toV3(['swagger.yaml', '--json'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/unknown option '--json'/)
  })
})

describe('svc to-v3-json: conversion', () => {
  it('converts Swagger 2.0 to OpenAPI 3.0 on stdout', async () => {
    const run = await toV3(['swagger.yaml'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const doc = parseJsonStdout(run)
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/)
    expect(doc).not.toHaveProperty('swagger')
    expect(doc).not.toHaveProperty('definitions')
    expect(doc.servers).toEqual([{ url: 'https://api.example.com/v1' }])
    expect(doc).toMatchObject({
      info: { title: 'Pets', version: '1.0.0' },
      paths: {
        '/pets/{id}': {
          get: {
            operationId: 'getPet',
            responses: {
              '200': {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    })
  })

  it('passes OpenAPI 3.0 YAML through as JSON, with relative refs bundled in', async () => {
    const run = await toV3(['openapi30.yaml'])
    expect(run.code).toBe(0)
    const doc = parseJsonStdout(run)
    expect(doc.openapi).toBe('3.0.3')
    expect(doc.info).toEqual({ title: 'Thirty', version: '2' })
    expect(run.stdout).not.toContain('schemas.yaml')
    expect(doc).toMatchObject({ components: { schemas: { Thing: { type: 'object' } } } })
  })

  it('passes OpenAPI 3.1 through unchanged', async () => {
    const run = await toV3(['openapi31.json'])
    expect(run.code).toBe(0)
    expect(parseJsonStdout(run)).toEqual(JSON.parse(OPENAPI_31))
  })

  it('reads standard input', async () => {
    const run = await toV3(['-'], { stdin: SWAGGER })
    expect(run.code).toBe(0)
    expect(parseJsonStdout(run).openapi).toMatch(/^3\.0\./)
  })

  it('-o writes the file and prints one line', async () => {
    const run = await toV3(['swagger.yaml', '-o', 'out/openapi.json'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('Wrote out/openapi.json (converted from Swagger 2.0)\n')
    const written = JSON.parse(readFileSync(join(dir, 'out/openapi.json'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(written.openapi).toMatch(/^3\.0\./)
    expect(written).toHaveProperty(['paths', '/pets/{id}', 'get'])
  })

  it('-o into a directory that does not exist fails cleanly (exit 1)', async () => {
    const run = await toV3(['swagger.yaml', '--output', 'no-such-dir/openapi.json'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe('error: Cannot write no-such-dir/openapi.json: ENOENT.\n')
  })
})

describe('svc to-v3-json: input it cannot convert (exit 1)', () => {
  it('GraphQL SDL', async () => {
    const run = await toV3(['schema.graphql'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^error: .*GraphQL SDL/)
    expect(run.stderr).not.toMatch(/internal error/)
  })

  it('GraphQL SDL on stdin, with -o: no file is written', async () => {
    const run = await toV3(['-', '-o', 'out/gql.json'], { stdin: 'type Query { a: Int }\n' })
    expect(run.code).toBe(1)
    expect(() => readFileSync(join(dir, 'out/gql.json'))).toThrow()
  })

  it('a YAML syntax error', async () => {
    const run = await toV3(['bad.yaml'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^error: .*Invalid YAML/)
  })

  it('a document nested too deeply to write as JSON: a clean error, no file', async () => {
    for (const args of [['deep.json'], ['deep.json', '-o', 'out/deep.json']]) {
      const run = await toV3(args)
      expect(run.code).toBe(1)
      expect(run.stdout).toBe('')
      expect(run.stderr).toBe(
        'error: The converted document is nested too deeply to write as JSON.\n',
      )
    }
    expect(() => readFileSync(join(dir, 'out/deep.json'))).toThrow()
  })

  it('a directory', async () => {
    const run = await toV3(['out'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('error: out is a directory, not a document.\n')
  })
})
