import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parentLine, parseGithub, parseJunit, parseMarkdown, textAt } from './support/ci-formats.js'
import {
  fixtureDir,
  parseJsonStdout,
  recipeLines,
  REPO_ROOT,
  runSvc,
  runSvcProcess,
  type SvcRun,
} from './support/run-svc.js'

/**
 * `--format text|json|markdown|github|junit` on real pairs: the fixtures of fixtures/diff
 * (petstore-v2 removes DELETE /pets/{petId}, adds GET /pets/{petId}/owner and an optional query
 * parameter `limit` on GET /pets; schema-v2.graphql removes Pet.tag, adds Owner and Pet.owner),
 * the Swagger 2.0 petstore against its OpenAPI 3 rewrite, GitHub's Enterprise Server
 * descriptions 3.18 → 3.19, and examples/petstore.yaml for svc check.
 */
const FIXTURES = fileURLToPath(new URL('./fixtures/diff/', import.meta.url))
const EXAMPLES = join(REPO_ROOT, 'node_modules/@readme/oas-examples')
const GHES = join(REPO_ROOT, 'node_modules/@octokit/openapi/generated')

const diff = (args: readonly string[], options: { stdin?: string; cwd?: string } = {}) =>
  runSvc(['diff', ...args], { cwd: FIXTURES, ...options })

type JsonChange = {
  id: string
  level: string
  location: string
  line?: number
  column?: number
  file?: string
  waived?: { reason: string }
}

function changes(run: SvcRun): JsonChange[] {
  return (parseJsonStdout(run) as { changes: JsonChange[] }).changes
}

/** The annotation of one rule, exactly one. */
function only<T extends { title?: string }>(annotations: readonly T[], title: string): T {
  const found = annotations.filter((annotation) => annotation.title === title)
  expect(found, title).toHaveLength(1)
  return found[0]!
}

describe('--format github: workflow commands at the lines of the changes', () => {
  it('YAML → YAML: a removal at its line in the old document, the rest in the new one', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--format', 'github'])
    expect(run.code, run.stderr).toBe(0)
    const { annotations, summary } = parseGithub(run.stdout)
    expect(annotations).toHaveLength(4)

    const removed = only(annotations, 'endpoint-removed')
    expect(removed).toMatchObject({ command: 'error', file: 'petstore-v1.yaml' })
    expect(textAt(FIXTURES, removed)).toBe('delete:')
    expect(parentLine(FIXTURES, removed)).toBe('/pets/{petId}:')
    expect(removed.message).toBe('The operation DELETE /pets/{petId} was removed.')

    const limit = only(annotations, 'new-optional-request-parameter')
    expect(limit).toMatchObject({ command: 'notice', file: 'petstore-v2.yaml' })
    expect(textAt(FIXTURES, limit)).toBe('name: limit')
    expect(limit.message).toBe('The optional query parameter `limit` was added. (GET /pets)')

    const added = only(annotations, 'endpoint-added')
    expect(textAt(FIXTURES, added)).toBe('get:')
    expect(parentLine(FIXTURES, added)).toBe('/pets/{petId}/owner:')

    expect(textAt(FIXTURES, only(annotations, 'api-info-changed'))).toBe('version: 2.0.0')
    expect(summary).toBe(
      'svc diff: petstore-v1.yaml → petstore-v2.yaml: 1 breaking change, 0 warnings, 3 info changes.',
    )
  })

  it('the exit code is the text format’s: --fail-on breaking fails in every format', async () => {
    for (const format of ['text', 'json', 'markdown', 'github', 'junit']) {
      const args = ['petstore-v1.yaml', 'petstore-v2.yaml', '--fail-on', 'breaking']
      const run = await diff([...args, '--format', format])
      expect(run.code, format).toBe(1)
      expect(run.stderr).toBe('error: --fail-on breaking: 1 breaking change.\n')
      const clean = await diff([
        'petstore-v1.yaml',
        'petstore-v1-docs.yaml',
        '--fail-on',
        'warning',
        '--format',
        format,
      ])
      expect(clean.code, format).toBe(0)
    }
    const gate = await diff([
      'petstore-v1.yaml',
      'petstore-v2.yaml',
      '--format',
      'github',
      '--fail-on',
      'breaking',
    ])
    expect(parseGithub(gate.stdout).summary).toMatch(
      /--fail-on breaking failed: 1 breaking change\.$/,
    )
  })

  it('JSON → YAML and GraphQL: lines in each spelling', async () => {
    const json = parseGithub(
      (await diff(['petstore-v1.json', 'petstore-v2.yaml', '--format', 'github'])).stdout,
    ).annotations
    const removed = only(json, 'endpoint-removed')
    expect(removed.file).toBe('petstore-v1.json')
    expect(textAt(FIXTURES, removed)).toBe('"delete": {')

    const sdl = parseGithub(
      (await diff(['schema-v1.graphql', 'schema-v2.graphql', '--format', 'github'])).stdout,
    ).annotations
    expect(only(sdl, 'field-removed')).toMatchObject({
      command: 'error',
      file: 'schema-v1.graphql',
    })
    expect(textAt(FIXTURES, only(sdl, 'field-removed'))).toMatch(/^tag: /)
    expect(textAt(FIXTURES, only(sdl, 'field-added'))).toMatch(/^owner: Owner/)
    expect(textAt(FIXTURES, only(sdl, 'type-added'))).toMatch(/^Owner \{/)
  })

  it('a parse error of the new document is an ::error at its line, beside the change it makes', async () => {
    const v1 = readFileSync(join(FIXTURES, 'petstore-v1.yaml'), 'utf8')
    const start = v1.indexOf('responses:', v1.indexOf('    post:'))
    const broken = `${v1.slice(0, start)}responses: null\n      x-responses:${v1.slice(start + 'responses:'.length)}`
    const docs = fixtureDir({ 'old.yaml': v1, 'new.yaml': broken })
    try {
      const run = await diff(['old.yaml', 'new.yaml', '--format', 'github'], { cwd: docs.dir })
      const { annotations } = parseGithub(run.stdout)
      const issue = only(annotations, 'INVALID_OPERATION')
      expect(issue).toMatchObject({ command: 'error', file: 'new.yaml' })
      expect(textAt(docs.dir, issue)).toBe('post:')
      expect(textAt(docs.dir, only(annotations, 'operation-unparsable'))).toBe('post:')
    } finally {
      docs.dispose()
    }
  })

  it('an old document that is not a file: a removal at the nearest place the new one still has', async () => {
    const run = await diff(['-', 'petstore-v2.yaml', '--format', 'github'], {
      stdin: readFileSync(join(FIXTURES, 'petstore-v1.yaml'), 'utf8'),
    })
    const removed = only(parseGithub(run.stdout).annotations, 'endpoint-removed')
    expect(removed.file).toBe('petstore-v2.yaml')
    expect(textAt(FIXTURES, removed)).toBe('/pets/{petId}:')
  })

  it('a new document from standard input: annotations without a place, the summary names it', async () => {
    const run = await diff(['petstore-v1.yaml', '-', '--format', 'github'], {
      stdin: readFileSync(join(FIXTURES, 'petstore-v2.yaml'), 'utf8'),
    })
    const { annotations, summary } = parseGithub(run.stdout)
    expect(only(annotations, 'endpoint-added').file).toBeUndefined()
    expect(only(annotations, 'endpoint-removed').file).toBe('petstore-v1.yaml')
    expect(summary).toMatch(/^svc diff: petstore-v1\.yaml → <stdin>: /)
  })

  it('Swagger 2.0: OpenAPI 3 locations found in the Swagger documents (definitions, securityDefinitions)', async () => {
    const folder = join(EXAMPLES, '2.0/yaml')
    const run = await diff(['petstore.yaml', 'petstore-expanded.yaml', '--format', 'github'], {
      cwd: folder,
    })
    const { annotations } = parseGithub(run.stdout)
    const at = (title: string, message: RegExp) => {
      const found = annotations.find((a) => a.title === title && message.test(a.message))
      expect(found, `${title} ${message}`).toBeDefined()
      return {
        annotation: found!,
        text: textAt(folder, found!),
        parent: parentLine(folder, found!),
      }
    }
    expect(at('endpoint-removed', /DELETE \/pet\/\{petId\}/)).toMatchObject({
      annotation: { file: 'petstore.yaml' },
      text: 'delete:',
      parent: "'/pet/{petId}':",
    })
    expect(at('schema-removed', /`Category`/)).toMatchObject({
      annotation: { file: 'petstore.yaml' },
      text: 'Category:',
      parent: 'definitions:',
    })
    expect(at('schema-added', /`NewPet`/)).toMatchObject({
      annotation: { file: 'petstore-expanded.yaml' },
      text: 'NewPet:',
      parent: 'definitions:',
    })
    expect(at('security-scheme-removed', /api_key/)).toMatchObject({
      text: 'api_key:',
      parent: 'securityDefinitions:',
    })
    expect(at('endpoint-added', /POST \/pets/)).toMatchObject({ text: 'post:', parent: '/pets:' })
  })

  it('GitHub Enterprise Server 3.18 → 3.19 (11 MB of JSON each): every change at its key', async () => {
    const [old, next] = [join(GHES, 'ghes-3.18.json'), join(GHES, 'ghes-3.19.json')]
    const json = changes(await diff([old, next, '--json']))
    expect(json.length).toBeGreaterThan(1000)
    const lines = new Map<string, string[]>()
    const read = (file: string) => {
      if (!lines.has(file)) lines.set(file, readFileSync(file, 'utf8').split('\n'))
      return lines.get(file)!
    }
    let atLastKey = 0
    for (const change of json) {
      expect(change.line, change.location).toBeGreaterThan(0)
      const text = read(change.file ?? next)[change.line! - 1]!.slice(change.column! - 1)
      const segments = change.location
        .split('/')
        .slice(1)
        .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      // At the key of the place itself, or where the place is gone from the text, of an ancestor.
      if (text.startsWith(JSON.stringify(segments.at(-1)))) atLastKey++
      else
        expect(
          text === '{' || segments.some((segment) => text.startsWith(JSON.stringify(segment))),
          `${change.location}: ${text}`,
        ).toBe(true)
      if (change.file !== undefined) expect(change.file).toBe(old)
    }
    expect(atLastKey / json.length).toBeGreaterThan(0.98)
  })
})

describe('--format markdown: a pull-request comment', () => {
  it('title, counts, the gate, endpoints breaking first, documentation folded', async () => {
    const run = await diff([
      'petstore-v1.yaml',
      'petstore-v2.yaml',
      '--format',
      'markdown',
      '--fail-on',
      'breaking',
    ])
    expect(run.code).toBe(1)
    const md = parseMarkdown(run.stdout)
    expect(md.headings).toEqual([
      { level: 'h2', text: 'svc diff: petstore-v1.yaml → petstore-v2.yaml' },
      { level: 'h3', text: 'DELETE /pets/{petId}' },
      { level: 'h3', text: 'GET /pets' },
      { level: 'h3', text: 'GET /pets/{petId}/owner' },
    ])
    expect(md.rendered).toContain(
      '<strong>1 breaking change</strong> · 0 warnings · 3 info changes',
    )
    expect(md.rendered).toContain(
      '<code>--fail-on breaking</code> failed:</strong> 1 breaking change.',
    )
    expect(md.tables).toHaveLength(4)
    expect(md.tables[0]).toEqual([
      ['Level', 'Rule', 'Change', 'Where'],
      [
        'breaking',
        'endpoint-removed',
        'The operation DELETE /pets/{petId} was removed.',
        '(the operation) petstore-v1.yaml:49',
      ],
    ])
    expect(md.tables[1]![1]).toEqual([
      'info',
      'new-optional-request-parameter',
      'The optional query parameter `limit` was added.',
      'query parameter limit petstore-v2.yaml:12',
    ])
    // Documentation comes last, folded: its table is inside <details>.
    expect(md.html[0]).toMatch(/^<details><summary>Documentation \(1\)<\/summary>/)
    expect(md.html.at(-1)!.trim()).toBe('</details>')
    expect(md.tables[3]![1]![1]).toBe('api-info-changed')
  })

  it('stays one valid table row per change whatever the document names (|, <, backticks)', async () => {
    const hostile = (extra: string) => `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  '/a|b/<script>alert(1)</script>':
    get:
      parameters:
        - { name: 'x|\`y\`<b>', in: query, required: ${extra}, schema: { type: string } }
      responses: { '200': { description: ok } }
`
    const docs = fixtureDir({ 'old.yaml': hostile('false'), 'new.yaml': hostile('true') })
    try {
      const run = await diff(['old.yaml', 'new.yaml', '--format', 'markdown'], { cwd: docs.dir })
      expect(run.code, run.stderr).toBe(0)
      const md = parseMarkdown(run.stdout)
      expect(md.headings[1]!.text).toBe('GET /a|b/<script>alert(1)</script>')
      expect(md.tables[0]).toHaveLength(2)
      const [, row] = md.tables[0]!
      expect(row).toHaveLength(4)
      expect(row![2]).toBe('Query parameter `x|`y`<b>` became required.')
      expect(md.rendered).not.toMatch(/<script>|<b>/)
    } finally {
      docs.dispose()
    }
  })
})

describe('--format junit: one suite, a test case per endpoint or rule', () => {
  it('valid XML; breaking changes fail their test case; the rest pass with notes', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--format', 'junit'])
    expect(run.code).toBe(0)
    expect(run.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true)
    const suite = parseJunit(run.stdout)
    expect(suite.name).toBe('svc diff: petstore-v1.yaml → petstore-v2.yaml')
    expect(suite.testcase.map((testCase) => testCase.name)).toEqual([
      'DELETE /pets/{petId}',
      'api-info-changed',
      'GET /pets',
      'GET /pets/{petId}/owner',
    ])
    expect(suite.failures).toBe(1)
    const failed = suite.testcase[0]!
    expect(failed).toMatchObject({ file: 'petstore-v1.yaml', line: 49 })
    expect(failed.failure).toMatchObject({
      type: 'breaking',
      message: 'The operation DELETE /pets/{petId} was removed.',
    })
    expect(failed.failure!.text).toContain('endpoint-removed')
    expect(suite.testcase[2]!['system-out']).toContain('new-optional-request-parameter')
  })

  it('--fail-on warning makes warnings failures too', async () => {
    const args = ['petstore-v1.yaml', 'petstore-v1-secured.yaml', '--format', 'junit']
    expect(parseJunit((await diff(args)).stdout).failures).toBe(0)
    const run = await diff([...args, '--fail-on', 'warning'])
    expect(run.code).toBe(1)
    const suite = parseJunit(run.stdout)
    expect(suite.failures).toBe(1)
    expect(suite.testcase[0]!.failure!.type).toBe('warning')
  })

  it('a document that cannot be read is one failing test case, and exit 1', async () => {
    const run = await diff(['petstore-v1.yaml', 'not-an-api.yaml', '--format', 'junit'])
    expect(run.code).toBe(1)
    const suite = parseJunit(run.stdout)
    expect(suite.failures).toBe(1)
    expect(suite.testcase[0]!.failure!.message).toMatch(/neither an OpenAPI description/)
    const github = await diff(['petstore-v1.yaml', 'not-an-api.yaml', '--format', 'github'])
    expect(parseGithub(github.stdout).annotations[0]).toMatchObject({
      command: 'error',
      title: 'unknown_protocol',
    })
  })
})

describe('--json: the same shape, with line and column', () => {
  it('each change gains line/column, and file when it is not the new document', async () => {
    const json = changes(await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json']))
    expect(json.find((change) => change.id === 'endpoint-removed')).toMatchObject({
      line: 49,
      column: 5,
      file: join(FIXTURES, 'petstore-v1.yaml'),
    })
    const limit = json.find((change) => change.id === 'new-optional-request-parameter')!
    expect(limit).toMatchObject({ line: 12, column: 11 })
    expect(limit.file).toBeUndefined()
    // --format json is --json.
    const same = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--format', 'json'])
    expect(same.stdout).toBe(
      (await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json'])).stdout,
    )
  })

  it('--json with another --format is a usage error (exit 2), with the JSON error object', async () => {
    const run = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json', '--format', 'github'])
    expect(run.code).toBe(2)
    expect(recipeLines(run.stderr).error).toBe(
      'error: --json means --format json; it cannot go with --format github.',
    )
    expect(parseJsonStdout(run)).toMatchObject({ type: 'error', code: 'usage', exitCode: 2 })
    const unknown = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--format', 'html'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("argument 'html' is invalid")
    const agree = await diff(['petstore-v1.yaml', 'petstore-v2.yaml', '--json', '--format', 'json'])
    expect(agree.code).toBe(0)
  })
})

describe('svc check --format', () => {
  let docs: ReturnType<typeof fixtureDir>
  beforeAll(() => {
    docs = fixtureDir({
      'broken.yaml': `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /pets:
    get:
      responses: null
    post:
      responses: { '200': { description: ok } }
`,
    })
  })
  afterAll(() => docs.dispose())

  it('github: each issue at its line; the summary', async () => {
    const run = await runSvc(['check', 'examples/petstore.yaml', '--format', 'github'])
    expect(run.code).toBe(0)
    const { annotations, summary } = parseGithub(run.stdout)
    expect(annotations).toEqual([
      expect.objectContaining({
        command: 'warning',
        file: 'examples/petstore.yaml',
        title: 'MISSING_STRING_TYPE',
      }),
    ])
    expect(textAt(REPO_ROOT, annotations[0]!)).toMatch(/^status:/)
    expect(summary).toBe('svc check: examples/petstore.yaml: 0 errors, 1 warning.')
  })

  it('an error fails the document’s test case (junit), is an ::error (github), and a bold row (markdown)', async () => {
    const junit = await runSvc(['check', 'broken.yaml', '--format', 'junit'], { cwd: docs.dir })
    expect(junit.code).toBe(1)
    const suite = parseJunit(junit.stdout)
    expect(suite.testcase).toHaveLength(1)
    expect(suite.testcase[0]).toMatchObject({ name: 'broken.yaml', failure: { type: 'error' } })

    const github = await runSvc(['check', 'broken.yaml', '--format', 'github'], { cwd: docs.dir })
    const error = parseGithub(github.stdout).annotations.find((a) => a.command === 'error')!
    expect(textAt(docs.dir, error)).toBe('get:')

    const markdown = await runSvc(['check', 'broken.yaml', '--format', 'markdown'], {
      cwd: docs.dir,
    })
    const md = parseMarkdown(markdown.stdout)
    expect(md.headings.map((heading) => heading.text)).toEqual(['svc check: broken.yaml', 'Errors'])
    expect(md.tables[0]![1]![0]).toBe('error')
  })

  it('the real bin writes the same formats', async () => {
    const run = await runSvcProcess(['check', 'examples/petstore.yaml', '--format', 'junit'])
    expect(run.code).toBe(0)
    expect(parseJunit(run.stdout).testcase[0]!.name).toBe('examples/petstore.yaml')
  })
})
