import type { ArraySchema, ObjectSchema, Schema, UnionSchema } from '@svc/engine'
import { propertyKey, type ModelView } from '@svc/engine/generate'
import { memberValues } from './discriminators.js'
import { printDoc } from './print-doc.js'
import { extraKeys } from './pattern-properties.js'

/**
 * How the printer names another model: the generator inserts it and records the dependency. The
 * printer passes no `view`; a caller that prints for one side of an exchange (a request body)
 * wraps its namer to ask for that view (`ModelView`), the main (read) model otherwise.
 */
export type NameModel = ((refName: string, view?: ModelView) => string) & {
  /**
   * Whether the model can carry a discriminator property (`carriesProperties`); a namer without
   * it counts every model as one. A member that cannot is not narrowed by its tag.
   */
  readonly carriesProperties?: (refName: string) => boolean
}

/**
 * How a type is laid out. Without one, it is one line (other generators embed it in their own
 * code). With one, an object type puts each member, with its JSDoc, on a line of its own at
 * `indent` plus two spaces, so that a change to one property is a one-line diff.
 */
export type Layout = { readonly indent: string }

/** The widest line a declaration aims for, as the repository's prettier configuration. */
const WIDTH = 100
/** An object of one undocumented member stays on one line up to this many characters. */
const INLINE_OBJECT = 50
/** The items of an array, a union, stay on one line up to this many characters. */
const INLINE_UNION = 60

/** A TypeScript type expression for a schema of the model. */
export function printType(schema: Schema, nameModel: NameModel, layout?: Layout): string {
  return alternatives(schema, nameModel, layout).join(' | ')
}

/**
 * The type of a declaration (`export type X =`, `key:`), with the space or line break that
 * follows the `=` or `:`: a union that would pass the line's width, or has a member of several
 * lines, puts each member on a line of its own after a leading `|`, as prettier does.
 */
export function printDeclared(
  schema: Schema,
  nameModel: NameModel,
  layout: Layout,
  prefixWidth: number,
): string {
  return declared(alternatives(schema, nameModel, layout), layout, prefixWidth)
}

function declared(types: readonly string[], layout: Layout, prefixWidth: number): string {
  const line = types.join(' | ')
  const long = layout.indent.length + prefixWidth + 1 + line.length > WIDTH
  if (types.length < 2 || (!long && !line.includes('\n'))) return ` ${line}`
  return oneALine(types, layout.indent)
}

/** Each member on a line of its own after `|`, two spaces in from `indent`. */
function oneALine(types: readonly string[], indent: string): string {
  return types.map((type) => `\n${indent}  | ${type}`).join('')
}

/**
 * The members of the union a schema is, `null` last when it is nullable. When there are several,
 * they are printed four spaces in, where they land when the union goes one member a line.
 */
function alternatives(schema: Schema, nameModel: NameModel, layout?: Layout): string[] {
  const count = (schema.kind === 'union' ? schema.members.length : 1) + (schema.nullable ? 1 : 0)
  const many = layout !== undefined && schema.const === undefined && count > 1
  const at = many ? { indent: `${layout.indent}    ` } : layout
  const types =
    schema.const !== undefined ? [literal(schema.const)] : printKind(schema, nameModel, at)
  const last = types[types.length - 1] ?? 'never'
  const nullable =
    schema.nullable && !(types.length === 1 && types[0] === 'unknown') && !endsInNull(last)
  const all = nullable ? [...types, 'null'] : types
  // Fewer members than expected (two the same, an `unknown`): one member stays where it was.
  return many && all.length < 2 ? all.map((type) => type.replace(/\n {4}/g, '\n')) : all
}

/** Whether the type ends in the word `null` (`/\bnull\b$/`, without scanning the whole type). */
function endsInNull(type: string): boolean {
  return type.endsWith('null') && !/\w/.test(type.charAt(type.length - 5))
}

function printKind(schema: Schema, nameModel: NameModel, layout?: Layout): string[] {
  switch (schema.kind) {
    case 'ref':
      return [nameModel(schema.refName)]
    case 'object':
      return [printObject(schema, nameModel, layout)]
    case 'array':
      return [printArray(schema, nameModel, layout)]
    case 'union':
      return printUnion(schema, nameModel, layout)
    case 'string':
      return schema.enum ? literals(schema.enum) : ['string']
    case 'integer':
    case 'number':
      return schema.enum ? literals(schema.enum) : ['number']
    case 'boolean':
      return schema.enum ? literals(schema.enum) : ['boolean']
    case 'unknown':
      return ['unknown']
    case 'void':
      return ['never']
  }
}

function printArray(schema: ArraySchema, nameModel: NameModel, layout?: Layout): string {
  const items = () => printType(schema.items, nameModel, layout)
  if (!schema.prefixItems) {
    const types = alternatives(schema.items, nameModel, layout)
    const line = types.join(' | ')
    const long = line.length > INLINE_UNION || line.includes('\n')
    if (!layout || types.length < 2 || !long) return `Array<${line}>`
    return `Array<${oneALine(types, layout.indent)}\n${layout.indent}>`
  }
  const elements = schema.prefixItems.map((item) => printType(item, nameModel, layout))
  // `items: false` (a void schema) closes the tuple; any other `items` types the rest.
  if (schema.items.kind !== 'void') elements.push(`...Array<${items()}>`)
  return `[${elements.join(', ')}]`
}

function printUnion(schema: UnionSchema, nameModel: NameModel, layout?: Layout): string[] {
  if (schema.members.length === 0) return ['never']
  const { discriminator } = schema
  const members = schema.members.map((member) => {
    const type = wrap(printType(member, nameModel, layout))
    if (!discriminator || member.kind !== 'ref') return type
    if (nameModel.carriesProperties?.(member.refName) === false) return type
    // The member's own type may say `string`; in this union its discriminator is its value.
    const values = literals(memberValues(discriminator, member.refName)).join(' | ')
    return `(${group(type)} & { ${propertyKey(discriminator.propertyName)}: ${values} })`
  })
  return unique(members)
}

function printObject(schema: ObjectSchema, nameModel: NameModel, layout?: Layout): string {
  const required = new Set(schema.required)
  const inner = layout && { indent: `${layout.indent}  ` }
  const types: string[] = []
  const docs: string[] = []
  let optional = false
  const members = Object.entries(schema.properties).map(([name, property]) => {
    if (!required.has(name)) optional = true
    const prefix = `${property.readOnly ? 'readonly ' : ''}${propertyKey(name)}${required.has(name) ? '' : '?'}:`
    if (!inner) {
      const type = printType(property, nameModel)
      types.push(type)
      return `${prefix} ${type}`
    }
    const alternative = alternatives(property, nameModel, inner)
    types.push(alternative.join(' | '))
    docs.push(printDoc(property, inner.indent))
    return `${prefix}${declared(alternative, inner, prefix.length)}`
  })
  const extra = extraKeys(schema)
  if (extra !== undefined && extra !== false) {
    // An index signature must admit every declared property: beside them it widens to their types.
    const value = extra === true ? 'unknown' : printType(extra, nameModel, inner)
    const admitted = value === 'unknown' ? [value] : unique([value, ...types])
    if (optional && value !== 'unknown') admitted.push('undefined')
    members.push(`[key: string]: ${admitted.map(wrap).join(' | ')}`)
    docs.push('')
  }
  if (members.length === 0) {
    // No properties: any object unless additionalProperties closes it.
    return extra === false ? 'Record<string, never>' : 'Record<string, unknown>'
  }
  if (!inner) return `{ ${members.join('; ')} }`
  if (members.length === 1) {
    const line = `{ ${members[0]} }`
    if (fitsInline(line, docs)) return line
  }
  const body = members.map((member, i) => `${docs[i] ?? ''}${inner.indent}${member}`)
  return `{\n${body.join('\n')}\n${layout.indent}}`
}

function fitsInline(line: string, docs: readonly string[]): boolean {
  return line.length <= INLINE_OBJECT && !line.includes('\n') && docs.every((doc) => doc === '')
}

/** A `const` as a literal type: JSON is valid type syntax for every JSON value. */
function literal(value: unknown): string {
  return value === null ? 'null' : JSON.stringify(value)
}

function literals(values: readonly unknown[]): string[] {
  return values.length === 0 ? ['never'] : unique(values.map(literal))
}

function wrap(type: string): string {
  return type.includes('=>') ? `(${type})` : type
}

/** Parenthesised for an operand of `&` when it is a union or a function type. */
function group(type: string): string {
  return type.includes(' | ') || type.includes('=>') ? `(${type})` : type
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}
