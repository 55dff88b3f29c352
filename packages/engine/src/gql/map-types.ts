import {
  Kind,
  valueFromASTUntyped,
  type ConstDirectiveNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type TypeDefinitionNode,
} from 'graphql'
import type { GraphqlArgument, GraphqlOperation, GraphqlRootKind } from '../model/operation.js'
import type { ObjectSchema, Schema, StringSchema, UnionSchema } from '../model/schema.js'
import { componentRef } from '../refs/pointer.js'
import type { GqlContext } from './gql-context.js'

/**
 * The schemas one named type becomes (an interface gives its object and `<Name>Union`), and the
 * arguments of its fields that take any.
 */
export type MappedType = {
  readonly schemas: readonly (readonly [string, Schema])[]
  readonly fieldArguments?: Readonly<Record<string, readonly GraphqlArgument[]>>
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const DISCRIMINATOR = Object.freeze({ propertyName: '__typename' })

export function mapType(ctx: GqlContext, definition: TypeDefinitionNode): MappedType {
  const name = definition.name.value
  const extensions = ctx.index.extensions.get(name) ?? []
  const directives = [
    ...(definition.directives ?? []),
    ...extensions.flatMap((e) => e.directives ?? []),
  ]
  ctx.reportDirectives(directives, [name])
  const description = definition.description?.value
  switch (definition.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.INTERFACE_TYPE_DEFINITION: {
      const fields = [
        ...(definition.fields ?? []),
        ...extensions.flatMap((e) => ('fields' in e ? [...(e.fields ?? [])] : [])),
      ] as FieldDefinitionNode[]
      const object = objectSchema(ctx, name, description, fields, 'output')
      const fieldArguments = Object.freeze(
        Object.fromEntries(
          fields
            .filter((field) => (field.arguments ?? []).length > 0)
            .map((field) => [field.name.value, mapArguments(ctx, field, [name, field.name.value])]),
        ),
      )
      return {
        schemas:
          definition.kind === Kind.OBJECT_TYPE_DEFINITION
            ? [[name, object]]
            : [[name, object], ...interfaceUnion(ctx, name)],
        ...(Object.keys(fieldArguments).length > 0 ? { fieldArguments } : {}),
      }
    }
    case Kind.INPUT_OBJECT_TYPE_DEFINITION: {
      const fields = [
        ...(definition.fields ?? []),
        ...extensions.flatMap((e) => ('fields' in e ? [...(e.fields ?? [])] : [])),
      ] as InputValueDefinitionNode[]
      return { schemas: [[name, objectSchema(ctx, name, description, fields, 'input')]] }
    }
    case Kind.UNION_TYPE_DEFINITION: {
      const types = [
        ...(definition.types ?? []),
        ...extensions.flatMap((e) => ('types' in e ? (e.types ?? []) : [])),
      ]
      const members = types.map((type, index) => {
        const member = ctx.typeSchema(type, [name, 'members', String(index)], 'output')
        return Object.freeze({ ...member, nullable: false })
      })
      const node: Mutable<UnionSchema> = {
        kind: 'union',
        mode: 'oneOf',
        members: Object.freeze(members),
        discriminator: DISCRIMINATOR,
        nullable: false,
        title: name,
      }
      if (description !== undefined) node.description = description
      return { schemas: [[name, Object.freeze(node)]] }
    }
    case Kind.ENUM_TYPE_DEFINITION: {
      const values = [
        ...(definition.values ?? []),
        ...extensions.flatMap((e) => ('values' in e ? (e.values ?? []) : [])),
      ]
      for (const value of values) ctx.reportDirectives(value.directives, [name, value.name.value])
      const node: Mutable<StringSchema> = {
        kind: 'string',
        enum: Object.freeze(values.map((v) => v.name.value)),
        nullable: false,
        title: name,
      }
      if (description !== undefined) node.description = description
      return { schemas: [[name, Object.freeze(node)]] }
    }
    case Kind.SCALAR_TYPE_DEFINITION: {
      const node: Mutable<StringSchema> = {
        kind: 'string',
        format: name,
        nullable: false,
        title: name,
      }
      if (description !== undefined) node.description = description
      return { schemas: [[name, Object.freeze(node)]] }
    }
  }
}

function objectSchema(
  ctx: GqlContext,
  name: string,
  description: string | undefined,
  fields: readonly (FieldDefinitionNode | InputValueDefinitionNode)[],
  position: 'input' | 'output',
): ObjectSchema {
  const properties: [string, Schema][] = []
  const required: string[] = []
  for (const field of fields) {
    const fieldName = field.name.value
    const path = [name, fieldName]
    ctx.reportDirectives(field.directives, path)
    let schema = ctx.typeSchema(field.type, path, position)
    const annotations: Mutable<Partial<Schema>> = {}
    if (field.description) annotations.description = field.description.value
    if (deprecation(field.directives) !== undefined) annotations.deprecated = true
    if (field.kind === Kind.INPUT_VALUE_DEFINITION && field.defaultValue)
      annotations.default = valueFromASTUntyped(field.defaultValue)
    if (Object.keys(annotations).length > 0)
      schema = Object.freeze({ ...schema, ...annotations } as Schema)
    properties.push([fieldName, schema])
    const hasDefault =
      field.kind === Kind.INPUT_VALUE_DEFINITION && field.defaultValue !== undefined
    if (field.type.kind === Kind.NON_NULL_TYPE && !hasDefault) required.push(fieldName)
  }
  const node: Mutable<ObjectSchema> = {
    kind: 'object',
    properties: Object.freeze(Object.fromEntries(properties)),
    required: Object.freeze(required),
    nullable: false,
    title: name,
  }
  if (description !== undefined) node.description = description
  return Object.freeze(node)
}

/** `<Interface>Union`: every object type that implements the interface, told apart by `__typename`. */
function interfaceUnion(ctx: GqlContext, name: string): [string, Schema][] {
  const unionName = `${name}Union`
  if (ctx.index.types.has(unionName)) return []
  const members: Schema[] = []
  for (const typeName of ctx.index.implementations.get(name) ?? []) {
    const definition = ctx.index.types.get(typeName)!
    ctx.uses.push({
      name: typeName,
      path: [unionName, 'members', String(members.length)],
      node: definition,
    })
    members.push(
      Object.freeze({
        kind: 'ref',
        $ref: componentRef('schemas', typeName),
        refName: typeName,
        nullable: false,
      }),
    )
  }
  return [
    [
      unionName,
      Object.freeze({
        kind: 'union',
        mode: 'oneOf',
        members: Object.freeze(members),
        discriminator: DISCRIMINATOR,
        nullable: false,
        title: unionName,
      }),
    ],
  ]
}

export function mapRootField(
  ctx: GqlContext,
  rootKind: GraphqlRootKind,
  rootName: string,
  field: FieldDefinitionNode,
): GraphqlOperation {
  const fieldName = field.name.value
  const path = [rootName, fieldName]
  ctx.reportDirectives(field.directives, path)
  const args = mapArguments(ctx, field, path)
  const reason = deprecation(field.directives)
  const operation: Mutable<GraphqlOperation> = {
    kind: 'graphql',
    rootKind,
    fieldName,
    deprecated: reason !== undefined,
    arguments: args,
    returnType: ctx.typeSchema(field.type, [...path, 'return'], 'output'),
  }
  if (field.description) operation.description = field.description.value
  if (reason) operation.deprecationReason = reason
  return Object.freeze(operation)
}

/** The arguments of a field, root or not, in their declared order. */
function mapArguments(
  ctx: GqlContext,
  field: FieldDefinitionNode,
  path: readonly string[],
): readonly GraphqlArgument[] {
  const args = (field.arguments ?? []).map((argument) => {
    const argumentPath = [...path, 'args', argument.name.value]
    ctx.reportDirectives(argument.directives, argumentPath)
    const node: Mutable<GraphqlArgument> = {
      name: argument.name.value,
      required: argument.type.kind === Kind.NON_NULL_TYPE && argument.defaultValue === undefined,
      schema: ctx.typeSchema(argument.type, argumentPath, 'input'),
    }
    if (argument.description) node.description = argument.description.value
    if (argument.defaultValue) node.defaultValue = valueFromASTUntyped(argument.defaultValue)
    return Object.freeze(node)
  })
  return Object.freeze(args)
}

/** The `@deprecated` reason ('' when it has none), or undefined when the field is not deprecated. */
function deprecation(directives: readonly ConstDirectiveNode[] | undefined): string | undefined {
  const directive = directives?.find((d) => d.name.value === 'deprecated')
  if (!directive) return undefined
  const reason = directive.arguments?.find((a) => a.name.value === 'reason')?.value
  return reason?.kind === Kind.STRING ? reason.value : 'No longer supported'
}
