import { describe, expect, it } from 'vitest'
import { parseGithub, parseJunit, parseMarkdown } from '../../test/support/ci-formats.js'
import { githubReport } from './github.js'
import { junitReport } from './junit.js'
import { COMMENT_LIMIT, markdownReport } from './markdown.js'
import type { Report, ReportChange } from './report.js'

const change = (index: number, extra: Partial<ReportChange> = {}): ReportChange => ({
  level: index % 3 === 0 ? 'breaking' : index % 3 === 1 ? 'warning' : 'info',
  rule: 'response-body-property-removed',
  message: `The property \`p${index}\` was removed.`,
  location: `/components/schemas/S${index}/properties/p${index}`,
  operation: `GET /things/${index % 40}`,
  documentation: false,
  place: { file: '/repo/openapi.yaml', line: index + 1, column: 7 },
  ...extra,
})

const report = (changes: readonly ReportChange[], extra: Partial<Report> = {}): Report => ({
  command: 'svc diff',
  subject: 'old.yaml → openapi.yaml',
  kind: 'changes',
  changes,
  issues: [],
  notes: [],
  ...extra,
})

/** What an API description can name, which every format must carry as it is. */
const HOSTILE =
  'a|b `c` <script>x</script> & %0A 100% :a,b\r\nnext ]]> \u0001\u0008\u001f \uFFFF \uD800 @team #12 $x$ *y* [z](u)'

describe('github', () => {
  it('escapes %, CR, LF in the message and : , too in properties, as the runner decodes them', () => {
    const out = githubReport(
      report([
        change(0, {
          rule: 'r:1,2',
          message: HOSTILE,
          place: { file: '/repo/a,b:c.yaml', line: 3, column: 1 },
        }),
      ]),
      '/repo',
    )
    expect(out.split('\n')).toHaveLength(2)
    const [annotation] = parseGithub(out).annotations
    expect(annotation).toEqual({
      command: 'error',
      file: 'a,b:c.yaml',
      line: 3,
      col: 1,
      title: 'r:1,2',
      message: `${HOSTILE} (GET /things/0)`,
    })
  })
})

describe('markdown', () => {
  it('any message stays one cell; HTML never reaches the page', () => {
    const md = parseMarkdown(markdownReport(report([change(0, { message: HOSTILE })]), '/repo'))
    const [header, row] = md.tables[0]!
    expect(header).toHaveLength(4)
    expect(row).toHaveLength(4)
    expect(row![2]).toBe(HOSTILE.replace(/[\r\n]+/g, ' '))
    expect(md.rendered).not.toMatch(/<script>|<em>|<a /)
  })

  it('stays under GitHub’s comment limit: whole rows, folded sections closed, a note of what is left', () => {
    const many = Array.from({ length: 5_000 }, (_, index) => change(index))
    const text = markdownReport(report(many), '/repo')
    expect(text.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(text).toMatch(
      /\*\d+ more rows not shown: the comment would pass GitHub's 65,536 characters/,
    )
    const md = parseMarkdown(text)
    const rows = md.tables.reduce((sum, table) => sum + table.length - 1, 0)
    const left = Number(/\*(\d+) more rows/.exec(text)![1])
    expect(rows + left).toBe(5_000)
    expect(text.match(/<details>/g)?.length ?? 0).toBe(text.match(/<\/details>/g)?.length ?? 0)
    // Breaking first: the first group shown has a breaking change.
    expect(md.tables[0]![1]![0]).toBe('breaking')
  })

  it('groups by endpoint, then by component, then other places; each row with its readable path', () => {
    const changes: ReportChange[] = [
      {
        level: 'info',
        rule: 'server-added',
        message: 'The server `https://b` was added.',
        location: '/servers/1',
        documentation: false,
      },
      {
        level: 'breaking',
        rule: 'response-body-property-became-optional',
        message: 'Response body, schema `Pet` `name`: the property became optional.',
        location: '/components/schemas/Pet/properties/name',
        operations: ['GET /pets'],
        documentation: false,
      },
      {
        level: 'warning',
        rule: 'request-parameter-max-decreased',
        message: 'Query parameter `limit`: the maximum decreased.',
        location: '/paths/~1pets/get/parameters/query/limit/schema',
        operation: 'GET /pets',
        documentation: false,
      },
      {
        level: 'breaking',
        rule: 'response-body-property-removed',
        message: 'Response 200 `owner.email`: the required property was removed.',
        location:
          '/paths/~1pets~1{petId}/get/responses/200/content/application~1json/schema/properties/owner/properties/email',
        operation: 'GET /pets/{petId}',
        documentation: false,
        place: { file: '/repo/openapi.yaml', line: 40, column: 15 },
      },
      {
        level: 'info',
        rule: 'endpoint-added',
        message: 'The operation POST /pets was added.',
        location: '/paths/~1pets/post',
        operation: 'POST /pets',
        documentation: false,
      },
      {
        level: 'info',
        rule: 'schema-description-changed',
        message: 'The description of schema `Pet` changed.',
        location: '/components/schemas/Pet/description',
        documentation: true,
      },
    ]
    const md = parseMarkdown(markdownReport(report(changes), '/repo'))
    expect(md.headings.map((heading) => heading.text)).toEqual([
      'svc diff: old.yaml → openapi.yaml',
      'GET /pets/{petId}',
      'GET /pets',
      'POST /pets',
      'components › schemas › Pet',
      'Other places',
    ])
    const where = md.tables.map((table) => table.slice(1).map((row) => row[3]))
    expect(where).toEqual([
      ['response 200 › body.owner.email openapi.yaml:40'],
      ['query parameter limit'],
      ['(the operation)'],
      ['name'],
      ['servers › 1'],
      ['components › schemas › Pet › description'],
    ])
    expect(md.tables[3]![1]![2]).toContain('(GET /pets)')
  })

  it('folds a long group in <details>, and documentation always', () => {
    const changes = [
      ...Array.from({ length: 12 }, (_, index) => change(index * 40)),
      change(1, { documentation: true, operation: undefined, rule: 'api-info-changed' }),
    ]
    const md = parseMarkdown(markdownReport(report(changes), '/repo'))
    expect(md.html.filter((block) => block.startsWith('<details>'))).toEqual([
      expect.stringMatching(/^<details><summary>GET \/things\/0 \(12\)<\/summary>/),
      expect.stringMatching(/^<details><summary>Documentation \(1\)<\/summary>/),
    ])
  })
})

describe('junit', () => {
  it('is valid XML whatever the messages hold, control characters included', () => {
    const xml = junitReport(report([change(0, { message: HOSTILE, operation: HOSTILE })]), '/repo')
    const suite = parseJunit(xml)
    expect(suite.testcase[0]!.name).toContain('<script>')
    expect(suite.testcase[0]!.failure!.text).toContain('\\u0001')
  })

  it('a breaking change fails its endpoint; a waived one does not; warnings only under --fail-on warning', () => {
    const changes = [
      change(0),
      change(3, { waived: { reason: 'accepted', entry: 1 } }),
      change(1, { operation: 'GET /other' }),
    ]
    expect(parseJunit(junitReport(report(changes), '/repo')).failures).toBe(1)
    const strict = parseJunit(junitReport(report(changes, { failOn: 'warning' }), '/repo'))
    expect(strict.testcase.map((t) => [t.name, t.failure?.type])).toEqual([
      ['GET /things/0', 'breaking'],
      ['GET /things/3', undefined],
      ['GET /other', 'warning'],
    ])
  })
})
