import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GQL_ISSUES, ISSUE_CATALOGUE, OAS_ISSUES, RESERVED_ISSUE_TYPES } from './catalogue.js'

const docs = readFileSync(new URL('../../../../docs/parse-issues.md', import.meta.url), 'utf8')

describe('the parse-issue catalogue', () => {
  it('fixes each level as SPEC §7.4 and §7.5 do', () => {
    const levels = Object.fromEntries(
      ISSUE_CATALOGUE.map((kind) => [`${kind.protocol}:${kind.type}:${kind.level}`, true]),
    )
    expect(Object.keys(levels).sort()).toEqual(
      [
        'oas:INVALID_SCHEMA:error',
        'oas:INVALID_SCHEMA:warning',
        'oas:INVALID_DEPENDENCY_REF:error',
        'oas:MISSING_OBJECT_TYPE:debug',
        'oas:MISSING_ARRAY_TYPE:warning',
        'oas:MISSING_BOOLEAN_TYPE:warning',
        'oas:MISSING_STRING_TYPE:warning',
        'oas:UNEXPECTED_PROPERTY:warning',
        'oas:INVALID_OPERATION:error',
        'oas:INVALID_PARAMETER:error',
        'oas:INVALID_RESPONSE:error',
        'oas:INVALID_SECURITY_SCHEME:error',
        'oas:INVALID_EXAMPLE:warning',
        'oas:INVALID_DEFAULT:warning',
        'oas:INVALID_FORMAT:debug',
        'oas:INVALID_NULLABLE:warning',
        'oas:EXAMPLE_AND_EXAMPLES_DEFINED:warning',
        'oas:INVALID_ENUM:warning',
        'oas:MISSING_RESPONSES:warning',
        'gql:INVALID_TYPE_DEFINITION:error',
        'gql:INVALID_DEPENDENCY_REF:error',
        'gql:NESTED_LIST_LOSSY:warning',
        'gql:DROPPED_DIRECTIVE:warning',
        'gql:UNKNOWN_TYPE_KIND:error',
      ].sort(),
    )
  })

  it('declares the reserved types and never gives them an emitting kind', () => {
    const emitted = new Set(ISSUE_CATALOGUE.map((kind) => kind.type))
    for (const reserved of RESERVED_ISSUE_TYPES) expect(emitted.has(reserved.type)).toBe(false)
    expect(RESERVED_ISSUE_TYPES.map((r) => r.type)).toEqual([
      'UNEXPECTED_FORMAT',
      'SKIPPED_FEATURE',
      'SKIPPED_FIELD_ARGUMENTS',
    ])
  })

  it('is documented row by row in docs/parse-issues.md', () => {
    for (const kind of [
      ...Object.values(OAS_ISSUES),
      ...Object.values(GQL_ISSUES),
      ...RESERVED_ISSUE_TYPES,
    ]) {
      const level = 'level' in kind ? kind.level : 'reserved'
      expect(docs).toMatch(new RegExp(`\\|\\s*\`${kind.type}\`\\s*\\|\\s*${level}\\s*\\|`))
    }
  })
})
