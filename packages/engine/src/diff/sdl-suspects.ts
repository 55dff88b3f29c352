import {
  Kind,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type TypeNode,
} from 'graphql'
import { EXTENDS as EXTENSION_KINDS } from './gql/schema-shape.js'

/** Keyed by any definition kind: the kind a type extension extends. */
const EXTENDS: Readonly<Record<string, string>> = EXTENSION_KINDS

const BUILT_IN_SCALARS: ReadonlySet<string> = new Set(['Int', 'Float', 'String', 'Boolean', 'ID'])
const OUTPUT_KINDS: ReadonlySet<string> = new Set([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.UNION_TYPE_DEFINITION,
  Kind.ENUM_TYPE_DEFINITION,
  Kind.SCALAR_TYPE_DEFINITION,
])
const INPUT_KINDS: ReadonlySet<string> = new Set([
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
  Kind.ENUM_TYPE_DEFINITION,
  Kind.SCALAR_TYPE_DEFINITION,
])

type Members = {
  kind: string
  fields: Map<string, FieldDefinitionNode | InputValueDefinitionNode>
  values: Set<string>
  interfaces: string[]
  members: string[]
}

/**
 * Whether SDL may have error-level parse issues, read in one pass over its definitions: names
 * defined twice, types that are not defined or stand where their kind cannot, extensions of
 * nothing, interfaces not implemented (or with another field type), root types that are not
 * object types, executable definitions. Building the model finds the issues themselves, at three
 * times the cost of the diff, so it runs only for a suspect schema.
 */
export function mayHaveSdlErrors(document: DocumentNode): boolean {
  const types = new Map<string, Members>()
  const directives = new Set<string>()
  const directiveArgs: InputValueDefinitionNode[] = []
  for (const definition of document.definitions) {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION) {
      if (directives.has(definition.name.value)) return true
      directives.add(definition.name.value)
      directiveArgs.push(...(definition.arguments ?? []))
    } else if (
      definition.kind === Kind.SCHEMA_DEFINITION ||
      definition.kind === Kind.SCHEMA_EXTENSION ||
      definition.kind in EXTENDS
    )
      continue
    else if (
      OUTPUT_KINDS.has(definition.kind) ||
      definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION
    ) {
      const name = (definition as { name: { value: string } }).name.value
      if (types.has(name)) return true
      types.set(name, {
        kind: definition.kind,
        fields: new Map(),
        values: new Set(),
        interfaces: [],
        members: [],
      })
    } else return true
  }
  if (directiveArgs.some((arg) => !isInput(types, arg.type))) return true
  for (const definition of document.definitions)
    if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION)
      for (const root of definition.operationTypes ?? [])
        if (types.get(root.type.name.value)?.kind !== Kind.OBJECT_TYPE_DEFINITION) return true
  for (const definition of document.definitions) {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION || !('name' in definition)) continue
    const type = definition.name ? types.get(definition.name.value) : undefined
    if (!type) continue
    if (definition.kind in EXTENDS && EXTENDS[definition.kind] !== type.kind) return true
    if ('fields' in definition)
      for (const field of definition.fields ?? []) {
        if (type.fields.has(field.name.value)) return true
        type.fields.set(field.name.value, field)
      }
    if ('values' in definition)
      for (const value of definition.values ?? []) {
        if (type.values.has(value.name.value)) return true
        type.values.add(value.name.value)
      }
    if ('interfaces' in definition)
      for (const named of definition.interfaces ?? []) type.interfaces.push(named.name.value)
    if ('types' in definition)
      for (const named of definition.types ?? []) type.members.push(named.name.value)
  }
  for (const definition of document.definitions)
    if (
      definition.kind in EXTENDS &&
      'name' in definition &&
      !types.has(definition.name?.value ?? '')
    )
      return true
  return [...types.values()].some((type) => hasBadMember(types, type))
}

function hasBadMember(types: ReadonlyMap<string, Members>, type: Members): boolean {
  const input = type.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION
  for (const field of type.fields.values()) {
    if (input ? !isInput(types, field.type) : !isOutput(types, field.type)) return true
    const args = 'arguments' in field ? (field.arguments ?? []) : []
    const names = new Set<string>()
    for (const arg of args) {
      if (names.has(arg.name.value) || !isInput(types, arg.type)) return true
      names.add(arg.name.value)
    }
  }
  for (const name of type.members)
    if (types.get(name)?.kind !== Kind.OBJECT_TYPE_DEFINITION) return true
  for (const name of type.interfaces) {
    const parent = types.get(name)
    if (parent?.kind !== Kind.INTERFACE_TYPE_DEFINITION) return true
    for (const [name, field] of parent.fields) {
      const own = type.fields.get(name)
      if (!own || !implementsField(own, field)) return true
    }
  }
  return false
}

/**
 * Whether a field can implement an interface's: the same named type at the same list depth (a
 * narrower type may be valid too, and is left to the full check), and every argument.
 */
function implementsField(
  own: FieldDefinitionNode | InputValueDefinitionNode,
  field: FieldDefinitionNode | InputValueDefinitionNode,
): boolean {
  if (shape(own.type) !== shape(field.type)) return false
  const args = new Set(
    ('arguments' in own ? (own.arguments ?? []) : []).map((arg) => arg.name.value),
  )
  return ('arguments' in field ? (field.arguments ?? []) : []).every((arg) =>
    args.has(arg.name.value),
  )
}

/** `[User]` for `[User!]!`: the named type and list depth, nullability aside. */
function shape(type: TypeNode): string {
  if (type.kind === Kind.NAMED_TYPE) return type.name.value
  if (type.kind === Kind.LIST_TYPE) return `[${shape(type.type)}]`
  return shape(type.type)
}

function named(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : named(type.type)
}

function isOutput(types: ReadonlyMap<string, Members>, type: TypeNode): boolean {
  const name = named(type)
  return BUILT_IN_SCALARS.has(name) || OUTPUT_KINDS.has(types.get(name)?.kind ?? '')
}

function isInput(types: ReadonlyMap<string, Members>, type: TypeNode): boolean {
  const name = named(type)
  return BUILT_IN_SCALARS.has(name) || INPUT_KINDS.has(types.get(name)?.kind ?? '')
}
