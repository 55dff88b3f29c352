import type { ArraySchema, ObjectSchema, Schema, UnionSchema } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'
import { extraKeys, memberValues, onlyKeyPattern } from '@svc/gen-typescript'
import { printArrayChecks, printNumberChecks, printString, regExpOf } from './print-checks.js'

/** How the printer refers to another model's schema constant (directly, or through z.lazy). */
export type NameModel = (refName: string) => string

/** What the printer needs to know of the other models. */
export type ModelRefs = {
  readonly name: NameModel
  /** Whether the constant of a model is a plain `z.object` that `.extend` can narrow. */
  readonly isObject: (refName: string) => boolean
}

/**
 * A zod 4 expression for a schema of the model. Given only a namer, no referenced model counts as
 * a plain object: discriminated members are then intersected rather than extended.
 */
export function printZod(schema: Schema, refs: ModelRefs | NameModel): string {
  return print(schema, typeof refs === 'function' ? { name: refs, isObject: () => false } : refs)
}

function print(schema: Schema, refs: ModelRefs): string {
  const expression = schema.const !== undefined ? printConst(schema.const) : printKind(schema, refs)
  const nullable =
    schema.nullable && schema.kind !== 'unknown' && !expression.endsWith('.nullable()')
  return nullable ? `${expression}.nullable()` : expression
}

function printKind(schema: Schema, refs: ModelRefs): string {
  switch (schema.kind) {
    case 'ref':
      return refs.name(schema.refName)
    case 'object':
      return printObject(schema, refs)
    case 'array':
      return printArray(schema, refs)
    case 'union':
      return printUnion(schema, refs)
    case 'string':
      return schema.enum ? printEnum(schema.enum) : printString(schema)
    case 'integer':
      return schema.enum ? printEnum(schema.enum) : `z.number().int()${printNumberChecks(schema)}`
    case 'number':
      return schema.enum ? printEnum(schema.enum) : `z.number()${printNumberChecks(schema)}`
    case 'boolean':
      return schema.enum ? printEnum(schema.enum) : 'z.boolean()'
    case 'unknown':
      return 'z.unknown()'
    case 'void':
      return 'z.never()'
  }
}

function printArray(schema: ArraySchema, refs: ModelRefs): string {
  if (!schema.prefixItems) return `z.array(${print(schema.items, refs)})${printArrayChecks(schema)}`
  const tuple = `z.tuple([${schema.prefixItems.map((item) => print(item, refs)).join(', ')}])`
  // `items: false` (a void schema) closes the tuple; any other `items` checks the rest.
  return schema.items.kind === 'void' ? tuple : `${tuple}.rest(${print(schema.items, refs)})`
}

function printUnion(schema: UnionSchema, refs: ModelRefs): string {
  const { discriminator } = schema
  if (!discriminator) {
    const members = schema.members.map((member) => print(member, refs))
    if (members.length === 0) return 'z.never()'
    return members.length === 1 ? members[0]! : `z.union([${members.join(', ')}])`
  }
  const key = propertyKey(discriminator.propertyName)
  const tagged = schema.members.map((member) => {
    const expression = print(member, refs)
    if (member.kind !== 'ref') {
      const value = inlineValue(member, discriminator.propertyName)
      return { expression, object: value !== undefined, values: value === undefined ? [] : [value] }
    }
    const values = memberValues(discriminator, member.refName)
    const tag = values.length === 1 ? printConst(values[0]) : printEnum(values)
    const object = !member.nullable && refs.isObject(member.refName)
    return {
      expression: object
        ? `${expression}.extend({ ${key}: ${tag} })`
        : `z.intersection(${expression}, z.object({ ${key}: ${tag} }))`,
      object,
      values,
    }
  })
  if (tagged.length === 0) return 'z.never()'
  const members = tagged.map((member) => member.expression)
  const values = tagged.flatMap((member) => member.values)
  // zod picks a member by the discriminator only when every member is an object that fixes it
  // to values no other member takes (it throws on a value two members share).
  return tagged.every((member) => member.object) && new Set(values).size === values.length
    ? `z.discriminatedUnion(${JSON.stringify(discriminator.propertyName)}, [${members.join(', ')}])`
    : `z.union([${members.join(', ')}])`
}

/** The one value an inline object member fixes its (required) discriminator property to. */
function inlineValue(member: Schema, propertyName: string): unknown {
  if (member.kind !== 'object' || member.nullable || member.const !== undefined) return undefined
  if (!member.required.includes(propertyName)) return undefined
  const property = member.properties[propertyName]
  if (!property || property.nullable || property.kind === 'ref') return undefined
  if (property.const !== undefined) return property.const
  const values = 'enum' in property ? property.enum : undefined
  return values?.length === 1 ? values[0] : undefined
}

function printObject(schema: ObjectSchema, refs: ModelRefs): string {
  const required = new Set(schema.required)
  const shape = Object.entries(schema.properties).map(([name, property]) => {
    const value = print(property, refs)
    return `${propertyKey(name)}: ${required.has(name) ? value : `${value}.optional()`}`
  })
  const extra = extraKeys(schema)
  if (shape.length === 0) {
    const keyed = onlyKeyPattern(schema)
    const key = keyed && regExpOf(keyed.pattern)
    if (keyed && key) return `z.record(z.string().regex(${key}), ${print(keyed.value, refs)})`
    if (extra === false) return 'z.strictObject({})'
    return `z.record(z.string(), ${typeof extra === 'object' ? print(extra, refs) : 'z.unknown()'})`
  }
  const fields = `{ ${shape.join(', ')} }`
  if (extra === false) return `z.strictObject(${fields})`
  // Keys the document does not describe are allowed unless it closes the object: parsing keeps them.
  if (typeof extra !== 'object') return `z.looseObject(${fields})`
  return `z.object(${fields}).catchall(${print(extra, refs)})`
}

/** A schema for exactly one JSON value: objects and arrays match it key by key, item by item. */
function printConst(value: unknown): string {
  if (value === null) return 'z.null()'
  if (Array.isArray(value)) return `z.tuple([${value.map(printConst).join(', ')}])`
  if (typeof value === 'object') {
    const shape = Object.entries(value).map(
      ([key, item]) => `${propertyKey(key)}: ${printConst(item)}`,
    )
    return `z.strictObject({ ${shape.join(', ')} })`
  }
  return `z.literal(${JSON.stringify(value)})`
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
