import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseApi, type ParseApiResult } from '@svc/engine'
import { generate, type GenerateSettings } from '@svc/engine/generate'
import { buildSchema, graphql, parse, validate } from 'graphql'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { typecheck } from '../../test-support/generated-code.js'
import { generators } from './index.js'
import { GITHUB_GRAPHQL } from './test-support.js'

const ID = '@svc/gen-graphql-client'

/** Object, interface, union, enum, input, lists, non-null, recursion and a custom scalar. */
const SDL = `
"An instant, as the server writes it."
scalar DateTime

enum Role {
  ADMIN
  MEMBER
}

interface Node {
  id: ID!
}

type User implements Node {
  id: ID!
  login: String!
  name: String
  role: Role!
  createdAt: DateTime
  avatarUrl(size: Int): String
  bestFriend: User
  friends: [User!]!
  posts(first: Int!): [Post!]!
  nickname: String @deprecated(reason: "Use name.")
}

type Post implements Node {
  id: ID!
  title: String!
  tags: [String!]
  author: User!
  role: String
}

union SearchResult = User | Post

input PostInput {
  title: String!
  tags: [String!]
  draft: Boolean = false
  author: AuthorInput
}

input AuthorInput {
  login: String!
  role: Role = MEMBER
  mentor: AuthorInput
}

type Query {
  "The user with this id."
  user(id: ID!): User
  node(id: ID!): Node
  search(text: String!, limit: Int! = 10, roles: [Role!]): [SearchResult!]!
}

type Mutation {
  createPost(input: PostInput!, notify: Boolean): Post!
}

type Subscription {
  postCreated: Post!
}
`

function run(parsed: ParseApiResult, settings?: GenerateSettings) {
  const { files, manifest } = generate({
    parsed,
    generators,
    ...(settings === undefined ? {} : { settings }),
  })
  return { files, manifest, code: files.get('graphql-client.ts') ?? '' }
}

/** The small schema above, parsed and generated with these settings. */
async function runSdl(settings?: GenerateSettings) {
  return run(await parseApi({ text: SDL }), settings)
}

function enrich(enrichments: Record<string, unknown>): GenerateSettings {
  return { enrichments: { [ID]: enrichments } }
}

const folders: string[] = []
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

/** Transpiles generated TypeScript to a module in a temporary folder and imports it. */
async function load(code: string): Promise<Record<string, unknown>> {
  const folder = mkdtempSync(join(tmpdir(), 'svc-graphql-client-'))
  folders.push(folder)
  const { outputText } = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  })
  const file = join(folder, 'graphql-client.mjs')
  writeFileSync(file, outputText)
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>
}

type Document = { query: string; operationName: string }
type Operation = (variables: unknown, options: unknown) => Promise<unknown>

describe('@svc/gen-graphql-client', () => {
  it('writes a typed document and a function for a query of a small schema', async () => {
    const { code, manifest } = await runSdl()
    expect(manifest.results[ID]).toEqual({
      'query user': { status: 'success' },
      'query node': { status: 'success' },
      'query search': { status: 'success' },
      'mutation createPost': { status: 'success' },
      'subscription postCreated': { status: 'success' },
    })
    // Depth 2: `posts` needs an argument and `nickname` is deprecated; recursion stops at depth.
    expect(code).toContain(
      [
        'export type Role = "ADMIN" | "MEMBER"',
        '',
        'export type QueryUserVariables = {',
        '  id: string',
        '}',
        '',
        'export type QueryUserResult = {',
        '  user: {',
        '    id: string',
        '    login: string',
        '    name: string | null',
        '    role: Role',
        '    createdAt: unknown',
        '    avatarUrl: string | null',
        '    bestFriend: {',
        '      id: string',
        '      login: string',
        '      name: string | null',
        '      role: Role',
        '      createdAt: unknown',
        '      avatarUrl: string | null',
        '    } | null',
        '    friends: Array<{',
        '      id: string',
        '      login: string',
        '      name: string | null',
        '      role: Role',
        '      createdAt: unknown',
        '      avatarUrl: string | null',
        '    }>',
        '  } | null',
        '}',
        '',
        'export const queryUserDocument: GraphqlDocument<QueryUserResult, QueryUserVariables> = {',
        '  operationName: "QueryUser",',
        '  query: `query QueryUser($id: ID!) {',
        '  user(id: $id) {',
        '    id',
        '    login',
        '    name',
        '    role',
        '    createdAt',
        '    avatarUrl',
        '    bestFriend {',
        '      id',
        '      login',
        '      name',
        '      role',
        '      createdAt',
        '      avatarUrl',
        '    }',
        '    friends {',
        '      id',
        '      login',
        '      name',
        '      role',
        '      createdAt',
        '      avatarUrl',
        '    }',
        '  }',
        '}`,',
        '}',
        '',
        '/** The user with this id. */',
        'export async function queryUser(',
        '  variables: QueryUserVariables,',
        '  options: GraphqlClientOptions,',
        '): Promise<QueryUserResult> {',
        '  return request(queryUserDocument, variables, options)',
        '}',
      ].join('\n'),
    )
    expect(typecheck(new Map([['graphql-client.ts', code]]))).toEqual([])
  })

  it('gives result types that reject a wrong use', async () => {
    const { code } = await runSdl()
    const usage = `import type { QueryUserResult } from './graphql-client.ts'
declare const result: QueryUserResult
export const login: number = result.user!.login
`
    expect(
      typecheck(
        new Map([
          ['graphql-client.ts', code],
          ['usage.ts', usage],
        ]),
      ),
    ).toEqual(["usage.ts(3,14): error TS2322: Type 'string' is not assignable to type 'number'."])
  })

  it('types a union by __typename and leaves out a field that would take two shapes', async () => {
    const { code } = await runSdl()
    expect(code).toContain(
      [
        'export type QuerySearchVariables = {',
        '  text: string',
        '  limit?: number',
        '  roles?: Array<Role> | null',
        '}',
        '',
        'export type QuerySearchResult = {',
        '  search: Array<{',
        '    __typename: "User"',
        '    id: string',
        '    login: string',
        '    name: string | null',
        '    role: Role',
        '    createdAt: unknown',
        '    avatarUrl: string | null',
        '  } | {',
        '    __typename: "Post"',
        '    id: string',
        '    title: string',
        '    tags: Array<string> | null',
        '  }>',
        '}',
        '',
        'export const querySearchDocument: GraphqlDocument<QuerySearchResult, QuerySearchVariables> = {',
        '  operationName: "QuerySearch",',
        '  query: `query QuerySearch($text: String!, $limit: Int! = 10, $roles: [Role!]) {',
        '  search(text: $text, limit: $limit, roles: $roles) {',
        '    __typename',
        '    ... on User {',
        '      id',
        '      login',
        '      name',
        '      role',
        '      createdAt',
        '      avatarUrl',
        '    }',
        '    ... on Post {',
        '      id',
        '      title',
        '      tags',
        '    }',
        '  }',
        '}`,',
        '}',
      ].join('\n'),
    )
    // An interface selects its own fields once, and each implementation's others.
    expect(code).toContain(
      [
        '  query: `query QueryNode($id: ID!) {',
        '  node(id: $id) {',
        '    __typename',
        '    id',
        '    ... on User {',
      ].join('\n'),
    )
  })

  it('writes a mutation with its input types, recursive ones included', async () => {
    const { code } = await runSdl()
    expect(code).toContain(
      [
        'export type PostInput = {',
        '  title: string',
        '  tags?: Array<string> | null',
        '  draft?: boolean | null',
        '  author?: AuthorInput | null',
        '}',
        '',
        'export type AuthorInput = {',
        '  login: string',
        '  role?: Role | null',
        '  mentor?: AuthorInput | null',
        '}',
        '',
        'export type MutationCreatePostVariables = {',
        '  input: PostInput',
        '  notify?: boolean | null',
        '}',
        '',
        'export type MutationCreatePostResult = {',
        '  createPost: {',
        '    id: string',
        '    title: string',
        '    tags: Array<string> | null',
        '    author: {',
        '      id: string',
        '      login: string',
        '      name: string | null',
        '      role: Role',
        '      createdAt: unknown',
        '      avatarUrl: string | null',
        '    }',
        '    role: string | null',
        '  }',
        '}',
        '',
        'export const mutationCreatePostDocument: GraphqlDocument<MutationCreatePostResult, MutationCreatePostVariables> = {',
        '  operationName: "MutationCreatePost",',
        '  query: `mutation MutationCreatePost($input: PostInput!, $notify: Boolean) {',
        '  createPost(input: $input, notify: $notify) {',
        '    id',
        '    title',
        '    tags',
        '    author {',
        '      id',
        '      login',
        '      name',
        '      role',
        '      createdAt',
        '      avatarUrl',
        '    }',
        '    role',
        '  }',
        '}`,',
        '}',
        '',
        'export async function mutationCreatePost(',
        '  variables: MutationCreatePostVariables,',
        '  options: GraphqlClientOptions,',
        '): Promise<MutationCreatePostResult> {',
        '  return request(mutationCreatePostDocument, variables, options)',
        '}',
      ].join('\n'),
    )
  })

  it('writes the same bytes for the same schema', async () => {
    const first = (await runSdl()).code
    expect((await runSdl()).code).toBe(first)
  })

  describe('at run time, against a GraphQL server', () => {
    let server: Server
    let url: string
    const received: { body: unknown; headers: IncomingHttpHeaders }[] = []
    const users: Record<string, unknown> = {
      '1': {
        __typename: 'User',
        id: '1',
        login: 'octocat',
        name: null,
        role: 'ADMIN',
        createdAt: '2011-01-25T18:44:36Z',
        avatarUrl: ({ size }: { size?: number }) => `https://example.test/octocat?s=${size ?? 0}`,
        bestFriend: null,
        friends: [],
      },
    }
    const rootValue = {
      user: ({ id }: { id: string }) => {
        if (!Object.hasOwn(users, id)) throw new Error(`No user ${id}`)
        return users[id]
      },
      createPost: ({ input }: { input: { title: string; tags?: string[] } }) => ({
        __typename: 'Post',
        id: 'p1',
        title: input.title,
        tags: input.tags ?? null,
        author: users['1'],
        role: null,
      }),
    }
    const schema = buildSchema(SDL)

    beforeAll(async () => {
      server = createServer((request, response) => {
        let text = ''
        request.setEncoding('utf8')
        request.on('data', (chunk: string) => (text += chunk))
        request.on('end', () => {
          const body = JSON.parse(text) as {
            query: string
            variables: Record<string, unknown>
            operationName: string
          }
          received.push({ body, headers: request.headers })
          void graphql({
            schema,
            source: body.query,
            variableValues: body.variables,
            operationName: body.operationName,
            rootValue,
          }).then((result) => {
            response.writeHead(200, { 'content-type': 'application/json' })
            response.end(JSON.stringify(result))
          })
        })
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`
    })
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    it('sends a query with its variables and returns data', async () => {
      const client = await load((await runSdl()).code)
      const queryUser = client.queryUser as Operation
      const data = await queryUser({ id: '1' }, { url, headers: { authorization: 'bearer t' } })
      expect(data).toEqual({
        user: {
          id: '1',
          login: 'octocat',
          name: null,
          role: 'ADMIN',
          createdAt: '2011-01-25T18:44:36Z',
          avatarUrl: 'https://example.test/octocat?s=0',
          bestFriend: null,
          friends: [],
        },
      })
      const document = client.queryUserDocument as Document
      expect(received.at(-1)!.body).toEqual({
        query: document.query,
        variables: { id: '1' },
        operationName: 'QueryUser',
      })
      expect(received.at(-1)!.headers).toMatchObject({
        'content-type': 'application/json',
        authorization: 'bearer t',
      })
    })

    it('sends a mutation with an input object', async () => {
      const client = await load((await runSdl()).code)
      const mutationCreatePost = client.mutationCreatePost as Operation
      const variables = { input: { title: 'Hello', tags: ['a'], author: { login: 'octocat' } } }
      const data = await mutationCreatePost(variables, { url })
      expect(data).toMatchObject({
        createPost: { id: 'p1', title: 'Hello', tags: ['a'], author: { login: 'octocat' } },
      })
      expect(received.at(-1)!.body).toMatchObject({
        variables,
        operationName: 'MutationCreatePost',
      })
    })

    it('throws a GraphqlError with the errors of the response', async () => {
      const client = await load((await runSdl()).code)
      const queryUser = client.queryUser as Operation
      const GraphqlError = client.GraphqlError as new (...args: never[]) => Error
      const failing = queryUser({ id: '2' }, { url })
      await expect(failing).rejects.toBeInstanceOf(GraphqlError)
      await expect(failing).rejects.toMatchObject({
        name: 'GraphqlError',
        message: 'No user 2',
        status: 200,
        errors: [{ message: 'No user 2', path: ['user'] }],
        data: { user: null },
      })
    })
  })

  describe('enrichments', () => {
    it('uses a selection as written and types the result from it', async () => {
      const valid =
        '{ login handle: name ... on User @include(if: true) { role } friends { login } }'
      const { code: written } = await runSdl(
        enrich({ query: { user: { main: { selection: valid } } } }),
      )
      expect(written).toContain(
        [
          'export type QueryUserResult = {',
          '  user: {',
          '    login: string',
          '    handle: string | null',
          '    role: Role',
          '    friends: Array<{',
          '      login: string',
          '    }>',
          '  } | null',
          '}',
        ].join('\n'),
      )
      expect(written).toContain(
        `  query: \`query QueryUser($id: ID!) {\n  user(id: $id) ${valid}\n}\`,`,
      )

      const { manifest } = await runSdl(
        enrich({ query: { user: { main: { selection: valid, depth: 3 } } } }),
      )
      expect(manifest.results[ID]!['query user']).toEqual({
        status: 'warning',
        cause: "'depth' is ignored: variant 'main' sets 'selection'",
      })
    })

    it('types a field under @skip as optional and a variant as a function of its own', async () => {
      const { code, manifest } = await runSdl(
        enrich({
          query: {
            user: {
              main: { depth: 1 },
              lite: { selection: 'id name @skip(if: true)' },
            },
          },
        }),
      )
      expect(manifest.results[ID]!['query user']).toEqual({ status: 'success' })
      expect(code).toContain(
        [
          'export type QueryUserLiteResult = {',
          '  user: {',
          '    id: string',
          '    name?: string | null',
          '  } | null',
          '}',
        ].join('\n'),
      )
      expect(code).toContain(
        'query: `query QueryUserLite($id: ID!) {\n  user(id: $id) { id name @skip(if: true) }\n}`',
      )
      expect(code).toContain('export async function queryUserLite(')
      // depth 1: the root field's scalars and enums only.
      expect(code).toContain(
        'query: `query QueryUser($id: ID!) {\n  user(id: $id) {\n    id\n    login\n    name\n    role\n    createdAt\n    avatarUrl\n  }\n}`',
      )
      expect(typecheck(new Map([['graphql-client.ts', code]]))).toEqual([])
    })

    it('takes the depth of every root field from the generator settings', async () => {
      const settings = { enrichments: { [ID]: { _generator: { depth: 3 } } } }
      const { code } = await runSdl(settings)
      expect(code).toContain(
        '    bestFriend {\n      id\n      login\n      name\n      role\n      createdAt\n      avatarUrl\n      bestFriend {\n        id',
      )
      const bad = await runSdl({
        enrichments: { [ID]: { _generator: { depth: 0 } } },
      })
      expect(bad.manifest.results[ID]!['query user']).toEqual({
        status: 'error',
        cause: "The generator setting 'depth' must be an integer from 1 to 10, got 0",
      })
    })

    it('makes an item an error when its selection does not parse or names an unknown field', async () => {
      const { manifest, code } = await runSdl(
        enrich({
          query: { user: { main: { selection: '{ login( }' } } },
          mutation: { createPost: { main: { selection: '{ id titel }' } } },
        }),
      )
      expect(manifest.results[ID]).toMatchObject({
        'query user': {
          status: 'error',
          cause: `Invalid selection for query user, variant 'main': Syntax Error: Expected Name, found "}".`,
        },
        'mutation createPost': {
          status: 'error',
          cause: `Invalid selection for mutation createPost, variant 'main': Cannot query field "titel" on type "Post". Did you mean "title"?`,
        },
        'query node': { status: 'success' },
      })
      expect(code).not.toContain('createPost')
      expect(code).toContain('export async function queryNode(')
    })

    it('refuses a selection that closes the field and writes more', async () => {
      for (const selection of [
        '{ id } } query Other { node(id: "1") { id }',
        '{ id } other: node(id: "1") { id }',
      ]) {
        const { manifest } = await runSdl(enrich({ query: { user: { main: { selection } } } }))
        expect(manifest.results[ID]!['query user']).toEqual({
          status: 'error',
          cause: `Invalid selection for query user, variant 'main': The selection must be one selection set of the field`,
        })
      }
    })

    it('reports a key the enrichment schema does not declare', async () => {
      const { manifest } = await runSdl(
        enrich({ query: { user: { main: { selction: '{ id }' } } } }),
      )
      expect(manifest.enrichmentWarnings).toContainEqual(
        expect.objectContaining({
          type: 'UNKNOWN_ENRICHMENT_KEY',
          path: [ID, 'query', 'user', 'main', 'selction'],
          suggestion: 'selection',
        }),
      )
      expect(manifest.results[ID]!['query user']).toEqual({ status: 'success' })
    })
  })

  it('accepts arguments of nested fields in a selection when the model does not carry them', async () => {
    // The engine drops them today: the selection cannot be checked against them.
    const parsed = await parseApi({ text: SDL })
    const { manifest, code } = run(
      parsed,
      enrich({ query: { user: { main: { selection: '{ posts(first: 2) { title } }' } } } }),
    )
    expect(manifest.results[ID]!['query user']).toEqual({ status: 'success' })
    expect(code).toContain('    posts: Array<{\n      title: string\n    }>')
  })

  it('copes with names and types the model cannot carry as they are', async () => {
    const sdl = `
      schema {
        query: Root
      }
      enum GraphqlError {
        A
      }
      input class {
        error: GraphqlError
      }
      type Query {
        cells: [[Int]]
        size: Int
      }
      type Root {
        grid(rows: [[Int!]!]!): Int
        query(filter: class): Query
      }
    `
    const { code, manifest } = run(await parseApi({ text: sdl }))
    // A nested list is unknown to the model: a root field that takes one cannot be written.
    expect(manifest.results[ID]).toEqual({
      'query grid': { status: 'notSupported' },
      'query query': { status: 'success' },
    })
    expect(code).toContain('export type GraphqlError$ = "A"')
    expect(code).toContain('export type class$ = {\n  error?: GraphqlError$ | null\n}')
    expect(code).toContain('  query(filter: $filter) {\n    size\n  }')
    expect(typecheck(new Map([['graphql-client.ts', code]]))).toEqual([])
  })

  describe("GitHub's GraphQL schema", () => {
    const sdl = readFileSync(GITHUB_GRAPHQL, 'utf8')
    let github: ReturnType<typeof run>
    beforeAll(async () => {
      github = run(await parseApi({ text: sdl }))
    }, 120_000)

    it('gives every root field a function, in a file that passes tsc --strict', () => {
      const { code, manifest } = github
      const results = Object.values(manifest.results[ID]!)
      expect(results.length).toBeGreaterThan(250)
      expect(results.filter((result) => result.status !== 'success')).toEqual([])
      expect(code).toContain('export async function queryViewer(')
      expect(typecheck(new Map([['graphql-client.ts', code]]))).toEqual([])
    })

    it('writes documents that are valid against the schema', async () => {
      const { code, manifest } = github
      const results = Object.values(manifest.results[ID]!)
      // The schema defines two fields of EnterpriseOwnerInfo twice, which only this lets through.
      const schema = buildSchema(sdl, { assumeValidSDL: true })
      const client = await load(code)
      const documents = Object.entries(client).filter(([name]) => name.endsWith('Document'))
      expect(documents).toHaveLength(results.length)
      const invalid = documents.flatMap(([name, document]) => {
        const errors = validate(schema, parse((document as Document).query))
        return errors.length === 0 ? [] : [`${name}: ${errors.map((e) => e.message).join(' ')}`]
      })
      expect(invalid).toEqual([])
    })
  })
})
