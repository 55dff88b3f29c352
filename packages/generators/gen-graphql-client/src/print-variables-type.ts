import { propertyKey } from '@svc/engine/generate'
import {
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLEnumType,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
} from 'graphql'
import { schemaTypeName } from './names.js'
import { scalarType } from './scalars.js'

/** The schema types that are printed once, by name: enums and input objects. */
export type NamedType = GraphQLEnumType | GraphQLInputObjectType

/** Records that a printed type uses a named type, and gives its TypeScript name. */
export type UseNamedType = (type: NamedType) => string

/**
 * The variables of a root field: a required argument is a required key, a nullable one is
 * optional and takes `null`, and a non-null one with a default is optional without `null`.
 */
export function printVariablesType(args: readonly GraphQLArgument[], use: UseNamedType): string {
  return printMembers(args, use)
}

/** `export type Role = "ADMIN" | "MEMBER"`, or an input object as its variables would be. */
export function printNamedType(type: NamedType, use: UseNamedType): string {
  const name = schemaTypeName(type.name)
  if (isEnumType(type)) {
    const values = type.getValues().map((value) => JSON.stringify(value.name))
    return `export type ${name} = ${values.length > 0 ? values.join(' | ') : 'never'}`
  }
  return `export type ${name} = ${printMembers(Object.values(type.getFields()), use)}`
}

function printMembers(
  members: readonly (GraphQLArgument | GraphQLInputField)[],
  use: UseNamedType,
): string {
  if (members.length === 0) return 'Record<string, never>'
  const lines = members.map((member) => {
    const hasDefault =
      member.defaultValue !== undefined || member.astNode?.defaultValue !== undefined
    const optional = !isNonNullType(member.type) || hasDefault
    return `  ${propertyKey(member.name)}${optional ? '?' : ''}: ${printInputType(member.type, use)}`
  })
  return `{\n${lines.join('\n')}\n}`
}

function printInputType(type: GraphQLInputType, use: UseNamedType): string {
  if (isNonNullType(type)) return printInner(type.ofType, use)
  const inner = printInner(type, use)
  return inner === 'unknown' ? inner : `${inner} | null`
}

function printInner(type: GraphQLInputType, use: UseNamedType): string {
  if (isNonNullType(type)) return printInner(type.ofType, use)
  if (isListType(type)) return `Array<${printInputType(type.ofType, use)}>`
  if (isScalarType(type)) return scalarType(type.name)
  return use(type)
}
