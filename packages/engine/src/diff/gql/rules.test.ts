import { describe, expect, it } from 'vitest'
import type { ChangeLevel } from '../changelog.js'
import { diffGraphql } from './diff-graphql.js'
import { GQL_RULES, type GqlRuleId } from './rules.js'

/** Every document has a query root, so that each pair is a schema on its own. */
const doc = (sdl: string) => `type Query { ok: Int } ${sdl}`

type Pair = readonly [level: ChangeLevel, location: string, before: string, after: string]

/** The reverse of a pair, with the level of the rule it fires instead. */
const swap = ([, location, before, after]: Pair, level: ChangeLevel): Pair => [
  level,
  location,
  after,
  before,
]

const TYPE_ADDED: Pair = ['info', 'User', doc(''), doc('type User { id: ID }')]
const UNION: Pair = [
  'warning',
  'Actor',
  doc('union Actor = User type User { id: ID } type Bot { id: ID }'),
  doc('union Actor = User | Bot type User { id: ID } type Bot { id: ID }'),
]
const INTERFACE: Pair = [
  'warning',
  'User',
  doc('interface Node { id: ID } type User { id: ID }'),
  doc('interface Node { id: ID } type User implements Node { id: ID }'),
]
const FIELD: Pair = [
  'info',
  'User.email',
  doc('type User { id: ID }'),
  doc('type User { id: ID email: String }'),
]
const ONE_OF: Pair = [
  'breaking',
  'PetBy',
  doc('input PetBy { id: ID name: String } type Mutation { adopt(by: PetBy): Int }'),
  doc('input PetBy @oneOf { id: ID name: String } type Mutation { adopt(by: PetBy): Int }'),
]
const deprecation = (sdl: (directive: string) => string, location: string) =>
  [
    ['info', location, doc(sdl('')), doc(sdl('@deprecated(reason: "Use emails")'))],
    ['info', location, doc(sdl('@deprecated(reason: "Use emails")')), doc(sdl(''))],
    ['info', location, doc(sdl('@deprecated')), doc(sdl('@deprecated(reason: "Use emails")'))],
  ] as const satisfies Pair[]
const [FIELD_DEPRECATED, FIELD_UNDEPRECATED, FIELD_REASON] = deprecation(
  (d) => `type User { email: String ${d} }`,
  'User.email',
)
const [INPUT_DEPRECATED, INPUT_UNDEPRECATED, INPUT_REASON] = deprecation(
  (d) => `input UserInput { email: String ${d} }`,
  'UserInput.email',
)
const [ARG_DEPRECATED, ARG_UNDEPRECATED, ARG_REASON] = deprecation(
  (d) => `type User { posts(first: Int ${d}): Int }`,
  'User.posts(first:)',
)
const [VALUE_DEPRECATED, VALUE_UNDEPRECATED, VALUE_REASON] = deprecation(
  (d) => `enum Role { USER ADMIN ${d} }`,
  'Role.ADMIN',
)
const ENUM_VALUE: Pair = [
  'warning',
  'Role.ADMIN',
  doc('enum Role { USER }'),
  doc('enum Role { USER ADMIN }'),
]
const DIRECTIVE: Pair = ['info', '@auth', doc(''), doc('directive @auth on FIELD_DEFINITION')]
const LOCATION: Pair = [
  'info',
  '@auth',
  doc('directive @auth on FIELD_DEFINITION'),
  doc('directive @auth on FIELD_DEFINITION | OBJECT'),
]
const REPEATABLE: Pair = [
  'info',
  '@tag',
  doc('directive @tag on OBJECT'),
  doc('directive @tag repeatable on OBJECT'),
]
const OPTIONAL_INPUT_FIELD: Pair = [
  'info',
  'UserInput.name',
  doc('input UserInput { id: ID }'),
  doc('input UserInput { id: ID name: String! = "anonymous" }'),
]
const OPTIONAL_ARGUMENT: Pair = [
  'info',
  'Query.user(id:)',
  'type Query { user: Int }',
  'type Query { user(id: ID): Int }',
]
const OPTIONAL_DIRECTIVE_ARGUMENT: Pair = [
  'info',
  '@auth(role:)',
  doc('directive @auth on OBJECT'),
  doc('directive @auth(role: String) on OBJECT'),
]

const SPECIFIED_BY: Pair = [
  'info',
  'URL',
  doc('scalar URL'),
  doc('scalar URL @specifiedBy(url: "https://url.spec.whatwg.org")'),
]
const TAG = `directive @tag(name: String) repeatable
  on OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE`
/** A custom directive applied, taken off, and given another argument, where `sdl` puts it. */
const applied = (sdl: (directive: string) => string, location: string) => {
  const withIt = (directive: string) => doc(`${TAG} ${sdl(directive)}`)
  return [
    ['warning', location, withIt(''), withIt('@tag(name: "beta")')],
    ['warning', location, withIt('@tag(name: "beta")'), withIt('')],
    ['warning', location, withIt('@tag(name: "beta")'), withIt('@tag(name: "stable")')],
  ] as const satisfies Pair[]
}
const [TYPE_TAGGED, TYPE_UNTAGGED, TYPE_RETAGGED] = applied(
  (d) => `type User ${d} { id: ID }`,
  'User',
)
const [FIELD_TAGGED, FIELD_UNTAGGED, FIELD_RETAGGED] = applied(
  (d) => `type User { id: ID ${d} }`,
  'User.id',
)
const [ARG_TAGGED, ARG_UNTAGGED, ARG_RETAGGED] = applied(
  (d) => `type User { posts(first: Int ${d}): Int }`,
  'User.posts(first:)',
)
const [INPUT_TAGGED, INPUT_UNTAGGED, INPUT_RETAGGED] = applied(
  (d) => `input UserInput { email: String ${d} }`,
  'UserInput.email',
)
const [VALUE_TAGGED, VALUE_UNTAGGED, VALUE_RETAGGED] = applied(
  (d) => `enum Role { USER ADMIN ${d} }`,
  'Role.ADMIN',
)
/** A description added where `d` puts it in front of a definition. */
const described = (sdl: (description: string) => string, location: string): Pair => [
  'info',
  location,
  doc(sdl('')),
  doc(sdl('"What it is."')),
]

/** For every rule, a pair of documents that fires it, with its level and location. */
const PAIRS: Record<GqlRuleId, Pair> = {
  'type-added': TYPE_ADDED,
  'type-removed': swap(TYPE_ADDED, 'breaking'),
  'type-kind-changed': [
    'breaking',
    'Node',
    doc('interface Node { id: ID }'),
    doc('type Node { id: ID }'),
  ],
  'root-type-added': [
    'info',
    'schema.mutation',
    'type Query { ok: Int }',
    'type Query { ok: Int } type Mutation { ok: Int }',
  ],
  'root-type-changed': [
    'breaking',
    'schema.query',
    'schema { query: Q } type Q { ok: Int } type Query2 { ok: Int }',
    'schema { query: Query2 } type Q { ok: Int } type Query2 { ok: Int }',
  ],
  'union-member-added': UNION,
  'union-member-removed': swap(UNION, 'breaking'),
  'object-interface-added': INTERFACE,
  'object-interface-removed': swap(INTERFACE, 'breaking'),
  'scalar-specified-by-changed': [
    'warning',
    'URL',
    doc('scalar URL @specifiedBy(url: "https://www.ietf.org/rfc/rfc3986.txt")'),
    doc('scalar URL @specifiedBy(url: "https://url.spec.whatwg.org")'),
  ],
  'input-one-of-added': ONE_OF,
  'input-one-of-removed': swap(ONE_OF, 'info'),
  'field-added': FIELD,
  'field-removed': swap(FIELD, 'breaking'),
  'field-type-changed': [
    'breaking',
    'User.email',
    doc('type User { email: String! }'),
    doc('type User { email: String }'),
  ],
  'field-type-narrowed': [
    'info',
    'User.email',
    doc('type User { email: [String] }'),
    doc('type User { email: [String!]! }'),
  ],
  'field-deprecated': FIELD_DEPRECATED,
  'field-deprecation-removed': FIELD_UNDEPRECATED,
  'field-deprecation-reason-changed': FIELD_REASON,
  'required-input-field-added': [
    'breaking',
    'UserInput.name',
    doc('input UserInput { id: ID }'),
    doc('input UserInput { id: ID name: String! }'),
  ],
  'optional-input-field-added': OPTIONAL_INPUT_FIELD,
  'input-field-removed': swap(OPTIONAL_INPUT_FIELD, 'breaking'),
  'input-field-type-changed': [
    'breaking',
    'UserInput.name',
    doc('input UserInput { name: String }'),
    doc('input UserInput { name: String! }'),
  ],
  'input-field-type-widened': [
    'info',
    'UserInput.name',
    doc('input UserInput { name: String! }'),
    doc('input UserInput { name: String }'),
  ],
  'input-field-default-changed': [
    'warning',
    'Page.size',
    doc('input Page { size: Int = 10 }'),
    doc('input Page { size: Int = 20 }'),
  ],
  'input-field-deprecated': INPUT_DEPRECATED,
  'input-field-deprecation-removed': INPUT_UNDEPRECATED,
  'input-field-deprecation-reason-changed': INPUT_REASON,
  'required-argument-added': [
    'breaking',
    'Query.user(id:)',
    'type Query { user: Int }',
    'type Query { user(id: ID!): Int }',
  ],
  'optional-argument-added': OPTIONAL_ARGUMENT,
  'argument-removed': swap(OPTIONAL_ARGUMENT, 'breaking'),
  'argument-type-changed': [
    'breaking',
    'Query.user(id:)',
    'type Query { user(id: ID): Int }',
    'type Query { user(id: ID!): Int }',
  ],
  'argument-type-widened': [
    'info',
    'Query.users(ids:)',
    'type Query { users(ids: [ID!]!): Int }',
    'type Query { users(ids: [ID]): Int }',
  ],
  'argument-default-changed': [
    'warning',
    'Query.users(first:)',
    'type Query { users(first: Int = 10): Int }',
    'type Query { users(first: Int): Int }',
  ],
  'argument-deprecated': ARG_DEPRECATED,
  'argument-deprecation-removed': ARG_UNDEPRECATED,
  'argument-deprecation-reason-changed': ARG_REASON,
  'enum-value-added': ENUM_VALUE,
  'enum-value-removed': swap(ENUM_VALUE, 'breaking'),
  'enum-value-deprecated': VALUE_DEPRECATED,
  'enum-value-deprecation-removed': VALUE_UNDEPRECATED,
  'enum-value-deprecation-reason-changed': VALUE_REASON,
  'directive-added': DIRECTIVE,
  'directive-removed': swap(DIRECTIVE, 'breaking'),
  'directive-location-added': LOCATION,
  'directive-location-removed': swap(LOCATION, 'breaking'),
  'directive-repeatable-added': REPEATABLE,
  'directive-repeatable-removed': swap(REPEATABLE, 'breaking'),
  'directive-required-argument-added': [
    'breaking',
    '@auth(role:)',
    doc('directive @auth on OBJECT'),
    doc('directive @auth(role: String!) on OBJECT'),
  ],
  'directive-optional-argument-added': OPTIONAL_DIRECTIVE_ARGUMENT,
  'directive-argument-removed': swap(OPTIONAL_DIRECTIVE_ARGUMENT, 'breaking'),
  'directive-argument-type-changed': [
    'breaking',
    '@auth(role:)',
    doc('directive @auth(role: String) on OBJECT'),
    doc('directive @auth(role: Int) on OBJECT'),
  ],
  'directive-argument-type-widened': [
    'info',
    '@auth(role:)',
    doc('directive @auth(role: String!) on OBJECT'),
    doc('directive @auth(role: String) on OBJECT'),
  ],
  'directive-argument-default-changed': [
    'warning',
    '@auth(role:)',
    doc('directive @auth(role: String = "user") on OBJECT'),
    doc('directive @auth(role: String = "admin") on OBJECT'),
  ],
  'scalar-specified-by-added': SPECIFIED_BY,
  'scalar-specified-by-removed': swap(SPECIFIED_BY, 'info'),
  'type-directive-added': TYPE_TAGGED,
  'type-directive-removed': TYPE_UNTAGGED,
  'type-directive-changed': TYPE_RETAGGED,
  'field-directive-added': FIELD_TAGGED,
  'field-directive-removed': FIELD_UNTAGGED,
  'field-directive-changed': FIELD_RETAGGED,
  'argument-directive-added': ARG_TAGGED,
  'argument-directive-removed': ARG_UNTAGGED,
  'argument-directive-changed': ARG_RETAGGED,
  'input-field-directive-added': INPUT_TAGGED,
  'input-field-directive-removed': INPUT_UNTAGGED,
  'input-field-directive-changed': INPUT_RETAGGED,
  'enum-value-directive-added': VALUE_TAGGED,
  'enum-value-directive-removed': VALUE_UNTAGGED,
  'enum-value-directive-changed': VALUE_RETAGGED,
  'schema-definition-description-changed': described(
    (d) => `${d} schema { query: Query }`,
    'schema',
  ),
  'type-description-changed': described((d) => `${d} type User { id: ID }`, 'User'),
  'field-description-changed': described((d) => `type User { ${d} id: ID }`, 'User.id'),
  'argument-description-changed': described(
    (d) => `type User { posts(${d} first: Int): Int }`,
    'User.posts(first:)',
  ),
  'input-field-description-changed': described(
    (d) => `input UserInput { ${d} email: String }`,
    'UserInput.email',
  ),
  'enum-value-description-changed': described((d) => `enum Role { USER ${d} ADMIN }`, 'Role.ADMIN'),
  'directive-description-changed': described((d) => `${d} directive @auth on OBJECT`, '@auth'),
  'directive-argument-description-changed': described(
    (d) => `directive @auth(${d} role: String) on OBJECT`,
    '@auth(role:)',
  ),
}

describe('GQL_RULES', () => {
  it('has a pair of documents for every rule', () => {
    expect(Object.keys(PAIRS).sort()).toEqual(Object.keys(GQL_RULES).sort())
    expect(Object.keys(GQL_RULES).length).toBeGreaterThanOrEqual(35)
  })

  it.each(Object.entries(PAIRS))('%s fires on its pair', (id, [level, location, before, after]) => {
    const { changes, summary } = diffGraphql(before, after)
    expect(changes).toContainEqual(expect.objectContaining({ id, level, location }))
    expect(summary.diff).toBe(true)
    // The section the catalogue names for the rule is among the counted ones.
    expect(summary.details).toHaveProperty(GQL_RULES[id as GqlRuleId].section)
  })
})
