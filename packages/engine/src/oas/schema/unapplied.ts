import type { Schema, SchemaKind } from '../../model/schema.js'
import type { Mutable } from './annotations.js'
import type { SchemaFields } from './schema-fields.js'
import { isNumericFormat } from './values.js'

/** The validation keywords that hold for values of one type only, with the type they serve. */
const KEYWORD_TYPES = {
  format: 'string',
  pattern: 'string',
  minLength: 'string',
  maxLength: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  minProperties: 'object',
  maxProperties: 'object',
  required: 'object',
} as const satisfies Partial<Record<keyof SchemaFields, string>>

type Keyword = keyof typeof KEYWORD_TYPES
const KEYWORDS = Object.keys(KEYWORD_TYPES) as Keyword[]

/** Whether a node of this kind holds the keyword as its own (a numeric format: only one it knows). */
export function applies(kind: SchemaKind, keyword: string, value: unknown): boolean {
  const type = KEYWORD_TYPES[keyword as Keyword]
  if (kind === 'integer' || kind === 'number') {
    if (keyword === 'format') return isNumericFormat(kind, value)
    return type === 'number'
  }
  return type === kind
}

/** A keyword's value when it has the JSON type the keyword takes, else undefined (not kept). */
function usable(keyword: Keyword, value: unknown): unknown {
  switch (keyword) {
    case 'format':
    case 'pattern':
      return typeof value === 'string' ? value : undefined
    case 'uniqueItems':
      return value === true ? true : undefined
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string')
        ? Object.freeze([...new Set(value)])
        : undefined
    default:
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined
  }
}

/**
 * Records on a freshly built node the validation keywords its kind does not hold. A 3.0
 * `exclusiveMinimum: true` beside `minimum` becomes the exclusive bound, as for a number.
 */
export function readUnapplied(f: SchemaFields, node: Mutable<Schema>): void {
  let found: Record<string, unknown> | undefined
  for (const keyword of KEYWORDS) {
    const raw = f[keyword]
    if (raw === undefined) continue
    const value =
      raw === true && (keyword === 'exclusiveMinimum' || keyword === 'exclusiveMaximum')
        ? usable('minimum', f[keyword === 'exclusiveMinimum' ? 'minimum' : 'maximum'])
        : usable(keyword, raw)
    if (value === undefined || applies(node.kind, keyword, value)) continue
    ;(found ??= {})[keyword] = value
  }
  if (!found) return
  if (found.exclusiveMinimum !== undefined && found.exclusiveMinimum === found.minimum)
    delete found.minimum
  if (found.exclusiveMaximum !== undefined && found.exclusiveMaximum === found.maximum)
    delete found.maximum
  node.unapplied = Object.freeze(found)
}

const ANY: Schema = Object.freeze({ kind: 'unknown', nullable: true })

/**
 * A schema without a type, read as a node of `kind` so that it can be merged with one: its
 * keywords of that type become the node's own. Undefined when it has none.
 */
export function typedAs(schema: Schema, kind: SchemaKind): Schema | undefined {
  const keywords = schema.unapplied
  if (schema.kind !== 'unknown' || !keywords) return undefined
  const node: Record<string, unknown> = { kind, nullable: schema.nullable }
  if (kind === 'array') node.items = ANY
  if (kind === 'object') Object.assign(node, { properties: {}, required: [] })
  let rest: Record<string, unknown> | undefined
  let own = 0
  for (const [keyword, value] of Object.entries(keywords)) {
    if (applies(kind, keyword, value)) {
      node[keyword] = value
      own++
    } else (rest ??= {})[keyword] = value
  }
  if (own === 0) return undefined
  if (rest) node.unapplied = rest
  return node as Schema
}
