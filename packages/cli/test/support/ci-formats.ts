import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import MarkdownIt from 'markdown-it'
import { expect } from 'vitest'

/** One GitHub workflow command, decoded as the runner decodes it. */
export type Annotation = {
  readonly command: string
  readonly file?: string
  readonly line?: number
  readonly col?: number
  readonly title?: string
  readonly message: string
}

/** Reverses GitHub's escaping of a command's data (`%25`, `%0D`, `%0A`) and properties (`%3A`, `%2C`). */
function unescape(text: string): string {
  return text.replace(/%(25|0D|0A|3A|2C)/g, (_, code: string) =>
    String.fromCharCode(parseInt(code, 16)),
  )
}

/**
 * Parses `--format github` output: every line but the last is a workflow command
 * (`::error file=…,line=…,col=…,title=…::message`) with no raw `:`/`,` in a property and no
 * raw line break; the last is the summary.
 */
export function parseGithub(stdout: string): { annotations: Annotation[]; summary: string } {
  const lines = stdout.trimEnd().split('\n')
  const summary = lines.pop()!
  expect(summary.startsWith('::')).toBe(false)
  const annotations = lines.map((line) => {
    const match = /^::(error|warning|notice) ([^:]*)::(.*)$/.exec(line)
    if (!match) throw new Error(`not a workflow command: ${line}`)
    const properties = Object.fromEntries(
      match[2]!.split(',').map((pair) => {
        const [key, value = ''] = pair.split('=')
        return [key!, unescape(value)]
      }),
    )
    return {
      command: match[1]!,
      message: unescape(match[3]!),
      ...(properties.file === undefined ? {} : { file: properties.file }),
      ...(properties.line === undefined ? {} : { line: Number(properties.line) }),
      ...(properties.col === undefined ? {} : { col: Number(properties.col) }),
      ...(properties.title === undefined ? {} : { title: properties.title }),
    }
  })
  return { annotations, summary }
}

/** The text of the file at a position, from its column to the end of its line. */
export function textAt(cwd: string, at: { file?: string; line?: number; col?: number }): string {
  if (at.file === undefined || at.line === undefined) throw new Error('no position')
  const lines = readFileSync(resolve(cwd, at.file), 'utf8').split('\n')
  return lines[at.line - 1]!.slice((at.col ?? 1) - 1)
}

/** The YAML key a position's line is under (the nearest line above indented less), trimmed. */
export function parentLine(cwd: string, at: { file?: string; line?: number }): string {
  const lines = readFileSync(resolve(cwd, at.file!), 'utf8').split('\n')
  const indent = (line: string) => line.length - line.trimStart().length
  const own = indent(lines[at.line! - 1]!)
  for (let index = at.line! - 2; index >= 0; index--)
    if (lines[index]!.trim() !== '' && indent(lines[index]!) < own) return lines[index]!.trim()
  return ''
}

/** Markdown as GitHub reads a comment: CommonMark with tables and raw HTML. */
export function parseMarkdown(text: string) {
  const md = new MarkdownIt({ html: true })
  const tokens = md.parse(text, {})
  const headings = tokens.flatMap((token, index) =>
    token.type === 'heading_open'
      ? [{ level: token.tag, text: tokens[index + 1]!.children!.map((c) => c.content).join('') }]
      : [],
  )
  /** Each table's rows, each row its cells' text (the header row first). */
  const tables: string[][][] = []
  let row: string[] | undefined
  for (const [index, token] of tokens.entries()) {
    if (token.type === 'table_open') tables.push([])
    if (token.type === 'tr_open') row = []
    if (token.type === 'tr_close') tables.at(-1)!.push(row!)
    if ((token.type === 'td_open' || token.type === 'th_open') && row)
      row.push(tokens[index + 1]!.children!.map((child) => child.content).join(''))
  }
  const html = tokens.filter((token) => token.type === 'html_block').map((token) => token.content)
  return { tokens, headings, tables, html, rendered: md.render(text) }
}

export type JunitCase = {
  name: string
  classname: string
  file?: string
  line?: number
  failure?: { message: string; type: string; text: string }
  'system-out'?: string
}

/** Validates JUnit XML and reads its one suite: counts and test cases. */
export function parseJunit(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true)
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase' || name === 'testsuite',
    textNodeName: 'text',
    parseAttributeValue: true,
  })
  const doc = parser.parse(xml) as {
    testsuites: {
      tests: number
      failures: number
      testsuite: { name: string; tests: number; failures: number; testcase: JunitCase[] }[]
    }
  }
  expect(doc.testsuites.testsuite).toHaveLength(1)
  const suite = doc.testsuites.testsuite[0]!
  expect(suite.tests).toBe(suite.testcase.length)
  expect(suite.failures).toBe(suite.testcase.filter((testCase) => testCase.failure).length)
  expect(doc.testsuites.failures).toBe(suite.failures)
  return suite
}
