import type { ArraySchema, ObjectSchema, Schema, UnionSchema } from '@svc/engine'
import { propertyKey } from '@svc/engine/generate'
import { extraKeys, memberValues, onlyKeyPattern } from '@svc/gen-typescript'
import {
  array,
  atom,
  endsWith,
  named,
  object,
  printFlat,
  printLaidOut,
  withCall,
  z,
  type Expression,
} from './expression.js'
import { printString, regExpOf, withArrayChecks, withNumberChecks } from './print-checks.js'

/**
 * How the printer refers to another model's schema constant: its name, or an expression that
 * reaches it (`z.lazy(() => petSchema)`).
 */
export type NameModel = (refName: string) => string

/** What the printer needs to know of the other models. */
export type ModelRefs = {
  readonly name: NameModel
  /** Whether the constant of a model is a plain `z.object` that `.extend` can narrow. */
  readonly isObject: (refName: string) => boolean
  /**
   * Whether the model can carry a discriminator property (see gen-typescript's
   * `carriesProperties`); without it every model counts as one.
   */
  readonly carriesProperties?: (refName: string) => boolean
}

/** The widest line of generated code, as the repository's prettier configuration. */
const WIDTH = 100

/**
 * A zod 4 expression for a schema of the model, on one line. Given only a namer, no referenced
 * model counts as a plain object: discriminated members are then intersected rather than extended.
 */
export function printZod(schema: Schema, refs: ModelRefs | NameModel): string {
  return printFlat(zodExpression(schema, refs))
}

/**
 * `prefix` (`export const petSchema = `) followed by the zod expression for the schema, laid out
 * to 100 columns as prettier would print it: one property a line in objects, long unions one
 * member a line, long chains one call a line. `pure` builds it in an IIFE marked pure (see
 * `printLaidOut`), unless it is a bare name (an alias of another schema), which needs none.
 */
export function printZodDeclaration(
  prefix: string,
  schema: Schema,
  refs: ModelRefs | NameModel,
  { pure = false }: { readonly pure?: boolean } = {},
): string {
  const expression = zodExpression(schema, refs)
  const bare = expression.kind === 'chain' && expression.links.length === 0
  return printLaidOut(prefix, expression, WIDTH, pure && !bare)
}

function zodExpression(schema: Schema, refs: ModelRefs | NameModel): Expression {
  return print(schema, typeof refs === 'function' ? { name: refs, isObject: () => false } : refs)
}

function print(schema: Schema, refs: ModelRefs): Expression {
  const expression = schema.const !== undefined ? printConst(schema.const) : printKind(schema, refs)
  const nullable = schema.nullable && schema.kind !== 'unknown' && !endsWith(expression, 'nullable')
  return nullable ? withCall(expression, 'nullable') : expression
}

function printKind(schema: Schema, refs: ModelRefs): Expression {
  switch (schema.kind) {
    case 'ref':
      return reference(refs.name(schema.refName))
    case 'object':
      return printObject(schema, refs)
    case 'array':
      return printArray(schema, refs)
    case 'union':
      return printUnion(schema, refs)
    case 'string':
      return schema.enum ? printEnum(schema.enum) : printString(schema)
    case 'integer':
      return schema.enum
        ? printEnum(schema.enum)
        : withNumberChecks(withCall(z('number'), 'int'), schema)
    case 'number':
      return schema.enum ? printEnum(schema.enum) : withNumberChecks(z('number'), schema)
    case 'boolean':
      return schema.enum ? printEnum(schema.enum) : z('boolean')
    case 'unknown':
      return z('unknown')
    case 'void':
      return z('never')
  }
}

/** A model's constant, or `z.lazy(() => constant)`, as a chain later calls can extend. */
function reference(text: string): Expression {
  const lazy = /^z\.lazy\((\(\) => [\w$]+)\)$/.exec(text)
  return lazy ? z('lazy', atom(lazy[1]!)) : named(text)
}

function printArray(schema: ArraySchema, refs: ModelRefs): Expression {
  if (!schema.prefixItems) return withArrayChecks(z('array', print(schema.items, refs)), schema)
  const tuple = z('tuple', array(schema.prefixItems.map((item) => print(item, refs))))
  // `items: false` (a void schema) closes the tuple; any other `items` checks the rest.
  return schema.items.kind === 'void' ? tuple : withCall(tuple, 'rest', print(schema.items, refs))
}

function printUnion(schema: UnionSchema, refs: ModelRefs): Expression {
  const { discriminator } = schema
  if (!discriminator) {
    const members = schema.members.map((member) => print(member, refs))
    if (members.length === 0) return z('never')
    return members.length === 1 ? members[0]! : z('union', array(members))
  }
  const key = propertyKey(discriminator.propertyName)
  const tagged = schema.members.map((member) => {
    const expression = print(member, refs)
    if (member.kind !== 'ref') {
      const value = inlineValue(member, discriminator.propertyName)
      return { expression, object: value !== undefined, values: value === undefined ? [] : [value] }
    }
    // A member that cannot carry the property (an array) is left as it is: no tag picks it.
    if (refs.carriesProperties?.(member.refName) === false)
      return { expression, object: false, values: [] }
    const values = memberValues(discriminator, member.refName)
    const tag = object([[key, values.length === 1 ? printConst(values[0]) : printEnum(values)]])
    const isObject = !member.nullable && refs.isObject(member.refName)
    return {
      expression: isObject
        ? withCall(expression, 'extend', tag)
        : z('intersection', expression, z('object', tag)),
      object: isObject,
      values,
    }
  })
  if (tagged.length === 0) return z('never')
  const members = array(tagged.map((member) => member.expression))
  const values = tagged.flatMap((member) => member.values)
  // zod picks a member by the discriminator only when every member is an object that fixes it
  // to values no other member takes (it throws on a value two members share).
  return tagged.every((member) => member.object) && new Set(values).size === values.length
    ? z('discriminatedUnion', atom(JSON.stringify(discriminator.propertyName)), members)
    : z('union', members)
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

function printObject(schema: ObjectSchema, refs: ModelRefs): Expression {
  const required = new Set(schema.required)
  const shape = Object.entries(schema.properties).map(([name, property]) => {
    const value = print(property, refs)
    // An absent key, never an `undefined` value (JSON has none): what `key?: T` means to
    // TypeScript under `exactOptionalPropertyTypes`, so the inferred type is the model's type.
    return [
      propertyKey(name),
      required.has(name) ? value : withCall(value, 'exactOptional'),
    ] as const
  })
  const extra = extraKeys(schema)
  if (shape.length === 0) {
    const keyed = onlyKeyPattern(schema)
    const key = keyed && regExpOf(keyed.pattern)
    if (keyed && key)
      return z('record', withCall(z('string'), 'regex', key), print(keyed.value, refs))
    if (extra === false) return z('strictObject', object([]))
    return z('record', z('string'), typeof extra === 'object' ? print(extra, refs) : z('unknown'))
  }
  const fields = object(shape, true)
  if (extra === false) return z('strictObject', fields)
  // Keys the document does not describe are allowed unless it closes the object: parsing keeps them.
  if (typeof extra !== 'object') return z('looseObject', fields)
  return withCall(z('object', fields), 'catchall', print(extra, refs))
}

/** A schema for exactly one JSON value: objects and arrays match it key by key, item by item. */
function printConst(value: unknown): Expression {
  if (value === null) return z('null')
  if (Array.isArray(value)) return z('tuple', array(value.map(printConst)))
  if (typeof value === 'object') {
    const shape = Object.entries(value).map(
      ([key, item]) => [propertyKey(key), printConst(item)] as const,
    )
    return z('strictObject', object(shape))
  }
  return z('literal', atom(JSON.stringify(value)))
}

function printEnum(values: readonly unknown[]): Expression {
  const present = values.filter((value) => value !== null)
  const nullable = present.length < values.length
  if (present.length === 0) return nullable ? z('null') : z('never')
  const literals = present.every((value) => typeof value === 'string')
    ? z('enum', array(present.map((value) => atom(JSON.stringify(value)))))
    : present.length === 1
      ? z('literal', atom(JSON.stringify(present[0])))
      : z('union', array(present.map((value) => z('literal', atom(JSON.stringify(value))))))
  return nullable ? withCall(literals, 'nullable') : literals
}
