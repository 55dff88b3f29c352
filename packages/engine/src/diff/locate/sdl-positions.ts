import type { PathPosition } from '../../input/issue-positions.js'
import { linePositions } from '../../input/line-positions.js'
import { sdlCoordinates } from './sdl-coordinates.js'

/**
 * The positions of the schema coordinates of a GraphQL SDL text (`Query.user(id:)`, `Role.ADMIN`,
 * `@auth(role:)`, `schema.query`): each is the position of its name; a coordinate the schema
 * lacks gets its nearest one that it has (`Query.user`, then `Query`), with `exact: false`.
 */
export function sdlPositions(text: string): (coordinate: string) => PathPosition | undefined {
  const offsets = sdlCoordinates(text)
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
