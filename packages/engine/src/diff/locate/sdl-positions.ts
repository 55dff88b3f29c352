import {
  Kind,
  type DefinitionNode,
  type DocumentNode,
  type InputValueDefinitionNode,
  type NameNode,
} from 'graphql'
import { recentTree } from '../../gql/recent-trees.js'
import type { PathPosition } from '../../input/issue-positions.js'
import { linePositions } from '../../input/line-positions.js'
import { sdlCoordinates } from './sdl-coordinates.js'

/**
 * The positions of the schema coordinates of a GraphQL SDL text (`Query.user(id:)`, `Role.ADMIN`,
 * `@auth(role:)`, `schema.query`): each is the position of its name; a coordinate the schema
 * lacks gets its nearest one that it has (`Query.user`, then `Query`), with `exact: false`.
 */
export function sdlPositions(text: string): (coordinate: string) => PathPosition | undefined {
  const tree = recentTree(text)
  const offsets = tree ? treeCoordinates(tree) : sdlCoordinates(text)
  const position = linePositions(text)
  return (coordinate) => {
    const candidates = ancestors(coordinate)
    for (const [index, candidate] of candidates.entries()) {
      const offset = offsets.get(candidate)
      if (offset === undefined) continue
      return { ...position(offset), exact: index === 0 }
    }
    return undefined
  }
}

/** `Query.user(id:)` → itself, `Query.user`, `Query`; `@auth(role:)` → itself, `@auth`. */
function ancestors(coordinate: string): string[] {
  const result = [coordinate]
  const argument = /^(.*)\([^()]*:\)$/.exec(coordinate)
  if (argument) result.push(argument[1]!)
  const last = result.at(-1)!
  if (!last.startsWith('@') && last.includes('.')) result.push(last.slice(0, last.indexOf('.')))
  // `schema.query` without a schema definition: the root type of that name.
  const root = /^schema\.(query|mutation|subscription)$/.exec(coordinate)?.[1]
  if (root) result.push(root[0]!.toUpperCase() + root.slice(1))
  return result
}

/** {@link sdlCoordinates} read from a tree parsed with its offsets. */
export function treeCoordinates(tree: DocumentNode): Map<string, number> {
  const offsets = new Map<string, number>()
  const add = (coordinate: string, name: NameNode | undefined) => {
    if (name?.loc && !offsets.has(coordinate)) offsets.set(coordinate, name.loc.start)
  }
  const addArguments = (owner: string, args: readonly InputValueDefinitionNode[] | undefined) => {
    for (const arg of args ?? []) add(`${owner}(${arg.name.value}:)`, arg.name)
  }
  // Definitions first, so a type's coordinate is its definition rather than an extension.
  const ordered = [
    ...tree.definitions.filter((definition) => !isExtension(definition)),
    ...tree.definitions.filter(isExtension),
  ]
  for (const definition of ordered) {
    switch (definition.kind) {
      case Kind.SCHEMA_DEFINITION:
      case Kind.SCHEMA_EXTENSION:
        if (definition.loc && !offsets.has('schema')) offsets.set('schema', definition.loc.start)
        for (const operation of definition.operationTypes ?? [])
          if (operation.loc && !offsets.has(`schema.${operation.operation}`))
            offsets.set(`schema.${operation.operation}`, operation.loc.start)
        break
      case Kind.DIRECTIVE_DEFINITION:
        add(`@${definition.name.value}`, definition.name)
        addArguments(`@${definition.name.value}`, definition.arguments)
        break
      default: {
        if (!('name' in definition) || !definition.name) break
        const type = definition.name.value
        add(type, definition.name)
        if ('fields' in definition)
          for (const field of definition.fields ?? []) {
            add(`${type}.${field.name.value}`, field.name)
            if ('arguments' in field) addArguments(`${type}.${field.name.value}`, field.arguments)
          }
        if ('values' in definition)
          for (const value of definition.values ?? [])
            add(`${type}.${value.name.value}`, value.name)
      }
    }
  }
  return offsets
}

function isExtension(definition: DefinitionNode): boolean {
  return definition.kind.endsWith('Extension')
}
