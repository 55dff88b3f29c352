import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ChangeLevel } from './changelog.js'
import { SCHEMA_CONTEXTS, SCHEMA_KINDS, type Direction } from './oas/rules.js'
import { RULES } from './rules.js'

const docs = readFileSync(new URL('../../../../docs/diff-rules.md', import.meta.url), 'utf8')

const TABLES = {
  oas: 'OpenAPI rules',
  kinds: 'OpenAPI schema changes',
  gql: 'GraphQL rules',
  any: 'Both protocols',
} as const
type Table = keyof typeof TABLES
const TABLE_NAMES: readonly Table[] = ['oas', 'kinds', 'gql', 'any']

/** Where a rule's peer verdict is written: its own row, or the row of its schema kind. */
type Entry = { readonly table: Table; readonly key: string }

const kinds: Readonly<Record<string, { readonly in?: ChangeLevel; readonly out?: ChangeLevel }>> =
  SCHEMA_KINDS

const schemaRuleKinds = new Map<string, string>(
  Object.keys(SCHEMA_CONTEXTS).flatMap((context) =>
    Object.keys(kinds).map((kind) => [`${context}-${kind}`, kind] as const),
  ),
)

function entryOf(id: string, protocol: 'oas' | 'gql' | 'any'): Entry {
  const kind = schemaRuleKinds.get(id)
  if (kind) return { table: 'kinds', key: kind }
  return { table: protocol, key: id }
}

/** The rows of each `### <table>` under `## Peer verdicts`, by the backticked id in their first cell. */
function peerTables(markdown: string): Record<Table, Map<string, string[]>> {
  const tables: Record<Table, Map<string, string[]>> = {
    oas: new Map(),
    kinds: new Map(),
    gql: new Map(),
    any: new Map(),
  }
  const titles = new Map<string, Table>(TABLE_NAMES.map((table) => [TABLES[table], table]))
  let inSection = false
  let table: Table | undefined
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) inSection = line === '## Peer verdicts'
    if (!inSection) continue
    if (line.startsWith('### ')) table = titles.get(line.slice(4).trim())
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim())
    const key = /^`([a-z0-9-]+)`$/.exec(cells[0] ?? '')?.[1]
    if (table && key) tables[table].set(key, cells)
  }
  return tables
}

/** The svc levels a peer's verdict stands for; openapi-diff's `compatible` covers info and warning. */
function peerLevels(cell: string): Set<string> {
  const levels = new Set<ChangeLevel>()
  if (/\b(ERR|BREAKING|incompatible)\b/.test(cell)) levels.add('breaking')
  if (/\b(WARN|DANGEROUS)\b/.test(cell)) levels.add('warning')
  if (/\b(INFO|NON_BREAKING)\b/.test(cell)) levels.add('info')
  if (/\bcompatible\b/.test(cell)) levels.add('info').add('warning')
  return levels
}

/** The part of a schema-kind cell written as `in: …; out: …` that concerns one direction. */
function side(cell: string, direction: Direction): string {
  const out = cell.search(/\bout:/)
  if (out < 0) return cell
  return direction === 'in' ? cell.slice(0, out) : cell.slice(out)
}

/** Each svc level of a row with the peer cells that judge it: one pair, or one per direction. */
function judgedLevels(table: Table, cells: readonly string[]): [string, string[]][] {
  if (table === 'kinds') {
    const peers = cells.slice(3, -1)
    return [
      [cells[1]!, peers.map((cell) => side(cell, 'in'))],
      [cells[2]!, peers.map((cell) => side(cell, 'out'))],
    ]
  }
  return [[cells[1]!, cells.slice(2, -1)]]
}

describe('docs/diff-rules.md peer verdicts', () => {
  const tables = peerTables(docs)
  const rules = Object.entries(RULES).map(([id, rule]) => ({
    id,
    rule,
    ...entryOf(id, rule.protocol),
  }))

  it('name the peers for every rule of the catalogue (schema rules by their kind)', () => {
    const missing = rules
      .filter(({ table, key }) => !tables[table].has(key))
      .map(({ id, table, key }) => `${id}: no \`${key}\` row under "### ${TABLES[table]}"`)
    expect(missing, 'rules without a peer verdict in docs/diff-rules.md').toEqual([])
  })

  it('have no row for a rule or schema kind the engine does not have', () => {
    const known = new Set(rules.map(({ table, key }) => `${table} ${key}`))
    const stale = TABLE_NAMES.flatMap((table) =>
      [...tables[table].keys()]
        .filter((key) => !known.has(`${table} ${key}`))
        .map((key) => `${key} under "### ${TABLES[table]}"`),
    )
    expect(stale, 'peer rows for rules the engine does not have').toEqual([])
  })

  it("give svc's own level as the engine has it", () => {
    const wrong = rules.flatMap(({ id, rule, table, key }) => {
      const cells = tables[table].get(key)
      if (!cells) return []
      if (table !== 'kinds')
        return cells[1] === rule.level ? [] : [`${id}: says ${cells[1]}, the engine ${rule.level}`]
      const expected = [kinds[key]?.in ?? '—', kinds[key]?.out ?? '—']
      return cells[1] === expected[0] && cells[2] === expected[1]
        ? []
        : [`${key}: says in ${cells[1]} / out ${cells[2]}, the engine ${expected.join(' / ')}`]
    })
    expect(
      [...new Set(wrong)],
      'svc levels in the peer tables that differ from the engine',
    ).toEqual([])
  })

  it('explain every level where svc differs from a peer', () => {
    const unexplained = TABLE_NAMES.flatMap((table) =>
      [...tables[table]].flatMap(([key, cells]) => {
        if (cells.at(-1)) return []
        const differs = judgedLevels(table, cells).some(
          ([level, peers]) =>
            level !== '—' &&
            peers.some((cell) => {
              const levels = peerLevels(cell)
              return levels.size > 0 && !levels.has(level)
            }),
        )
        return differs ? [`${key} under "### ${TABLES[table]}"`] : []
      }),
    )
    expect(unexplained, 'rows whose svc level differs from a peer without a note').toEqual([])
  })
})
