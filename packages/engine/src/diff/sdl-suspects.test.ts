import { readFileSync } from 'node:fs'
import { parse } from 'graphql'
import { describe, expect, it } from 'vitest'
import { parseApi } from '../parse-api.js'
import { mayHaveSdlErrors } from './sdl-suspects.js'

const suspect = (sdl: string) => mayHaveSdlErrors(parse(sdl, { noLocation: true }))
const errors = async (sdl: string) =>
  (await parseApi({ text: sdl })).parseIssues.filter((issue) => issue.level === 'error')

const base = 'type Query { me: User } interface Node { id: ID! } '

describe('mayHaveSdlErrors', () => {
  it.each([
    ['a type defined twice', `${base} type User { id: ID } type User { id: ID }`],
    ['a field declared twice', `${base} type User { id: ID id: String }`],
    ['an enum value declared twice', `${base} type User { id: ID } enum E { A A }`],
    ['an argument declared twice', `${base} type User { f(a: Int, a: Int): Int }`],
    ['an undefined type', `${base} type User { pet: Pet }`],
    ['an input type as a field type', `${base} input User { id: ID }`],
    ['an object type as an argument type', `${base} type User { f(u: User): Int }`],
    ['an extension of nothing', `${base} type User { id: ID } extend type Pet { id: ID }`],
    ['an extension of another kind', `${base} type User { id: ID } extend input User { a: Int }`],
    ['an interface not implemented', `${base} type User implements Node { name: String }`],
    ['an interface field of another type', `${base} type User implements Node { id: String }`],
    [
      'an interface field argument missing',
      'type Query { me: User } interface Node { f(a: Int): Int } type User implements Node { f: Int }',
    ],
    ['a union of a scalar', `${base} type User { id: ID } union U = User | String`],
    ['a root type that is not defined', `schema { query: Root } ${base} type User { id: ID }`],
    ['an executable definition', `${base} type User { id: ID } query Q { me { id } }`],
    [
      'a directive defined twice',
      `${base} type User { id: ID } directive @a on FIELD directive @a on FIELD`,
    ],
  ])('suspects %s, which the full parse finds an error in', async (_, sdl) => {
    expect(suspect(sdl)).toBe(true)
    expect(await errors(sdl)).not.toEqual([])
  })

  it('passes a valid schema with extensions, interfaces, unions, inputs and directives', async () => {
    const sdl = `${base}
      type User implements Node { id: ID! name(style: Style = SHORT): String }
      extend type User { age: Int }
      enum Style { SHORT LONG }
      input Filter { name: String style: Style }
      union Result = User
      scalar Date @specifiedBy(url: "https://example.com")
      directive @auth(role: String) on FIELD_DEFINITION
      extend type Query { search(filter: Filter): [Result!]! when: Date }`
    expect(suspect(sdl)).toBe(false)
    expect(await errors(sdl)).toEqual([])
  })

  it("passes GitHub's schema 14.58.0, which has no error, and suspects 15.26.1, which has", () => {
    const read = (name: string) =>
      readFileSync(new URL('schema.graphql', import.meta.resolve(name)), 'utf8')
    expect(suspect(read('@octokit/graphql-schema-14'))).toBe(false)
    expect(suspect(read('@octokit/graphql-schema'))).toBe(true)
  })
})
