import { buildASTSchema, validateSchema, type DocumentNode, type GraphQLError } from 'graphql'
import { validateSDL } from 'graphql/validation/validate.js'
import { definitionName, type SdlIndex } from './sdl-index.js'

/** A definition the SDL validator found invalid, with the first reason and where it was found. */
export type InvalidDefinition = { readonly reason: string; readonly offset: number | undefined }

/** Errors that the type mapper reports itself, with a more precise issue type. */
const HANDLED_BY_MAPPER = [
  /^Unknown type "/, // a missing type: its consumers are pruned (INVALID_DEPENDENCY_REF)
  /must be (?:an )?(?:Output|Input) Type/, // a type used in the wrong position (UNKNOWN_TYPE_KIND)
]

/**
 * Runs graphql-js's SDL and schema validation and attributes each error to the definition that
 * holds it (`parse → validateSDL → buildASTSchema(assumeValidSDL) → validateSchema`, which keeps
 * source locations where `buildSchema` would throw one plain error).
 */
export function findInvalidDefinitions(ast: DocumentNode, index: SdlIndex): Map<string, InvalidDefinition> {
  const invalid = new Map<string, InvalidDefinition>()
  const record = (error: GraphQLError, pick: 'first' | 'last') => {
    if (HANDLED_BY_MAPPER.some((pattern) => pattern.test(error.message))) return
    const nodes = error.nodes ?? []
    const node = pick === 'first' ? nodes[0] : nodes[nodes.length - 1]
    const offset = node?.loc?.start
    const definition = offset === undefined ? undefined : index.enclosing(offset)
    const name = definition ? definitionName(definition) : 'schema'
    if (!invalid.has(name)) invalid.set(name, { reason: error.message, offset })
  }
  for (const error of validateSDL(ast)) record(error, 'first')
  try {
    const schema = buildASTSchema(ast, { assumeValidSDL: true })
    // An implementation error names the interface first and the implementing type last.
    for (const error of validateSchema(schema)) record(error, 'last')
  } catch {
    // The AST could not be built into a schema (it names missing types); the mapper reports those.
  }
  return invalid
}
