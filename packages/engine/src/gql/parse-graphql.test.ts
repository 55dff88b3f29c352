import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DocumentError } from '../input/document-error.js'
import type { ObjectSchema, Schema, UnionSchema } from '../model/schema.js'
import { parseApi } from '../parse-api.js'
import { brief, parseSdl } from '../test-support.js'

/** SDL written one line per argument, so issue positions read straight off the test. */
const sdl = (...lines: string[]) => lines.join('\n')

const ref = (name: string, nullable = false) => ({
  kind: 'ref',
  $ref: `#/components/schemas/${name}`,
  refName: name,
  nullable,
})

function objectOf(schemas: Readonly<Record<string, Schema>>, name: string): ObjectSchema {
  const schema = schemas[name]
  if (schema?.kind !== 'object')
    throw new Error(`${name} is ${schema?.kind ?? 'missing'}, not an object`)
  return schema
}

function unionOf(schemas: Readonly<Record<string, Schema>>, name: string): UnionSchema {
  const schema = schemas[name]
  if (schema?.kind !== 'union')
    throw new Error(`${name} is ${schema?.kind ?? 'missing'}, not a union`)
  return schema
}

/** Every `refName` anywhere inside a value. */
function refNames(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refNames(item, found)
  else if (value !== null && typeof value === 'object') {
    const node = value as Record<string, unknown>
    if (node.kind === 'ref' && typeof node.refName === 'string') found.add(node.refName)
    for (const child of Object.values(node)) refNames(child, found)
  }
  return found
}

const fieldNames = (operations: readonly { fieldName: string }[]) =>
  operations.map((op) => op.fieldName)

describe('parseGraphql: mapping', () => {
  it('maps an object type to an object schema; non-null fields are required', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        '"""A person."""',
        'type User { id: ID! name: String friends: [User!]! boss: User }',
        'type Query { me: User }',
      ),
    )
    expect(parseIssues).toEqual([])
    expect(model.components.schemas.User).toEqual({
      kind: 'object',
      title: 'User',
      description: 'A person.',
      nullable: false,
      required: ['id', 'friends'],
      properties: {
        id: { kind: 'string', format: 'id', nullable: false },
        name: { kind: 'string', nullable: true },
        friends: { kind: 'array', nullable: false, items: ref('User') },
        boss: ref('User', true),
      },
    })
  })

  it('maps an input type to an object schema; a non-null field with a default is not required', async () => {
    const { model } = await parseSdl(
      sdl(
        'input NewUser { name: String! limit: Int! = 10 nick: String }',
        'type Query { add(user: NewUser!): Boolean }',
      ),
    )
    const input = objectOf(model.components.schemas, 'NewUser')
    expect(input.required).toEqual(['name'])
    expect(input.properties.limit).toEqual({
      kind: 'integer',
      format: 'int32',
      nullable: false,
      default: 10,
    })
    expect(input.properties.nick).toEqual({ kind: 'string', nullable: true })
  })

  it('maps an interface to its object plus <Name>Union over the implementing object types', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'interface Node { id: ID! }',
        'type User implements Node { id: ID! name: String }',
        'type Post implements Node { id: ID! }',
        'type Tag { id: ID! }',
        'type Query { node(id: ID!): Node }',
      ),
    )
    expect(parseIssues).toEqual([])
    expect(objectOf(model.components.schemas, 'Node')).toMatchObject({
      title: 'Node',
      properties: { id: { kind: 'string', format: 'id' } },
      required: ['id'],
    })
    expect(model.components.schemas.NodeUnion).toEqual({
      kind: 'union',
      mode: 'oneOf',
      title: 'NodeUnion',
      nullable: false,
      members: [ref('User'), ref('Post')],
      discriminator: { propertyName: '__typename' },
    })
  })

  it('counts implementations declared by an extension in the interface union', async () => {
    const { model } = await parseSdl(
      sdl(
        'interface Node { id: ID! }',
        'type User { id: ID! }',
        'extend type User implements Node',
        'type Query { node: Node }',
      ),
    )
    expect(unionOf(model.components.schemas, 'NodeUnion').members).toEqual([ref('User')])
  })

  it('maps a union to a oneOf of refs discriminated by __typename', async () => {
    const { model } = await parseSdl(
      sdl(
        'type User { id: ID! }',
        'type Post { id: ID! }',
        '"""Anything."""',
        'union SearchResult = User | Post',
        'type Query { search: [SearchResult!]! }',
      ),
    )
    expect(model.components.schemas.SearchResult).toEqual({
      kind: 'union',
      mode: 'oneOf',
      title: 'SearchResult',
      description: 'Anything.',
      nullable: false,
      members: [ref('User'), ref('Post')],
      discriminator: { propertyName: '__typename' },
    })
  })

  it('maps an enum to a string enum that fields refer to', async () => {
    const { model } = await parseSdl(sdl('enum Role { ADMIN USER }', 'type Query { role: Role! }'))
    expect(model.components.schemas.Role).toEqual({
      kind: 'string',
      title: 'Role',
      nullable: false,
      enum: ['ADMIN', 'USER'],
    })
    expect(model.operations[0]!.returnType).toEqual(ref('Role'))
  })

  it('inlines a custom scalar as a string with the scalar name as format', async () => {
    const { model } = await parseSdl(
      sdl('scalar DateTime', 'type Event { at: DateTime! }', 'type Query { e: Event }'),
    )
    expect(objectOf(model.components.schemas, 'Event').properties.at).toEqual({
      kind: 'string',
      format: 'DateTime',
      nullable: false,
    })
  })

  it('maps the built-in scalars: ID, Int, Float, String, Boolean', async () => {
    const { model } = await parseSdl(
      sdl('type T { id: ID i: Int f: Float! s: String b: Boolean }', 'type Query { t: T }'),
    )
    expect(objectOf(model.components.schemas, 'T').properties).toEqual({
      id: { kind: 'string', format: 'id', nullable: true },
      i: { kind: 'integer', format: 'int32', nullable: true },
      f: { kind: 'number', format: 'float', nullable: false },
      s: { kind: 'string', nullable: true },
      b: { kind: 'boolean', nullable: true },
    })
  })

  it('maps root fields to graphql operations with arguments and return type', async () => {
    const { model } = await parseSdl(
      sdl(
        'type User { id: ID! }',
        'type Query {',
        '  """One user."""',
        '  user(id: ID!, limit: Int = 5): User',
        '  old: Int @deprecated(reason: "gone")',
        '}',
        'type Mutation { rename(id: ID!, name: String!): User! }',
        'type Subscription { changed: User }',
      ),
    )
    expect(model.operations).toEqual([
      {
        kind: 'graphql',
        rootKind: 'query',
        fieldName: 'user',
        description: 'One user.',
        deprecated: false,
        arguments: [
          { name: 'id', required: true, schema: { kind: 'string', format: 'id', nullable: false } },
          {
            name: 'limit',
            required: false,
            schema: { kind: 'integer', format: 'int32', nullable: true },
            defaultValue: 5,
          },
        ],
        returnType: ref('User', true),
      },
      {
        kind: 'graphql',
        rootKind: 'query',
        fieldName: 'old',
        deprecated: true,
        deprecationReason: 'gone',
        arguments: [],
        returnType: { kind: 'integer', format: 'int32', nullable: true },
      },
      expect.objectContaining({
        rootKind: 'mutation',
        fieldName: 'rename',
        returnType: ref('User'),
      }),
      expect.objectContaining({ rootKind: 'subscription', fieldName: 'changed' }),
    ])
    // Root types are operations, not schemas, unless something uses them as a type.
    expect(Object.keys(model.components.schemas)).toEqual(['User'])
  })

  it('takes custom root names from schema { … }; a type named Query is then an ordinary type', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'schema { query: MyQuery mutation: MyMutation }',
        'type MyQuery { a: Int }',
        'type MyMutation { b(x: Int!): String }',
        'type Query { notARoot: Int }',
      ),
    )
    expect(parseIssues).toEqual([])
    expect(model.operations.map((op) => [op.rootKind, op.fieldName])).toEqual([
      ['query', 'a'],
      ['mutation', 'b'],
    ])
    expect(Object.keys(model.components.schemas)).toEqual(['Query'])
  })

  it('keeps the conventional root names beside an `extend schema` without a schema definition', async () => {
    const { model } = await parseSdl(
      sdl('extend schema { mutation: Change }', 'type Change { b: Int }', 'type Query { a: Int }'),
    )
    expect(model.operations.map((op) => [op.rootKind, op.fieldName])).toEqual([
      ['mutation', 'b'],
      ['query', 'a'],
    ])
  })

  it('folds extensions into the types and root types they extend', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'type Query { a: Int }',
        'extend type Query { b: User }',
        'type User { id: ID! }',
        'extend type User { name: String! }',
        'enum Role { A }',
        'extend enum Role { B }',
        'type Admin { id: ID! }',
        'union Who = User',
        'extend union Who = Admin',
      ),
    )
    expect(parseIssues).toEqual([])
    expect(fieldNames(model.operations)).toEqual(['a', 'b'])
    expect(objectOf(model.components.schemas, 'User').required).toEqual(['id', 'name'])
    expect(model.components.schemas.Role).toMatchObject({ enum: ['A', 'B'] })
    expect(unionOf(model.components.schemas, 'Who').members).toEqual([ref('User'), ref('Admin')])
  })

  it('gives a root type used as a type (Relay) a schema, without repeating its issues', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'interface Node { id: ID! }',
        'type Query implements Node { id: ID! relay: Query! node(id: ID!): Node }',
      ),
    )
    expect(parseIssues).toEqual([])
    expect(model.operations.find((op) => op.fieldName === 'relay')!.returnType).toEqual(
      ref('Query'),
    )
    expect(unionOf(model.components.schemas, 'NodeUnion').members).toEqual([ref('Query')])
    expect(Object.keys(objectOf(model.components.schemas, 'Query').properties)).toEqual([
      'id',
      'relay',
      'node',
    ])
  })
})

describe('parseGraphql: issues', () => {
  it('INVALID_TYPE_DEFINITION: a field defined twice (the GitHub case) drops the type and prunes its consumers', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'type Owner {',
        '  setting: String!',
        '  other: Int',
        '  setting: String!',
        '}',
        'type Account { owner: Owner name: String }',
        'type Query { owner: Owner account: Account }',
      ),
    )
    expect(parseIssues).toEqual([
      {
        protocol: 'gql',
        type: 'INVALID_TYPE_DEFINITION',
        level: 'error',
        message: 'Field "Owner.setting" can only be defined once; dropped Owner.',
        cause: 'Field "Owner.setting" can only be defined once.',
        location: 'Owner',
        // The repeated definition, not the first one.
        line: 4,
        column: 3,
      },
      {
        protocol: 'gql',
        type: 'INVALID_DEPENDENCY_REF',
        level: 'error',
        message:
          'Type "Owner" is invalid: Field "Owner.setting" can only be defined once; dropped Account.owner.',
        cause: 'Type "Owner" is invalid: Field "Owner.setting" can only be defined once',
        location: 'Account:owner',
        line: 6,
        column: 23,
      },
      expect.objectContaining({
        type: 'INVALID_DEPENDENCY_REF',
        location: 'Query:owner:return',
        line: 7,
        column: 21,
      }),
    ])
    expect(model.components.schemas.Owner).toBeUndefined()
    expect(Object.keys(objectOf(model.components.schemas, 'Account').properties)).toEqual(['name'])
    expect(fieldNames(model.operations)).toEqual(['account'])
  })

  it('INVALID_TYPE_DEFINITION: a wrong interface implementation drops the implementer from the interface union', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'interface Node { id: ID! }',
        'type Good implements Node { id: ID! }',
        'type Bad implements Node { id: Int }',
        'type Query { node: Node }',
      ),
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_TYPE_DEFINITION', level: 'error', location: 'Bad' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'NodeUnion:members:1' },
    ])
    expect(parseIssues[0]).toMatchObject({
      line: 3,
      column: 32,
      cause: expect.stringContaining('Node.id expects type ID! but Bad.id is type Int'),
    })
    expect(model.components.schemas.Bad).toBeUndefined()
    expect(unionOf(model.components.schemas, 'NodeUnion').members).toEqual([ref('Good')])
  })

  it('INVALID_TYPE_DEFINITION: schema validation still runs when the document also names a missing type', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'interface Node { id: ID! }',
        'type Bad implements Node { id: Int }',
        'type Ghost implements Nowhere { id: ID! }',
        'type Query { bad: Bad ghost: Ghost missing: Missing ok: Int }',
      ),
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_TYPE_DEFINITION', level: 'error', location: 'Ghost' },
      { type: 'INVALID_TYPE_DEFINITION', level: 'error', location: 'Bad' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'NodeUnion:members:0' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Query:bad:return' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Query:ghost:return' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Query:missing:return' },
    ])
    expect(parseIssues[0]).toMatchObject({
      message: 'Unknown type "Nowhere"; dropped Ghost.',
      line: 3,
      column: 23,
    })
    expect(fieldNames(model.operations)).toEqual(['ok'])
  })

  it('INVALID_TYPE_DEFINITION: a wrong @deprecated value drops the type instead of throwing', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl('type T { a: Int @deprecated(reason: 1) }', 'type Query { t: T b: Int }'),
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_TYPE_DEFINITION', level: 'error', location: 'T' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Query:t:return' },
    ])
    expect(fieldNames(model.operations)).toEqual(['b'])
  })

  it('INVALID_TYPE_DEFINITION: an executable definition in the SDL is reported and ignored', async () => {
    const { model, parseIssues } = await parseSdl(sdl('type Query { a: Int }', 'query GetA { a }'))
    expect(parseIssues).toEqual([
      expect.objectContaining({
        protocol: 'gql',
        type: 'INVALID_TYPE_DEFINITION',
        level: 'error',
        location: 'GetA',
        line: 2,
        column: 1,
      }),
    ])
    expect(fieldNames(model.operations)).toEqual(['a'])
  })

  it('INVALID_DEPENDENCY_REF: a field of an undefined type is pruned and leaves `required`', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl('type User {', '  id: ID!', '  avatar: Image!', '}', 'type Query { me: User }'),
    )
    expect(parseIssues).toEqual([
      {
        protocol: 'gql',
        type: 'INVALID_DEPENDENCY_REF',
        level: 'error',
        message: 'Type "Image" is not defined; dropped User.avatar.',
        cause: 'Type "Image" is not defined',
        location: 'User:avatar',
        line: 3,
        column: 11,
      },
    ])
    const user = objectOf(model.components.schemas, 'User')
    expect(Object.keys(user.properties)).toEqual(['id'])
    expect(user.required).toEqual(['id'])
    expect(fieldNames(model.operations)).toEqual(['me'])
  })

  it('INVALID_DEPENDENCY_REF: union members, root returns, root and non-root arguments of missing types', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'type User { id: ID! }',
        'union U = Gone | User',
        'type Post { id: ID! byUser(filter: Filter): [User] title: String }',
        'type Query { u: U gone: Gone find(filter: Filter): User post: Post }',
      ),
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'U:members:0' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Post:byUser:args:filter' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Query:gone:return' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Query:find:args:filter' },
    ])
    expect(parseIssues[0]).toMatchObject({ line: 2, column: 11 })
    expect(parseIssues[3]).toMatchObject({
      line: 4,
      column: 43,
      message: 'Type "Filter" is not defined; dropped Query.find.',
    })
    expect(unionOf(model.components.schemas, 'U').members).toEqual([ref('User')])
    expect(Object.keys(objectOf(model.components.schemas, 'Post').properties)).toEqual([
      'id',
      'title',
    ])
    expect(fieldNames(model.operations)).toEqual(['u', 'post'])
    expect(model.fieldArguments).toEqual({})
  })

  it('INVALID_DEPENDENCY_REF prunes one hop only: the consumer of a consumer is kept', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'type User { id: ID! id: ID! }',
        'type Post { id: ID! author: User }',
        'type Comment { id: ID! post: Post }',
        'type Query { comment: Comment }',
      ),
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_TYPE_DEFINITION', level: 'error', location: 'User' },
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Post:author' },
    ])
    expect(model.components.schemas.User).toBeUndefined()
    expect(Object.keys(objectOf(model.components.schemas, 'Post').properties)).toEqual(['id'])
    expect(objectOf(model.components.schemas, 'Comment').properties.post).toEqual(ref('Post', true))
    expect(fieldNames(model.operations)).toEqual(['comment'])
  })

  it('models the arguments of non-root fields in fieldArguments, with no issue', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'type User {',
        '  friends(first: Int = 10, after: String, role: Role!): [User!]!',
        '  name: String',
        '}',
        'enum Role { ADMIN }',
        'interface Named { names(first: Int): [String] }',
        'type Query { user(id: ID!): User named: Named }',
      ),
    )
    expect(parseIssues).toEqual([])
    expect(model.fieldArguments).toEqual({
      User: {
        friends: [
          {
            name: 'first',
            required: false,
            defaultValue: 10,
            schema: { kind: 'integer', format: 'int32', nullable: true },
          },
          { name: 'after', required: false, schema: { kind: 'string', nullable: true } },
          { name: 'role', required: true, schema: ref('Role') },
        ],
      },
      Named: {
        names: [
          {
            name: 'first',
            required: false,
            schema: { kind: 'integer', format: 'int32', nullable: true },
          },
        ],
      },
    })
    expect(objectOf(model.components.schemas, 'User').properties.friends).toEqual({
      kind: 'array',
      nullable: false,
      items: ref('User'),
    })
    expect(model.operations[0]!.arguments.map((a) => a.name)).toEqual(['id'])
  })

  it('NESTED_LIST_LOSSY: [[T]] becomes an unknown value and the field is kept', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'type Grid {',
        '  cells: [[Int!]]!',
        '  rows: [Int]',
        '}',
        'type Query { grid: Grid matrix: [[[Float]]] }',
      ),
    )
    expect(parseIssues).toEqual([
      {
        protocol: 'gql',
        type: 'NESTED_LIST_LOSSY',
        level: 'warning',
        message: 'Nested list type [[Int!]]! collapsed to an unknown value.',
        location: 'Grid:cells',
        line: 2,
        column: 10,
      },
      expect.objectContaining({
        type: 'NESTED_LIST_LOSSY',
        level: 'warning',
        location: 'Query:matrix:return',
        line: 5,
        column: 33,
      }),
    ])
    const grid = objectOf(model.components.schemas, 'Grid')
    expect(grid.properties.cells).toEqual({ kind: 'unknown', nullable: false })
    expect(grid.required).toEqual(['cells'])
    expect(model.operations.find((op) => op.fieldName === 'matrix')!.returnType).toEqual({
      kind: 'unknown',
      nullable: true,
    })
  })

  it('DROPPED_DIRECTIVE: custom directive definitions and every applied custom directive, built-ins excepted', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'directive @auth(role: String) on OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | ENUM_VALUE | SCHEMA',
        'schema @auth { query: Query }',
        'type User @auth { id: ID! @auth name: String @deprecated }',
        'enum Role { ADMIN @auth USER @deprecated }',
        'scalar Url @specifiedBy(url: "https://url.spec.whatwg.org")',
        'input In @oneOf { a: Int b: String }',
        'type Query @auth { me(token: String @auth): User @auth role: Role url: Url in(x: In): Int }',
      ),
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: '@auth' },
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: 'schema' },
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: 'User' },
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: 'User:id' },
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: 'Role:ADMIN' },
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: 'Query' },
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: 'Query:me' },
      { type: 'DROPPED_DIRECTIVE', level: 'warning', location: 'Query:me:args:token' },
    ])
    expect(parseIssues[0]).toMatchObject({
      protocol: 'gql',
      message: "Custom directive '@auth' is not represented in generated output.",
      line: 1,
      column: 1,
    })
    expect(parseIssues[3]).toMatchObject({
      message: "Applied directive '@auth' is not represented in generated output.",
      line: 3,
      column: 27,
    })
    expect(Object.keys(objectOf(model.components.schemas, 'User').properties)).toEqual([
      'id',
      'name',
    ])
    expect(fieldNames(model.operations)).toEqual(['me', 'role', 'url', 'in'])
  })

  it('DROPPED_DIRECTIVE: an applied directive nobody defined is dropped, not the type it is on', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl('type User @key(fields: "id") { id: ID! }', 'type Query { me: User }'),
    )
    expect(parseIssues).toEqual([
      expect.objectContaining({
        protocol: 'gql',
        type: 'DROPPED_DIRECTIVE',
        level: 'warning',
        location: 'User',
        line: 1,
        column: 11,
      }),
    ])
    expect(model.components.schemas.User).toBeDefined()
  })

  it('UNKNOWN_TYPE_KIND: a type used where its kind cannot stand falls back to unknown; the field is kept', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl(
        'input Filter { name: String }',
        'type User { id: ID! filter: Filter! }',
        'input Search { owner: User }',
        'type Query { find(who: User, s: Search): [User] }',
      ),
    )
    expect(parseIssues).toEqual([
      {
        protocol: 'gql',
        type: 'UNKNOWN_TYPE_KIND',
        level: 'error',
        message:
          "Type 'Filter' is an input object type, which cannot be used as an output type; fell back to unknown.",
        cause: 'Filter cannot be an output type',
        location: 'User:filter',
        line: 2,
        column: 29,
      },
      expect.objectContaining({
        type: 'UNKNOWN_TYPE_KIND',
        level: 'error',
        location: 'Search:owner',
        line: 3,
        column: 23,
      }),
      expect.objectContaining({
        type: 'UNKNOWN_TYPE_KIND',
        level: 'error',
        location: 'Query:find:args:who',
        line: 4,
        column: 24,
      }),
    ])
    const user = objectOf(model.components.schemas, 'User')
    expect(user.properties.filter).toEqual({ kind: 'unknown', nullable: false })
    expect(objectOf(model.components.schemas, 'Search').properties.owner).toEqual({
      kind: 'unknown',
      nullable: true,
    })
    const find = model.operations[0]!
    expect(find.arguments[0]!.schema).toEqual({ kind: 'unknown', nullable: true })
    expect(find.arguments[1]!.schema).toEqual(ref('Search', true))
  })

  it('never emits SKIPPED_FEATURE, and every issue is a gql issue', async () => {
    const { parseIssues } = await parseSdl(
      sdl(
        'directive @x on FIELD_DEFINITION',
        'type A { f(a: Int): [[Int]] @x g: Missing h: In }',
        'input In { a: Int }',
        'type Query { a: A }',
      ),
    )
    expect(parseIssues.length).toBeGreaterThan(0)
    expect(parseIssues.every((issue) => issue.protocol === 'gql')).toBe(true)
    expect(parseIssues.some((issue) => issue.type === 'SKIPPED_FEATURE')).toBe(false)
  })
})

describe('parseGraphql: documents', () => {
  it('throws DocumentError invalid_syntax with the line and column of a syntax error', async () => {
    const error = await parseSdl(sdl('type Query {', '  a: [Int', '}')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DocumentError)
    expect(error).toMatchObject({ code: 'invalid_syntax', line: 3, column: 1 })
    expect((error as Error).message).toBe(
      'Invalid GraphQL SDL at line 3, column 1: Expected "]", found "}".',
    )
  })

  it('reads SDL without a query root as a set of types, with no issues', async () => {
    const { model, parseIssues, source } = await parseSdl(sdl('# just a scalar', 'scalar Date'))
    expect(source).toEqual({ protocol: 'gql', format: 'graphql', version: 'sdl' })
    expect(parseIssues).toEqual([])
    expect(model.operations).toEqual([])
    expect(Object.keys(model.components.schemas)).toEqual(['Date'])
  })

  it('throws empty_document for SDL that holds only comments and whitespace', async () => {
    for (const text of ['', ' \n', '# nothing here\n,']) {
      await expect(parseApi({ text }, { protocol: 'gql' })).rejects.toMatchObject({
        code: 'empty_document',
      })
    }
  })

  it('an argument of a missing type with a default: its field is dropped, nothing throws', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl('type Query { a(x: Missing = 1): Int b: Int }'),
    )
    expect(brief(parseIssues)).toEqual([
      { type: 'INVALID_DEPENDENCY_REF', level: 'error', location: 'Query:a:args:x' },
    ])
    expect(fieldNames(model.operations)).toEqual(['b'])
  })

  it('survives an input default that refers to its own type (graphql-js recurses on it)', async () => {
    const { model, parseIssues } = await parseSdl(
      sdl('input In { a: Int next: In = { a: 1 } }', 'type Query { f(x: In): Int }'),
    )
    expect(parseIssues).toEqual([])
    expect(objectOf(model.components.schemas, 'In').properties.next).toEqual({
      ...ref('In', true),
      default: { a: 1 },
    })
  })
})

describe('parseGraphql: the GitHub schema', () => {
  it('parses @octokit/graphql-schema, which defines EnterpriseOwnerInfo.repositoryDeployKeySetting twice', async () => {
    const text = readFileSync(
      new URL('../../../../node_modules/@octokit/graphql-schema/schema.graphql', import.meta.url),
      'utf8',
    )
    const { model, parseIssues } = await parseSdl(text)

    const counts: Record<string, number> = {}
    for (const { type, level } of parseIssues)
      counts[`${type}/${level}`] = (counts[`${type}/${level}`] ?? 0) + 1
    // Checked against graphql-js's own AST of schema.graphql (15.26.1), independently of the parser:
    // - 428 object/interface fields outside Query and Mutation take arguments; 27 of them are in
    //   EnterpriseOwnerInfo, which is dropped, leaving 401 in fieldArguments;
    // - the only applied directive is @deprecated (152 times) and the only directive definition is
    //   @requiredCapabilities, so one DROPPED_DIRECTIVE;
    // - no type is named twice and no list is nested; EnterpriseOwnerInfo (duplicate fields) is the
    //   one invalid definition, and Enterprise.ownerInfo its only consumer.
    expect(counts).toEqual({
      'INVALID_TYPE_DEFINITION/error': 1,
      'INVALID_DEPENDENCY_REF/error': 1,
      'DROPPED_DIRECTIVE/warning': 1,
    })
    const withArguments = Object.values(model.fieldArguments).flatMap((fields) =>
      Object.keys(fields),
    )
    expect(withArguments).toHaveLength(401)
    expect(parseIssues.filter((issue) => issue.level === 'error')).toEqual([
      expect.objectContaining({
        type: 'INVALID_TYPE_DEFINITION',
        location: 'EnterpriseOwnerInfo',
        message:
          'Field "EnterpriseOwnerInfo.repositoryDeployKeySetting" can only be defined once; dropped EnterpriseOwnerInfo.',
        line: 15153,
        column: 3,
      }),
      expect.objectContaining({
        type: 'INVALID_DEPENDENCY_REF',
        location: 'Enterprise:ownerInfo',
        line: 13068,
        column: 14,
      }),
    ])
    expect(model.components.schemas.EnterpriseOwnerInfo).toBeUndefined()
    expect(objectOf(model.components.schemas, 'Enterprise').properties.ownerInfo).toBeUndefined()
    // 31 Query and 247 Mutation fields; 1,623 named types less the two roots and the dropped one,
    // plus 45 interface unions, plus Query, which `relay: Query!` and `implements Node` point at.
    expect(model.operations.filter((op) => op.rootKind === 'query')).toHaveLength(31)
    expect(model.operations.filter((op) => op.rootKind === 'mutation')).toHaveLength(247)
    expect(Object.keys(model.components.schemas)).toHaveLength(1666)
    const dangling = [...refNames(model.components.schemas), ...refNames(model.operations)].filter(
      (name) => !Object.hasOwn(model.components.schemas, name),
    )
    expect(dangling).toEqual([])
  })
})
