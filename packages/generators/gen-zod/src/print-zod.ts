import type { Schema } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'

/** How the printer refers to another model's schema constant (directly, or through z.lazy). */
export type NameModel = (refName: string) => string

/** A zod 4 expression for a schema of the model. */
export function printZod(schema: Schema, nameModel: NameModel): string {
  const expression = printKind(schema, nameModel)
  const nullable =
    schema.nullable && schema.kind !== 'unknown' && !expression.endsWith('.nullable()')
  return nullable ? `${expression}.nullable()` : expression
}

function printKind(schema: Schema, nameModel: NameModel): string {
  switch (schema.kind) {
    case 'ref':
      return nameModel(schema.refName)
    case 'object':
      return printObject(schema, nameModel)
    case 'array':
      return `z.array(${printZod(schema.items, nameModel)})`
    case 'union': {
      const members = schema.members.map((member) => printZod(member, nameModel))
      if (members.length === 0) return 'z.never()'
      return members.length === 1 ? members[0]! : `z.union([${members.join(', ')}])`
    }
    case 'string':
      return schema.enum ? printEnum(schema.enum) : 'z.string()'
    case 'integer':
      return schema.enum ? printEnum(schema.enum) : 'z.number().int()'
    case 'number':
      return schema.enum ? printEnum(schema.enum) : 'z.number()'
    case 'boolean':
      return schema.enum ? printEnum(schema.enum) : 'z.boolean()'
    case 'unknown':
      return 'z.unknown()'
    case 'void':
      return 'z.never()'
  }
}

function printObject(schema: Extract<Schema, { kind: 'object' }>, nameModel: NameModel): string {
  const required = new Set(schema.required)
  const shape = Object.entries(schema.properties).map(([name, property]) => {
    const value = printZod(property, nameModel)
    return `${propertyKey(name)}: ${required.has(name) ? value : `${value}.optional()`}`
  })
  const extra = schema.additionalProperties
  if (shape.length === 0) {
    if (extra === false) return 'z.object({}).strict()'
    return `z.record(z.string(), ${typeof extra === 'object' ? printZod(extra, nameModel) : 'z.unknown()'})`
  }
  const object = `z.object({ ${shape.join(', ')} })`
  if (extra === false) return `${object}.strict()`
  return extra === undefined ? object : `${object}.catchall(z.unknown())`
}

function printEnum(values: readonly unknown[]): string {
  const present = values.filter((value) => value !== null)
  const nullable = present.length < values.length ? '.nullable()' : ''
  if (present.length === 0) return nullable ? 'z.null()' : 'z.never()'
  if (present.every((value) => typeof value === 'string'))
    return `z.enum([${present.map((value) => JSON.stringify(value)).join(', ')}])${nullable}`
  const literals = present.map((value) => `z.literal(${JSON.stringify(value)})`)
  return `${literals.length === 1 ? literals[0] : `z.union([${literals.join(', ')}])`}${nullable}`
}
