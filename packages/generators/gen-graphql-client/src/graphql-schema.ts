import type {
  ApiModel,
  GqlModel,
  GraphqlArgument,
  GraphqlRootKind,
  ObjectSchema,
  Schema,
} from '@svc/engine'
import { buildSchema, type GraphQLSchema } from 'graphql'

/** The arguments of non-root fields, by type name and field name, as the model carries them. */
type FieldArguments = GqlModel['fieldArguments']

/** The model as a graphql-js schema, which selections are built from and checked against. */
export type SchemaView = { readonly schema: GraphQLSchema }

const ROOT_TYPE_NAMES: Readonly<Record<GraphqlRootKind, string>> = {
  query: 'Query',
  mutation: 'Mutation',
  subscription: 'Subscription',
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/

const views = new WeakMap<ApiModel, SchemaView>()

/** The schema view of a GraphQL model, built once per model. */
export function schemaViewOf(model: ApiModel): SchemaView {
  let view = views.get(model)
  if (view === undefined) {
    if (model.protocol !== 'gql') throw new Error('The GraphQL client needs a GraphQL schema')
    const sdl = new SdlPrinter(model, model.fieldArguments).print()
    // The model is what the engine kept of the schema: rules a pruned type may break
    // (an implementation that lost an interface field) must not stop the generator.
    const schema = buildSchema(sdl, { assumeValid: true, assumeValidSDL: true })
    view = { schema }
    views.set(model, view)
  }
  return view
}

/** Prints the model back as SDL: the engine keeps every named type, its fields and root arguments. */
class SdlPrinter {
  readonly #schemas: Readonly<Record<string, Schema>>
  /** Interface name → the types that implement it, read from the engine's `<Name>Union`. */
  readonly #implementations: ReadonlyMap<string, readonly string[]>
  /** Type name → the interfaces it implements. */
  readonly #interfacesOf = new Map<string, string[]>()
  readonly #inputs: ReadonlySet<string>
  readonly #roots: ReadonlyMap<GraphqlRootKind, string>
  readonly #customScalars = new Set<string>()

  constructor(
    readonly model: GqlModel,
    readonly fieldArguments: FieldArguments,
  ) {
    this.#schemas = model.components.schemas
    this.#implementations = interfacesOf(this.#schemas)
    for (const [face, types] of this.#implementations)
      for (const type of types)
        this.#interfacesOf.set(type, [...(this.#interfacesOf.get(type) ?? []), face])
    this.#inputs = inputTypesOf(model, fieldArguments)
    this.#roots = rootTypesOf(model)
  }

  print(): string {
    const blocks: string[] = []
    const roots = [...this.#roots].map(([kind, name]) => `  ${kind}: ${name}`)
    if (roots.length > 0) blocks.push(`schema {\n${roots.join('\n')}\n}`)
    for (const [kind, name] of this.#roots) blocks.push(this.#rootType(kind, name))
    const roles = new Set(this.#roots.values())
    const unionsOfInterfaces = new Set([...this.#implementations.keys()].map((n) => `${n}Union`))
    for (const [name, schema] of Object.entries(this.#schemas)) {
      if (roles.has(name) || unionsOfInterfaces.has(name) || !NAME.test(name)) continue
      const block = this.#namedType(name, schema)
      if (block !== undefined) blocks.push(block)
    }
    for (const name of this.#customScalars) {
      if (!Object.hasOwn(this.#schemas, name)) blocks.push(`scalar ${name}`)
    }
    return `${blocks.join('\n\n')}\n`
  }

  #rootType(kind: GraphqlRootKind, name: string): string {
    const fields: string[] = []
    for (const operation of this.model.operations) {
      if (operation.rootKind !== kind) continue
      const type = this.#typeReference(operation.returnType)
      const args = this.#arguments(operation.arguments)
      if (type === undefined || args === undefined) continue
      const deprecated = operation.deprecated ? ' @deprecated' : ''
      fields.push(`  ${operation.fieldName}${args}: ${type}${deprecated}`)
    }
    return this.#block('type', name, fields)
  }

  #namedType(name: string, schema: Schema): string | undefined {
    if (schema.title !== name) return undefined
    switch (schema.kind) {
      case 'object': {
        const keyword = this.#inputs.has(name)
          ? 'input'
          : this.#implementations.has(name)
            ? 'interface'
            : 'type'
        return this.#block(keyword, name, this.#fields(keyword, name, schema))
      }
      case 'union': {
        const members = schema.members.flatMap((member) =>
          member.kind === 'ref' ? [member.refName] : [],
        )
        return members.length === 0 ? `union ${name}` : `union ${name} = ${members.join(' | ')}`
      }
      case 'string':
        if (schema.enum !== undefined) {
          const values = schema.enum.filter((value): value is string => typeof value === 'string')
          return this.#block(
            'enum',
            name,
            values.map((value) => `  ${value}`),
          )
        }
        return schema.format === name ? `scalar ${name}` : undefined
      default:
        return undefined
    }
  }

  #fields(keyword: string, typeName: string, schema: ObjectSchema): string[] {
    const lines: string[] = []
    for (const [field, fieldSchema] of Object.entries(schema.properties)) {
      const type = this.#typeReference(fieldSchema)
      if (type === undefined) continue
      let rest = ''
      if (keyword === 'input') {
        if (fieldSchema.default !== undefined)
          rest = ` = ${this.#value(fieldSchema.default, fieldSchema)}`
      } else {
        const args = this.#arguments(this.fieldArguments?.[typeName]?.[field] ?? [])
        if (args === undefined) continue
        lines.push(`  ${field}${args}: ${type}${fieldSchema.deprecated ? ' @deprecated' : ''}`)
        continue
      }
      lines.push(`  ${field}: ${type}${rest}`)
    }
    return lines
  }

  #block(keyword: string, name: string, lines: readonly string[]): string {
    const implemented = this.#interfacesOf.get(name) ?? []
    const clause =
      keyword !== 'input' && keyword !== 'enum' && implemented.length > 0
        ? ` implements ${implemented.join(' & ')}`
        : ''
    return lines.length === 0
      ? `${keyword} ${name}${clause}`
      : `${keyword} ${name}${clause} {\n${lines.join('\n')}\n}`
  }

  /**
   * `(a: Int!, b: String = "x")`, '' without arguments, or undefined when a required argument
   * has a type the model lost (a nested list): the field cannot be written without it.
   */
  #arguments(args: readonly GraphqlArgument[]): string | undefined {
    const written: string[] = []
    for (const argument of args) {
      const type = this.#typeReference(argument.schema)
      if (type === undefined) {
        if (argument.required) return undefined
        continue
      }
      const value =
        argument.defaultValue === undefined
          ? ''
          : ` = ${this.#value(argument.defaultValue, argument.schema)}`
      written.push(`${argument.name}: ${type}${value}`)
    }
    return written.length === 0 ? '' : `(${written.join(', ')})`
  }

  /** The GraphQL type a schema of the model stands for; undefined for a collapsed nested list. */
  #typeReference(schema: Schema): string | undefined {
    let named: string | undefined
    switch (schema.kind) {
      case 'array': {
        const item = this.#typeReference(schema.items)
        named = item === undefined ? undefined : `[${item}]`
        break
      }
      case 'ref':
        named = NAME.test(schema.refName) ? schema.refName : undefined
        break
      case 'string':
        if (schema.format === undefined) named = 'String'
        else if (schema.format === 'id') named = 'ID'
        else if (NAME.test(schema.format)) {
          named = schema.format
          this.#customScalars.add(named)
        }
        break
      case 'integer':
        named = 'Int'
        break
      case 'number':
        named = 'Float'
        break
      case 'boolean':
        named = 'Boolean'
        break
      case 'object':
      case 'union':
      case 'unknown':
      case 'void':
        // No GraphQL type name of their own.
        break
    }
    return named === undefined || schema.nullable ? named : `${named}!`
  }

  /** A default value as a GraphQL literal: enum values are names, input objects are objects. */
  #value(value: unknown, schema: Schema | undefined): string {
    if (value === null || value === undefined) return 'null'
    if (schema?.kind === 'array')
      return Array.isArray(value)
        ? `[${value.map((item) => this.#value(item, schema.items)).join(', ')}]`
        : this.#value(value, schema.items)
    const target = schema?.kind === 'ref' ? this.#schemas[schema.refName] : undefined
    if (target?.kind === 'string' && target.enum && typeof value === 'string' && NAME.test(value))
      return value
    if (Array.isArray(value))
      return `[${value.map((item) => this.#value(item, undefined)).join(', ')}]`
    if (typeof value === 'object') {
      const properties = target?.kind === 'object' ? target.properties : {}
      const fields = Object.entries(value as Record<string, unknown>).map(
        ([key, item]) =>
          `${key}: ${this.#value(item, Object.hasOwn(properties, key) ? properties[key] : undefined)}`,
      )
      return `{${fields.join(', ')}}`
    }
    return typeof value === 'string' ? JSON.stringify(value) : String(value)
  }
}

/**
 * The engine models an interface as an object and lists its implementations in `<Name>Union`.
 * A union that merely has such a name is told apart by its members, which must all have the
 * interface's fields.
 */
function interfacesOf(schemas: Readonly<Record<string, Schema>>): Map<string, string[]> {
  const interfaces = new Map<string, string[]>()
  for (const [name, schema] of Object.entries(schemas)) {
    if (schema.kind !== 'union' || schema.title !== name || !name.endsWith('Union')) continue
    if (schema.discriminator?.propertyName !== '__typename') continue
    const face = name.slice(0, -'Union'.length)
    const faceSchema = schemas[face]
    if (faceSchema?.kind !== 'object') continue
    const members = schema.members.map((member) => (member.kind === 'ref' ? member.refName : ''))
    const fields = Object.keys(faceSchema.properties)
    const all = members.every((member) => {
      const target = Object.hasOwn(schemas, member) ? schemas[member] : undefined
      return (
        target?.kind === 'object' &&
        fields.every((field) => Object.hasOwn(target.properties, field))
      )
    })
    if (all) interfaces.set(face, members)
  }
  return interfaces
}

/** The object types reachable from an argument: the model does not tell inputs from outputs. */
function inputTypesOf(model: GqlModel, fieldArguments: FieldArguments): Set<string> {
  const schemas = model.components.schemas
  const pending: Schema[] = model.operations.flatMap((op) => op.arguments.map((a) => a.schema))
  for (const byField of Object.values(fieldArguments))
    for (const args of Object.values(byField)) pending.push(...args.map((a) => a.schema))
  const inputs = new Set<string>()
  for (let schema = pending.pop(); schema !== undefined; schema = pending.pop()) {
    if (schema.kind === 'array') pending.push(schema.items)
    if (schema.kind !== 'ref' || inputs.has(schema.refName)) continue
    const target = Object.hasOwn(schemas, schema.refName) ? schemas[schema.refName] : undefined
    if (target?.kind !== 'object') continue
    inputs.add(schema.refName)
    pending.push(...Object.values(target.properties))
  }
  return inputs
}

/**
 * A name for each root type with fields: `Query`, unless a type of the schema holds that name
 * without being the root (a root used as a type, Relay's `relay: Query!`, is a component too).
 */
function rootTypesOf(model: GqlModel): Map<GraphqlRootKind, string> {
  const schemas = model.components.schemas
  const roots = new Map<GraphqlRootKind, string>()
  for (const kind of ['query', 'mutation', 'subscription'] as const) {
    const fields = model.operations.filter((op) => op.rootKind === kind).map((op) => op.fieldName)
    if (fields.length === 0) continue
    const base = ROOT_TYPE_NAMES[kind]
    const isRoot = (name: string) => {
      const schema = Object.hasOwn(schemas, name) ? schemas[name] : undefined
      if (schema === undefined) return true
      return (
        schema.kind === 'object' && fields.every((field) => Object.hasOwn(schema.properties, field))
      )
    }
    let name = base
    for (let n = 1; !isRoot(name) || [...roots.values()].includes(name); n++) name = `${base}${n}`
    roots.set(kind, name)
  }
  return roots
}
