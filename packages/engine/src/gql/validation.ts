import {
  buildASTSchema,
  GraphQLError,
  Kind,
  validateSchema,
  visit,
  type ASTNode,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
  type ObjectTypeDefinitionNode,
} from 'graphql'
import { validateSDL } from 'graphql/validation/validate.js'
import { definitionName, type SdlIndex } from './sdl-index.js'

/** A definition the SDL validator found invalid, with the first reason and the node it names. */
export type InvalidDefinition = { readonly reason: string; readonly node: ASTNode | undefined }

const UNKNOWN_TYPE = /^Unknown type "/
/** A type used in the wrong position: the mapper reports it as UNKNOWN_TYPE_KIND. */
const WRONG_POSITION = /must be (?:an )?(?:Output|Input) Type/
/** An applied directive nobody defined: the mapper reports it as DROPPED_DIRECTIVE. */
const UNKNOWN_DIRECTIVE = /^Unknown directive "/
/** A schema without a query root still maps to types; nothing in it is invalid. */
const NO_QUERY_ROOT = /^Query root type must be provided\.$/

/**
 * Runs graphql-js's SDL and schema validation and attributes each error to the definition that
 * holds it (`parse → validateSDL → buildASTSchema(assumeValidSDL) → validateSchema`, which keeps
 * source locations where `buildSchema` would throw one plain error).
 */
export function findInvalidDefinitions(
  ast: DocumentNode,
  index: SdlIndex,
): Map<string, InvalidDefinition> {
  const invalid = new Map<string, InvalidDefinition>()
  const record = (error: GraphQLError) => {
    // The last node is the repeated definition of a duplicate, and the implementing type of an
    // interface error (which names the interface first).
    const nodes = error.nodes ?? []
    const node = nodes[nodes.length - 1]
    const offset = node?.loc?.start
    const definition = offset === undefined ? undefined : index.enclosing(offset)
    if (handledByMapper(error.message, node, definition)) return
    const name = definition ? definitionName(definition) : 'schema'
    if (!invalid.has(name)) invalid.set(name, { reason: error.message, node })
  }
  const sdlErrors = validateSDL(ast)
  for (const error of sdlErrors) record(error)
  const schema = buildForValidation(withStubs(ast, sdlErrors), record)
  for (const error of validateSchema(schema)) record(error)
  return invalid
}

/**
 * graphql-js evaluates default values and the arguments of `@deprecated` and `@specifiedBy` while
 * it builds: a wrong value throws, a default of an undefined type (given an object stub) fails
 * its invariant with a plain Error, and an input-object default inside its own type recurses
 * until the stack overflows. The second try builds without those values; the checks that
 * `validateSchema` makes hardly depend on them, and an error that is not about values throws
 * again there.
 */
function buildForValidation(
  document: DocumentNode,
  record: (error: GraphQLError) => void,
): GraphQLSchema {
  try {
    return buildASTSchema(document, { assumeValidSDL: true })
  } catch (error) {
    if (error instanceof GraphQLError) record(error)
    else if (!(error instanceof Error)) throw error
  }
  return buildASTSchema(withoutValues(document), { assumeValidSDL: true })
}

const EVALUATED_DIRECTIVES: ReadonlySet<string> = new Set(['deprecated', 'specifiedBy'])

function withoutValues(document: DocumentNode): DocumentNode {
  return visit(document, {
    InputValueDefinition: (node) =>
      node.defaultValue ? { ...node, defaultValue: { kind: Kind.NULL } } : undefined,
    Directive: (node) =>
      EVALUATED_DIRECTIVES.has(node.name.value)
        ? {
            ...node,
            arguments: node.arguments?.map((a) => ({
              ...a,
              value: { kind: Kind.STRING, value: '' },
            })),
          }
        : undefined,
  })
}

/**
 * Whether the mapper reports this error itself, with a more precise issue type: it sees the
 * types of fields, input fields, arguments and union members, and every applied directive, but
 * not the interfaces a type implements, the schema's root types or directive definitions.
 */
function handledByMapper(
  message: string,
  node: ASTNode | undefined,
  definition: DefinitionNode | undefined,
): boolean {
  if (NO_QUERY_ROOT.test(message) || UNKNOWN_DIRECTIVE.test(message)) return true
  if (!definition || definition.kind === Kind.DIRECTIVE_DEFINITION) return false
  if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION)
    return false
  if (WRONG_POSITION.test(message)) return true
  if (!UNKNOWN_TYPE.test(message)) return false
  const interfaces = 'interfaces' in definition ? (definition.interfaces ?? []) : []
  return !interfaces.some((named) => named === node)
}

/**
 * The document plus a one-field object type for every name it uses but never defines, so that
 * `buildASTSchema` does not throw and `validateSchema` still checks everything else.
 */
function withStubs(ast: DocumentNode, sdlErrors: readonly GraphQLError[]): DocumentNode {
  const missing = new Set<string>()
  for (const error of sdlErrors) {
    const node = error.nodes?.[0]
    if (UNKNOWN_TYPE.test(error.message) && node?.kind === Kind.NAMED_TYPE)
      missing.add(node.name.value)
  }
  if (missing.size === 0) return ast
  const stubs = [...missing].map((name): ObjectTypeDefinitionNode => ({
    kind: Kind.OBJECT_TYPE_DEFINITION,
    name: { kind: Kind.NAME, value: name },
    fields: [
      {
        kind: Kind.FIELD_DEFINITION,
        name: { kind: Kind.NAME, value: 'stub' },
        type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'Boolean' } },
      },
    ],
  }))
  return { ...ast, definitions: [...ast.definitions, ...stubs] }
}
