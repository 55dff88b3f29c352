import {
  Kind,
  type DefinitionNode,
  type DirectiveDefinitionNode,
  type DocumentNode,
  type SchemaDefinitionNode,
  type SchemaExtensionNode,
  type TypeDefinitionNode,
  type TypeExtensionNode,
} from 'graphql'
import type { GraphqlRootKind } from '../model/operation.js'

/** The SDL's definitions by name, with extensions folded in, read straight from the AST. */
export type SdlIndex = {
  readonly types: ReadonlyMap<string, TypeDefinitionNode>
  readonly extensions: ReadonlyMap<string, readonly TypeExtensionNode[]>
  readonly directives: ReadonlyMap<string, DirectiveDefinitionNode>
  readonly schema: readonly (SchemaDefinitionNode | SchemaExtensionNode)[]
  /** Interface name → the object types that implement it, in document order. */
  readonly implementations: ReadonlyMap<string, readonly string[]>
  /** Executable definitions (queries, fragments) that have no place in a schema. */
  readonly executable: readonly DefinitionNode[]
  /** Finds the top-level definition that holds a source offset. */
  enclosing(offset: number): DefinitionNode | undefined
}

const TYPE_DEFINITIONS: ReadonlySet<string> = new Set([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.UNION_TYPE_DEFINITION,
  Kind.ENUM_TYPE_DEFINITION,
  Kind.INPUT_OBJECT_TYPE_DEFINITION,
  Kind.SCALAR_TYPE_DEFINITION,
])

const TYPE_EXTENSIONS: ReadonlySet<string> = new Set([
  Kind.OBJECT_TYPE_EXTENSION,
  Kind.INTERFACE_TYPE_EXTENSION,
  Kind.UNION_TYPE_EXTENSION,
  Kind.ENUM_TYPE_EXTENSION,
  Kind.INPUT_OBJECT_TYPE_EXTENSION,
  Kind.SCALAR_TYPE_EXTENSION,
])

export function indexSdl(ast: DocumentNode): SdlIndex {
  const types = new Map<string, TypeDefinitionNode>()
  const extensions = new Map<string, TypeExtensionNode[]>()
  const directives = new Map<string, DirectiveDefinitionNode>()
  const schema: (SchemaDefinitionNode | SchemaExtensionNode)[] = []
  const executable: DefinitionNode[] = []
  for (const definition of ast.definitions) {
    if (TYPE_DEFINITIONS.has(definition.kind)) {
      const node = definition as TypeDefinitionNode
      if (!types.has(node.name.value)) types.set(node.name.value, node)
    } else if (TYPE_EXTENSIONS.has(definition.kind)) {
      const node = definition as TypeExtensionNode
      const list = extensions.get(node.name.value)
      if (list) list.push(node)
      else extensions.set(node.name.value, [node])
    } else if (definition.kind === Kind.DIRECTIVE_DEFINITION) {
      if (!directives.has(definition.name.value)) directives.set(definition.name.value, definition)
    } else if (
      definition.kind === Kind.SCHEMA_DEFINITION ||
      definition.kind === Kind.SCHEMA_EXTENSION
    ) {
      schema.push(definition)
    } else {
      executable.push(definition)
    }
  }
  const starts = ast.definitions.map((definition) => definition.loc?.start ?? 0)
  return {
    types,
    extensions,
    directives,
    schema,
    implementations: implementationsOf(types, extensions),
    executable,
    enclosing(offset) {
      let low = 0
      let high = starts.length - 1
      let found = -1
      while (low <= high) {
        const mid = (low + high) >> 1
        if (starts[mid]! <= offset) {
          found = mid
          low = mid + 1
        } else high = mid - 1
      }
      return found === -1 ? undefined : ast.definitions[found]
    },
  }
}

function implementationsOf(
  types: ReadonlyMap<string, TypeDefinitionNode>,
  extensions: ReadonlyMap<string, readonly TypeExtensionNode[]>,
): Map<string, string[]> {
  const implementations = new Map<string, string[]>()
  for (const [name, definition] of types) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue
    const extended = (extensions.get(name) ?? []).flatMap((e) =>
      'interfaces' in e ? (e.interfaces ?? []) : [],
    )
    const interfaces = new Set(
      [...(definition.interfaces ?? []), ...extended].map((i) => i.name.value),
    )
    for (const face of interfaces) {
      const list = implementations.get(face)
      if (list) list.push(name)
      else implementations.set(face, [name])
    }
  }
  return implementations
}

/** The name a definition is reported under: the type name, `@directive`, or `schema`. */
export function definitionName(definition: DefinitionNode): string {
  if (definition.kind === Kind.DIRECTIVE_DEFINITION) return `@${definition.name.value}`
  if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION)
    return 'schema'
  if ('name' in definition && definition.name) return definition.name.value
  return definition.kind
}

/**
 * Root operation types as declared by `schema { … }` and `extend schema`, else the conventional
 * names (`Query`, `Mutation`, `Subscription`) where they are object types. `extend schema` alone
 * leaves the conventional names in place, as graphql-js does.
 */
export function declaredRoots(index: SdlIndex): Partial<Record<GraphqlRootKind, string>> {
  const roots: Partial<Record<GraphqlRootKind, string>> = {}
  for (const definition of index.schema) {
    for (const operation of definition.operationTypes ?? [])
      roots[operation.operation] = operation.type.name.value
  }
  if (index.schema.some((definition) => definition.kind === Kind.SCHEMA_DEFINITION)) return roots
  for (const [kind, name] of [
    ['query', 'Query'],
    ['mutation', 'Mutation'],
    ['subscription', 'Subscription'],
  ] as const) {
    if (roots[kind] === undefined && index.types.get(name)?.kind === Kind.OBJECT_TYPE_DEFINITION)
      roots[kind] = name
  }
  return roots
}
