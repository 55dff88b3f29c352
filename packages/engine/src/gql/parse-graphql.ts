import { Kind, Lexer, Source, TokenKind, type DocumentNode, type TypeDefinitionNode } from 'graphql'
// The parser and its errors from where sdl-parser.ts takes the parser (a test runner may load
// 'graphql' itself from its ES module build, whose GraphQLError is another class).
import { GraphQLError } from 'graphql/error/GraphQLError.js'
import { parse } from 'graphql/language/parser.js'
import { DocumentError } from '../input/document-error.js'
import { GQL_ISSUES, IssueLog, type ParseIssue } from '../issues/index.js'
import type { GqlModel } from '../model/api-model.js'
import type { GraphqlArgument, GraphqlOperation, GraphqlRootKind } from '../model/operation.js'
import type { ObjectSchema, Schema, UnionSchema } from '../model/schema.js'
import { errorProne } from './error-prone.js'
import { GqlContext, type TypeUse } from './gql-context.js'
import { mapRootField, mapType, type MappedType } from './map-types.js'
import { declaredRoots, definitionName, indexSdl, type SdlIndex } from './sdl-index.js'
import { parseWithOffsets } from './sdl-parser.js'
import { findInvalidDefinitions, type InvalidDefinition } from './validation.js'

type Unit<T> = { readonly value: T; readonly uses: readonly TypeUse[] } | undefined

/**
 * Parses GraphQL SDL into the model: named types become schema components, root fields become
 * operations. Invalid definitions are dropped (INVALID_TYPE_DEFINITION) and the fields, members
 * and root fields that use a dropped or missing type are pruned, one hop deep.
 */
export function parseGraphql(text: string) {
  return parseGraphqlDocument(parseSdl(text))
}

/** {@link parseGraphql} of SDL already read by {@link parseSdl} (with its locations). */
export function parseGraphqlDocument(ast: DocumentNode) {
  return readGraphql(ast, false).parsed
}

/**
 * Every error-level issue {@link parseGraphqlDocument} finds, in its order (with some of its
 * warnings), for about half its cost: only the units that could have one are mapped
 * ({@link errorProne}); should one of them fail to map, which others may depend on, all are.
 */
export function parseGraphqlErrors(ast: DocumentNode): readonly ParseIssue[] {
  const read = readGraphql(ast, true)
  return (read.complete ? read.parsed : parseGraphqlDocument(ast)).parseIssues
}

function readGraphql(ast: DocumentNode, errorsOnly: boolean) {
  const index = indexSdl(ast)
  const issues = new IssueLog()
  const ctx = new GqlContext(index, issues)
  const invalid = findInvalidDefinitions(ast, index)
  reportDefinitionProblems(ctx, invalid)

  const roots = rootTypes(index)
  const rootNames = new Set(Object.values(roots))
  const prone = errorsOnly ? errorProne(index, invalid, rootNames) : undefined
  const types = new Map<string, Unit<MappedType>>()
  for (const [name, definition] of index.types) {
    if (rootNames.has(name)) continue
    if (prone && !invalid.has(name) && !prone.type(definition)) continue
    types.set(
      name,
      invalid.has(name)
        ? undefined
        : runUnit(ctx, name, definition, () => mapType(ctx, definition)),
    )
  }
  const operations: { unit: Unit<GraphqlOperation>; path: string[] }[] = []
  for (const [rootKind, rootName] of Object.entries(roots) as [GraphqlRootKind, string][]) {
    const definition = index.types.get(rootName)!
    if (invalid.has(rootName)) continue
    const extensions = index.extensions.get(rootName) ?? []
    ctx.reportDirectives(
      [...(definition.directives ?? []), ...extensions.flatMap((e) => e.directives ?? [])],
      [rootName],
    )
    for (const field of fieldsOfRoot(index, rootName)) {
      if (prone && !prone.field(field)) continue
      const path = [rootName, field.name.value]
      operations.push({
        path,
        unit: runUnit(ctx, path.join(':'), field, () =>
          mapRootField(ctx, rootKind, rootName, field),
        ),
      })
    }
  }
  // Their fields were reported as operations already; as types they only give the refs a target.
  const quiet = new GqlContext(index, new IssueLog())
  mapUsedRoots(
    quiet,
    rootNames,
    invalid,
    types,
    operations.map(({ unit }) => unit),
  )

  const failed = (name: string): string | undefined => {
    if (!index.types.has(name)) return `Type "${name}" is not defined`
    const problem = invalid.get(name)
    if (problem) return `Type "${name}" is invalid: ${problem.reason.replace(/\.$/, '')}`
    if (types.has(name) && types.get(name) === undefined)
      return `Type "${name}" could not be mapped`
    return undefined
  }
  const schemas: [string, Schema][] = []
  const fieldArguments: [string, Readonly<Record<string, readonly GraphqlArgument[]>>][] = []
  for (const [typeName, unit] of types) {
    if (!unit) continue
    const reporter = rootNames.has(typeName) ? quiet : ctx
    for (const [name, schema] of unit.value.schemas)
      schemas.push([name, prune(reporter, schema, name, unit.uses, failed)])
    const kept = schemas.find(([name]) => name === typeName)?.[1]
    if (!unit.value.fieldArguments || rootNames.has(typeName) || kept?.kind !== 'object') continue
    // A field pruned for a missing type takes its arguments with it.
    const fields = Object.entries(unit.value.fieldArguments).filter(([field]) =>
      Object.hasOwn(kept.properties, field),
    )
    if (fields.length > 0)
      fieldArguments.push([typeName, Object.freeze(Object.fromEntries(fields))])
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
    fieldArguments: Object.freeze(Object.fromEntries(fieldArguments)),
    webhooks: Object.freeze<[]>([]),
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
  const parsed = {
    model,
    parseIssues,
    source: { protocol: 'gql', format: 'graphql', version: 'sdl' },
  } as const
  const unmapped = [...types].some(([name, unit]) => unit === undefined && !invalid.has(name))
  return { parsed, complete: !unmapped && operations.every(({ unit }) => unit !== undefined) }
}

/**
 * Reads SDL into its AST, each node with its offsets unless `noLocation`; text that is not SDL is
 * a {@link DocumentError}.
 */
export function parseSdl(text: string, options: { noLocation?: boolean } = {}): DocumentNode {
  if (isBlank(text)) throw new DocumentError('empty_document', 'The document is empty.')
  try {
    return options.noLocation ? parse(text, { noLocation: true }) : parseWithOffsets(text)
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error
    const [at] = error.locations ?? []
    const where = at ? ` at line ${at.line}, column ${at.column}` : ''
    throw new DocumentError(
      'invalid_syntax',
      `Invalid GraphQL SDL${where}: ${error.message.replace(/^Syntax Error: /, '')}`,
      {
        ...(at ? { line: at.line, column: at.column } : {}),
        cause: error,
      },
    )
  }
}

/** Only whitespace, commas and comments: the tokens GraphQL ignores. */
function isBlank(text: string): boolean {
  try {
    return new Lexer(new Source(text)).advance().kind === TokenKind.EOF
  } catch {
    return false
  }
}

function reportDefinitionProblems(
  ctx: GqlContext,
  invalid: ReadonlyMap<string, InvalidDefinition>,
): void {
  for (const [name, { reason, node }] of invalid) {
    ctx.report(
      GQL_ISSUES.invalidTypeDefinition,
      [name],
      `${reason.replace(/\.$/, '')}; dropped ${name}.`,
      node,
      reason,
    )
  }
  for (const definition of ctx.index.executable) {
    const name = definitionName(definition)
    ctx.report(
      GQL_ISSUES.invalidTypeDefinition,
      [name],
      `An executable definition (${definition.kind}) has no place in a schema; ignored.`,
      definition,
      'executable definition in SDL',
    )
  }
  for (const [name, directive] of ctx.index.directives) {
    if (invalid.has(`@${name}`)) continue
    ctx.report(
      GQL_ISSUES.droppedDirective,
      [`@${name}`],
      `Custom directive '@${name}' is not represented in generated output.`,
      directive,
    )
  }
  for (const definition of ctx.index.schema) ctx.reportDirectives(definition.directives, ['schema'])
}

/**
 * Maps the root types that are also used as types (Relay's `relay: Query!`, `type Query
 * implements Node`), so that the refs to them have a target.
 */
function mapUsedRoots(
  quiet: GqlContext,
  rootNames: ReadonlySet<string>,
  invalid: ReadonlyMap<string, InvalidDefinition>,
  types: Map<string, Unit<MappedType>>,
  operations: readonly Unit<GraphqlOperation>[],
): void {
  const usedRoots = (units: Iterable<Unit<unknown>>) =>
    [...units].flatMap((unit) =>
      (unit?.uses ?? []).filter((use) => rootNames.has(use.name)).map((use) => use.name),
    )
  const pending = usedRoots([...types.values(), ...operations])
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (types.has(name) || invalid.has(name)) continue
    const definition = quiet.index.types.get(name)!
    const unit = runUnit(quiet, name, definition, () => mapType(quiet, definition))
    types.set(name, unit)
    pending.push(...usedRoots([unit]))
  }
}

function runUnit<T>(
  ctx: GqlContext,
  label: string,
  node: TypeDefinitionNode | { loc?: { start: number } },
  map: () => T,
): Unit<T> {
  ctx.uses = []
  try {
    return { value: map(), uses: ctx.uses }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    ctx.report(
      GQL_ISSUES.invalidTypeDefinition,
      label.split(':'),
      `${reason}; dropped ${label}.`,
      node as never,
      reason,
    )
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
    dependencyIssue(
      ctx,
      use,
      reason,
      use.path.slice(0, use.path[1] === 'members' ? 3 : 2).join('.'),
    )
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
  ctx.report(
    GQL_ISSUES.invalidDependencyRef,
    use.path,
    `${reason}; dropped ${dropped}.`,
    use.node,
    reason,
  )
}

/** The declared root operation types that are object types, the only ones that can be roots. */
function rootTypes(index: SdlIndex): Partial<Record<GraphqlRootKind, string>> {
  const roots = declaredRoots(index)
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
