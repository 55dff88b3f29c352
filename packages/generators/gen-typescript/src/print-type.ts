import type { Schema } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'

/** How the printer names another model: the generator inserts it and records the dependency. */
export type NameModel = (refName: string) => string

/** A TypeScript type expression for a schema of the model. */
export function printType(schema: Schema, nameModel: NameModel): string {
  const type = printKind(schema, nameModel)
  return schema.nullable && type !== 'unknown' && !/\bnull\b$/.test(type) ? `${type} | null` : type
}

function printKind(schema: Schema, nameModel: NameModel): string {
  switch (schema.kind) {
    case 'ref':
      return nameModel(schema.refName)
    case 'object':
      return printObject(schema, nameModel)
    case 'array': {
      const items = printType(schema.items, nameModel)
      return `Array<${items}>`
    }
    case 'union':
      return schema.members.length === 0
        ? 'never'
        : unique(schema.members.map((member) => wrap(printType(member, nameModel)))).join(' | ')
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

function printObject(schema: Extract<Schema, { kind: 'object' }>, nameModel: NameModel): string {
  const required = new Set(schema.required)
  const members = Object.entries(schema.properties).map(([name, property]) => {
    const readonly = property.readOnly ? 'readonly ' : ''
    return `${readonly}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${printType(property, nameModel)}`
  })
  const extra = schema.additionalProperties
  if (extra !== undefined && extra !== false) {
    // An index signature must admit every declared property, so beside them its type is unknown.
    const value = extra === true || members.length > 0 ? 'unknown' : printType(extra, nameModel)
    members.push(`[key: string]: ${value}`)
  }
  if (members.length > 0) return `{ ${members.join('; ')} }`
  // No properties: any object unless additionalProperties closes it.
  return extra === false ? 'Record<string, never>' : 'Record<string, unknown>'
}

function literals(values: readonly unknown[]): string {
  return values.length === 0
    ? 'never'
    : unique(values.map((value) => (value === null ? 'null' : JSON.stringify(value)))).join(' | ')
}

function wrap(type: string): string {
  return type.includes('=>') ? `(${type})` : type
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}
