import { describe, expect, it } from 'vitest'
import { sdlPositions } from './sdl-positions.js'

describe('sdlPositions', () => {
  it('counts lines as graphql-js does: \\r\\n, \\n and \\r each end one', () => {
    const position = sdlPositions(
      'type Query {\r\n  a: Int\n  b: Int\r  c: Int\r\n\r\n}\ntype B { x: Int }',
    )
    expect(['Query', 'Query.a', 'Query.b', 'Query.c', 'B.x'].map(position)).toEqual([
      { line: 1, column: 6, exact: true },
      { line: 2, column: 3, exact: true },
      { line: 3, column: 3, exact: true },
      { line: 4, column: 3, exact: true },
      { line: 7, column: 10, exact: true },
    ])
  })

  it('a coordinate the schema lacks is at its nearest ancestor', () => {
    const position = sdlPositions('type Query {\n  user(id: ID): Int\n}\nschema { query: Query }')
    expect(position('Query.user(name:)')).toEqual({ line: 2, column: 3, exact: false })
    expect(position('Query.gone')).toEqual({ line: 1, column: 6, exact: false })
    expect(position('schema.query')).toEqual({ line: 4, column: 10, exact: true })
    expect(position('Missing.field')).toBeUndefined()
  })
})
