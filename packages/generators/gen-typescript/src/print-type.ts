import type { ArraySchema, ObjectSchema, Schema, UnionSchema } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'
import { memberValues } from './discriminators.js'

/** How the printer names another model: the generator inserts it and records the dependency. */
export type NameModel = (refName: string) => string

/** A TypeScript type expression for a schema of the model. */
export function printType(schema: Schema, nameModel: NameModel): string {
  const type = schema.const !== undefined ? literal(schema.const) : printKind(schema, nameModel)
  return schema.nullable && type !== 'unknown' && !/\bnull\b$/.test(type) ? `${type} | null` : type
}

function printKind(schema: Schema, nameModel: NameModel): string {
  switch (schema.kind) {
    case 'ref':
      return nameModel(schema.refName)
    case 'object':
      return printObject(schema, nameModel)
    case 'array':
      return printArray(schema, nameModel)
    case 'union':
      return printUnion(schema, nameModel)
    case 'string':
      return schema.enum ? literals(schema.enum) : 'string'
    case 'integer':
    case 'number':
      return schema.enum ? literals(schema.enum) : 'number'
    case 'boolean':
      return schema.enum ? literals(schema.enum) : 'boolean'
    case 'unknown':
      return 'unknown'
    case 'void':
      return 'never'
  }
}

function printArray(schema: ArraySchema, nameModel: NameModel): string {
  if (!schema.prefixItems) return `Array<${printType(schema.items, nameModel)}>`
  const elements = schema.prefixItems.map((item) => printType(item, nameModel))
  // `items: false` (a void schema) closes the tuple; any other `items` types the rest.
  if (schema.items.kind !== 'void') elements.push(`...Array<${printType(schema.items, nameModel)}>`)
  return `[${elements.join(', ')}]`
}

function printUnion(schema: UnionSchema, nameModel: NameModel): string {
  if (schema.members.length === 0) return 'never'
  const { discriminator } = schema
  const members = schema.members.map((member) => {
    const type = wrap(printType(member, nameModel))
    if (!discriminator || member.kind !== 'ref') return type
    // The member's own type may say `string`; in this union its discriminator is its value.
    const values = literals(memberValues(discriminator, member.refName))
    return `(${group(type)} & { ${propertyKey(discriminator.propertyName)}: ${values} })`
  })
  return unique(members).join(' | ')
}

function printObject(schema: ObjectSchema, nameModel: NameModel): string {
  const required = new Set(schema.required)
  const types: string[] = []
  let optional = false
  const members = Object.entries(schema.properties).map(([name, property]) => {
    const readonly = property.readOnly ? 'readonly ' : ''
    const type = printType(property, nameModel)
    types.push(type)
    if (!required.has(name)) optional = true
    return `${readonly}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${type}`
  })
  const extra = schema.additionalProperties
  if (extra !== undefined && extra !== false) {
    // An index signature must admit every declared property: beside them it widens to their types.
    const value = extra === true ? 'unknown' : printType(extra, nameModel)
    const admitted = value === 'unknown' ? [value] : unique([value, ...types])
    if (optional && value !== 'unknown') admitted.push('undefined')
    members.push(`[key: string]: ${admitted.map(wrap).join(' | ')}`)
  }
  if (members.length > 0) return `{ ${members.join('; ')} }`
  // No properties: any object unless additionalProperties closes it.
  return extra === false ? 'Record<string, never>' : 'Record<string, unknown>'
}

/** A `const` as a literal type: JSON is valid type syntax for every JSON value. */
function literal(value: unknown): string {
  return value === null ? 'null' : JSON.stringify(value)
}

function literals(values: readonly unknown[]): string {
  return values.length === 0 ? 'never' : unique(values.map(literal)).join(' | ')
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
