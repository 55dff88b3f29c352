import { describe, expect, it } from 'vitest'
import { parseSdl } from '../../gql/parse-graphql.js'
import { sdlCoordinates } from './sdl-coordinates.js'
import { treeCoordinates } from './sdl-positions.js'

/**
 * Each coordinate with the text from its offset to the end of that line, after checking that a
 * tree the diff parsed gives the same (locateChanges reads it when the diff has just parsed it).
 */
function at(text: string): Record<string, string> {
  const offsets = sdlCoordinates(text)
  expect([...treeCoordinates(parseSdl(text))]).toEqual([...offsets])
  const result: Record<string, string> = {}
  for (const [coordinate, offset] of offsets)
    result[coordinate] = text.slice(offset).split(/\r\n|\n|\r/)[0]!
  return result
}

describe('sdlCoordinates', () => {
  it('names every type, field, argument, enum value, input field and directive at its name', () => {
    const text = `"""
Braces { and quotes " in a description, and an escaped \\""" too
"""
schema @tag(value: {list: [1, "}"]}) { query: Query mutation: Mutation }
# a comment with a { brace
type Query implements & Node & Named @tag(value: -1.5e+3) {
  "a description" user("id" id: [ID!]! = ["a", "b"] @tag, filter: Filter = {role: ADMIN, n: null}): [[User]!]
  name: String @deprecated(reason: "no \\"longer\\" {")
}
type Mutation { ping: Int }
interface Node { id: ID! }
interface Named
union Result @tag = | Query | Mutation
enum Role @tag { "d" ADMIN @tag USER, GUEST }
input Filter { role: Role = ADMIN, "d" ids: [ID!] = [] @tag }
scalar Date @specifiedBy(url: "https://example.com")
directive @tag(value: Int = 1 "d" other: Filter) repeatable on | FIELD_DEFINITION | OBJECT
`
    expect(at(text)).toEqual({
      schema: '"""',
      'schema.query': 'query: Query mutation: Mutation }',
      'schema.mutation': 'mutation: Mutation }',
      Query: 'Query implements & Node & Named @tag(value: -1.5e+3) {',
      'Query.user':
        'user("id" id: [ID!]! = ["a", "b"] @tag, filter: Filter = {role: ADMIN, n: null}): [[User]!]',
      'Query.user(id:)':
        'id: [ID!]! = ["a", "b"] @tag, filter: Filter = {role: ADMIN, n: null}): [[User]!]',
      'Query.user(filter:)': 'filter: Filter = {role: ADMIN, n: null}): [[User]!]',
      'Query.name': 'name: String @deprecated(reason: "no \\"longer\\" {")',
      Mutation: 'Mutation { ping: Int }',
      'Mutation.ping': 'ping: Int }',
      Node: 'Node { id: ID! }',
      'Node.id': 'id: ID! }',
      Named: 'Named',
      Result: 'Result @tag = | Query | Mutation',
      Role: 'Role @tag { "d" ADMIN @tag USER, GUEST }',
      'Role.ADMIN': 'ADMIN @tag USER, GUEST }',
      'Role.USER': 'USER, GUEST }',
      'Role.GUEST': 'GUEST }',
      Filter: 'Filter { role: Role = ADMIN, "d" ids: [ID!] = [] @tag }',
      'Filter.role': 'role: Role = ADMIN, "d" ids: [ID!] = [] @tag }',
      'Filter.ids': 'ids: [ID!] = [] @tag }',
      Date: 'Date @specifiedBy(url: "https://example.com")',
      '@tag': 'tag(value: Int = 1 "d" other: Filter) repeatable on | FIELD_DEFINITION | OBJECT',
      '@tag(value:)': 'value: Int = 1 "d" other: Filter) repeatable on | FIELD_DEFINITION | OBJECT',
      '@tag(other:)': 'other: Filter) repeatable on | FIELD_DEFINITION | OBJECT',
    })
  })

  it('a definition wins over an extension before it, and over a later duplicate', () => {
    const text = [
      'extend type User { name: String }',
      'extend schema { subscription: Subscription }',
      'type User { id: ID! id: Int }',
      'type User { email: String }',
      'extend enum Role { GUEST }',
      'enum Role { ADMIN }',
    ].join('\r\n')
    expect(at(text)).toEqual({
      User: 'User { id: ID! id: Int }',
      'User.id': 'id: ID! id: Int }',
      'User.email': 'email: String }',
      'User.name': 'name: String }',
      'schema.subscription': 'subscription: Subscription }',
      schema: 'extend schema { subscription: Subscription }',
      Role: 'Role { ADMIN }',
      'Role.ADMIN': 'ADMIN }',
      'Role.GUEST': 'GUEST }',
    })
  })

  it('an operation or fragment in the schema: only its name', () => {
    const text = `query Named($id: ID = "}") @live { user(where: {id: 1}) { ... on User { id } } }
fragment Parts on User { id }
{ shorthand }
type Query { ok: Boolean }`
    expect(Object.keys(at(text))).toEqual(['Named', 'Parts', 'Query', 'Query.ok'])
  })

  it('text that is not SDL throws', () => {
    for (const text of [
      'type {',
      'type User { id: ID! ',
      '"""open',
      'type User { id: ? }',
      'openapi: 3.0.3',
    ])
      expect(() => sdlCoordinates(text), text).toThrow(SyntaxError)
  })
})
