import { propertyKey } from '@svc/engine/generate'
import {
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DirectiveNode,
  type FieldNode,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql'
import type { UseNamedType } from './print-variables-type.js'
import { scalarType } from './scalars.js'

/** Stands for `__typename` while the shapes of an abstract type's possible types are compared. */
const TYPENAME = '\u0000typename\u0000'

/** One response key of a selection on one object type. */
type CollectedField = { readonly nodes: FieldNode[]; always: boolean }

/**
 * The type of an operation's `data`, computed from what it selects: only the selected fields,
 * under their aliases; a nullable field is `| null`; a field under `@skip` or `@include` is
 * optional. An interface or union is a union over its possible types with `__typename` as a
 * literal, where the types that get the same fields share one member.
 */
export function printResultType(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  use: UseNamedType,
): string {
  const root = schema.getRootType(operation.operation)
  if (!root) throw new Error(`The schema has no ${operation.operation} type`)
  return new ResultPrinter(schema, use).object(root, [operation.selectionSet], 0)
}

class ResultPrinter {
  constructor(
    readonly schema: GraphQLSchema,
    readonly use: UseNamedType,
  ) {}

  object(
    type: GraphQLObjectType,
    sets: readonly SelectionSetNode[],
    indent: number,
    typename = JSON.stringify(type.name),
  ): string {
    const fields = new Map<string, CollectedField>()
    for (const set of sets) this.#collect(type, set, false, fields)
    if (fields.size === 0) return 'Record<string, never>'
    const pad = ' '.repeat(indent + 2)
    const lines = [...fields].map(([key, { nodes, always }]) => {
      const name = nodes[0]!.name.value
      const field = type.getFields()[name]
      const value =
        name === '__typename'
          ? typename
          : field === undefined
            ? 'unknown'
            : this.#output(field.type, nodes, indent + 2)
      return `${pad}${propertyKey(key)}${always ? '' : '?'}: ${value}`
    })
    return `{\n${lines.join('\n')}\n${' '.repeat(indent)}}`
  }

  #shape(type: GraphQLCompositeType, sets: readonly SelectionSetNode[], indent: number): string {
    if (isObjectType(type)) return this.object(type, sets, indent)
    const shapes = new Map<string, string[]>()
    for (const possible of this.schema.getPossibleTypes(type)) {
      const shape = this.object(possible, sets, indent, TYPENAME)
      shapes.set(shape, [...(shapes.get(shape) ?? []), possible.name])
    }
    if (shapes.size === 0) return 'never'
    return [...shapes]
      .map(([shape, names]) =>
        shape.split(TYPENAME).join(names.map((n) => JSON.stringify(n)).join(' | ')),
      )
      .join(' | ')
  }

  #output(type: GraphQLOutputType, nodes: readonly FieldNode[], indent: number): string {
    if (isNonNullType(type)) return this.#inner(type.ofType, nodes, indent)
    const inner = this.#inner(type, nodes, indent)
    return inner === 'unknown' ? inner : `${inner} | null`
  }

  #inner(type: GraphQLOutputType, nodes: readonly FieldNode[], indent: number): string {
    if (isNonNullType(type)) return this.#inner(type.ofType, nodes, indent)
    if (isListType(type)) return `Array<${this.#output(type.ofType, nodes, indent)}>`
    if (isScalarType(type)) return scalarType(type.name)
    if (isEnumType(type)) return this.use(type)
    const sets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []))
    return this.#shape(type, sets, indent)
  }

  /** GraphQL's CollectFields for one object type, remembering which fields may be skipped. */
  #collect(
    type: GraphQLObjectType,
    set: SelectionSetNode,
    conditional: boolean,
    fields: Map<string, CollectedField>,
  ): void {
    for (const selection of set.selections) {
      const maybe = conditional || isConditional(selection.directives)
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value
        const known = fields.get(key)
        if (known === undefined) fields.set(key, { nodes: [selection], always: !maybe })
        else {
          known.nodes.push(selection)
          known.always ||= !maybe
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition?.name.value
        if (condition === undefined || this.#applies(condition, type))
          this.#collect(type, selection.selectionSet, maybe, fields)
      }
    }
  }

  #applies(condition: string, type: GraphQLObjectType): boolean {
    if (condition === type.name) return true
    const conditionType = this.schema.getType(condition)
    return (
      conditionType !== undefined &&
      conditionType !== null &&
      isAbstractType(conditionType) &&
      this.schema.isSubType(conditionType, type)
    )
  }
}

/** `@skip` or `@include`, unless its `if` is a literal that always keeps the field. */
function isConditional(directives: readonly DirectiveNode[] | undefined): boolean {
  return (directives ?? []).some((directive) => {
    const name = directive.name.value
    if (name !== 'skip' && name !== 'include') return false
    const value = directive.arguments?.find((arg) => arg.name.value === 'if')?.value
    return value?.kind !== Kind.BOOLEAN || value.value !== (name === 'include')
  })
}
