import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aliasBomb } from '../../hub/test/support/documents.js'
import {
  expectFailureStdout,
  fixtureDir,
  parseJsonStdout,
  recipeLines,
  REPO_ROOT,
  runSvc,
  type SvcRun,
} from './support/run-svc.js'

/**
 * The fixtures in fixtures/diff: petstore-v2 removes DELETE /pets/{petId}, adds
 * GET /pets/{petId}/owner and an optional `limit` on GET /pets; -docs changes only prose;
 * -deprecated deprecates DELETE; -extended adds one operation; petstore-v1.json is v1 as JSON;
 * schema-v2.graphql removes Pet.tag and adds the type Owner (and Pet.owner).
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/diff/', import.meta.url))

type Change = {
  id: string
  level: 'breaking' | 'warning' | 'info'
  message: string
  location: string
  operation?: string
  operations?: string[]
  line?: number
  column?: number
  file?: string
}
type Changelog = {
  summary: {
    diff: boolean
    details: Record<string, { added: number; deleted: number; modified: number }>
  }
  counts: { breaking: number; warning: number; info: number }
  changes: Change[]
}

const diff = (
  args: readonly string[],
  options: { stdin?: string; cwd?: string; timeoutMs?: number } = {},
) => runSvc(['diff', ...args], { cwd: FIXTURES, ...options })

const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8')

/**
 * Exactly one object with the three keys of a changelog, nothing else on stdout; a fourth,
 * `issues`, only when a side has parse errors.
 */
function changelog(run: SvcRun): Changelog {
  const value = parseJsonStdout(run)
  const keys = ['changes', 'counts', 'summary', ...('issues' in value ? ['issues'] : [])]
  expect(Object.keys(value).sort()).toEqual(keys.sort())
  const log = value as unknown as Changelog
  // The counts are those of the entries, and the entries come breaking → warning → info.
  const tally = { breaking: 0, warning: 0, info: 0 }
  for (const change of log.changes) tally[change.level]++
  expect(log.counts).toEqual(tally)
  const ranks = log.changes.map((change) => ['breaking', 'warning', 'info'].indexOf(change.level))
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
  return log
}

/** A changelog without the places of its changes, which differ between two spellings. */
function withoutPlaces(log: Changelog): Changelog {
  return {
    ...log,
    changes: log.changes.map(({ line: _line, column: _column, file: _file, ...change }) => change),
  }
}

/** A document that cannot be read under --json: exit 1, one empty changelog with an error. */
function unreadable(run: SvcRun, code: string): { code: string; message: string; file?: string } {
  expect(run.code).toBe(1)
  const value = parseJsonStdout(run)
  expect(Object.keys(value).sort()).toEqual(['changes', 'counts', 'error', 'summary'])
  expect(value).toMatchObject({
    summary: { diff: false, details: {} },
    counts: { breaking: 0, warning: 0, info: 0 },
    changes: [],
  })
  const error = value.error as { code: string; message: string }
  expect(error.code).toBe(code)
  expect(error.message).toEqual(expect.any(String))
  expect(run.stderr).toMatch(/^error: /)
  expect(run.stderr).not.toMatch(/internal error/)
  return error
}

const ids = (log: Changelog, level?: Change['level']) =>
  log.changes.filter((change) => !level || change.level === level).map((change) => change.id)

let scratch: ReturnType<typeof fixtureDir>

beforeAll(() => {
  scratch = fixtureDir({ 'petstore-v1.yaml': fixture('petstore-v1.yaml') })
  mkdirSync(join(scratch.dir, 'a-directory'))
})
afterAll(() => scratch?.dispose())

describe('svc diff: missing or invalid input (exit 2; stdout empty, or one error object under --json)', () => {
  it('no input at all: a recipe error with all four lines', async () => {
    const run = await diff([])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    const recipe = recipeLines(run.stderr)
    expect(recipe.error).toMatch(/needs two API descriptions/)
    expect(recipe.usage).toBe(
      'Usage: svc diff <old> <new> [--format text|json|markdown|github|junit] [--fail-on breaking|warning] [--profile wire|sdk [--generators <names> | --project <name>]] [--waivers <file>]',
    )
    expect(recipe.example).toMatch(/^Example: svc diff \S+ \S+/)
    expect(recipe.discover).toMatch(/^Discover: \S+/)
  })

  it('only one input, also under --json', async () => {
    for (const args of [['petstore-v1.yaml'], ['petstore-v1.yaml', '--json']]) {
      const run = await diff(args)
      expect(run.code).toBe(2)
      expectFailureStdout(run, args)
      expect(recipeLines(run.stderr).error).toMatch(/needs two API descriptions/)
    }
  })

  it('a file that does not exist, on either side', async () => {
    for (const args of [
      ['nope.yaml', 'petstore-v2.yaml'],
      ['petstore-v1.yaml', 'nope.yaml', '--json'],
    ]) {
      const run = await diff(args)
      expect(run.code).toBe(2)
      expectFailureStdout(run, args)
      expect(recipeLines(run.stderr).error).toBe('error: No such file: nope.yaml')
    }
  })

  it('standard input on both sides', async () => {
    const run = await diff(['-', '-'], { stdin: fixture('petstore-v1.yaml') })
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(recipeLines(run.stderr).error).toBe(
      'error: Only one of <old> and <new> can be - (standard input).',
    )
  })

  it.each([
    [
      'a --fail-on level that does not exist',
      ['petstore-v1.yaml', 'petstore-v2.yaml', '--fail-on', 'info'],
      /--fail-on.*'info' is invalid.*breaking, warning/,
    ],
    [
      '--fail-on without a level',
      ['petstore-v1.yaml', 'petstore-v2.yaml', '--fail-on'],
      /--fail-on <level>' argument missing/,
    ],
    ['an unknown option', ['petstore-v1.yaml', 'petstore-v2.yaml', '--bogus'], /unknown option/],
    ['three inputs', ['petstore-v1.yaml', 'petstore-v2.yaml', 'x.yaml'], /too many arguments/],
  ])('%s', async (_, args, message) => {
    for (const json of [[], ['--json']]) {
      const run = await diff([...json, ...args])
      expect(run.code).toBe(2)
      expectFailureStdout(run, [...json, ...args])
      expect(run.stderr).toMatch(message)
      expect(run.stderr).toContain("Run 'svc diff --help' for usage.")
      expect(run.stderr).not.toMatch(/internal error/)
    }
  })
})

describe('svc diff: text report', () => {
  it('headline, sections, then the changes grouped by endpoint, each with its readable path', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const out = run.stdout
    expect(out).not.toContain('\x1b[')
    expect(out).toMatch(/^\d+ breaking, \d+ warnings?, \d+ info changes?\n/)
    expect(out).toMatch(/^operations: +\+1 −1 ~\d+$/m)
    // The endpoint with a breaking change first; `level  id  path  message` below its endpoint.
    expect(out).toContain(
      '\n\nDELETE /pets/{petId}\n  breaking  endpoint-removed                The operation DELETE /pets/{petId} was removed.\n',
    )
    expect(out).toContain(
      '\n\nGET /pets\n  info      new-optional-request-parameter  query parameter limit  The optional query parameter `limit` was added.\n',
    )
    expect(out).toContain('\n\nGET /pets/{petId}/owner\n  info      endpoint-added ')
    expect(out.indexOf('DELETE /pets/{petId}\n')).toBeLessThan(out.indexOf('GET /pets\n'))
    expect(out).not.toContain('/paths/')
  })

  it('--json keeps each change’s JSON pointer and adds its readable path', async () => {
    const { changes } = changelog(await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json']))
    expect(changes).toContainEqual(
      expect.objectContaining({
        id: 'new-optional-request-parameter',
        location: '/paths/~1pets/get/parameters/query/limit',
        path: 'GET /pets › query parameter limit',
        operation: 'GET /pets',
      }),
    )
  })

  it('GraphQL: grouped by type, each change at its coordinate', async () => {
    const run = await diff(['schema-v1.graphql', 'schema-v2.graphql'])
    expect(run.stdout).toContain(
      '\n\nPet\n  breaking  field-removed  tag  Field `Pet.tag` was removed.\n',
    )
    expect(run.stdout).toContain('\n\nOwner\n  info      type-added     Type `Owner` was added.')
  })

  it('the headline counts agree with --json', async () => {
    const text = await diff(['petstore-v1.yaml', 'petstore-v2.yaml'])
    const { counts } = changelog(await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json']))
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
    expect(text.stdout.split('\n')[0]).toBe(
      `${counts.breaking} breaking, ${plural(counts.warning, 'warning')}, ${plural(counts.info, 'info change')}`,
    )
  })

  it('a description-only change: documentation entries, and exit 0 even with --fail-on warning', async () => {
    for (const args of [[], ['--fail-on', 'breaking'], ['--fail-on', 'warning']]) {
      const run = await diff(['petstore-v1.yaml', 'petstore-v1-docs.yaml', ...args])
      expect(run.code).toBe(0)
      expect(run.stdout.split('\n').slice(0, 4)).toEqual([
        '0 breaking, 0 warnings, 3 info changes',
        'documentation: +0 −0 ~3',
        '',
        'Documentation (3)',
      ])
      expect(run.stdout).toContain(
        '  info      operation-summary-changed     GET /pets › summary  The summary of GET /pets changed.',
      )
      expect(run.stderr).toBe('')
    }
  })

  it('the same document as YAML and as JSON: no changes', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v1.json'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('No changes.\n')
  })
})

describe('svc diff --json', () => {
  it('prints exactly one object { summary, counts, changes }', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json'])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const log = changelog(run)
    expect(log.summary.diff).toBe(true)
    expect(log.summary.details.operations).toMatchObject({ added: 1, deleted: 1 })
    expect(log.counts.breaking).toBeGreaterThanOrEqual(1)
    expect(ids(log, 'breaking')).toContain('endpoint-removed')
    expect(ids(log, 'info')).toContain('endpoint-added')
    for (const change of log.changes) {
      expect(change).toEqual({
        id: expect.any(String),
        level: expect.stringMatching(/^(breaking|warning|info)$/),
        message: expect.any(String),
        location: expect.any(String),
        path: expect.any(String),
        ...(change.operation !== undefined ? { operation: change.operation } : {}),
        ...(change.operations !== undefined ? { operations: change.operations } : {}),
        // Where it is: in the new document, or in the old one (`file`) for a removal.
        line: expect.any(Number),
        column: expect.any(Number),
        ...(change.file !== undefined ? { file: join(FIXTURES, 'petstore-v1.yaml') } : {}),
      })
    }
  })

  it('no changes: an empty changelog', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v1.json', '--json'])
    expect(run.code).toBe(0)
    expect(changelog(run)).toEqual({
      summary: { diff: false, details: {} },
      counts: { breaking: 0, warning: 0, info: 0 },
      changes: [],
    })
  })

  it('a description-only change: diff is true, every entry info in the documentation section', async () => {
    const log = changelog(await diff(['petstore-v1.yaml', 'petstore-v1-docs.yaml', '--json']))
    expect(log.summary).toEqual({
      diff: true,
      details: { documentation: { added: 0, deleted: 0, modified: 3 } },
    })
    expect(log.counts).toEqual({ breaking: 0, warning: 0, info: 3 })
    expect(log.changes.map((change) => change.id)).toEqual([
      'api-info-changed',
      'response-description-changed',
      'operation-summary-changed',
    ])
  })

  it('JSON and YAML inputs give the same changelog', async () => {
    const yaml = changelog(await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json']))
    const json = changelog(await diff(['petstore-v1.json', 'petstore-v2.yaml', '--json']))
    expect(withoutPlaces(json)).toEqual(withoutPlaces(yaml))
  })
})

describe('svc diff --fail-on', () => {
  it('breaking: exit 1 when there is a breaking change, with the full report on stdout', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--fail-on', 'breaking'])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/\nDELETE \/pets\/\{petId\}\n {2}breaking {2}endpoint-removed /)
    expect(run.stderr).toMatch(/^error: --fail-on breaking: \d+ breaking changes?\.\n$/)
  })

  it('breaking, with --json: exit 1 and still exactly one changelog object', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json', '--fail-on=breaking'])
    expect(run.code).toBe(1)
    expect(changelog(run).counts.breaking).toBeGreaterThan(0)
  })

  it('warnings only: --fail-on breaking passes (exit 0), --fail-on warning fails (exit 1)', async () => {
    const args = ['petstore-v1.yaml', 'petstore-v1-secured.yaml']
    const log = changelog(await diff([...args, '--json']))
    expect(log.counts).toMatchObject({ breaking: 0 })
    expect(log.counts.warning).toBeGreaterThan(0)
    const breaking = await diff([...args, '--fail-on', 'breaking'])
    expect(breaking.code).toBe(0)
    expect(breaking.stderr).toBe('')
    const warning = await diff([...args, '--fail-on', 'warning'])
    expect(warning.code).toBe(1)
    expect(warning.stderr).toMatch(/^error: --fail-on warning: \d+ warnings?\.\n$/)
  })

  it('warning also fails on breaking changes', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--fail-on', 'warning'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^error: --fail-on warning: \d+ breaking changes?/)
  })

  it('info changes only: exit 0 under either level', async () => {
    const args = ['petstore-v1.yaml', 'petstore-v1-extended.yaml']
    const log = changelog(await diff([...args, '--json']))
    expect(log.counts).toMatchObject({ breaking: 0, warning: 0 })
    expect(ids(log, 'info')).toContain('endpoint-added')
    for (const level of ['breaking', 'warning']) {
      const run = await diff([...args, '--fail-on', level])
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/^0 breaking, 0 warnings, \d+ info changes?\n/)
    }
  })

  it('a renamed operationId is info: the requests and responses are the same', async () => {
    const log = changelog(await diff(['petstore-v1.yaml', 'petstore-v1-renamed.yaml', '--json']))
    expect(log.counts).toMatchObject({ breaking: 0, warning: 0 })
    expect(ids(log, 'info')).toEqual(['operation-id-changed'])
  })

  it('without --fail-on, breaking changes still exit 0', async () => {
    expect((await diff(['petstore-v1.yaml', 'petstore-v2.yaml'])).code).toBe(0)
  })
})

describe('svc diff - (standard input)', () => {
  it('reads the old side from stdin', async () => {
    const files = changelog(await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json']))
    const run = await diff(['-', 'petstore-v2.yaml', '--json'], {
      stdin: fixture('petstore-v1.yaml'),
    })
    expect(run.code).toBe(0)
    expect(withoutPlaces(changelog(run))).toEqual(withoutPlaces(files))
  })

  it('reads the new side from stdin', async () => {
    const run = await diff(['petstore-v1.yaml', '-', '--fail-on', 'breaking'], {
      stdin: fixture('petstore-v2.yaml'),
    })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^ {2}breaking {2}endpoint-removed /m)
  })

  it('empty stdin is unreadable', async () => {
    unreadable(await diff(['-', 'petstore-v2.yaml', '--json'], { stdin: '' }), 'empty_document')
  })
})

describe('svc diff: documents that cannot be read (exit 1)', () => {
  it('a directory: the message on stderr, nothing on stdout', async () => {
    const run = await diff(['petstore-v1.yaml', 'a-directory'], { cwd: scratch.dir })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe('error: a-directory is a directory, not a document.\n')
  })

  it('a directory under --json: one empty changelog with the error', async () => {
    const run = await diff(['a-directory', 'petstore-v1.yaml', '--json'], { cwd: scratch.dir })
    expect(unreadable(run, 'unreadable').message).toContain('a directory')
  })

  it('a file that is not an API description, on either side', async () => {
    for (const args of [
      ['not-an-api.yaml', 'petstore-v2.yaml'],
      ['petstore-v1.yaml', 'not-an-api.yaml', '--fail-on', 'breaking'],
    ]) {
      const text = await diff(args)
      expect(text.code).toBe(1)
      expect(text.stdout).toBe('')
      expect(text.stderr).toMatch(/^error: .*not-an-api\.yaml: .*neither an OpenAPI description/)
      const error = unreadable(await diff([...args, '--json']), 'unknown_protocol')
      expect(error.file).toMatch(/not-an-api\.yaml$/)
    }
  })

  it('an alias bomb on either side is refused by its expanded size, naming the limit', async () => {
    const text = await diff(['petstore-v1.yaml', '-'], { stdin: aliasBomb(3_000, 990, 'bomb') })
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('')
    expect(text.stderr).toMatch(
      /^error: <stdin>: The YAML document has more than 10,000,000 nodes once its aliases are expanded \(the limit on expanded nodes\)/,
    )
    const run = await diff(['-', 'petstore-v2.yaml', '--json'], {
      stdin: aliasBomb(3_000, 990, 'bomb'),
    })
    expect(unreadable(run, 'too_complex').file).toBe('<stdin>')
  })

  it('a YAML syntax error names its line', async () => {
    const run = await diff(['petstore-v1.yaml', '-', '--json'], {
      stdin: 'openapi: 3.0.3\ninfo:\n  title: "x\n',
    })
    expect(unreadable(run, 'invalid_syntax').message).toMatch(/Invalid YAML/)
  })
})

describe('svc diff: GraphQL SDL', () => {
  it('a removed field is breaking, a new type is info', async () => {
    const run = await diff(['schema-v1.graphql', 'schema-v2.graphql', '--json'])
    expect(run.code).toBe(0)
    const log = changelog(run)
    expect(ids(log, 'breaking')).toContain('field-removed')
    expect(ids(log, 'info')).toContain('type-added')
    expect(log.changes.find((change) => change.id === 'field-removed')?.location).toMatch(
      /Pet\.tag/,
    )
    expect(log.summary.details).toHaveProperty('types')
  })

  it('the text report and --fail-on work the same way', async () => {
    const run = await diff(['schema-v1.graphql', 'schema-v2.graphql', '--fail-on', 'breaking'])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^Pet\n {2}breaking {2}field-removed +tag {2}\S/m)
    expect(run.stdout).toMatch(/^Owner\n {2}info {6}type-added +\S/m)
    expect(run.stdout).toMatch(/^types: +\+1 −0 ~\d+$/m)
  })

  it('SDL from stdin', async () => {
    const run = await diff(['schema-v1.graphql', '-', '--json'], {
      stdin: fixture('schema-v2.graphql'),
    })
    expect(ids(changelog(run), 'breaking')).toContain('field-removed')
  })

  it('the same schema: no changes', async () => {
    const run = await diff(['schema-v1.graphql', 'schema-v1.graphql', '--fail-on', 'warning'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('No changes.\n')
  })
})

describe('svc diff on real descriptions (dev dependencies)', () => {
  const modules = join(REPO_ROOT, 'node_modules')

  it('GitHub Enterprise Server 3.18 → 3.19 (11 MB each): one well-formed changelog', async () => {
    const generated = join(modules, '@octokit/openapi/generated')
    const run = await diff(
      [join(generated, 'ghes-3.18.json'), join(generated, 'ghes-3.19.json'), '--json'],
      { timeoutMs: 120_000 },
    )
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const log = changelog(run)
    expect(log.summary.details.operations?.added).toBeGreaterThan(0)
    expect(ids(log)).toContain('endpoint-added')
  })

  it("GitHub's GraphQL schema, an older major → the installed one", async () => {
    const run = await diff(
      [
        join(modules, '@octokit/graphql-schema-14/schema.graphql'),
        join(modules, '@octokit/graphql-schema/schema.graphql'),
        '--json',
      ],
      { timeoutMs: 120_000 },
    )
    expect(run.code).toBe(0)
    const log = changelog(run)
    expect(log.counts.breaking).toBeGreaterThan(0)
    expect(ids(log, 'info')).toContain('type-added')
  })
})
