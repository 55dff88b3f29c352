import { RULES } from '@svc/engine'
import { distance } from 'fastest-levenshtein'
import type { Document, LineCounter } from 'yaml'
import { z } from 'zod'
import { waiverError } from './waiver-error.js'

/** One accepted change: a rule at an operation and/or a location, with why, until when. */
export type Waiver = {
  /** 1-based, in the file's order: how messages name the entry. */
  readonly entry: number
  /** The line of the entry in the file. */
  readonly line: number
  readonly rule: string
  /** `GET /pets`, as the changelog writes operations (the method in any case). */
  readonly operation?: string
  /** A JSON pointer or a GraphQL coordinate: the place and everything below it. */
  readonly location?: string
  readonly reason: string
  /** The last day it waives, `YYYY-MM-DD` (UTC). */
  readonly expires?: string
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

const EntrySchema = z
  .strictObject({
    rule: z.string().min(1),
    operation: z.string().trim().min(1).optional(),
    location: z.string().trim().min(1).optional(),
    reason: z.string().trim().min(1, 'must say why the change is accepted'),
    expires: z
      .string()
      .refine(isDate, 'must be a date YYYY-MM-DD (the last day it waives)')
      .optional(),
  })
  .refine((entry) => entry.operation !== undefined || entry.location !== undefined, {
    message: 'needs an operation (GET /pets) or a location (a JSON pointer or a coordinate)',
  })

const FileSchema = z.strictObject({ waivers: z.array(EntrySchema) })

/** A real day: `2027-02-31` is not one. */
function isDate(value: string): boolean {
  if (!DATE.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
}

/** Reads the text of a waiver file; `shown` names it in errors. */
export async function parseWaivers(text: string, shown: string): Promise<Waiver[]> {
  // Loaded as the engine loads it: a dynamic import keeps yaml's named exports in the bundle.
  const { LineCounter, parseDocument } = await import('yaml')
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  const at = (offset: number | undefined) => {
    if (offset === undefined) return ''
    const { line, col } = lineCounter.linePos(offset)
    return `:${line}:${col}`
  }
  const [syntax] = doc.errors
  if (syntax)
    throw waiverError(`${shown}${at(syntax.pos[0])}: not valid YAML: ${firstLine(syntax.message)}.`)
  const parsed = FileSchema.safeParse(doc.toJS() ?? {}, { reportInput: true })
  if (!parsed.success) {
    // A misspelt key explains the missing one it was meant to be.
    const { issues } = parsed.error
    const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0]!
    throw waiverError(describeIssue(issue, doc, lineCounter, shown))
  }
  const entries = parsed.data.waivers
  const items = (doc.getIn(['waivers'], true) as { items?: { range?: number[] }[] } | undefined)
    ?.items
  return entries.map((entry, index) => {
    const offset = items?.[index]?.range?.[0]
    const line = offset === undefined ? 1 : lineCounter.linePos(offset).line
    if (!(entry.rule in RULES)) {
      const ruleAt = nodeOffset(doc, ['waivers', index, 'rule'])
      throw waiverError(
        `${shown}${at(ruleAt)}: waiver ${index + 1}: '${entry.rule}' is not a rule id of the catalogue; the nearest: ${nearestRules(entry.rule).join(', ')}.`,
        'docs/diff-rules.md lists every rule id; svc diff <old> <new> --json shows those of each change',
      )
    }
    return {
      entry: index + 1,
      line,
      rule: entry.rule,
      reason: entry.reason,
      ...(entry.operation === undefined ? {} : { operation: entry.operation }),
      ...(entry.location === undefined ? {} : { location: entry.location }),
      ...(entry.expires === undefined ? {} : { expires: entry.expires }),
    }
  })
}

function describeIssue(
  issue: z.core.$ZodIssue,
  doc: Document.Parsed,
  lineCounter: LineCounter,
  shown: string,
): string {
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol')
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : []
  // An unknown key is shown at the key; anything else at its value, or at the entry for a
  // missing one.
  const offset =
    keys.length > 0
      ? keyOffset(doc, path, keys[0]!)
      : (nodeOffset(doc, path) ?? nodeOffset(doc, path.slice(0, -1)))
  const where =
    offset === undefined
      ? ''
      : `:${lineCounter.linePos(offset).line}:${lineCounter.linePos(offset).col}`
  const entry =
    path[0] === 'waivers' && typeof path[1] === 'number' ? `waiver ${path[1] + 1}: ` : ''
  const last = path.at(-1)
  const field = typeof last === 'string' ? `'${last}' ` : ''
  let reason: string
  if (issue.code === 'unrecognized_keys')
    reason = `unknown key${keys.length > 1 ? 's' : ''} ${keys.map((key) => `'${key}'`).join(', ')} (${path.length === 0 ? 'the file has only waivers' : 'an entry has rule, operation, location, reason, expires'})`
  else if (issue.code === 'invalid_type' && issue.input === undefined && path.length === 1)
    reason = 'the file needs a top-level waivers list'
  else if (issue.code === 'invalid_type' && issue.input === undefined)
    reason = `${field}is required${last === 'reason' ? ': say why the change is accepted' : ''}`
  else if (issue.code === 'invalid_type' && last === 'expires')
    reason = `'expires' must be a date YYYY-MM-DD, not ${describeValue(issue.input)}`
  else if (issue.code === 'invalid_type')
    reason = `${field}must be ${issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'a mapping' : `a ${issue.expected}`}, not ${describeValue(issue.input)}`
  else reason = `${field}${issue.message}`
  return `${shown}${where}: ${entry}${reason}.`
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  return `${typeof value} ${JSON.stringify(value)}`
}

function nodeOffset(doc: Document.Parsed, path: readonly (string | number)[]): number | undefined {
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true)
  return (node as { range?: number[] } | null | undefined)?.range?.[0]
}

function keyOffset(
  doc: Document.Parsed,
  path: readonly (string | number)[],
  key: string,
): number | undefined {
  const map = (path.length === 0 ? doc.contents : doc.getIn(path, true)) as
    { items?: { key?: { value?: unknown; range?: number[] } }[] } | undefined
  const pair = map?.items?.find((item) => item.key?.value === key)
  return pair?.key?.range?.[0] ?? nodeOffset(doc, path)
}

/** The three rule ids closest to a misspelt one, nearest first. */
function nearestRules(name: string): string[] {
  return Object.keys(RULES)
    .sort((a, b) => distance(name, a) - distance(name, b) || (a < b ? -1 : 1))
    .slice(0, 3)
}

function firstLine(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/ at line \d+, column \d+.*$/, '')
    .replace(/[.:]$/, '')
}
