import { describe, expect, it } from 'vitest'
import { parseGraphqlDocument, parseGraphqlErrors, parseSdl } from './parse-graphql.js'

const errors = (issues: readonly { level: string }[]) => issues.filter((i) => i.level === 'error')

const BROKEN: Record<string, string> = {
  'a field defined twice, and the types that use it': `
    type Query { owner: Owner, list(filter: Filter = { depth: 1 }): [Owner!]! }
    type Owner implements Node { id: ID! name: String name: Int }
    interface Node { id: ID! }
    type Other implements Node { id: ID! friend: Owner }
    union Either = Owner | Other
    input Filter { depth: Int }`,
  'missing types as field, argument, member, root return and root argument': `
    type Query { a: Missing, b(x: MissingInput): Int, c: [Gone!] }
    type User { pet: Pet, pets(kind: Kind): Int }
    union Thing = User | Absent`,
  'kinds where they cannot stand': `
    type Query { user(by: User): User, input: Filter }
    type User { id: ID, filter: Filter }
    input Filter { user: User, id: ID }
    union Mixed = User | Filter`,
  'a root type used as a type, and a wrong implementation': `
    type Query { me: User }
    type User implements Node { id: String, query: Query }
    interface Node { id: ID! }`,
  'an extension of nothing, an executable definition and a deep default': `
    type Query { a(x: Deep = { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: { d: null } } } } } } } } } } } } } } } } } }): Int }
    input Deep { d: Deep }
    extend type Nothing { a: Int }
    query Q { a }`,
}

describe('parseGraphqlErrors', () => {
  for (const [name, sdl] of Object.entries(BROKEN))
    it(`finds the error-level issues the full read finds, in its order: ${name}`, () => {
      const ast = parseSdl(sdl)
      const full = errors(parseGraphqlDocument(ast).parseIssues)
      expect(full.length).toBeGreaterThan(0)
      expect(errors(parseGraphqlErrors(ast))).toEqual(full)
    })

  it('a schema without errors has none', () => {
    const ast = parseSdl('type Query { user(id: ID = "1"): User }\ntype User { id: ID! }')
    expect(errors(parseGraphqlErrors(ast))).toEqual([])
  })
})
