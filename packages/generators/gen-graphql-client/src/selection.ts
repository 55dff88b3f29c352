import {
  getNamedType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  isRequiredArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql'

/** One entry of a selection set: a field and what it selects, or an inline fragment. */
type Selection =
  | { readonly field: string; readonly selections?: readonly Selection[] }
  | { readonly on: string; readonly selections: readonly Selection[] }

/**
 * The selection set a root field gets when none is configured, as GraphQL text indented for a
 * root field (two spaces), or '' when the field is a scalar or an enum.
 *
 * - Scalar and enum fields are selected; object fields too, down to `depth` selection sets
 *   below the root field (1: the root field's scalars only).
 * - Left out: deprecated fields, fields with a required argument, and connections (fields that
 *   page with `first`/`last`), which servers such as GitHub's refuse to list unbounded.
 * - An interface or a union selects `__typename`, the interface's own fields, and an inline
 *   fragment per possible type with that type's other scalar and enum fields. A field that would
 *   return another shape than the same name in an earlier fragment is left out: GraphQL refuses
 *   one response key with two shapes (`state: IssueState` beside `state: PullRequestState`).
 * - A selection set with nothing to select gives `__typename` at the root and leaves the field
 *   out below it.
 */
export function defaultSelection(schema: GraphQLSchema, type: GraphQLOutputType, depth: number) {
  const named = getNamedType(type)
  if (isLeafType(named)) return ''
  const selections = selectionsOf(schema, named, 1, depth)
  return printSelectionSet(selections.length > 0 ? selections : [{ field: '__typename' }], 2)
}

function selectionsOf(
  schema: GraphQLSchema,
  type: GraphQLCompositeType,
  level: number,
  depth: number,
): Selection[] {
  if (isObjectType(type)) return fieldsOf(schema, type, level, depth)
  const own = isInterfaceType(type) ? fieldsOf(schema, type, level, depth) : []
  const shapes = new Map<string, string | undefined>(
    own.map((selection) => ['field' in selection ? selection.field : '', undefined]),
  )
  const fragments: Selection[] = []
  for (const possible of schema.getPossibleTypes(type)) {
    const fields: Selection[] = []
    for (const field of Object.values(possible.getFields())) {
      if (!selectable(field) || !isLeafType(getNamedType(field.type))) continue
      const shape = String(field.type)
      if (shapes.has(field.name) && shapes.get(field.name) !== shape) continue
      shapes.set(field.name, shape)
      fields.push({ field: field.name })
    }
    if (fields.length > 0) fragments.push({ on: possible.name, selections: fields })
  }
  return [{ field: '__typename' }, ...own, ...fragments]
}

function fieldsOf(
  schema: GraphQLSchema,
  type: GraphQLObjectType | GraphQLInterfaceType,
  level: number,
  depth: number,
): Selection[] {
  const selections: Selection[] = []
  for (const field of Object.values(type.getFields())) {
    if (!selectable(field)) continue
    const named = getNamedType(field.type)
    if (isLeafType(named)) selections.push({ field: field.name })
    else if (level < depth) {
      const nested = selectionsOf(schema, named, level + 1, depth)
      if (nested.length > 0) selections.push({ field: field.name, selections: nested })
    }
  }
  return selections
}

function selectable(field: GraphQLField<unknown, unknown>): boolean {
  return (
    field.deprecationReason == null &&
    !field.args.some(
      (arg) => isRequiredArgument(arg) || arg.name === 'first' || arg.name === 'last',
    )
  )
}

function printSelectionSet(selections: readonly Selection[], indent: number): string {
  const pad = ' '.repeat(indent + 2)
  const lines = selections.map((selection) => {
    const head = 'on' in selection ? `... on ${selection.on}` : selection.field
    return selection.selections === undefined
      ? `${pad}${head}`
      : `${pad}${head} ${printSelectionSet(selection.selections, indent + 2)}`
  })
  return `{\n${lines.join('\n')}\n${' '.repeat(indent)}}`
}
