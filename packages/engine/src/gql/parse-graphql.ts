import { getLocation, GraphQLError, Kind, parse, Source, type DocumentNode, type TypeDefinitionNode } from 'graphql'
import { DocumentError } from '../input/document-error.js'
import { GQL_ISSUES, IssueLog, type ParseIssue } from '../issues/index.js'
import type { GqlModel } from '../model/api-model.js'
import type { GraphqlOperation, GraphqlRootKind } from '../model/operation.js'
import type { ObjectSchema, Schema, UnionSchema } from '../model/schema.js'
import { GqlContext, type TypeUse } from './gql-context.js'
import { mapRootField, mapType, type MappedType } from './map-types.js'
import { definitionName, indexSdl, type SdlIndex } from './sdl-index.js'
import { findInvalidDefinitions, type InvalidDefinition } from './validation.js'

type Unit<T> = { readonly value: T; readonly uses: readonly TypeUse[] } | undefined

/**
 * Parses GraphQL SDL into the model: named types become schema components, root fields become
 * operations. Invalid definitions are dropped (INVALID_TYPE_DEFINITION) and the fields, members
 * and root fields that use a dropped or missing type are pruned, one hop deep.
 */
export function parseGraphql(text: string) {
  const source = new Source(text)
  const ast = parseSdl(source)
  const index = indexSdl(ast)
  const issues = new IssueLog()
  const ctx = new GqlContext(index, source, issues)
  const invalid = findInvalidDefinitions(ast, index)
  reportDefinitionProblems(ctx, ast, invalid)

  const roots = rootTypes(index)
  const rootNames = new Set(Object.values(roots))
  const types = new Map<string, Unit<MappedType>>()
  for (const [name, definition] of index.types) {
    if (rootNames.has(name)) continue
    types.set(name, invalid.has(name) ? undefined : runUnit(ctx, name, definition, () => mapType(ctx, definition)))
  }
  const operations: { unit: Unit<GraphqlOperation>; path: string[] }[] = []
  for (const [rootKind, rootName] of Object.entries(roots) as [GraphqlRootKind, string][]) {
    const definition = index.types.get(rootName)!
    if (invalid.has(rootName)) continue
    ctx.reportDirectives(definition.directives, [rootName])
    for (const field of fieldsOfRoot(index, rootName)) {
      const path = [rootName, field.name.value]
      operations.push({ path, unit: runUnit(ctx, path.join(':'), field, () => mapRootField(ctx, rootKind, rootName, field)) })
    }
  }

  const failed = (name: string): string | undefined => {
    if (!index.types.has(name)) return `Type "${name}" is not defined`
    const problem = invalid.get(name)
    if (problem) return `Type "${name}" is invalid: ${problem.reason}`
    if (!rootNames.has(name) && types.get(name) === undefined) return `Type "${name}" could not be mapped`
    return undefined
  }
  const schemas: [string, Schema][] = []
  for (const [, unit] of types) {
    if (!unit) continue
    for (const [name, schema] of unit.value.schemas) schemas.push([name, prune(ctx, schema, name, unit.uses, failed)])
  }
  const kept: GraphqlOperation[] = []
  for (const { unit, path } of operations) {
    if (!unit) continue
    const bad = unit.uses.filter((use) => failed(use.name) !== undefined)
    for (const use of bad) dependencyIssue(ctx, use, failed(use.name)!, path.join('.'))
    if (bad.length === 0) kept.push(unit.value)
  }

  const model: GqlModel = Object.freeze({
    protocol: 'gql',
    info: Object.freeze({ title: '', version: '' }),
    operations: Object.freeze(kept),
    webhooks: Object.freeze([]) as readonly [],
    components: Object.freeze({
      schemas: Object.freeze(Object.fromEntries(schemas)),
      parameters: {},
      responses: {},
      requestBodies: {},
      headers: {},
      securitySchemes: {},
    }),
  })
  const parseIssues: ParseIssue[] = issues.recorded.map(({ path: _path, ...issue }) => issue)
  return { model, parseIssues, source: { protocol: 'gql', format: 'graphql', version: 'sdl' } } as const
}

function parseSdl(source: Source): DocumentNode {
  try {
    return parse(source)
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error
    const [at] = error.locations ?? []
    const where = at ? ` at line ${at.line}, column ${at.column}` : ''
    throw new DocumentError('invalid_syntax', `Invalid GraphQL SDL${where}: ${error.message.replace(/^Syntax Error: /, '')}`, {
      ...(at ? { line: at.line, column: at.column } : {}),
      cause: error,
    })
  }
}

function reportDefinitionProblems(ctx: GqlContext, ast: DocumentNode, invalid: ReadonlyMap<string, InvalidDefinition>): void {
  for (const [name, { reason, offset }] of invalid) {
    const position = offset === undefined ? undefined : getLocation(ctx.source, offset)
    ctx.issues.add(GQL_ISSUES.invalidTypeDefinition, [name], `${reason.replace(/\.$/, '')}; dropped ${name}.`, reason, position && { line: position.line, column: position.column })
  }
  for (const definition of ctx.index.executable) {
    const name = definitionName(definition)
    ctx.report(GQL_ISSUES.invalidTypeDefinition, [name], `An executable definition (${definition.kind}) has no place in a schema; ignored.`, definition, 'executable definition in SDL')
  }
  for (const [name, directive] of ctx.index.directives) {
    if (invalid.has(`@${name}`)) continue
    ctx.report(GQL_ISSUES.droppedDirective, [`@${name}`], `Custom directive '@${name}' is not represented in generated output.`, directive)
  }
  void ast
}

function runUnit<T>(ctx: GqlContext, label: string, node: TypeDefinitionNode | { loc?: { start: number } }, map: () => T): Unit<T> {
  ctx.uses = []
  try {
    return { value: map(), uses: ctx.uses }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    ctx.report(GQL_ISSUES.invalidTypeDefinition, label.split(':'), `${reason}; dropped ${label}.`, node as never, reason)
    return undefined
  }
}

/** Removes the fields and members of a mapped schema whose type failed or is missing. */
function prune(
  ctx: GqlContext,
  schema: Schema,
  name: string,
  uses: readonly TypeUse[],
  failed: (name: string) => string | undefined,
): Schema {
  const dropped = new Set<string>()
  for (const use of uses) {
    if (use.path[0] !== name) continue
    const reason = failed(use.name)
    if (reason === undefined) continue
    dependencyIssue(ctx, use, reason, use.path.slice(0, use.path[1] === 'members' ? 3 : 2).join('.'))
    dropped.add(use.path[1] === 'members' ? `members:${use.path[2]}` : use.path[1]!)
  }
  if (dropped.size === 0) return schema
  if (schema.kind === 'object') {
    const properties = Object.entries(schema.properties).filter(([field]) => !dropped.has(field))
    const node: ObjectSchema = {
      ...schema,
      properties: Object.freeze(Object.fromEntries(properties)),
      required: Object.freeze(schema.required.filter((field) => !dropped.has(field))),
    }
    return Object.freeze(node)
  }
  if (schema.kind === 'union') {
    const members = schema.members.filter((_, i) => !dropped.has(`members:${i}`))
    const node: UnionSchema = { ...schema, members: Object.freeze(members) }
    return Object.freeze(node)
  }
  return schema
}

function dependencyIssue(ctx: GqlContext, use: TypeUse, reason: string, dropped: string): void {
  ctx.report(GQL_ISSUES.invalidDependencyRef, use.path, `${reason}; dropped ${dropped}.`, use.node, reason)
}

/** Root operation types from `schema { … }`, or the conventional names when they exist. */
function rootTypes(index: SdlIndex): Partial<Record<GraphqlRootKind, string>> {
  const roots: Partial<Record<GraphqlRootKind, string>> = {}
  for (const definition of index.schema) {
    for (const operation of definition.operationTypes ?? []) roots[operation.operation as GraphqlRootKind] = operation.type.name.value
  }
  if (index.schema.length === 0) {
    for (const [kind, name] of [['query', 'Query'], ['mutation', 'Mutation'], ['subscription', 'Subscription']] as const) {
      if (index.types.get(name)?.kind === Kind.OBJECT_TYPE_DEFINITION) roots[kind] = name
    }
  }
  for (const [kind, name] of Object.entries(roots) as [GraphqlRootKind, string][]) {
    if (index.types.get(name)?.kind !== Kind.OBJECT_TYPE_DEFINITION) delete roots[kind]
  }
  return roots
}

function fieldsOfRoot(index: SdlIndex, name: string) {
  const definition = index.types.get(name)
  if (definition?.kind !== Kind.OBJECT_TYPE_DEFINITION) return []
  const extensions = (index.extensions.get(name) ?? []).flatMap((extension) =>
    extension.kind === Kind.OBJECT_TYPE_EXTENSION ? (extension.fields ?? []) : [],
  )
  return [...(definition.fields ?? []), ...extensions]
}
