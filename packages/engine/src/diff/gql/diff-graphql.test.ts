import { readFileSync } from 'node:fs'
import { Kind, parse, type DocumentNode } from 'graphql'
import { describe, expect, it } from 'vitest'
import { diffGraphql, diffGraphqlDocuments } from './diff-graphql.js'

const brief = (sdlBefore: string, sdlAfter: string) =>
  diffGraphql(sdlBefore, sdlAfter).changes.map(({ id, location }) => `${id} ${location}`)

describe('diffGraphql: counts', () => {
  it('counts a type once however many of its fields changed, and not the fields of new types', () => {
    const before = `
      type Query { user(id: ID!): User users(first: Int = 10): [User] }
      type User { id: ID! name: String email: String }
      type Old { x: Int y: Int }
      enum Role { ADMIN USER }
    `
    const after = `
      type Query { user(id: ID!, drafts: Boolean): User users(first: Int = 20, after: String): [User] }
      type User { id: ID! name: String! phone: String }
      type New { x: Int y: Int }
      enum Role { ADMIN USER @deprecated GUEST }
    `
    const { summary, changes } = diffGraphql(before, after)
    // Types: New added, Old deleted; Query, User and Role modified (User three times over).
    // Fields: User.phone added, User.email deleted; User.name, Query.user, Query.users modified.
    // Arguments: drafts and after added, first modified. Role: GUEST added, USER deprecated.
    expect(summary).toEqual({
      diff: true,
      details: {
        arguments: { added: 2, deleted: 0, modified: 1 },
        enumValues: { added: 1, deleted: 0, modified: 1 },
        fields: { added: 1, deleted: 1, modified: 3 },
        types: { added: 1, deleted: 1, modified: 3 },
      },
    })
    expect(changes.map(({ id, location }) => `${id} ${location}`)).toEqual([
      'type-removed Old',
      'field-removed User.email',
      'argument-default-changed Query.users(first:)',
      'enum-value-added Role.GUEST',
      'type-added New',
      'optional-argument-added Query.user(drafts:)',
      'optional-argument-added Query.users(after:)',
      'enum-value-deprecated Role.USER',
      'field-type-narrowed User.name',
      'field-added User.phone',
    ])
  })

  it('counts input fields as fields and directive arguments as part of their directive', () => {
    const before = `
      type Query { ok: Int }
      input Filter { q: String limit: Int = 10 }
      interface Node { id: ID! }
      type Post { id: ID! }
      union Result = Post
      directive @auth(role: String) on FIELD_DEFINITION
      directive @old on OBJECT
    `
    const after = `
      type Query { ok: Int }
      input Filter { q: String! limit: Int = 10 tags: [String] }
      interface Node { id: ID! }
      type Post implements Node { id: ID! }
      type Comment implements Node { id: ID! }
      union Result = Post | Comment
      directive @auth(role: String!, scope: String) repeatable on FIELD_DEFINITION | OBJECT
      directive @new on FIELD
    `
    const { summary, changes } = diffGraphql(before, after)
    // Types: Comment added; Filter, Post, Result modified. Fields: Filter.tags added, Filter.q
    // modified. Directives: @new added, @old deleted, @auth modified (four changes, counted once).
    expect(summary.details).toEqual({
      directives: { added: 1, deleted: 1, modified: 1 },
      fields: { added: 1, deleted: 0, modified: 1 },
      types: { added: 1, deleted: 0, modified: 3 },
    })
    expect(
      changes.filter((change) => change.location.startsWith('@auth')).map((change) => change.id),
    ).toEqual([
      'directive-argument-type-changed',
      'directive-location-added',
      'directive-repeatable-added',
      'directive-optional-argument-added',
    ])
    expect(changes.find((change) => change.id === 'union-member-added')?.message).toBe(
      'Union `Result` gained member `Comment`.',
    )
  })

  it('counts a changed root as a change of the type that took the role', () => {
    const types = 'type Q { ok: Int } type Query2 { ok: Int }'
    const { summary, changes } = diffGraphql(
      `schema { query: Q } ${types}`,
      `schema { query: Query2 } ${types}`,
    )
    expect(summary.details).toEqual({ types: { added: 0, deleted: 0, modified: 1 } })
    expect(changes).toEqual([
      {
        id: 'root-type-changed',
        level: 'breaking',
        location: 'schema.query',
        path: 'schema.query',
        message: "The schema's query root type changed from `Q` to `Query2`.",
      },
    ])
  })
})

describe('diffGraphql: messages', () => {
  it('names the thing and its old and new state in one sentence', () => {
    const messages = (before: string, after: string) =>
      diffGraphql(before, after).changes.map((change) => change.message)
    expect(messages('type Query { email: String! }', 'type Query { email: String }')).toEqual([
      'Field `Query.email` changed type from `String!` to `String`.',
    ])
    expect(
      messages('type Query { f(first: Int = 10): Int }', 'type Query { f(first: Int!): Int }'),
    ).toEqual([
      'Argument `Query.f(first:)` changed type from `Int` to `Int!`.',
      'Argument `Query.f(first:)` changed its default value from `10` to none.',
    ])
    expect(
      messages(
        'type Query { a: Int } interface A { a: Int } interface B { a: Int }',
        'type Query implements B & A { a: Int } interface A { a: Int } interface B { a: Int }',
      ),
    ).toEqual(['Type `Query` now implements interfaces `A` and `B`.'])
    expect(
      messages(
        'type Query { a: Int } scalar URL',
        'type Query { a: Int } scalar URL @specifiedBy(url: "https://u.rl")',
      ),
    ).toEqual(['Scalar `URL` is now @specifiedBy `https://u.rl`.'])
    expect(
      messages(
        'type Query { a: Int @deprecated }',
        'type Query { a: Int @deprecated(reason: "x") }',
      ),
    ).toEqual(['Field `Query.a` changed its deprecation reason from `No longer supported` to `x`.'])
  })
})

describe('diffGraphql: descriptions', () => {
  const before = `type Query { a(x: Int): Int }
    enum E { A } directive @d(x: Int) on FIELD input I { x: Int } scalar S union U = Query`
  const after = `"""Root""" type Query { "First." a("Arg." x: Int): Int }
    enum E { "Value" A } "Dir" directive @d("Arg" x: Int) on FIELD
    input I { "X" x: Int } scalar S "U" union U = Query`

  it('lists each as info in the documentation section, and counts nothing else as modified', () => {
    const log = diffGraphql(before, after)
    expect(log.summary).toEqual({
      diff: true,
      details: { documentation: { added: 8, deleted: 0, modified: 0 } },
    })
    expect(log.counts).toEqual({ breaking: 0, warning: 0, info: 8 })
    expect(brief(before, after)).toEqual([
      'directive-description-changed @d',
      'directive-argument-description-changed @d(x:)',
      'enum-value-description-changed E.A',
      'input-field-description-changed I.x',
      'type-description-changed Query',
      'field-description-changed Query.a',
      'argument-description-changed Query.a(x:)',
      'type-description-changed U',
    ])
  })

  it('says whether a description was added, changed or removed', () => {
    const messages = (from: string, to: string) =>
      diffGraphql(from, to).changes.map((change) => change.message)
    expect(messages('type Query { a: Int }', 'type Query { "A." a: Int }')).toEqual([
      'Field `Query.a` gained a description.',
    ])
    expect(messages('type Query { "A." a: Int }', 'type Query { "B." a: Int }')).toEqual([
      'Field `Query.a` changed its description.',
    ])
    const log = diffGraphql('"S." schema { query: Q } type Q { a: Int }', 'type Q { a: Int }')
    expect(log.changes.map((change) => change.message)).toContain(
      'The schema lost its description.',
    )
    expect(log.summary.details.documentation).toEqual({ added: 0, deleted: 1, modified: 0 })
  })

  it('reads a block string and the plain string it stands for as one description, a blank one as none', () => {
    const trailing = '   '
    const unchanged = diffGraphql(
      'type Query { "Line one.\\n  Line two." a: Int }',
      `type Query {
        """
        Line one.
          Line two.${trailing}
        """
        a: Int
      }`,
    )
    expect(unchanged.changes).toEqual([])
    expect(unchanged.summary.diff).toBe(false)
    expect(brief('type Query { a: Int }', 'type Query { " " a: Int }')).toEqual([])
  })

  it('does not list the descriptions of what was added or removed', () => {
    expect(
      brief('type Query { a: Int }', 'type Query { a: Int "B." b: Int } "T." type T { x: Int }'),
    ).toEqual(['field-added Query.b', 'type-added T'])
  })
})

describe('diffGraphql: applied directives', () => {
  const TAG = `directive @tag(name: String, meta: Meta) repeatable on OBJECT | FIELD_DEFINITION
    input Meta { a: Int b: [String] }`
  const sdl = (query: string) => `${TAG} type Query ${query}`

  it('counts a changed usage as a change of the definition that carries it', () => {
    const { summary, changes } = diffGraphql(
      sdl('{ a: Int b: Int @tag(name: "x") }'),
      sdl('@tag(name: "root") { a: Int @tag(name: "x") b: Int @tag(name: "y") }'),
    )
    expect(summary.details).toEqual({
      fields: { added: 0, deleted: 0, modified: 2 },
      types: { added: 0, deleted: 0, modified: 1 },
    })
    expect(changes.map(({ id, level, message }) => `${level} ${id}: ${message}`)).toEqual([
      'warning type-directive-added: Type `Query` gained directive `@tag(name: "root")`.',
      'warning field-directive-added: Field `Query.a` gained directive `@tag(name: "x")`.',
      'warning field-directive-changed: Field `Query.b` now applies `@tag(name: "y")` instead of `@tag(name: "x")`.',
    ])
  })

  it('compares repeated usages as a multiset, in any order', () => {
    expect(
      brief(
        sdl('{ a: Int @tag(name: "x") @tag(name: "y") @tag(name: "x") }'),
        sdl('{ a: Int @tag(name: "y") @tag(name: "x") @tag(name: "x") }'),
      ),
    ).toEqual([])
    const log = diffGraphql(
      sdl('{ a: Int @tag(name: "x") @tag(name: "x") @tag(name: "y") }'),
      sdl('{ a: Int @tag(name: "x") @tag(name: "z") @tag }'),
    )
    expect(log.changes.map((change) => change.message)).toEqual([
      'Field `Query.a` gained directives `@tag` and `@tag(name: "z")`.',
      'Field `Query.a` lost directives `@tag(name: "x")` and `@tag(name: "y")`.',
    ])
  })

  it('compares argument values as printed, whatever the order of arguments and object keys', () => {
    expect(
      brief(
        sdl('{ a: Int @tag(name: "x", meta: { a: 1, b: ["p", "q"] }) }'),
        sdl('{ a: Int @tag(meta: { b: ["p", "q"], a: 1 }, name: """x""") }'),
      ),
    ).toEqual([])
    expect(
      brief(
        sdl('{ a: Int @tag(meta: { a: 1, b: ["p", "q"] }) }'),
        sdl('{ a: Int @tag(meta: { a: 1, b: ["q", "p"] }) }'),
      ),
    ).toEqual(['field-directive-changed Query.a'])
  })

  it('reads the directives of a type from its extensions too', () => {
    expect(
      brief(
        sdl('@tag(name: "a") { a: Int } extend type Query @tag(name: "b")'),
        sdl('@tag(name: "b") @tag(name: "a") { a: Int }'),
      ),
    ).toEqual([])
  })

  it('leaves @deprecated, @specifiedBy and @oneOf to their own rules', () => {
    expect(
      brief(
        'type Query { a(x: In): Int } scalar S input In { p: Int }',
        'type Query { a(x: In): Int @deprecated } scalar S @specifiedBy(url: "https://s") input In @oneOf { p: Int }',
      ),
    ).toEqual(['input-one-of-added In', 'field-deprecated Query.a', 'scalar-specified-by-added S'])
  })
})

describe('diffGraphql: no change', () => {
  const unchanged = (before: string, after: string) => {
    const log = diffGraphql(before, after)
    expect(log.changes).toEqual([])
    expect(log.summary).toEqual({ diff: false, details: {} })
    expect(log.counts).toEqual({ breaking: 0, warning: 0, info: 0 })
  }

  it('ignores the order of definitions, fields, arguments, values, members and locations', () => {
    unchanged(
      `type Query implements A & B { a(x: Int, y: Int = 1): Int b: Int }
       interface A { a: Int } interface B { b: Int }
       enum E { X Y } union U = Query | T type T { t: Int }
       input I { p: Int = 1 q: [Int] = [1, 2] r: I2 = { a: 1, b: "two" } } input I2 { a: Int b: String }
       directive @d(a: Int, b: Int) repeatable on FIELD | OBJECT`,
      `directive @d(b: Int, a: Int) repeatable on OBJECT | FIELD
       input I2 { b: String a: Int } input I { r: I2 = { b: """two""", a: 1 } q: [Int] = [1, 2] p: Int = 1 }
       type T { t: Int } union U = T | Query enum E { Y X }
       interface B { b: Int } interface A { a: Int }
       type Query implements B & A { b: Int a(y: Int = 1, x: Int): Int }`,
    )
  })

  it('reads a type split across extensions as the same type', () => {
    unchanged(
      `schema { query: Query mutation: M }
       type Query implements Node { id: ID! a: Int b: Int }
       type M { m: Int } interface Node { id: ID! }
       enum E { X Y } union U = Query | M input I { p: Int q: Int }
       scalar S @specifiedBy(url: "https://example.com")`,
      `schema { query: Query }
       extend schema { mutation: M }
       type Query { id: ID! } extend type Query implements Node { a: Int } extend type Query { b: Int }
       type M { m: Int } interface Node { id: ID! }
       enum E { X } extend enum E { Y }
       union U = Query extend union U = M
       input I { p: Int } extend input I { q: Int }
       scalar S extend scalar S @specifiedBy(url: "https://example.com")`,
    )
  })

  it('reads invalid SDL as far as it goes instead of throwing', () => {
    const invalid = `type Query { a: Missing a: Int b(x: Int, x: String): Int }
      extend type Nowhere { c: Int } extend input Query { d: Int } type Query { z: Int }`
    unchanged(invalid, invalid)
    expect(brief(invalid, 'type Query { a: Missing! b(x: Int): Int }')).toEqual([
      'field-type-narrowed Query.a',
    ])
  })
})

/** Parses GitHub's schema (1.2 MB of SDL) once for the tests below; `-14` for the 14.58.0 one. */
function githubSchema(suffix = ''): { text: string; ast: DocumentNode } {
  const url = new URL('schema.graphql', import.meta.resolve(`@octokit/graphql-schema${suffix}`))
  const text = readFileSync(url, 'utf8')
  return { text, ast: parse(text) }
}

/** `text` with each `[start, end, replacement]` applied; the ranges must not overlap. */
function edit(text: string, edits: [number, number, string][]): string {
  let result = text
  for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0]))
    result = result.slice(0, start) + replacement + result.slice(end)
  return result
}

function typeNamed(ast: DocumentNode, name: string) {
  const found = ast.definitions.find(
    (definition) => 'name' in definition && definition.name?.value === name,
  )
  if (!found) throw new Error(`no ${name} in the GitHub schema`)
  return found
}

describe('diffGraphql: the GitHub schema', () => {
  const { text, ast } = githubSchema()

  it('finds no change between the schema and itself', () => {
    const log = diffGraphqlDocuments(ast, parse(text, { noLocation: true }))
    expect(log.changes).toEqual([])
    expect(log.summary.diff).toBe(false)
  })

  it('finds exactly a removed field, an added enum value and a newly required argument', () => {
    const conduct = typeNamed(ast, 'CodeOfConduct')
    const actorType = typeNamed(ast, 'ActorType')
    const query = typeNamed(ast, 'Query')
    if (
      conduct.kind !== Kind.OBJECT_TYPE_DEFINITION ||
      actorType.kind !== Kind.ENUM_TYPE_DEFINITION ||
      query.kind !== Kind.OBJECT_TYPE_DEFINITION
    )
      throw new Error('the GitHub schema changed shape')
    const body = conduct.fields!.find((field) => field.name.value === 'body')!
    const lastValue = actorType.values!.at(-1)!
    const enterprise = query.fields!.find((field) => field.name.value === 'enterprise')!
    const token = enterprise.arguments!.find((arg) => arg.name.value === 'invitationToken')!
    expect(token.type.kind).toBe(Kind.NAMED_TYPE)

    const edited = edit(text, [
      [body.loc!.start, body.loc!.end, ''],
      [lastValue.loc!.end, lastValue.loc!.end, '\n  BOT'],
      [token.type.loc!.end, token.type.loc!.end, '!'],
    ])
    const log = diffGraphqlDocuments(ast, parse(edited, { noLocation: true }))

    expect(log.changes).toEqual([
      {
        id: 'field-removed',
        level: 'breaking',
        location: 'CodeOfConduct.body',
        path: 'CodeOfConduct.body',
        message: 'Field `CodeOfConduct.body` was removed.',
      },
      {
        id: 'argument-type-changed',
        level: 'breaking',
        location: 'Query.enterprise(invitationToken:)',
        path: 'Query.enterprise(invitationToken:)',
        message:
          'Argument `Query.enterprise(invitationToken:)` changed type from `String` to `String!`.',
      },
      {
        id: 'enum-value-added',
        level: 'warning',
        location: 'ActorType.BOT',
        path: 'ActorType.BOT',
        message: 'Enum value `ActorType.BOT` was added.',
      },
    ])
    expect(log.counts).toEqual({ breaking: 2, warning: 1, info: 0 })
    expect(log.summary.details).toEqual({
      arguments: { added: 0, deleted: 0, modified: 1 },
      enumValues: { added: 1, deleted: 0, modified: 0 },
      fields: { added: 0, deleted: 1, modified: 1 },
      types: { added: 0, deleted: 0, modified: 3 },
    })
  })

  it('14.58.0 → 15.26.1: lists description changes as info in the documentation section', () => {
    const log = diffGraphqlDocuments(githubSchema('-14').ast, ast)
    const documentation = log.changes.filter((change) => change.id.endsWith('-description-changed'))
    expect(documentation.length).toBeGreaterThan(200)
    expect(documentation.every((change) => change.level === 'info')).toBe(true)
    expect(log.summary.details.documentation).toEqual({
      added: 0,
      deleted: 0,
      modified: documentation.length,
    })
    expect(log.changes).toContainEqual({
      id: 'field-description-changed',
      level: 'info',
      location: 'PullRequest.closingIssuesReferences',
      path: 'PullRequest.closingIssuesReferences',
      message: 'Field `PullRequest.closingIssuesReferences` changed its description.',
    })
    // The verdict on the schema itself is what it was before descriptions were compared (its 83
    // deprecations are info, as graphql-inspector's, since issue 21).
    expect(log.counts.breaking).toBe(14)
    expect(log.counts.warning).toBe(35)
  })
})
