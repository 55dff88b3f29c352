import type { GraphqlRootKind } from '@svc/engine'
import {
  GraphQLError,
  Kind,
  parse,
  print,
  specifiedRules,
  validate,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql'

export type DocumentInput = {
  readonly rootKind: GraphqlRootKind
  readonly operationName: string
  readonly field: GraphQLField<unknown, unknown>
  /** A selection set, `{ … }` or what goes between the braces; '' for a scalar or enum field. */
  readonly selection: string
}

/**
 * `query Name($a: Int!, $b: String = "x") { field(a: $a, b: $b) { … } }`: every argument of the
 * root field is a variable of its exact type, with its default, so that leaving it out of the
 * variables means what leaving it out of the field means.
 */
export function printDocument({ rootKind, operationName, field, selection }: DocumentInput) {
  const variables = field.args.map((arg) => {
    const value = arg.astNode?.defaultValue
    return `$${arg.name}: ${String(arg.type)}${value === undefined ? '' : ` = ${print(value)}`}`
  })
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`)
  const trimmed = selection.trim()
  const selectionSet = trimmed === '' || trimmed.startsWith('{') ? trimmed : `{ ${trimmed} }`
  return [
    `${rootKind} ${operationName}${variables.length > 0 ? `(${variables.join(', ')})` : ''} {`,
    `  ${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${selectionSet === '' ? '' : ` ${selectionSet}`}`,
    '}',
  ].join('\n')
}

/** The rules that need the arguments of non-root fields, which a model may not carry. */
/**
 * Parses and validates a document against the schema: its one operation, or an Error whose
 * message lists what `graphql` found wrong, one problem after the other.
 */
export function checkDocument(schema: GraphQLSchema, text: string): OperationDefinitionNode {
  let document
  try {
    document = parse(text, { noLocation: true })
  } catch (error) {
    throw new Error(error instanceof GraphQLError ? error.message : String(error))
  }
  const [operation, ...others] = document.definitions
  if (
    operation?.kind !== Kind.OPERATION_DEFINITION ||
    others.length > 0 ||
    operation.selectionSet.selections.length !== 1
  )
    throw new Error('The selection must be one selection set of the field')
  const errors = validate(schema, document, specifiedRules)
  if (errors.length > 0) throw new Error(errors.map((error) => error.message).join(' '))
  return operation
}

/** Text as a template literal, which keeps a document's lines readable in the generated file. */
export function templateLiteral(text: string): string {
  return `\`${text.replace(/\\|`|\$\{/g, (match) => `\\${match}`)}\``
}
