import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GQL_RULES } from './gql/rules.js'
import { OAS_RULES } from './oas/rules.js'
import { PARSE_FAILURE_RULES } from './parse-failure-rules.js'
import { RULES } from './rules.js'

const docs = readFileSync(new URL('../../../../docs/diff-rules.md', import.meta.url), 'utf8')

/** Every table row of docs/diff-rules.md that names a rule: `| \`id\` | level | when |`. */
function documentedRules(markdown: string): Map<string, { level: string; when: string }> {
  const rows = new Map<string, { level: string; when: string }>()
  for (const line of markdown.split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim())
    const id = /^`([a-z0-9-]+)`$/.exec(cells[0] ?? '')?.[1]
    if (!id || cells.length !== 3) continue
    if (rows.has(id)) throw new Error(`docs/diff-rules.md lists ${id} twice`)
    rows.set(id, { level: cells[1]!, when: cells[2]! })
  }
  return rows
}

describe('the rule catalogue', () => {
  it('gives every id to one rule: catalogues merged into RULES never share an id', () => {
    const seen = new Map<string, string>()
    const shared: string[] = []
    const catalogues = { OAS_RULES, GQL_RULES, PARSE_FAILURE_RULES }
    for (const [name, catalogue] of Object.entries(catalogues))
      for (const id of Object.keys(catalogue)) {
        const first = seen.get(id)
        if (first) shared.push(`${id} (${first}, ${name})`)
        else seen.set(id, name)
      }
    expect(shared).toEqual([])
  })
})

describe('docs/diff-rules.md', () => {
  const rows = documentedRules(docs)

  it('has one line per rule of the catalogue, and none for a rule the engine does not have', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(RULES).sort())
  })

  it("gives each rule the engine's level and summary", () => {
    for (const [id, rule] of Object.entries(RULES))
      expect(rows.get(id), id).toEqual({
        level: rule.level,
        when: rule.summary.replaceAll('|', '\\|'),
      })
  })

  it('has at least 80 rules across OpenAPI and GraphQL', () => {
    const protocols = Object.values(RULES).map((rule) => rule.protocol)
    expect(protocols.length).toBeGreaterThanOrEqual(80)
    expect(protocols.filter((protocol) => protocol === 'gql').length).toBeGreaterThanOrEqual(30)
  })
})
