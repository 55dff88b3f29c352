import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aliasBomb } from '../../hub/test/support/documents.js'
import {
  expectFailureStdout,
  fixtureDir,
  parseJsonStdout,
  recipeLines,
  runSvc,
  type SvcRun,
} from './support/run-svc.js'

const CLEAN = `openapi: 3.0.3
info: {title: Clean, version: "1"}
paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
`

// One issue of each level; line numbers below refer to this text.
const MIXED = `openapi: 3.0.3
info: {title: Mixed, version: "1"}
paths: {}
components:
  schemas:
    A:
      properties:
        n: {type: string}
    B:
      items: {type: string}
    C:
      type: integer
      format: int128
    D:
      allOf:
        - type: string
        - type: integer
`

const WARNING_ONLY = `openapi: 3.0.3
info: {title: Warn, version: "1"}
paths: {}
components:
  schemas:
    B:
      items: {type: string}
`

const DEBUG_ONLY = `openapi: 3.0.3
info: {title: Debug, version: "1"}
paths: {}
components:
  schemas:
    A:
      properties:
        n: {type: string}
`

const MISSING_REF = `openapi: 3.0.3
info: {title: Ref, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "./missing.yaml#/Pet"
`

const GOOD_REF = MISSING_REF.replace('./missing.yaml', './schemas.yaml')
const SCHEMAS = `Pet:
  type: object
  properties:
    tags:
      items: {type: string}
`

// The unclosed quote opens on line 4.
const BAD_YAML = `openapi: 3.0.3
info:
  title: x
  version: "1
paths: {}
`

const BAD_JSON = `{"openapi": "3.0.3",
 "info": {,}}
`

const SDL = `type Query {
  pet(id: ID!): Pet
}

type Pet {
  id: ID!
  name: String
}
`

const files = {
  'clean.yaml': CLEAN,
  'mixed.yaml': MIXED,
  'warning-only.yaml': WARNING_ONLY,
  'debug-only.yaml': DEBUG_ONLY,
  'missing-ref.yaml': MISSING_REF,
  'good-ref.yaml': GOOD_REF,
  'schemas.yaml': SCHEMAS,
  'bad.yaml': BAD_YAML,
  'bad.json': BAD_JSON,
  'empty.yaml': '',
  'not-an-api.yaml': 'name: x\nitems: [1, 2]\n',
  'schema.graphql': SDL,
}

let fixtures: ReturnType<typeof fixtureDir>
let dir: string
const check = (args: readonly string[], options: { stdin?: string } = {}) =>
  runSvc(['check', ...args], { cwd: dir, ...options })

beforeAll(() => {
  fixtures = fixtureDir(files)
  dir = fixtures.dir
  mkdirSync(join(dir, 'a-directory'))
  symlinkSync('loop', join(dir, 'loop'))
})
afterAll(() => fixtures?.dispose())

type Report = {
  parseIssues: { type: string; level: string; location: string; line?: number; column?: number }[]
  summary: Record<string, number>
}

function report(run: SvcRun): Report {
  const value = parseJsonStdout(run)
  expect(Object.keys(value).sort()).toEqual(['parseIssues', 'summary'])
  return value as unknown as Report
}

/** An unreadable document under --json: one object, empty report, and the error. */
function unreadable(
  run: SvcRun,
  code: string,
): { code: string; message: string; line?: number; column?: number } {
  expect(run.code).toBe(1)
  const value = parseJsonStdout(run)
  expect(Object.keys(value).sort()).toEqual(['error', 'parseIssues', 'summary'])
  expect(value.parseIssues).toEqual([])
  expect(value.summary).toEqual({ error: 0, warning: 0, debug: 0 })
  const error = value.error as { code: string; message: string }
  expect(error.code).toBe(code)
  expect(error.message).toEqual(expect.any(String))
  expect(run.stderr).not.toMatch(/internal error/)
  return error
}

describe('svc check: missing or invalid input (exit 2, recipe on stderr)', () => {
  it('no input at all', async () => {
    const run = await check([])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    const recipe = recipeLines(run.stderr)
    expect(recipe.error).toMatch(/needs an API description/)
    expect(recipe.usage).toMatch(/^Usage: svc check <file\|url\|-> /)
    expect(recipe.usage).toContain('--max-bytes')
    expect(recipe.example).toMatch(/^Example: svc check \S+/)
    expect(recipe.discover).toMatch(/^Discover: \S+/)
  })

  it('a file that does not exist, also under --json (one error object on stdout)', async () => {
    for (const args of [['nope.yaml'], ['nope.yaml', '--json']]) {
      const run = await check(args)
      expect(run.code).toBe(2)
      expectFailureStdout(run, args)
      expect(recipeLines(run.stderr).error).toBe('error: No such file: nope.yaml')
    }
  })

  it('a path below a file, which cannot exist either', async () => {
    const run = await check(['clean.yaml/child.yaml'])
    expect(run.code).toBe(2)
    expect(recipeLines(run.stderr).error).toContain('clean.yaml/child.yaml')
  })

  it.each([
    ['an unknown option', ['clean.yaml', '--bogus'], /unknown option '--bogus'/],
    ['two inputs', ['clean.yaml', 'mixed.yaml'], /too many arguments/],
    [
      '--max-bytes that is not a number',
      ['clean.yaml', '--max-bytes', 'lots'],
      /--max-bytes.*'lots' is invalid/,
    ],
    ['--max-bytes 0', ['clean.yaml', '--max-bytes', '0'], /--max-bytes.*'0' is invalid/],
  ])('%s', async (_, args, message) => {
    const run = await check(args)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(message)
    expect(run.stderr).toContain('svc check --help')
    expect(run.stderr).not.toMatch(/internal error/)
  })

  it('an unknown command points at svc --help, not at the unknown name', async () => {
    const run = await runSvc(['chek', 'clean.yaml'], { cwd: dir })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/unknown command 'chek'/)
    expect(run.stderr).toContain("Run 'svc --help' for usage.")
  })
})

describe('svc check: text report', () => {
  it('a clean document: exit 0, "no issues", nothing on stderr', async () => {
    const run = await check(['clean.yaml'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('clean.yaml: OpenAPI 3.0.3 (YAML)\n✓ no issues\n')
    expect(run.stderr).toBe('')
  })

  it('warnings only: exit 0, each issue with type, location and (line:column)', async () => {
    const run = await check(['warning-only.yaml'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('0 errors, 1 warning')
    expect(run.stdout).toContain('\nWarnings\n  MISSING_ARRAY_TYPE components:schemas:B (6:5)\n')
    expect(run.stdout).not.toContain('Errors')
  })

  it('groups by level, errors first, and hides debug issues behind a count', async () => {
    const run = await check(['mixed.yaml'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    const out = run.stdout
    expect(out).toContain('1 error, 1 warning, 2 debug issues (hidden; --debug shows them)')
    expect(out).toContain('\nErrors\n  INVALID_SCHEMA components:schemas:D (14:5)\n')
    expect(out).toContain('\nWarnings\n  MISSING_ARRAY_TYPE components:schemas:B (9:5)\n')
    expect(out.indexOf('Errors')).toBeLessThan(out.indexOf('Warnings'))
    expect(out).not.toContain('Debug')
    expect(out).not.toContain('MISSING_OBJECT_TYPE')
    expect(out).not.toContain('INVALID_FORMAT')
  })

  it('--debug shows the debug issues in a third group', async () => {
    const run = await check(['mixed.yaml', '--debug'])
    expect(run.code).toBe(1)
    const out = run.stdout
    expect(out).not.toContain('hidden')
    expect(out).toMatch(
      /\nDebug\n {2}MISSING_OBJECT_TYPE components:schemas:A \(6:5\)\n.*\n {2}INVALID_FORMAT components:schemas:C:format \(13:7\)\n/,
    )
    expect(out.indexOf('Warnings')).toBeLessThan(out.indexOf('Debug'))
  })

  it('debug issues alone do not fail the check; the count says they are hidden', async () => {
    const hidden = await check(['debug-only.yaml'])
    expect(hidden.code).toBe(0)
    expect(hidden.stdout).toContain('no issues (1 debug issue hidden; --debug shows them)')
    const shown = await check(['debug-only.yaml', '--debug'])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('MISSING_OBJECT_TYPE components:schemas:A (6:5)')
  })

  it('reads GraphQL SDL', async () => {
    const run = await check(['schema.graphql'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^schema\.graphql: GraphQL SDL\n/)
  })
})

describe('svc check --json', () => {
  it('prints exactly one object { parseIssues, summary }, debug issues included', async () => {
    const run = await check(['mixed.yaml', '--json'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    const { parseIssues, summary } = report(run)
    expect(summary).toEqual({ error: 1, warning: 1, debug: 2 })
    expect(
      parseIssues.map((issue) => [
        issue.type,
        issue.level,
        issue.location,
        issue.line,
        issue.column,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['MISSING_OBJECT_TYPE', 'debug', 'components:schemas:A', 6, 5],
        ['MISSING_ARRAY_TYPE', 'warning', 'components:schemas:B', 9, 5],
        ['INVALID_FORMAT', 'debug', 'components:schemas:C:format', 13, 7],
        ['INVALID_SCHEMA', 'error', 'components:schemas:D', 14, 5],
      ]),
    )
    expect(parseIssues).toHaveLength(4)
  })

  it('exit 0 with warnings, and an empty list for a clean document', async () => {
    const warned = await check(['--json', 'warning-only.yaml'])
    expect(warned.code).toBe(0)
    expect(report(warned).summary).toEqual({ error: 0, warning: 1, debug: 0 })
    const clean = await check(['--json', 'clean.yaml'])
    expect(clean.code).toBe(0)
    expect(report(clean)).toEqual({ parseIssues: [], summary: { error: 0, warning: 0, debug: 0 } })
  })
})

describe('svc check: documents that cannot be read (exit 1)', () => {
  it('a directory: message on stderr, nothing on stdout', async () => {
    const run = await check(['a-directory'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe('error: a-directory is a directory, not a document.\n')
  })

  it('a directory under --json: one object with the error, and the message on stderr', async () => {
    const run = await check(['a-directory', '--json'])
    expect(unreadable(run, 'unreadable').message).toContain('a directory')
    expect(run.stderr).toContain('a directory')
  })

  it('a path that cannot be opened (symlink loop) is unreadable, not a crash', async () => {
    const run = await check(['loop'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('error: Cannot read loop: ELOOP.\n')
  })

  it('a YAML syntax error', async () => {
    const text = await check(['bad.yaml'])
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toMatch(/^error: .*bad\.yaml.*Invalid YAML.*closing "quote/)
    unreadable(await check(['bad.yaml', '--json']), 'invalid_syntax')
  })

  // The unclosed quote opens on line 4 and swallows the rest: the parser notices at the end (6:1).
  it('a YAML syntax error names its line and column', async () => {
    const error = unreadable(await check(['bad.yaml', '--json']), 'invalid_syntax')
    expect(error).toMatchObject({ line: 6, column: 1 })
    expect(error.message).toMatch(/line 6, column 1/)
  })

  it('a JSON syntax error names its line and column, in the message and the JSON', async () => {
    const text = await check(['bad.json'])
    expect(text.code).toBe(1)
    expect(text.stderr).toMatch(/bad\.json:2:11: Invalid JSON at line 2, column 11/)
    const error = unreadable(await check(['bad.json', '--json']), 'invalid_syntax')
    expect(error).toMatchObject({ line: 2, column: 11 })
  })

  it.each([
    ['an empty file', 'empty.yaml', 'empty_document'],
    ['YAML that is not an API description', 'not-an-api.yaml', 'unknown_protocol'],
  ])('%s', async (_, file, code) => {
    const text = await check([file])
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toMatch(/^error: /)
    unreadable(await check([file, '--json']), code)
  })

  it('an alias bomb is refused by its expanded size, the message naming the limit', async () => {
    const text = await check(['-'], { stdin: aliasBomb(3_000, 990, 'bomb') })
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toBe(
      'error: <stdin>: The YAML document has more than 10,000,000 nodes once its aliases are expanded (the limit on expanded nodes); refusing what looks like an alias bomb.\n',
    )
    unreadable(
      await check(['-', '--json'], { stdin: aliasBomb(3_000, 990, 'bomb') }),
      'too_complex',
    )
  })

  it('--max-bytes refuses a larger file, and the same file passes under a higher limit', async () => {
    const refused = await check(['clean.yaml', '--max-bytes', '50'])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/^error: The document is \d+ B; the limit is 50 B/)
    unreadable(await check(['clean.yaml', '--max-bytes', '50', '--json']), 'too_large')
    expect((await check(['clean.yaml', '--max-bytes', '100000'])).code).toBe(0)
  })
})

describe('svc check: relative $ref', () => {
  it('a ref to a missing file is an error-level issue (exit 1)', async () => {
    const run = await check(['missing-ref.yaml', '--json'])
    expect(run.code).toBe(1)
    const { parseIssues, summary } = report(run)
    expect(summary.error).toBe(1)
    expect(parseIssues[0]).toMatchObject({
      type: 'INVALID_DEPENDENCY_REF',
      level: 'error',
      location: 'paths:/a:get:responses:200:content:application/json:schema',
      line: 11,
    })
    expect(JSON.stringify(parseIssues[0])).toContain('missing.yaml')
  })

  it('a ref to an existing file is followed; its issues point into that file', async () => {
    const run = await check(['good-ref.yaml'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(
      'MISSING_ARRAY_TYPE components:schemas:Pet:properties:tags (schemas.yaml:4:5)',
    )
  })
})

describe('svc check - (standard input)', () => {
  it('reads the document from stdin', async () => {
    const run = await check(['-'], { stdin: CLEAN })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('<stdin>: OpenAPI 3.0.3 (YAML)\n✓ no issues\n')
  })

  it('reports issues of stdin input, with --json', async () => {
    const run = await check(['-', '--json'], { stdin: MIXED })
    expect(run.code).toBe(1)
    expect(report(run).summary).toEqual({ error: 1, warning: 1, debug: 2 })
  })

  it('reads GraphQL SDL from stdin', async () => {
    const run = await check(['-'], { stdin: SDL })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('<stdin>: GraphQL SDL')
  })

  it('empty stdin is unreadable', async () => {
    unreadable(await check(['-', '--json'], { stdin: '' }), 'empty_document')
  })

  it('--max-bytes applies to stdin', async () => {
    const run = await check(['-', '--max-bytes', '50'], { stdin: CLEAN })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/larger than the limit of 50 B/)
  })
})

describe('svc check <url>', () => {
  let server: Server
  let base: string
  let closedPortUrl: string

  beforeAll(async () => {
    server = createServer((request, response) => {
      const body = { '/clean.yaml': CLEAN, '/mixed.yaml': MIXED }[request.url ?? '']
      if (request.url === '/moved.yaml') {
        response.writeHead(302, { location: '/mixed.yaml' }).end()
      } else if (request.url === '/huge.yaml') {
        response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) })
        // Never completed: the client must refuse on the declared length alone.
        response.write('openapi: 3.0.3\n')
      } else if (request.url === '/endless.yaml') {
        // No declared length: the client must stop reading once it has seen too much.
        response.writeHead(200)
        response.write(`openapi: 3.0.3\n#${'x'.repeat(4000)}\n`)
      } else if (body === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      } else {
        response.writeHead(200, { 'content-type': 'application/yaml' }).end(body)
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    // A port that was free a moment ago: connecting to it is refused.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    closedPortUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/clean.yaml`
    await new Promise((resolve) => probe.close(resolve))
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  })

  it('reads a document served over http', async () => {
    const run = await check([`${base}/clean.yaml`])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`${base}/clean.yaml: OpenAPI 3.0.3 (YAML)\n✓ no issues\n`)
  })

  it('reports the issues of a served document, following a redirect', async () => {
    const run = await check([`${base}/moved.yaml`, '--json'])
    expect(run.code).toBe(1)
    expect(report(run).summary).toEqual({ error: 1, warning: 1, debug: 2 })
  })

  it('a 404 is unreadable (exit 1), in text and JSON', async () => {
    const text = await check([`${base}/nope.yaml`])
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toBe(`error: Could not fetch ${base}/nope.yaml: HTTP 404.\n`)
    expect(
      unreadable(await check([`${base}/nope.yaml`, '--json']), 'unreadable').message,
    ).toContain('HTTP 404')
  })

  it('a refused connection is unreadable (exit 1)', async () => {
    const run = await check([closedPortUrl, '--json'])
    expect(unreadable(run, 'unreadable').message).toMatch(/Could not fetch .*ECONNREFUSED/)
  })

  it('--max-bytes refuses a response whose declared length is larger', async () => {
    const run = await check([`${base}/huge.yaml`, '--max-bytes', '1000'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/The document is 10\.0 MiB; the limit is 1000 B/)
    // It must not wait for a body it refused (it used to hang until the server timed out).
    expect(run.ms).toBeLessThan(5_000)
  })

  it('--max-bytes stops reading an undeclared body once it is larger', async () => {
    const run = await check([`${base}/endless.yaml`, '--max-bytes', '1000', '--json'])
    expect(unreadable(run, 'too_large').message).toMatch(/larger than the limit of 1000 B/)
    expect(run.ms).toBeLessThan(5_000)
  })
})
