import { Kind, type TypeNode, type ValueNode } from 'graphql'

/** A type reference as SDL prints it: `[User!]!`. */
export function typeText(type: TypeNode): string {
  switch (type.kind) {
    case Kind.NAMED_TYPE:
      return type.name.value
    case Kind.LIST_TYPE:
      return `[${typeText(type.type)}]`
    case Kind.NON_NULL_TYPE:
      return `${typeText(type.type)}!`
  }
}

/**
 * A value as SDL prints it, with object fields sorted so that `{ a: 1, b: 2 }` and
 * `{ b: 2, a: 1 }` read the same, and block strings printed like plain ones.
 */
export function valueText(value: ValueNode): string {
  switch (value.kind) {
    case Kind.STRING:
      return JSON.stringify(value.value)
    case Kind.INT:
    case Kind.FLOAT:
    case Kind.ENUM:
      return value.value
    case Kind.BOOLEAN:
      return String(value.value)
    case Kind.NULL:
      return 'null'
    case Kind.VARIABLE:
      return `$${value.name.value}`
    case Kind.LIST:
      return `[${value.values.map(valueText).join(', ')}]`
    case Kind.OBJECT: {
      const fields = value.fields
        .map((field) => `${field.name.value}: ${valueText(field.value)}`)
        .sort()
      return `{${fields.join(', ')}}`
    }
  }
}

/**
 * Whether every value of the new output type is one the old type allowed: the same named type,
 * made non-null at any level (`[String]` to `[String!]!`). graphql-inspector's safeChangeForField.
 */
export function isSafeOutputChange(before: TypeNode, after: TypeNode): boolean {
  if (after.kind === Kind.NON_NULL_TYPE)
    return isSafeOutputChange(before.kind === Kind.NON_NULL_TYPE ? before.type : before, after.type)
  if (before.kind === Kind.LIST_TYPE)
    return after.kind === Kind.LIST_TYPE && isSafeOutputChange(before.type, after.type)
  if (before.kind === Kind.NAMED_TYPE)
    return after.kind === Kind.NAMED_TYPE && after.name.value === before.name.value
  return false
}

/**
 * Whether the new input type accepts every value the old one did: the same named type, made
 * nullable at any level (`[ID!]!` to `[ID]`). graphql-inspector's safeChangeForInputValue.
 */
export function isSafeInputChange(before: TypeNode, after: TypeNode): boolean {
  if (before.kind === Kind.NON_NULL_TYPE)
    return isSafeInputChange(before.type, after.kind === Kind.NON_NULL_TYPE ? after.type : after)
  if (before.kind === Kind.LIST_TYPE)
    return after.kind === Kind.LIST_TYPE && isSafeInputChange(before.type, after.type)
  return after.kind === Kind.NAMED_TYPE && after.name.value === before.name.value
}
