/**
 * @module @svc/gen-graphql-client: for every root field of a GraphQL schema (query, mutation,
 * subscription), a typed document and an async function that sends it, in `graphql-client.ts`:
 *
 * ```ts
 * export async function queryViewer(
 *   variables: QueryViewerVariables,
 *   options: GraphqlClientOptions,
 * ): Promise<QueryViewerResult>
 * ```
 *
 * - The document passes every argument of the root field as a variable of its exact type.
 * - Its selection set is the variant's `selection` enrichment, used as written, or one made from
 *   the schema (see `defaultSelection`) down to `depth` selection sets (the variant's `depth`,
 *   else `_generator.depth`, else 2). A selection that does not parse or does not validate
 *   against the schema makes the item an error that quotes what `graphql` found.
 * - `<Name>Result` is the type of `data`, computed from the selection: only the selected
 *   fields, exact nullability, `__typename` literals for interfaces and unions.
 *   `<Name>Variables` types the arguments; enums and input objects are named types.
 * - Scalars: `ID` and `String` are `string`, `Int` and `Float` `number`, `Boolean` `boolean`,
 *   custom scalars `unknown` (their serialization is the server's choice).
 * - The runtime (`request`, `GraphqlClientOptions`, `GraphqlError`) is written once per file
 *   and needs only `fetch`. A subscription is sent as one request, which suits servers that
 *   answer it with one result; its document also serves a streaming client.
 *
 * The engine does not keep the arguments of non-root fields: a model without `fieldArguments`
 * cannot tell which fields require one, and its generated selections may name such a field.
 */
import { toGraphqlEntry, type AnyGeneratorEntry, type GenerateContext } from '@svc/engine/generate'
import type { GraphqlOperation } from '@svc/engine'
import type { GraphQLField } from 'graphql'
import { enrichmentSchema, generatorDepth, type GraphqlClientEnrichment } from './enrichment.js'
import { schemaViewOf, type SchemaView } from './graphql-schema.js'
import { docComment, operationName, pascalStem, schemaTypeName } from './names.js'
import { checkDocument, printDocument, templateLiteral } from './print-document.js'
import { printResultType } from './print-result-type.js'
import {
  printNamedType,
  printVariablesType,
  type NamedType,
  type UseNamedType,
} from './print-variables-type.js'
import { defineRuntime } from './runtime.js'
import { defaultSelection } from './selection.js'

export { enrichmentSchema, type GraphqlClientEnrichment } from './enrichment.js'
export { SCALAR_TYPES } from './scalars.js'

export const graphqlClientEntry = toGraphqlEntry<GraphqlClientEnrichment>({
  id: '@svc/gen-graphql-client',
  enrichmentSchema,
  toExportPath: () => 'graphql-client.ts',
  isSupported: ({ context, subject }) =>
    rootField(schemaViewOf(context.model), subject) !== undefined,
  transform({ context, subject, variant, enrichment, name, exportPath }) {
    const view = schemaViewOf(context.model)
    const field = rootField(view, subject)
    if (field === undefined)
      throw new Error(`The schema has no ${subject.rootKind} field '${subject.fieldName}'`)
    const configured = enrichment?.selection
    if (configured !== undefined && enrichment?.depth !== undefined)
      context.warn(`'depth' is ignored: variant '${variant}' sets 'selection'`)
    const depth = enrichment?.depth ?? generatorDepth(context.generatorSettings)
    const text = printDocument({
      rootKind: subject.rootKind,
      operationName: operationName(name),
      field,
      selection: configured ?? defaultSelection(view.schema, field.type, depth),
    })
    let operation
    try {
      operation = checkDocument(view.schema, text)
    } catch (error) {
      const what = configured === undefined ? 'generated selection' : 'selection'
      const where = `${subject.rootKind} ${subject.fieldName}, variant '${variant}'`
      throw new Error(`Invalid ${what} for ${where}: ${(error as Error).message}`)
    }
    // Everything is printed before anything is defined: a failed item leaves nothing behind.
    const named = new Map<string, NamedType>()
    const use: UseNamedType = (type) => {
      named.set(type.name, type)
      return schemaTypeName(type.name)
    }
    const variablesType = printVariablesType(field.args, use)
    const resultType = printResultType(view.schema, operation, use)

    defineRuntime(context, exportPath)
    const namedTypes = [...named.values()].map((type) => defineNamedType(context, exportPath, type))
    const stem = pascalStem(name)
    const typeDependency = (typeName: string) => ({ name: typeName, exportPath, typeOnly: true })
    const variables = context.define({
      name: `${stem}Variables`,
      kind: 'type',
      exportPath,
      code: `export type ${stem}Variables = ${variablesType}`,
      dependsOn: namedTypes.map(typeDependency),
    }).identifier.name
    const result = context.define({
      name: `${stem}Result`,
      kind: 'type',
      exportPath,
      code: `export type ${stem}Result = ${resultType}`,
      dependsOn: namedTypes.map(typeDependency),
    }).identifier.name
    const document = context.define({
      name: `${name}Document`,
      kind: 'value',
      exportPath,
      code: [
        `export const ${name}Document: GraphqlDocument<${result}, ${variables}> = {`,
        `  operationName: ${JSON.stringify(operationName(name))},`,
        `  query: ${templateLiteral(text)},`,
        '}',
      ].join('\n'),
      dependsOn: ['GraphqlDocument', result, variables].map(typeDependency),
    }).identifier.name
    context.define({
      name,
      kind: 'value',
      exportPath,
      code: [
        `${functionComment(subject)}export async function ${name}(`,
        `  variables: ${variables},`,
        '  options: GraphqlClientOptions,',
        `): Promise<${result}> {`,
        `  return request(${document}, variables, options)`,
        '}',
      ].join('\n'),
      dependsOn: [
        { name: document, exportPath },
        { name: 'request', exportPath },
        ...['GraphqlClientOptions', result, variables].map(typeDependency),
      ],
    })
  },
})

export const generators: readonly AnyGeneratorEntry[] = [graphqlClientEntry]

function rootField(
  view: SchemaView,
  subject: GraphqlOperation,
): GraphQLField<unknown, unknown> | undefined {
  const { schema } = view
  const root = {
    query: schema.getQueryType(),
    mutation: schema.getMutationType(),
    subscription: schema.getSubscriptionType(),
  }[subject.rootKind]
  const fields = root?.getFields()
  return fields !== undefined && Object.hasOwn(fields, subject.fieldName)
    ? fields[subject.fieldName]
    : undefined
}

/** An enum or input object type, shared by every operation of the file. */
function defineNamedType(context: GenerateContext, exportPath: string, type: NamedType): string {
  return context.define({
    name: schemaTypeName(type.name),
    kind: 'type',
    exportPath,
    scope: 'generator',
    build: () => {
      const dependsOn: { name: string; exportPath: string; typeOnly: true }[] = []
      const code = printNamedType(type, (other) => {
        const name = defineNamedType(context, exportPath, other)
        dependsOn.push({ name, exportPath, typeOnly: true })
        return name
      })
      return { code, dependsOn }
    },
  }).identifier.name
}

function functionComment(subject: GraphqlOperation): string {
  const lines = subject.description === undefined ? [] : [subject.description]
  if (subject.rootKind === 'subscription')
    lines.push('Sent as one request: for servers that answer a subscription with one result.')
  if (subject.deprecated) lines.push(`@deprecated ${subject.deprecationReason ?? ''}`.trimEnd())
  return docComment(lines)
}
