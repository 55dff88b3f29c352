import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES, type ErrorCode } from './codes.js'

const docs = readFileSync(new URL('../../../../docs/api/errors.md', import.meta.url), 'utf8')

type Row = { code: string; status: number; line: string }

/** The rows of the table under `## Codes` in docs/api/errors.md: `| \`code\` | status | when |`. */
function documentedRows(markdown: string): Row[] {
  const lines = markdown.split('\n')
  const start = lines.findIndex((line) => line.trim() === '## Codes')
  if (start < 0) throw new Error('docs/api/errors.md has no "## Codes" section')
  const rows: Row[] = []
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break
    if (!line.trim().startsWith('|')) continue
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim())
    if (cells[0] === 'Code' || /^:?-+:?$/.test(cells[0] ?? '')) continue
    const code = /^`([a-z0-9_]+)`$/.exec(cells[0] ?? '')?.[1]
    if (!code) throw new Error(`a row of the codes table does not start with a code: ${line}`)
    rows.push({ code, status: Number(cells[1]), line })
  }
  return rows
}

describe('docs/api/errors.md', () => {
  const rows = documentedRows(docs)

  it('has one row per error code, and no row for a code the hub does not have', () => {
    const documented = rows.map((row) => row.code)
    expect(documented.filter((code, i) => documented.indexOf(code) !== i)).toEqual([])
    expect([...documented].sort()).toEqual(Object.keys(ERROR_CODES).sort())
  })

  it("gives each code the hub's status", () => {
    for (const row of rows) {
      if (!Object.hasOwn(ERROR_CODES, row.code)) continue
      expect(row.status, row.line).toBe(ERROR_CODES[row.code as ErrorCode])
    }
  })
})
