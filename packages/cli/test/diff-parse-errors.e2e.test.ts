import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureDir, parseJsonStdout, runSvc } from './support/run-svc.js'

const ok = { responses: { '200': { description: 'ok' } } }
const body = (maxLength: number) => ({
  requestBody: {
    content: { 'application/json': { schema: { type: 'string', maxLength } } },
  },
})
const oas = (paths: Record<string, unknown>) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths })

/**
 * v1 parses. v2 makes the request body of POST /pets stricter and breaks the operation's
 * `responses`, so the operation drops out of the model: the case that used to say "No changes.".
 * v3 fixes v2. `same-broken` is v2 again.
 */
const FILES = {
  'v1.json': oas({ '/pets': { post: { ...ok, ...body(100) } } }),
  'v2.json': oas({ '/pets': { post: { ...body(10), responses: null } } }),
  'v2-again.json': oas({ '/pets': { post: { ...body(10), responses: null } } }),
  'v3.json': oas({ '/pets': { post: { ...ok, ...body(10) } } }),
  'schema-v1.graphql': 'type Query { pet: Pet }\ntype Pet { name: String }\n',
  'schema-v2.graphql': 'type Query { pet: Pet }\ntype Pet { name: String name: Int }\n',
}

let scratch: ReturnType<typeof fixtureDir>
beforeAll(() => {
  scratch = fixtureDir(FILES)
})
afterAll(() => scratch.dispose())

const diff = (...args: string[]) => runSvc(['diff', ...args], { cwd: scratch.dir })

type Json = {
  counts: { breaking: number; warning: number; info: number }
  changes: { id: string; level: string; location: string; operation?: string }[]
  issues?: {
    before: { level: string; location: string }[]
    after: { level: string; location: string }[]
  }
}

describe('svc diff: an operation that no longer parses', () => {
  it('is a breaking change, never "No changes."', async () => {
    const run = await diff('v1.json', 'v2.json')
    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('No changes.')
    expect(run.stdout).toMatch(/^POST \/pets\n {2}breaking {2}operation-unparsable {2}Operation/m)
  })

  it('leads the text report with the parse errors, naming where and why', async () => {
    const { stdout } = await diff('v1.json', 'v2.json')
    const lines = stdout.split('\n')
    expect(lines[0]).toBe('Parse errors (1); the items they name are changes below:')
    expect(lines[1]).toBe('  new  paths:/pets:post  "responses" must be an object, got null.')
    expect(lines[2]).toBe('')
    expect(lines[3]).toBe('1 breaking, 0 warnings, 0 info changes')
  })

  it('fails --fail-on breaking', async () => {
    const run = await diff('v1.json', 'v2.json', '--fail-on', 'breaking')
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('error: --fail-on breaking: 1 breaking change.\n')
  })

  it('--json: the change, and both sides’ error-level issues', async () => {
    const run = await diff('v1.json', 'v2.json', '--json', '--fail-on', 'breaking')
    expect(run.code).toBe(1)
    const log = parseJsonStdout(run) as Json
    expect(Object.keys(log)).toEqual(['summary', 'counts', 'changes', 'issues'])
    expect(log.counts).toEqual({ breaking: 1, warning: 0, info: 0 })
    expect(log.changes).toMatchObject([
      { id: 'operation-unparsable', level: 'breaking', operation: 'POST /pets' },
    ])
    expect(log.issues).toEqual({
      before: [],
      after: [
        {
          protocol: 'oas',
          type: 'INVALID_OPERATION',
          level: 'error',
          message: '"responses" must be an object, got null.',
          cause: '"responses" must be an object, got null',
          location: 'paths:/pets:post',
        },
      ],
    })
  })
})

describe('svc diff: an operation that parsed badly before', () => {
  it('is a warning: --fail-on breaking passes, --fail-on warning fails', async () => {
    const pass = await diff('v2.json', 'v3.json', '--fail-on', 'breaking')
    expect(pass.code).toBe(0)
    expect(pass.stdout).toMatch(/^ {2}old {2}paths:\/pets:post {2}/m)
    expect(pass.stdout).toMatch(
      /^POST \/pets\n {2}warning {3}operation-was-unparsable {2}Operation/m,
    )
    const fail = await diff('v2.json', 'v3.json', '--fail-on', 'warning')
    expect(fail.code).toBe(1)
    expect(fail.stderr).toBe('error: --fail-on warning: 1 warning.\n')
  })

  it('broken the same way on both sides: a warning, with both sides’ issues', async () => {
    const run = await diff('v2.json', 'v2-again.json', '--json')
    const log = parseJsonStdout(run) as Json
    expect(log.changes.map((change) => [change.id, change.level])).toEqual([
      ['operation-still-unparsable', 'warning'],
    ])
    expect(log.issues?.before).toHaveLength(1)
    expect(log.issues?.after).toHaveLength(1)
  })
})

describe('svc diff: clean documents', () => {
  it('--json has no `issues` key', async () => {
    const log = parseJsonStdout(await diff('v1.json', 'v3.json', '--json'))
    expect(Object.keys(log)).toEqual(['summary', 'counts', 'changes'])
  })
})

describe('svc diff: GraphQL with a field declared twice', () => {
  it('reports the type, leads with the error, and fails --fail-on breaking', async () => {
    const run = await diff('schema-v1.graphql', 'schema-v2.graphql', '--fail-on', 'breaking')
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain('No changes.')
    expect(run.stdout.split('\n')[1]).toMatch(
      /^ {2}new {2}Pet +Field "Pet\.name" can only be defined once/,
    )
    expect(run.stdout).toMatch(/^Pet\n {2}breaking {2}definition-unparsable {2}\S/m)
  })
})
